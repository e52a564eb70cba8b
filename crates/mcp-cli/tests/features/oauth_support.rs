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

/// `METHOD path` to the test server of `url`, bounded; the status line and the body.
pub fn request(url: &str, method: &str, path: &str) -> (String, String) {
    let authority = origin(url);
    let authority = authority.strip_prefix("http://").unwrap_or(&authority);
    let (status, body, _) = request_to(authority, method, path);
    (status, body)
}

/// `METHOD path` to `authority` (`127.0.0.1:PORT`), bounded; the status line, the body and
/// the head.
fn request_to(authority: &str, method: &str, path: &str) -> (String, String, String) {
    let mut stream = std::net::TcpStream::connect(authority).expect("connect to the test server");
    stream
        .set_read_timeout(Some(crate::support::LIMIT))
        .expect("read timeout");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nhost: {authority}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    )
    .expect("send the request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read the answer");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.lines().next().unwrap_or_default().to_owned();
    (status, body.to_owned(), head.to_owned())
}

/// Where `url` (an absolute http URL on 127.0.0.1) redirects: a GET whose `Location` is
/// returned, not followed. What a browser would go to next.
pub fn redirect_location(url: &str) -> String {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (status, _, head) = request_to(authority, "GET", &format!("/{path}"));
    assert!(status.contains("302"), "{status}");
    head.lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("location")
                .then(|| value.trim().to_owned())
        })
        .expect("a Location header")
}

/// The test server's `GET /oauth/test/log`: `{"registrations": N, "token_requests": [...]}`.
pub fn oauth_log(url: &str) -> Value {
    let (status, body) = request(url, "GET", "/oauth/test/log");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {status} {body}"))
}

/// How many token requests of `grant_type` the test server of `url` received.
pub fn token_requests(url: &str, grant_type: &str) -> usize {
    oauth_log(url)["token_requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["grant_type"] == grant_type)
        .count()
}

/// `POST /oauth/test/forget`: the server forgets every client, code and token (a restart).
pub fn forget_everything(url: &str) {
    let (status, _) = request(url, "POST", "/oauth/test/forget");
    assert!(status.contains("204"), "{status}");
}

/// `POST /oauth/test/expire-access-tokens`: every access token expires now, so the next
/// request is refused (401) and the client refreshes.
pub fn expire_access_tokens(url: &str) {
    let (status, _) = request(url, "POST", "/oauth/test/expire-access-tokens");
    assert!(status.contains("204"), "{status}");
}

/// `POST /oauth/test/revoke-refresh-tokens`: every refresh token is refused from now on.
pub fn revoke_refresh_tokens(url: &str) {
    let (status, _) = request(url, "POST", "/oauth/test/revoke-refresh-tokens");
    assert!(status.contains("204"), "{status}");
}

/// A project directory whose `.mcp.json` names `servers`, its own `MCP_CONFIG_DIR` and the
/// "browser" of [`browser`]: `mcp` runs there as a person's would, one process each.
pub struct OAuthHome {
    pub dir: tempfile::TempDir,
    pub config_dir: PathBuf,
    browser: PathBuf,
}

impl OAuthHome {
    pub fn new(servers: Value) -> Self {
        let dir = crate::support::dir_with_config(servers);
        let config_dir = dir.path().join("mcp-config");
        let browser = browser(dir.path());
        Self {
            dir,
            config_dir,
            browser,
        }
    }

    /// Where the file store keeps tokens and clients.
    pub fn oauth_dir(&self) -> PathBuf {
        self.config_dir.join("oauth")
    }

    fn env(&self) -> [(&str, &str); 2] {
        [
            ("MCP_CONFIG_DIR", self.config_dir.to_str().unwrap()),
            ("BROWSER", self.browser.to_str().unwrap()),
        ]
    }

    /// `mcp --trust-config ARGS`, finished (the project file is the test's own: consented
    /// to, see trust.rs).
    pub fn run(&self, args: &[&str]) -> crate::support::Run {
        crate::support::mcp_env(self.dir.path(), &trusted(args), "", &self.env())
    }

    /// `mcp --trust-config ARGS`, started (for runs that overlap); finish with
    /// [`crate::support::finish`].
    pub fn spawn(&self, args: &[&str]) -> std::process::Child {
        crate::support::command(self.dir.path(), &trusted(args), &self.env())
            .spawn()
            .expect("spawn mcp")
    }

    /// The stored client files' JSON documents.
    pub fn clients(&self) -> Vec<Value> {
        let Ok(entries) = std::fs::read_dir(self.oauth_dir()) else {
            return Vec::new();
        };
        entries
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("client-") && n.ends_with(".json"))
            })
            .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
            .collect()
    }
}

/// `args` after `--trust-config`.
pub fn trusted<'a>(args: &[&'a str]) -> Vec<&'a str> {
    [&["--trust-config"], args].concat()
}
