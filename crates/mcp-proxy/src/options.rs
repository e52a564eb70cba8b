//! How a proxy presents itself and connects its upstream servers.

use mcp_manager::ManagerOptions;
use mcp_types::Implementation;

/// Which client capabilities the proxy declares to its upstream servers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum UpstreamCapabilities {
    /// Exactly those of the first host to connect (its sampling, elicitation modes and
    /// roots), so a server sees what it would see talking to the host itself: for one
    /// host (stdio). The default.
    #[default]
    MirrorFirstHost,
    /// Every capability the proxy can forward (sampling, form and URL elicitation, roots):
    /// for many hosts at once (HTTP), each of whose requests is refused cleanly when that
    /// host did not declare what it needs.
    All,
}

/// How a person logs in to a server, by the server's name: the command the host's error
/// names when the server's OAuth tokens are missing or refused (default
/// `mcp login NAME`).
pub type LoginHint = crate::reply::LoginHint;

/// Options for [`Proxy::new`](crate::Proxy::new).
///
/// ```
/// use mcp_proxy::{ProxyOptions, UpstreamCapabilities};
/// let options = ProxyOptions::new().with_upstream_capabilities(UpstreamCapabilities::All);
/// assert_eq!(options.server_info.name, "mcp-proxy");
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ProxyOptions {
    /// Who the proxy says it is to hosts when it is a gateway to several servers (with one
    /// server it passes that server's own identity on).
    pub server_info: Implementation,
    /// Which capabilities the upstream servers are told of.
    pub upstream_capabilities: UpstreamCapabilities,
    /// The manager's options: reconnect policy, `${VAR}` lookup, token store. Its client
    /// options are the proxy's own (the handlers that forward servers' requests to the
    /// host): what is set there is replaced.
    pub manager: ManagerOptions,
    /// The command a person runs to log in to a server (default `mcp login NAME`).
    pub login_hint: Option<LoginHint>,
}

impl Default for ProxyOptions {
    fn default() -> Self {
        Self {
            server_info: Implementation::new("mcp-proxy", env!("CARGO_PKG_VERSION")),
            upstream_capabilities: UpstreamCapabilities::default(),
            manager: ManagerOptions::default(),
            login_hint: None,
        }
    }
}

impl ProxyOptions {
    /// The defaults: mirror the first host's capabilities, the manager's defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declare `capabilities` to the upstream servers.
    #[must_use]
    pub fn with_upstream_capabilities(mut self, capabilities: UpstreamCapabilities) -> Self {
        self.upstream_capabilities = capabilities;
        self
    }

    /// Use these manager options (reconnect policy, environment, token store).
    #[must_use]
    pub fn with_manager_options(mut self, manager: ManagerOptions) -> Self {
        self.manager = manager;
        self
    }

    /// Name `hint(server)` as the command that logs in to a server.
    #[must_use]
    pub fn with_login_hint(
        mut self,
        hint: impl Fn(&str) -> String + Send + Sync + 'static,
    ) -> Self {
        self.login_hint = Some(std::sync::Arc::new(hint));
        self
    }

    /// Present the gateway as `info`.
    #[must_use]
    pub fn with_server_info(mut self, info: Implementation) -> Self {
        self.server_info = info;
        self
    }
}

impl std::fmt::Debug for ProxyOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProxyOptions")
            .field("server_info", &self.server_info)
            .field("upstream_capabilities", &self.upstream_capabilities)
            .field("manager", &self.manager)
            .field("login_hint", &self.login_hint.is_some())
            .finish()
    }
}
