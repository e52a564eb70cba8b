//! Transport choice from a [`ServerConfig`]: `type` absent or `"stdio"` → stdio;
//! `"http"` → Streamable HTTP; `"sse"` → legacy HTTP+SSE; a bare `url` or `"auto"` →
//! detection (see `detect.rs`). Each transport is behind its cargo feature.

use std::sync::Arc;

use crate::Error;
use mcp_jsonrpc::TransportHandler;

use mcp_jsonrpc::{Session, SessionOptions, Transport};

use crate::config::{ServerConfig, TransportKind};
use crate::dispatcher::Dispatcher;
use crate::{Client, ClientOptions};

impl Client {
    /// Connect to the server `config` describes and run the handshake.
    ///
    /// A `url` without `type` (or `type: "auto"`) tries Streamable HTTP first and falls
    /// back to legacy HTTP+SSE at the same URL when the `initialize` POST is answered 400,
    /// 404 or 405; [`Client::transport_kind`] then says which one worked. `"http"` and
    /// `"sse"` never switch.
    ///
    /// Fails with a typed error when the server cannot be started or reached, dies before
    /// answering `initialize` (with its stderr tail), or negotiates a revision we do not
    /// speak (after disconnecting).
    pub async fn connect(config: &ServerConfig, options: ClientOptions) -> Result<Self, Error> {
        let kind = config.transport_kind()?;
        // The startup and tool timeouts of this server, settled once (see ClientOptions).
        let dispatcher = Dispatcher::new(options.settled_for(config));
        let handler = Arc::clone(&dispatcher) as Arc<dyn TransportHandler>;
        let session = match kind {
            TransportKind::Stdio => connect_stdio(config, handler)?,
            TransportKind::Http => connect_http(config, dispatcher.options(), handler).await?,
            TransportKind::Sse => connect_sse(config, dispatcher.options(), handler).await?,
            TransportKind::Auto => return crate::detect::connect_auto(config, dispatcher).await,
        };
        Self::handshake_on(session, dispatcher).await
    }
}

#[cfg(feature = "http")]
impl Client {
    /// Connect over Streamable HTTP with a full [`HttpConfig`](mcp_transport_http::HttpConfig)
    /// (a proxy, extra root certificates, body limits, resumption settings), then run the
    /// handshake. [`Client::connect`] builds the same from a [`ServerConfig`]; the client's
    /// auth hook is used when `config` has none.
    pub async fn connect_http(
        mut config: mcp_transport_http::HttpConfig,
        options: ClientOptions,
    ) -> Result<Self, Error> {
        if config.auth.is_none()
            && let Some(hook) = &options.auth
        {
            config = config.with_auth(Arc::clone(hook));
        }
        let dispatcher = Dispatcher::new(options);
        let handler = Arc::clone(&dispatcher) as Arc<dyn TransportHandler>;
        let session = mcp_transport_http::HttpTransport::connect(config, handler).await?;
        Self::handshake_on(session, dispatcher).await
    }
}

/// A session over `transport` with the timeout and id format of `config`.
#[cfg_attr(
    not(any(feature = "stdio", feature = "http", feature = "sse")),
    allow(dead_code)
)]
fn start(
    transport: impl Transport,
    config: &ServerConfig,
    handler: Arc<dyn TransportHandler>,
) -> Session {
    let options = SessionOptions::new()
        .with_timeout(config.resolved_timeout())
        .with_id_format(config.id_format());
    Session::start(transport, options, handler)
}

#[cfg(feature = "stdio")]
fn connect_stdio(
    config: &ServerConfig,
    handler: Arc<dyn TransportHandler>,
) -> Result<Session, Error> {
    use mcp_transport_stdio::{StdioConfig, StdioTransport};
    let command = config
        .command
        .clone()
        .ok_or_else(|| Error::Config("a stdio server needs a `command`".into()))?;
    let mut stdio = StdioConfig::new(command);
    stdio.args = config.args.clone();
    stdio.env = config.env.clone();
    stdio.env_vars = config.env_vars.clone();
    stdio.inherit_env = config.inherit_env;
    stdio.cwd = config.cwd.clone();
    Ok(start(StdioTransport::open(stdio)?, config, handler))
}

#[cfg(not(feature = "stdio"))]
fn connect_stdio(_: &ServerConfig, _: Arc<dyn TransportHandler>) -> Result<Session, Error> {
    Err(Error::Config(
        "this build of mcp-client has no stdio transport (feature `stdio`)".into(),
    ))
}

#[cfg(feature = "http")]
pub(crate) async fn connect_http(
    config: &ServerConfig,
    options: &ClientOptions,
    handler: Arc<dyn TransportHandler>,
) -> Result<Session, Error> {
    use mcp_transport_http::{HttpConfig, HttpTransport};
    let mut http = HttpConfig::new(server_url(config)?)
        .with_headers(config.header_pairs())
        .with_timeout(config.resolved_timeout())
        .with_id_format(config.id_format());
    if let Some(hook) = &options.auth {
        http = http.with_auth(Arc::clone(hook));
    }
    Ok(start(HttpTransport::open(http).await?, config, handler))
}

#[cfg(not(feature = "http"))]
pub(crate) async fn connect_http(
    _: &ServerConfig,
    _: &ClientOptions,
    _: Arc<dyn TransportHandler>,
) -> Result<Session, Error> {
    Err(Error::Config(
        "this build of mcp-client has no HTTP transport (feature `http`)".into(),
    ))
}

#[cfg(feature = "sse")]
pub(crate) async fn connect_sse(
    config: &ServerConfig,
    options: &ClientOptions,
    handler: Arc<dyn TransportHandler>,
) -> Result<Session, Error> {
    use mcp_transport_sse::{DEFAULT_CONNECT_TIMEOUT, SseConfig, SseTransport};
    let timeout = config.resolved_timeout();
    let mut sse = SseConfig::new(server_url(config)?)
        .with_headers(config.header_pairs())
        .with_timeout(timeout)
        .with_id_format(config.id_format())
        // The endpoint event normally follows the GET at once; a short request timeout
        // shortens this wait too.
        .with_connect_timeout(
            timeout.map_or(DEFAULT_CONNECT_TIMEOUT, |t| t.min(DEFAULT_CONNECT_TIMEOUT)),
        );
    if let Some(hook) = &options.auth {
        sse = sse.with_auth(Arc::clone(hook));
    }
    Ok(start(SseTransport::open(sse).await?, config, handler))
}

#[cfg(not(feature = "sse"))]
pub(crate) async fn connect_sse(
    _: &ServerConfig,
    _: &ClientOptions,
    _: Arc<dyn TransportHandler>,
) -> Result<Session, Error> {
    Err(Error::Config(
        "this build of mcp-client has no legacy SSE transport (feature `sse`)".into(),
    ))
}

/// The configured `url`, parsed; remote transports only accept http and https.
#[cfg(any(feature = "http", feature = "sse"))]
fn server_url(config: &ServerConfig) -> Result<url::Url, Error> {
    let raw = config
        .url
        .as_deref()
        .ok_or_else(|| Error::Config("a remote server needs a `url`".into()))?;
    let url = url::Url::parse(raw)
        .map_err(|e| Error::Config(format!("invalid server url {raw:?}: {e}")))?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(Error::Config(format!(
            "server url must be http or https, not {other}:"
        ))),
    }
}
