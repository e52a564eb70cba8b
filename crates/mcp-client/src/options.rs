//! What a client says about itself and which server requests it can answer.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use mcp_jsonrpc::RequestOptions;

use mcp_types::{ClientCapabilities, Implementation, LATEST_PROTOCOL_VERSION, Root};

use crate::handlers::{ElicitationHandler, ElicitationModes, RootsHandler, SamplingHandler};
use crate::{ServerConfig, ServerNotification};

/// Which protocol eras the client may speak (`2026-07-28/basic/versioning`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum EraPreference {
    /// Probe with `server/discover`; fall back to `initialize` on any error that is not a
    /// modern protocol error, or on a timeout. The default.
    #[default]
    Auto,
    /// Only the legacy `initialize` handshake (2024-11-05 to 2025-11-25); no probe.
    LegacyOnly,
    /// Only the stateless protocol (2026-07-28); a server that does not speak it fails the
    /// connection.
    ModernOnly,
}

/// The longest the `server/discover` probe waits before falling back to `initialize` (a
/// legacy server may ignore a request that comes before `initialize`).
pub const DEFAULT_DISCOVER_TIMEOUT: Duration = Duration::from_secs(10);

/// How many `input_required` answers one request may get before it fails.
pub const DEFAULT_MAX_INPUT_ROUNDS: usize = 8;

/// Called for every server notification, on the transport's reader task: keep it short.
pub type NotificationCallback = Arc<dyn Fn(&ServerNotification) + Send + Sync>;

/// Options for [`crate::Client::connect`]. Capabilities are derived from what is actually
/// configured, so the client never declares what it cannot do.
///
/// ```
/// use mcp_client::ClientOptions;
/// use mcp_types::Root;
/// let options = ClientOptions::new("my-agent", "1.0.0")
///     .with_roots(vec![Root::new("file:///home/me/project").unwrap()]);
/// let caps = options.capabilities();
/// assert_eq!(caps.roots.unwrap().list_changed, Some(true));
/// assert!(caps.sampling.is_none() && caps.elicitation.is_none());
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ClientOptions {
    /// Sent as `clientInfo` in `initialize`.
    pub client_info: Implementation,
    /// The revision offered in `initialize` (the newest we support, by default).
    pub protocol_version: String,
    pub(crate) roots: Option<Vec<Root>>,
    pub(crate) roots_handler: Option<Arc<dyn RootsHandler>>,
    pub(crate) sampling: Option<Arc<dyn SamplingHandler>>,
    pub(crate) sampling_tools: bool,
    pub(crate) elicitation: Option<(ElicitationModes, Arc<dyn ElicitationHandler>)>,
    pub(crate) on_notification: Option<NotificationCallback>,
    pub(crate) request_timeout: Option<Duration>,
    pub(crate) startup_timeout: Option<Duration>,
    pub(crate) tool_timeout: Option<Duration>,
    pub(crate) tasks: bool,
    pub(crate) tasks_for_optional_tools: bool,
    pub(crate) task_max_wait: Duration,
    pub(crate) max_listing_bytes: usize,
    pub(crate) era: EraPreference,
    pub(crate) discover_timeout: Duration,
    pub(crate) max_input_rounds: usize,
    pub(crate) input_bounds: crate::dialect::modern::InputBounds,
    #[cfg(any(feature = "http", feature = "sse"))]
    pub(crate) auth: Option<Arc<dyn mcp_http::AuthHook>>,
}

