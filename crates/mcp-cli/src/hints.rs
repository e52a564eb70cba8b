//! Errors that say what to do: a sentence that leads to the fix, added to the connection
//! errors users meet first (a wrong URL, a missing scheme, https against plain HTTP, a
//! server that never answers, a timeout).

use std::time::Duration;

use mcp_client::{Client, ClientOptions, ServerConfig, TransportKind};
use mcp_types::redact_url;

use crate::error::CliError;

/// Bound on each extra attempt made to explain a failed automatic transport detection.
const DIAGNOSE_LIMIT: Duration = Duration::from_secs(10);

/// `error` with a hint, when one helps. `config` is the server's (expanded) config.
pub(crate) async fn explain(
    error: CliError,
    config: &ServerConfig,
    options: &ClientOptions,
) -> CliError {
    let hint = match hint(&error, config) {
        Some(hint) => hint,
        None if needs_both_transports(&error, config) => {
            both_transports(config, options, &error.one_line()).await
        }
        None => return error,
    };
    CliError::Explained {
        error: Box::new(error),
        hint,
    }
}

/// The server never answered `initialize`: the CLI's bound on the connect, or the
/// library's (which carries the server's stderr).
fn is_handshake_timeout(error: &CliError) -> bool {
    match error {
        CliError::ConnectTimeout { .. } => true,
        CliError::Client { cause, .. } => {
            matches!(**cause, mcp_client::Error::HandshakeTimeout { .. })
        }
        _ => false,
    }
}

fn hint(error: &CliError, config: &ServerConfig) -> Option<String> {
    // A refused `Authorization` header of the user's own is theirs to fix, not a login.
    let own_credentials = config
        .headers
        .keys()
        .any(|name| name.eq_ignore_ascii_case("authorization"));
    if error.needs_login() && !own_credentials {
        let server = error.server().unwrap_or("SERVER");
        return Some(
            // One sentence that ends the message: what to run (issue 23).
            if let (Some(url), true) = (&config.url, server == crate::servers::ADHOC_NAME) {
                format!("run: mcp --url {} login", redact_url(url))
            } else {
                format!("run: mcp login {server}")
            },
        );
    }
    let message = error.to_string();
    // Shown only redacted: the URL may carry a password or a key, also after `${VAR}`.
    let url = config.url.as_deref().unwrap_or_default();
    let stdio = config.command.as_deref();
    match error.kind() {
        "timeout" => Some(match (error, stdio) {
            (e, Some(command)) if is_handshake_timeout(e) => format!(
                "`{command}` started but never answered `initialize`: check that it is an MCP server writing JSON-RPC lines on stdout (run it by hand to see its output), or raise the limit with --startup-timeout MS (a server that downloads itself at first start may need minutes)"
            ),
            (e, _) => format!(
                "the server may just be slow: raise the limit with {} MS (0 disables it)",
                e.timeout_flag()
            ),
        }),
        "config" if message.contains("relative URL without a base") => Some(format!(
            "a URL needs its scheme: try {} (or https:// for TLS)",
            redact_url(&format!("http://{url}"))
        )),
        "connect" if url.starts_with("https://") && is_plain_http_reply(&message) => Some(format!(
            "the server answered in plain HTTP, not TLS: try {}",
            redact_url(&url.replacen("https://", "http://", 1))
        )),
        "connect" if !url.is_empty() => Some(format!(
            "check that the server is running and listens at {}",
            redact_url(url)
        )),
        "spawn" if stdio.is_some() => Some(
            "check the command's spelling and that it is on PATH (or give its full path)".into(),
        ),
        _ => None,
    }
}

/// What rustls and hyper report when a TLS handshake reads a plain-HTTP answer.
fn is_plain_http_reply(message: &str) -> bool {
    message.contains("InvalidContentType") || message.contains("corrupt message")
}

/// Automatic detection failed with an HTTP status: the error only tells the last attempt.
fn needs_both_transports(error: &CliError, config: &ServerConfig) -> bool {
    error.kind() == "http" && matches!(config.transport_kind(), Ok(TransportKind::Auto))
}

/// Try each transport alone and say how each answered; an answer the error already shows
/// (`shown`) is not repeated.
async fn both_transports(config: &ServerConfig, options: &ClientOptions, shown: &str) -> String {
    let attempt = async |kind: TransportKind| {
        let mut config = config.clone();
        config.kind = Some(kind);
        match tokio::time::timeout(DIAGNOSE_LIMIT, Client::connect(&config, options.clone())).await
        {
            Ok(Ok(client)) => {
                client.close().await;
                "connected (a transient failure?)".to_owned()
            }
            Ok(Err(e)) => crate::error::one_line(&mcp_types::error_chain(&e).to_string()),
            Err(_) => format!("no answer within {} s", DIAGNOSE_LIMIT.as_secs()),
        }
    };
    let said = |answer: String| {
        if shown.ends_with(&answer) {
            "as above".to_owned()
        } else {
            answer
        }
    };
    let http = said(attempt(TransportKind::Http).await);
    let sse = said(attempt(TransportKind::Sse).await);
    let answers = if http == sse {
        format!("Streamable HTTP (POST) and legacy HTTP+SSE (GET) both answered {http}")
    } else {
        format!("Streamable HTTP (POST) answered {http}; legacy HTTP+SSE (GET) answered {sse}")
    };
    format!(
        "both transports were tried: {answers}; check the URL's path (servers usually serve /mcp, or /sse for legacy SSE)"
    )
}
