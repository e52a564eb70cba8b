//! List tools over Streamable HTTP through a proxy, trusting an extra root certificate.
//!
//! ```sh
//! cargo run -p mcp-client --example http_proxy_tls -- https://mcp.example.internal/mcp \
//!     --proxy http://proxy.example.internal:3128 --ca private-ca.der
//! ```
//!
//! Without `--proxy` the usual `HTTPS_PROXY`/`NO_PROXY` variables apply; `--ca` takes a DER
//! certificate (convert a PEM one with `openssl x509 -outform der`).

use mcp_client::{Client, ClientOptions, HttpConfig, ProxyMode};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let Some(url) = args.next() else {
        eprintln!("usage: http_proxy_tls URL [--proxy URL] [--ca FILE.der] [--bearer TOKEN]");
        std::process::exit(64);
    };
    let mut config = HttpConfig::new(url.parse()?);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        config = match flag.as_str() {
            "--proxy" => config.with_proxy(ProxyMode::Explicit {
                http: Some(value.clone()),
                https: Some(value),
                no_proxy: None,
            }),
            "--ca" => config.with_extra_root_cert_der(std::fs::read(value)?),
            // Sent only to the server's own origin; never logged.
            "--bearer" => config.with_header("Authorization", format!("Bearer {value}")),
            other => return Err(format!("unknown flag {other}").into()),
        };
    }
    let client = Client::connect_http(config, ClientOptions::new("http-example", "1.0")).await?;
    println!(
        "{} speaks revision {}",
        client.server_info().name,
        client.protocol_version()
    );
    for tool in client.list_all_tools().await? {
        println!(
            "- {}: {}",
            tool.name,
            tool.description.as_deref().unwrap_or("")
        );
    }
    // Deletes the server-side session.
    client.close().await;
    Ok(())
}