impl ClientOptions {
    /// Options for a client with this name and version.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            client_info: Implementation::new(name, version),
            protocol_version: LATEST_PROTOCOL_VERSION.to_owned(),
            roots: None,
            roots_handler: None,
            sampling: None,
            sampling_tools: false,
            elicitation: None,
            on_notification: None,
            request_timeout: None,
            startup_timeout: None,
            tool_timeout: None,
            tasks: false,
            tasks_for_optional_tools: false,
            task_max_wait: crate::tasks::DEFAULT_TASK_MAX_WAIT,
            max_listing_bytes: crate::pages::DEFAULT_MAX_LISTING_BYTES,
            era: EraPreference::Auto,
            discover_timeout: DEFAULT_DISCOVER_TIMEOUT,
            max_input_rounds: DEFAULT_MAX_INPUT_ROUNDS,
            input_bounds: crate::dialect::modern::InputBounds {
                max_requests: crate::DEFAULT_MAX_INPUT_REQUESTS,
                max_bytes: crate::DEFAULT_MAX_INPUT_REQUEST_BYTES,
            },
            #[cfg(any(feature = "http", feature = "sse"))]
            auth: None,
        }
    }

    /// Which protocol eras to speak (default [`EraPreference::Auto`]).
    #[must_use]
    pub fn with_era(mut self, era: EraPreference) -> Self {
        self.era = era;
        self
    }

    /// The era preference set with [`with_era`](Self::with_era).
    pub fn era(&self) -> EraPreference {
        self.era
    }

    /// How long the `server/discover` probe may take before the client falls back to
    /// `initialize` (default [`DEFAULT_DISCOVER_TIMEOUT`], never more than the request
    /// timeout: [`with_request_timeout`](Self::with_request_timeout)'s, else the
    /// transport's, such as a [`ServerConfig`](crate::ServerConfig)'s `timeout`).
    #[must_use]
    pub fn with_discover_timeout(mut self, timeout: Duration) -> Self {
        self.discover_timeout = timeout;
        self
    }

    /// How many times one multi round-trip request (2026-07-28) may answer
    /// `input_required` before the call fails with [`Error::InputRoundsExceeded`]
    /// (default [`DEFAULT_MAX_INPUT_ROUNDS`]).
    ///
    /// [`Error::InputRoundsExceeded`]: crate::Error::InputRoundsExceeded
    #[must_use]
    pub fn with_max_input_rounds(mut self, rounds: usize) -> Self {
        self.max_input_rounds = rounds;
        self
    }

    /// How many input requests one `input_required` result (2026-07-28) may carry before
    /// the call fails with [`Error::InputRequestsRefused`], unanswered (default
    /// [`DEFAULT_MAX_INPUT_REQUESTS`](crate::DEFAULT_MAX_INPUT_REQUESTS)).
    ///
    /// [`Error::InputRequestsRefused`]: crate::Error::InputRequestsRefused
    #[must_use]
    pub fn with_max_input_requests(mut self, requests: usize) -> Self {
        self.input_bounds.max_requests = requests;
        self
    }

    /// How many bytes the `inputRequests` of one `input_required` result (2026-07-28) may
    /// take before the call fails with [`Error::InputRequestsRefused`], unanswered (default
    /// [`DEFAULT_MAX_INPUT_REQUEST_BYTES`](crate::DEFAULT_MAX_INPUT_REQUEST_BYTES), 16 MiB).
    ///
    /// [`Error::InputRequestsRefused`]: crate::Error::InputRequestsRefused
    #[must_use]
    pub fn with_max_input_request_bytes(mut self, bytes: usize) -> Self {
        self.input_bounds.max_bytes = bytes;
        self
    }

    /// Expose these roots to the server (`roots/list`), and declare `roots.listChanged`:
    /// [`crate::Client::set_roots`] sends `notifications/roots/list_changed`.
    #[must_use]
    pub fn with_roots(mut self, roots: Vec<Root>) -> Self {
        self.roots = Some(roots);
        self
    }

    /// Answer `roots/list` with `handler` (instead of a fixed list), and declare
    /// `roots.listChanged`: [`crate::Client::roots_changed`] tells the server when the
    /// handler's answer changes.
    #[must_use]
    pub fn with_roots_handler(mut self, handler: impl RootsHandler) -> Self {
        self.roots_handler = Some(Arc::new(handler));
        self
    }

    /// Whether the client declares `roots` (a fixed list or a handler).
    pub(crate) fn declares_roots(&self) -> bool {
        self.roots.is_some() || self.roots_handler.is_some()
    }

    /// Answer `sampling/createMessage` with `handler`, and declare `sampling`.
    #[must_use]
    pub fn with_sampling(mut self, handler: impl SamplingHandler) -> Self {
        self.sampling = Some(Arc::new(handler));
        self
    }

    /// Also declare `sampling.tools` (the handler understands tool use in sampling).
    #[must_use]
    pub fn with_sampling_tools(mut self) -> Self {
        self.sampling_tools = true;
        self
    }

    /// Answer `elicitation/create` in `modes` with `handler`, and declare them.
    #[must_use]
    pub fn with_elicitation(
        mut self,
        modes: ElicitationModes,
        handler: impl ElicitationHandler,
    ) -> Self {
        self.elicitation = Some((modes, Arc::new(handler)));
        self
    }

    /// Call `f` for every server notification (in addition to [`crate::Client::notifications`]).
    #[must_use]
    pub fn with_notification_callback(
        mut self,
        f: impl Fn(&ServerNotification) + Send + Sync + 'static,
    ) -> Self {
        self.on_notification = Some(Arc::new(f));
        self
    }

    /// Ask `hook` for fresh credentials when an HTTP server answers 401 or 403; the request
    /// is retried with the headers it returns (once, or up to the hook's
    /// [`max_retries`](mcp_http::AuthHook::max_retries)). The hook is also asked for its
    /// current headers before every request ([`headers`](mcp_http::AuthHook::headers)):
    /// with feature `oauth`, an `oauth::OAuthProvider` (crate `mcp-auth`) puts its
    /// bearer token on every request this way.
    #[cfg(any(feature = "http", feature = "sse"))]
    #[must_use]
    pub fn with_auth_hook(mut self, hook: Arc<dyn mcp_http::AuthHook>) -> Self {
        self.auth = Some(hook);
        self
    }

    /// Use `timeout` for every request that does not set its own in [`RequestOptions`],
    /// including `initialize`. Like a per-call timeout it wins over the server config;
    /// `Duration::ZERO` disables timeouts.
    ///
    /// [`RequestOptions`]: crate::RequestOptions
    #[must_use]
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = Some(timeout);
        self
    }

    /// Bound the start of a connection (spawn and handshake: `initialize`, or
    /// `server/discover`) by `timeout` instead of the server's `startupTimeout`; a server
    /// that downloads itself at first start needs longer than a request does.
    /// `Duration::ZERO` disables it.
    #[must_use]
    pub fn with_startup_timeout(mut self, timeout: Duration) -> Self {
        self.startup_timeout = Some(timeout);
        self
    }

    /// Bound each tool call that sets no timeout of its own by `timeout` instead of the
    /// server's `toolTimeout`. `Duration::ZERO` disables it.
    #[must_use]
    pub fn with_tool_timeout(mut self, timeout: Duration) -> Self {
        self.tool_timeout = Some(timeout);
        self
    }

    /// The startup timeout for `config`'s server, `None` when disabled. What the program
    /// says beats what the file says, and the specific beats the general:
    /// [`with_startup_timeout`](Self::with_startup_timeout), else
    /// [`with_request_timeout`](Self::with_request_timeout), else the config's
    /// `startupTimeout`, else its `timeout`, else 30 s.
    pub fn startup_timeout_for(&self, config: &ServerConfig) -> Option<Duration> {
        match self.startup_timeout.or(self.request_timeout) {
            Some(t) => Some(t).filter(|t| !t.is_zero()),
            None => config.resolved_startup_timeout(),
        }
    }

    /// The tool call timeout for `config`'s server, `None` when disabled:
    /// [`with_tool_timeout`](Self::with_tool_timeout), else
    /// [`with_request_timeout`](Self::with_request_timeout), else the config's
    /// `toolTimeout`, else its `timeout`, else 30 s.
    pub fn tool_timeout_for(&self, config: &ServerConfig) -> Option<Duration> {
        match self.tool_timeout.or(self.request_timeout) {
            Some(t) => Some(t).filter(|t| !t.is_zero()),
            None => config.resolved_tool_timeout(),
        }
    }

    /// These options with the startup and tool timeouts settled for `config`'s server, so
    /// the connection applies them without the config.
    pub(crate) fn settled_for(mut self, config: &ServerConfig) -> Self {
        self.startup_timeout = Some(self.startup_timeout_for(config).unwrap_or_default());
        self.tool_timeout = Some(self.tool_timeout_for(config).unwrap_or_default());
        self
    }

    /// The options of the handshake's requests: the startup timeout when there is one.
    pub(crate) fn startup_request_options(&self) -> RequestOptions {
        match self.startup_timeout {
            Some(timeout) => RequestOptions::new().with_timeout(timeout),
            None => self.request_options(RequestOptions::new()),
        }
    }

    /// Make `options` those of a tool call: the tool timeout unless the call sets its own
    /// (else the request timeout). In place: the tool call's future keeps one copy.
    pub(crate) fn apply_tool_call_defaults(&self, options: &mut RequestOptions) {
        if options.timeout.is_none() {
            options.timeout = self.tool_timeout;
        }
        self.apply_request_defaults(options);
    }

    /// Apply [`with_request_timeout`](Self::with_request_timeout) to `options`.
    pub(crate) fn request_options(&self, mut options: RequestOptions) -> RequestOptions {
        self.apply_request_defaults(&mut options);
        options
    }

    /// [`request_options`](Self::request_options) in place.
    fn apply_request_defaults(&self, options: &mut RequestOptions) {
        if options.timeout.is_none() {
            options.timeout = self.request_timeout;
        }
    }

    /// Declare the `tasks` capability (experimental, 2025-11-25) as `{}`: the client takes
    /// part in tasks, but runs none the server could ask of it (no `tasks.list`,
    /// `tasks.cancel` or `tasks.requests`: it answers no `tasks/*` request). Tools whose
    /// `taskSupport` is `"required"` are called as tasks with or without this.
    #[must_use]
    pub fn with_tasks(mut self) -> Self {
        self.tasks = true;
        self
    }

    /// Also run tools whose `taskSupport` is `"optional"` as tasks in
    /// [`crate::Client::call_tool`] (when the server accepts task-augmented tool calls);
    /// implies [`with_tasks`](Self::with_tasks).
    #[must_use]
    pub fn with_tasks_for_optional_tools(mut self) -> Self {
        self.tasks = true;
        self.tasks_for_optional_tools = true;
        self
    }

    /// The longest the client waits on a task before it reports
    /// [`SessionError::Timeout`](crate::SessionError::Timeout) (cancelling the task when it
    /// started it; see [`TaskHandle`](crate::TaskHandle)), for every task whose caller
    /// set no bound of its own ([`TaskOptions::with_max_wait`](crate::TaskOptions::with_max_wait),
    /// or a per-call timeout of a plain [`call_tool_with`](crate::Client::call_tool_with)).
    /// Default [`DEFAULT_TASK_MAX_WAIT`](crate::tasks::DEFAULT_TASK_MAX_WAIT), one hour.
    #[must_use]
    pub fn with_task_max_wait(mut self, max_wait: Duration) -> Self {
        self.task_max_wait = max_wait;
        self
    }

    /// Bound the bytes a `list_all_*` call receives across all its pages (default
    /// [`DEFAULT_MAX_LISTING_BYTES`](crate::DEFAULT_MAX_LISTING_BYTES), 64 MiB). Past it the
    /// call fails with [`Error::PaginationAborted`](crate::Error::PaginationAborted) instead
    /// of keeping whatever a server that paginates forever sends.
    #[must_use]
    pub fn with_max_listing_bytes(mut self, bytes: usize) -> Self {
        self.max_listing_bytes = bytes;
        self
    }

    /// Offer a different protocol revision in `initialize` (for testing older servers).
    #[must_use]
    pub fn with_protocol_version(mut self, version: impl Into<String>) -> Self {
        self.protocol_version = version.into();
        self
    }

    /// The capabilities this client declares, derived from what is configured.
    pub fn capabilities(&self) -> ClientCapabilities {
        let mut caps = ClientCapabilities::default();
        if self.declares_roots() {
            caps = caps.with_roots(true);
        }
        if self.sampling.is_some() {
            caps = caps.with_sampling();
            if let (true, Some(sampling)) = (self.sampling_tools, caps.sampling.as_mut()) {
                sampling.tools = Some(serde_json::json!({}));
            }
        }
        if let Some((modes, _)) = &self.elicitation {
            caps = caps.with_elicitation(modes.form, modes.url);
        }
        if self.tasks {
            caps = caps.with_tasks(serde_json::json!({}));
        }
        caps
    }
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
    }
}

