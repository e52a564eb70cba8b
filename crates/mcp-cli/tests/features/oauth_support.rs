//! What the OAuth tests share: a "browser" program, reading the token files, and the test
//! server's record of what its authorization server received.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A "browser": GETs the URL it is given and follows the redirects, the last one to the
/// `mcp login` loopback listener. Run as a program with the URL as its one argument.
pub fn browser(dir: &Path) -> PathBuf {
    let path = dir.join("follow-url");
    std::fs::write(
        &path,
        "#!/usr/bin/env python3\nimport sys, urllib.request\nurllib.request.urlopen(sys.argv[1], timeout=30).read()\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// Every token file's content, concatenated, and the secrets found in them.
pub fn token_files(oauth_dir: &Path) -> (String, Vec<String>) {
    let mut all = String::new();
    let mut secrets = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(oauth_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap();
        for marker in ["at_", "rt_", "cs_"] {
            let mut rest = text.as_str();
            while let Some(i) = rest.find(marker) {
                let secret: String = rest[i..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if secret.len() > 20 {
                    secrets.push(secret);
                }
                rest = &rest[i + marker.len()..];
            }
        }
        all.push_str(&text);
    }
    (all, secrets)
}

#[cfg(unix)]
pub fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// The origin of a test server's URL (`http://127.0.0.1:PORT`): its issuer.
pub fn origin(url: &str) -> String {
    url.strip_suffix("/mcp").unwrap_or(url).to_owned()
}

/// The test server's `GET /oauth/test/log`: `{"registrations": N, "token_requests": [...]}`.
pub fn oauth_log(url: &str) -> Value {
    let authority = origin(url);
    let authority = authority.strip_prefix("http://").unwrap_or(&authority);
    let mut stream = std::net::TcpStream::connect(authority).expect("connect to the test server");
    stream
        .set_read_timeout(Some(crate::support::LIMIT))
        .expect("read timeout");
    write!(
        stream,
        "GET /oauth/test/log HTTP/1.1\r\nhost: {authority}\r\nconnection: close\r\n\r\n"
    )
    .expect("send the request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read the answer");
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body)
        .unwrap_or_default();
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {answer}"))
}
