//! OAuth 2.1 against a server that demands it: discovery, registration, PKCE and the
//! authorization in the person's browser, whose redirect comes back to a listener on
//! 127.0.0.1 (`LoopbackVisitor`); then every request carries the token, refreshed when it
//! expires.
//!
//! ```sh
//! cargo run -p mcp-client --features oauth --example oauth_loopback -- https://mcp.example.com/mcp
//! # against the test server, whose authorization page approves at once, with a stand-in
//! # browser that follows its redirects:
//! cargo run -p mcp-client --features oauth --example oauth_loopback -- http://127.0.0.1:PORT/mcp --follow
//! ```

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use mcp_client::oauth::{
    BrowserOpener, HttpClient, HttpClientOptions, LoopbackVisitor, OAuthConfig, OAuthProvider,
    ShowUrl,
};
use mcp_client::{Client, ClientOptions, ServerConfig, TransportKind};

/// A stand-in for the person's browser, for a server that approves without asking: GET
/// the URL and follow its redirects (the last one reaches the loopback listener).
fn follow_redirects() -> BrowserOpener {
    BrowserOpener::Callback(ShowUrl::new(|url| {
        let mut next = url.to_string();
        std::thread::spawn(move || {
            for _ in 0..5 {
                match location(&next) {
                    Some(to) => next = to,
                    None => return,
                }
            }
        });
        Ok(())
    }))
}

/// The `Location` of a plain-HTTP GET of `url`, if it redirects.
fn location(url: &str) -> Option<String> {
    let url = url::Url::parse(url).ok()?;
    let host = format!("{}:{}", url.host_str()?, url.port_or_known_default()?);
    let mut stream = TcpStream::connect(&host).ok()?;
    let path = &url[url::Position::BeforePath..];
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut head = String::new();
    stream.read_to_string(&mut head).ok()?;
    head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("location")
            .then(|| value.trim().to_owned())
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let Some(url) = args.next() else {
        eprintln!("usage: oauth_loopback URL [--follow]");
        std::process::exit(64);
    };
    let follow = args.next().is_some_and(|a| a == "--follow");
    // The browser: the system's (or `$BROWSER`), else the URL is printed to open by hand.
    let mut visitor = LoopbackVisitor::new(None, "/callback")?;
    if follow {
        visitor = visitor.with_opener(follow_redirects());
    }
    let http = HttpClient::new(&HttpClientOptions::new())?;
    let provider =
        OAuthProvider::new(url.parse()?, OAuthConfig::new(), http)?.with_visitor(Arc::new(visitor));
    // Tokens are kept in memory here; `with_store` keeps them in a file or the OS keyring.
    let options = ClientOptions::new("oauth-example", "1.0").with_auth_hook(Arc::new(provider));
    let config = ServerConfig::remote(TransportKind::Http, url);
    // The first request is refused (401); the provider authorizes and the request is sent
    // again with the token.
    let client = Client::connect(&config, options).await?;
    println!("authorized; {} has:", client.server_info().name);
    for tool in client.list_all_tools().await? {
        println!("- {}", tool.name);
    }
    client.close().await;
    Ok(())
}