impl fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientOptions")
            .field("client_info", &self.client_info)
            .field("protocol_version", &self.protocol_version)
            .field("roots", &self.roots)
            .field("roots_handler", &self.roots_handler.is_some())
            .field("sampling", &self.sampling.is_some())
            .field("elicitation", &self.elicitation.as_ref().map(|(m, _)| m))
            .field("request_timeout", &self.request_timeout)
            .field("startup_timeout", &self.startup_timeout)
            .field("tool_timeout", &self.tool_timeout)
            .field("tasks", &self.tasks)
            .field("tasks_for_optional_tools", &self.tasks_for_optional_tools)
            .field("task_max_wait", &self.task_max_wait)
            .field("max_listing_bytes", &self.max_listing_bytes)
            .field("era", &self.era)
            .field("max_input_rounds", &self.max_input_rounds)
            .field("input_bounds", &self.input_bounds)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startup_and_tool_timeouts_take_the_program_over_the_file_and_the_specific_first() {
        let ms = Duration::from_millis;
        let options = || ClientOptions::new("t", "0");
        let file = ServerConfig::stdio("x", ["y"]).with_timeout_ms(100);
        // Nothing said: the file's `timeout`, then its specific ones.
        assert_eq!(options().startup_timeout_for(&file), Some(ms(100)));
        let specific = file
            .clone()
            .with_startup_timeout_ms(5000)
            .with_tool_timeout_ms(60_000);
        assert_eq!(options().startup_timeout_for(&specific), Some(ms(5000)));
        assert_eq!(options().tool_timeout_for(&specific), Some(ms(60_000)));
        // Nothing anywhere: 30 s.
        let bare = ServerConfig::stdio("x", ["y"]);
        assert_eq!(options().tool_timeout_for(&bare), Some(ms(30_000)));
        // The program's general timeout beats the file, its specific ones beat that.
        let general = options().with_request_timeout(ms(7));
        assert_eq!(general.startup_timeout_for(&specific), Some(ms(7)));
        let both = general.with_tool_timeout(ms(9));
        assert_eq!(both.tool_timeout_for(&specific), Some(ms(9)));
        assert_eq!(both.startup_timeout_for(&specific), Some(ms(7)));
        // 0 disables, wherever it is said.
        assert_eq!(
            options()
                .with_tool_timeout(ms(0))
                .tool_timeout_for(&specific),
            None
        );
        assert_eq!(
            options().startup_timeout_for(&file.clone().with_startup_timeout_ms(0)),
            None
        );
        // Settled once for a connection; a call's own timeout still wins.
        let settled = options().settled_for(&specific);
        let tool_call = |mut options| {
            settled.apply_tool_call_defaults(&mut options);
            options
        };
        assert_eq!(tool_call(RequestOptions::new()).timeout, Some(ms(60_000)));
        let own = RequestOptions::new().with_timeout(ms(1));
        assert_eq!(tool_call(own).timeout, Some(ms(1)));
        assert_eq!(settled.startup_request_options().timeout, Some(ms(5000)));
    }

    #[test]
    fn the_file_names_them_startup_timeout_and_tool_timeout() {
        let config: ServerConfig = serde_json::from_str(
            r#"{"command": "x", "timeout": 1, "startupTimeout": 2, "toolTimeout": 3}"#,
        )
        .unwrap();
        assert_eq!(
            (config.timeout, config.startup_timeout, config.tool_timeout),
            (Some(1), Some(2), Some(3))
        );
        assert!(config.extra.is_empty());
    }
}
