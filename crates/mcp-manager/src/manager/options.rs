//! Settings shared by every managed server.

use std::fmt;
use std::sync::Arc;

use mcp_client::ClientOptions;

use super::notify_queue::{DEFAULT_NOTIFICATION_QUEUE, NotificationQueueLimits};
use crate::ReconnectPolicy;

/// How many tool timeouts a tool call that keeps reporting progress may last in all, by
/// default ([`ManagerOptions::with_progress_extension`]).
pub const DEFAULT_PROGRESS_EXTENSION: u32 = 10;

/// Looks up an environment variable for `${VAR}` expansion.
pub type EnvLookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Options for [`McpManager::new`](crate::McpManager::new).
///
/// ```
/// use std::time::Duration;
/// use mcp_client::ClientOptions;
/// use mcp_manager::{ManagerOptions, ReconnectPolicy};
/// let options = ManagerOptions::new(ClientOptions::new("my-agent", "1.0"))
///     .with_reconnect_policy(ReconnectPolicy::default().with_ladder(Duration::from_millis(100), 3))
///     .with_env(|name| (name == "TOKEN").then(|| "from-a-vault".to_owned()));
/// assert_eq!(options.reconnect.ladder_attempts, 3);
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ManagerOptions {
    /// Client options used for every server. The manager installs its own notification
    /// callback (to forward notifications with the server's name), replacing one set here:
    /// subscribe with [`McpManager::notifications`](crate::McpManager::notifications) instead.
    pub client: ClientOptions,
    /// How connections are re-established.
    pub reconnect: ReconnectPolicy,
    pub(crate) env: EnvLookup,
    pub(crate) notification_queue: NotificationQueueLimits,
    /// How many tool timeouts a call that keeps reporting progress may last in all.
    pub(crate) progress_extension: u32,
    #[cfg(feature = "oauth")]
    pub(crate) oauth: super::oauth::OAuthSetup,
}

impl ManagerOptions {
    /// Options with these client options, the default reconnect policy and the process
    /// environment for `${VAR}`.
    pub fn new(client: ClientOptions) -> Self {
        Self {
            client,
            reconnect: ReconnectPolicy::default(),
            env: Arc::new(|name| std::env::var(name).ok()),
            notification_queue: DEFAULT_NOTIFICATION_QUEUE,
            progress_extension: DEFAULT_PROGRESS_EXTENSION,
            #[cfg(feature = "oauth")]
            oauth: super::oauth::OAuthSetup::default(),
        }
    }

    /// Use this reconnect policy.
    #[must_use]
    pub fn with_reconnect_policy(mut self, policy: ReconnectPolicy) -> Self {
        self.reconnect = policy;
        self
    }

    /// Look `${VAR}` references up with `lookup` instead of the process environment. It is
    /// called at every (re)connect, so a changed value is picked up by the next reconnect.
    #[must_use]
    pub fn with_env(
        mut self,
        lookup: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.env = Arc::new(lookup);
        self
    }

    /// Let each progress notification of a tool call restart its timeout, up to `times`
    /// tool timeouts in all (default [`DEFAULT_PROGRESS_EXTENSION`]): a long tool that says
    /// it is alive is not cut off, and one that goes quiet still ends after one timeout.
    /// 0 or 1: progress does not extend a call. A call whose options set
    /// `reset_timeout_on_progress` keeps its own rule.
    #[must_use]
    pub fn with_progress_extension(mut self, times: u32) -> Self {
        self.progress_extension = times;
        self
    }

    /// `options` of a tool call with the progress extension: its timeout (or `tool_timeout`)
    /// restarted by each progress notification, under a hard maximum of
    /// `progress_extension` timeouts.
    pub(crate) fn extend_on_progress(
        &self,
        options: mcp_client::RequestOptions,
        tool_timeout: Option<std::time::Duration>,
    ) -> mcp_client::RequestOptions {
        let timeout = options.timeout.or(tool_timeout).filter(|t| !t.is_zero());
        let (Some(timeout), None, 2..) = (
            timeout,
            options.reset_timeout_on_progress,
            self.progress_extension,
        ) else {
            return options;
        };
        let options = options.with_reset_timeout_on_progress(timeout * self.progress_extension);
        if options.on_progress.is_some() {
            options
        } else {
            // A progress callback is what asks the server for progress (a progressToken).
            options.with_progress(|_| {})
        }
    }

    /// Bound each server's queue of notifications not yet forwarded (default
    /// [`DEFAULT_NOTIFICATION_QUEUE`]). Past it the oldest are dropped and counted in a
    /// warning: a server that floods notifications while connecting cannot take the
    /// client's memory, and never blocks the reading of replies.
    #[must_use]
    pub fn with_notification_queue(mut self, limits: NotificationQueueLimits) -> Self {
        self.notification_queue = limits;
        self
    }
}

#[cfg(feature = "oauth")]
impl ManagerOptions {
    /// Keep OAuth tokens and registered clients in `store` instead of the default: a
    /// private file store in the platform configuration directory
    /// ([`FileTokenStore::in_config_dir`](mcp_client::oauth::FileTokenStore::in_config_dir)).
    #[must_use]
    pub fn with_token_store(mut self, store: Arc<dyn mcp_client::oauth::TokenStore>) -> Self {
        self.oauth.store = Some(store);
        self
    }

    /// Let authorizations that need a person run while connecting, through `visitor` (a
    /// `LoopbackVisitor` opens the browser). By default none does: such a server gets the
    /// status [`NeedsAuthorization`](crate::ServerStatus::NeedsAuthorization) until
    /// [`McpManager::login`](crate::McpManager::login).
    #[must_use]
    pub fn with_authorization_visitor(
        mut self,
        visitor: Arc<dyn mcp_client::oauth::AuthorizationVisitor>,
    ) -> Self {
        self.oauth.visitor = Some(visitor);
        self
    }

    /// No OAuth at all: a 401 stays an HTTP error.
    #[must_use]
    pub fn without_oauth(mut self) -> Self {
        self.oauth.disabled = true;
        self
    }
}

impl Default for ManagerOptions {
    fn default() -> Self {
        Self::new(ClientOptions::default())
    }
}

impl fmt::Debug for ManagerOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ManagerOptions")
            .field("client", &self.client)
            .field("reconnect", &self.reconnect)
            .field("notification_queue", &self.notification_queue)
            .field("progress_extension", &self.progress_extension)
            .finish_non_exhaustive()
    }
}
