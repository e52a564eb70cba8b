//! [`Client`]: one initialized MCP session over one transport, with the typed API.

use std::borrow::Borrow;
use std::sync::Arc;

use crate::{Error, SessionError};
use mcp_jsonrpc::{RequestOptions, Session, SessionOptions, Transport, TransportHandler};
use mcp_types::{
    CallToolRequestParams, CallToolResult, CompleteRequestParams, CompleteResult, Era,
    GetPromptRequestParams, GetPromptResult, Implementation, InitializeResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, LoggingLevel,
    PaginatedRequestParams, Prompt, RawResult, RawValue, ReadResourceRequestParams,
    ReadResourceResult, Resource, ResourceTemplate, Root, ServerCapabilities,
    SetLevelRequestParams, SubscribeRequestParams, Tool, UnsubscribeRequestParams, methods,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::{broadcast, watch};

use crate::capability;
use crate::dialect::{self, Ctx, Dialect};
use crate::dispatcher::Dispatcher;
use crate::output_schema::OutputSchemas;
use crate::pages::{self, Page};
use crate::{ClientOptions, ServerNotification};

/// An initialized connection to one MCP server.
///
/// Cheap to clone; clones share the connection. Requests may run concurrently.
///
/// ```no_run
/// # async fn demo() -> Result<(), mcp_client::Error> {
/// use mcp_client::{Client, ClientOptions, ServerConfig};
///
/// let config = ServerConfig::stdio("npx", ["-y", "@modelcontextprotocol/server-everything"]);
/// let client = Client::connect(&config, ClientOptions::new("my-agent", "1.0")).await?;
/// for tool in client.list_all_tools().await? {
///     println!("{}", tool.name);
/// }
/// let result = client.call_tool("echo", Some(serde_json::json!({"message": "hi"}))).await?;
/// println!("{}", result.text());
/// client.close().await;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    session: Session,
    dispatcher: Arc<Dispatcher>,
    /// The protocol revision, chosen once at connect.
    dialect: Dialect,
    output_schemas: OutputSchemas,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("transport", &self.transport_kind())
            .field("server", &self.server_info().name)
            .field("protocol_version", &self.protocol_version())
            .field("era", &self.era())
            .finish()
    }
}

impl Client {
    /// Build a client over a transport of your own (see [`mcp_jsonrpc::Transport`]), then
    /// run the handshake. The session, configured by `session`, drives it on a task of its
    /// own. [`Client::connect`] does the same for the built-in transports.
    pub async fn connect_with<T: Transport>(
        options: ClientOptions,
        session: SessionOptions,
        transport: T,
    ) -> Result<Self, Error> {
        let dispatcher = Dispatcher::new(options);
        let handler = Arc::clone(&dispatcher) as Arc<dyn TransportHandler>;
        let session = Session::start(transport, session, handler);
        Self::handshake_on(session, dispatcher).await
    }

    pub(crate) async fn handshake_on(
        session: Session,
        dispatcher: Arc<Dispatcher>,
    ) -> Result<Self, Error> {
        dispatcher.attach_deadlines(session.deadlines());
        let dialect = match dialect::negotiate(&session, dispatcher.options()).await {
            Ok(dialect) => dialect,
            Err(e) => {
                session.close().await;
                return Err(e);
            }
        };
        Ok(Self {
            inner: Arc::new(Inner {
                session,
                dispatcher,
                dialect,
                output_schemas: OutputSchemas::default(),
            }),
        })
    }

    fn session(&self) -> Arc<InitializeResult> {
        self.inner.dialect.server()
    }

    /// What a dialect works with.
    pub(crate) fn cx(&self) -> Ctx<'_> {
        Ctx {
            session: &self.inner.session,
            dispatcher: &self.inner.dispatcher,
            schemas: &self.inner.output_schemas,
        }
    }

    /// The server's `initialize` answer: name, version, capabilities, instructions. For a
    /// 2026-07-28 server, the same built from its `server/discover` answer.
    pub fn initialize_result(&self) -> Arc<InitializeResult> {
        self.session()
    }

    /// The server's name, version and other details.
    pub fn server_info(&self) -> Implementation {
        self.session().server_info.clone()
    }

    /// What the server declared it supports.
    pub fn server_capabilities(&self) -> ServerCapabilities {
        self.session().capabilities.clone()
    }

    /// The server's usage instructions, if it sent any.
    pub fn instructions(&self) -> Option<String> {
        self.session().instructions.clone()
    }

    /// The negotiated protocol revision.
    pub fn protocol_version(&self) -> String {
        self.session().protocol_version.clone()
    }

    /// The negotiated era: legacy (`initialize`, 2025-11-25 and earlier) or modern
    /// (stateless, 2026-07-28).
    pub fn era(&self) -> Era {
        self.inner.dialect.era()
    }

    /// The transport in use: `"stdio"`, `"http"`, `"sse"` (after auto-detection, the one
    /// that worked).
    pub fn transport_kind(&self) -> &str {
        self.inner.session.kind()
    }

    /// Whether the connection is up.
    pub fn is_connected(&self) -> bool {
        self.inner.session.is_connected()
    }

    /// How many requests of this client wait for a reply: zero once every call has ended,
    /// however it ended (answered, timed out, cancelled, its future dropped).
    pub fn requests_in_flight(&self) -> usize {
        self.inner.session.pending_len()
    }

    /// What the transport can tell about itself: a stdio server's pid and stderr, a
    /// Streamable HTTP session id and whether its GET stream runs.
    pub fn transport_info(&self) -> Option<Arc<dyn mcp_jsonrpc::TransportInfo>> {
        self.inner.session.info().cloned()
    }

    /// The last lines of the server's stderr (stdio), for error reports.
    pub fn stderr_tail(&self) -> Option<String> {
        self.inner.session.stderr_tail()
    }

    /// Subscribe to server notifications (each subscriber sees every notification sent
    /// after it subscribed; one that falls more than 1024 behind misses the oldest).
    pub fn notifications(&self) -> broadcast::Receiver<ServerNotification> {
        self.inner.dispatcher.subscribe()
    }

    /// Resolves when the transport has closed (the server exited, the stream ended, or
    /// [`close`](Self::close) was called).
    pub async fn closed(&self) {
        let mut rx: watch::Receiver<bool> = self.inner.dispatcher.closed();
        // An Err means the sender is gone, which only happens once everything is closed.
        let _ = rx.wait_for(|closed| *closed).await;
    }

    /// Close the connection (for stdio: shut the server down as the specification says).
    pub async fn close(&self) {
        self.inner.session.close().await;
    }

    /// Replace the roots offered to the server and tell it (`notifications/roots/list_changed`)
    /// when the client declared `roots.listChanged` and the revision has that notification.
    pub async fn set_roots(&self, roots: Vec<Root>) -> Result<(), Error> {
        self.inner.dispatcher.set_roots(roots);
        self.inner.dialect.roots_changed(&self.cx()).await
    }

    /// Tell the server its roots changed (`notifications/roots/list_changed`, when the
    /// client declared roots and the revision has that notification): for a client whose
    /// roots come from [`ClientOptions::with_roots_handler`](crate::ClientOptions::with_roots_handler).
    pub async fn roots_changed(&self) -> Result<(), Error> {
        self.inner.dialect.roots_changed(&self.cx()).await
    }

    /// The typed refusal of `method` when the negotiated revision does not have it
    /// ([`Error::NotInRevision`]), before any I/O.
    pub(crate) fn check_revision(&self, method: &str) -> Result<(), Error> {
        self.inner.dialect.refuse(method)
    }

    /// Send a request and return its raw result. When a Streamable HTTP session expired,
    /// the client initializes a fresh session and retries the request once.
    pub async fn request_raw(
        &self,
        method: &str,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
    ) -> Result<RawResult, Error> {
        self.check_revision(method)?;
        capability::require(&self.session().capabilities, method)?;
        let options = self.inner.dispatcher.options().request_options(options);
        self.inner
            .dialect
            .request(&self.cx(), method, params, &options)
            .await
            .map_err(|e| crate::closed::with_stderr_tail(e, || self.stderr_tail()))
    }

    /// [`request_raw`](Self::request_raw) with typed params, encoded as the revision wants
    /// them.
    async fn request_typed<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: &P,
        options: RequestOptions,
    ) -> Result<RawResult, Error> {
        self.check_revision(method)?;
        capability::require(&self.session().capabilities, method)?;
        let options = self.inner.dispatcher.options().request_options(options);
        self.inner
            .dialect
            .request_typed(&self.cx(), method, params, &options)
            .await
            .map_err(|e| crate::closed::with_stderr_tail(e, || self.stderr_tail()))
    }

    /// Send a request with typed params and decode its result into `R`.
    pub async fn request<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        params: &P,
        options: RequestOptions,
    ) -> Result<R, Error> {
        let raw = self.request_typed(method, params, options).await?;
        decode(method, &raw)
    }

    /// Send a notification.
    pub async fn notify<P: Serialize>(
        &self,
        method: &str,
        params: Option<&P>,
    ) -> Result<(), Error> {
        self.check_revision(method)?;
        let params = params.map(encode).transpose()?;
        Ok(self.inner.session.notify(method, params).await?)
    }

    /// Check the server is alive: `ping`, or at 2026-07-28, which removed `ping`,
    /// `server/discover` (any answer shows the server is there; see
    /// [`ping_method`](Self::ping_method)).
    pub async fn ping(&self) -> Result<(), Error> {
        self.ping_with(RequestOptions::new()).await.map(drop)
    }

    /// [`ping`](Self::ping) under `options`, returning the server's answer as it came: an
    /// empty object for `ping`, the server's description for `server/discover`.
    pub async fn ping_with(&self, options: RequestOptions) -> Result<RawResult, Error> {
        self.request_raw(self.ping_method(), None, options).await
    }

    /// The request [`ping`](Self::ping) sends on this connection: `"ping"`, or
    /// `"server/discover"` at 2026-07-28.
    pub fn ping_method(&self) -> &'static str {
        self.inner.dialect.ping_method()
    }

    /// One page of `tools/list`. Output schemas are remembered for [`call_tool`](Self::call_tool).
    pub async fn list_tools(&self, cursor: Option<String>) -> Result<ListToolsResult, Error> {
        let mut result: ListToolsResult = self.paged(methods::TOOLS_LIST, cursor).await?;
        self.vet_tools(&mut result.tools);
        self.inner.output_schemas.learn(&result.tools);
        Ok(result)
    }

    /// Every tool, following `nextCursor` to the end.
    pub async fn list_all_tools(&self) -> Result<Vec<Tool>, Error> {
        self.all_pages(methods::TOOLS_LIST, |mut page: ListToolsResult| {
            self.vet_tools(&mut page.tools);
            self.inner.output_schemas.learn(&page.tools);
            (page.tools, page.next_cursor)
        })
        .await
    }

    /// What the revision leaves out of a tool listing, or remembers from it.
    fn vet_tools(&self, tools: &mut Vec<Tool>) {
        self.inner.dialect.vet_tools(tools);
    }

    /// The tools left out of this client's listings (Streamable HTTP at 2026-07-28, since
    /// their `x-mcp-header` annotations are invalid), by name, each with why, as of the
    /// last listing that held it. Calls to them fail with [`Error::ToolLeftOut`]; none are
    /// left out on other connections.
    pub fn left_out_tools(&self) -> Vec<crate::LeftOutTool> {
        self.inner.dialect.left_out_tools()
    }

    /// `tools/call` with the given arguments (an object, or `None`).
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Option<serde_json::Value>,
    ) -> Result<CallToolResult, Error> {
        let mut params = CallToolRequestParams::new(name);
        match arguments {
            Some(serde_json::Value::Object(map)) => params = params.with_arguments(map),
            Some(serde_json::Value::Null) | None => {}
            Some(other) => {
                return Err(Error::Session(SessionError::InvalidArgument(format!(
                    "tool arguments must be a JSON object, not {other}"
                ))));
            }
        }
        self.call_tool_with(params, RequestOptions::new()).await
    }

    /// `tools/call` with full params and per-call options (timeout, cancellation, progress).
    ///
    /// When the tool declared an `outputSchema` in the last `tools/list`, its
    /// `structuredContent` is validated against it.
    ///
    /// The params are taken by value or lent: a caller that makes the same call more than
    /// once (a retry, the same call to several servers) lends them, and nothing is copied.
    ///
    /// ```no_run
    /// # async fn demo(client: &mcp_client::Client) -> Result<(), mcp_client::Error> {
    /// use mcp_client::RequestOptions;
    /// use mcp_types::CallToolRequestParams;
    ///
    /// let params = CallToolRequestParams::new("echo")
    ///     .with_arguments(serde_json::json!({"text": "hi"}).as_object().cloned().unwrap());
    /// let first = client.call_tool_with(&params, RequestOptions::new()).await?;
    /// let again = client.call_tool_with(params, RequestOptions::new()).await?;
    /// # Ok(()) }
    /// ```
    #[allow(
        clippy::manual_async_fn,
        reason = "an `async fn` keeps its arguments twice in its future (rustc #62958)"
    )]
    pub fn call_tool_with(
        &self,
        params: impl Borrow<CallToolRequestParams>,
        options: RequestOptions,
    ) -> impl Future<Output = Result<CallToolResult, Error>> {
        // A block rather than an `async fn`, which keeps its arguments twice (rustc
        // #62958): every tool call's future is this one (docs/performance.md).
        async move { self.call_tool_lent(params.borrow(), options).await }
    }

    #[allow(
        clippy::manual_async_fn,
        reason = "an `async fn` keeps its arguments twice in its future (rustc #62958)"
    )]
    fn call_tool_lent<'a>(
        &'a self,
        params: &'a CallToolRequestParams,
        mut options: RequestOptions,
    ) -> impl Future<Output = Result<CallToolResult, Error>> + 'a {
        async move {
            // Calls that ask for a task, and tools that must (or, when asked, may) run as
            // tasks, go through one and return its result; see `tasks/`.
            // The rare paths (a task, the retry after a stale listing) are boxed where they
            // are awaited: inline they made this future 10 KB, copied whole wherever a caller
            // moves it (into a task, a box, a select) on every call (docs/performance.md).
            if params.task.is_some() || self.runs_as_task(&params.name) {
                return Box::pin(self.call_tool_as_task(params.clone(), options)).await;
            }
            // The tool timeout (`toolTimeout`, `with_tool_timeout`) unless the call sets one;
            // set in place, so the future keeps one copy of the options.
            self.options().apply_tool_call_defaults(&mut options);
            let result = match self.call_tool_once(params, &options).await {
                // The listing is stale (at 2026-07-28 the server wants other `Mcp-Param-*`
                // headers than it gave): list the tools again and retry once.
                Err(e) if self.inner.dialect.lists_again_after(&e) => {
                    tracing::debug!(target: "mcp::client", tool = %params.name, "header mismatch; listing the tools again");
                    Box::pin(self.list_all_tools()).await?;
                    Box::pin(self.call_tool_once(params, &options)).await?
                }
                other => other?,
            };
            self.inner.output_schemas.check(&params.name, &result)?;
            Ok(result)
        }
    }

    /// One `tools/call`, its result decoded with the fast path for a single text block,
    /// in the reply's own buffer ([`RawResult::into_tool_result`]). `options` are the
    /// caller's with the client's defaults applied
    /// (`ClientOptions::apply_tool_call_defaults`); borrowed down to the
    /// request that sends them, so no layer's future keeps a copy of its own
    /// (docs/performance.md).
    async fn call_tool_once(
        &self,
        params: &CallToolRequestParams,
        options: &RequestOptions,
    ) -> Result<CallToolResult, Error> {
        capability::require(&self.session().capabilities, methods::TOOLS_CALL)?;
        let raw = self
            .inner
            .dialect
            .call_tool(&self.cx(), params, options)
            .await
            .map_err(|e| crate::closed::with_stderr_tail(e, || self.stderr_tail()))?;
        raw.into_tool_result()
            .map_err(|source| invalid_result(methods::TOOLS_CALL, source))
    }

    // --- For `tasks/` (task-augmented tool calls): what they need of the client's state.

    /// Check a tool result against the tool's output schema, as `call_tool_with` does.
    pub(crate) fn check_output_schema(
        &self,
        tool: &str,
        result: &CallToolResult,
    ) -> Result<(), Error> {
        self.inner.output_schemas.check(tool, result)
    }

    /// `f` of the tool's `taskSupport`, borrowed: for the check every `call_tool` makes.
    pub(crate) fn with_tool_task_support<R>(
        &self,
        tool: &str,
        f: impl FnOnce(Option<&str>) -> R,
    ) -> R {
        self.inner.output_schemas.with_task_support(tool, f)
    }

    /// The options the client was built with.
    pub(crate) fn options(&self) -> &ClientOptions {
        self.inner.dispatcher.options()
    }

    /// One page of `resources/list`.
    pub async fn list_resources(
        &self,
        cursor: Option<String>,
    ) -> Result<ListResourcesResult, Error> {
        self.paged(methods::RESOURCES_LIST, cursor).await
    }

    /// Every resource.
    pub async fn list_all_resources(&self) -> Result<Vec<Resource>, Error> {
        self.all_pages(methods::RESOURCES_LIST, |p: ListResourcesResult| {
            (p.resources, p.next_cursor)
        })
        .await
    }

    /// One page of `resources/templates/list`.
    pub async fn list_resource_templates(
        &self,
        cursor: Option<String>,
    ) -> Result<ListResourceTemplatesResult, Error> {
        self.paged(methods::RESOURCES_TEMPLATES_LIST, cursor).await
    }

    /// Every resource template.
    pub async fn list_all_resource_templates(&self) -> Result<Vec<ResourceTemplate>, Error> {
        self.all_pages(
            methods::RESOURCES_TEMPLATES_LIST,
            |p: ListResourceTemplatesResult| (p.resource_templates, p.next_cursor),
        )
        .await
    }

    /// `resources/read`.
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, Error> {
        self.read_resource_with(uri, RequestOptions::new()).await
    }

    /// `resources/read` with per-call options (timeout, cancellation, progress, the raw
    /// result).
    pub async fn read_resource_with(
        &self,
        uri: &str,
        options: RequestOptions,
    ) -> Result<ReadResourceResult, Error> {
        let params = ReadResourceRequestParams::new(uri);
        self.request(methods::RESOURCES_READ, &params, options)
            .await
    }

    /// `resources/subscribe` (needs the server's `resources.subscribe`).
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), Error> {
        let params = SubscribeRequestParams::new(uri);
        self.request::<_, serde::de::IgnoredAny>(
            methods::RESOURCES_SUBSCRIBE,
            &params,
            RequestOptions::new(),
        )
        .await
        .map(drop)
    }

    /// `resources/unsubscribe`.
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), Error> {
        let params = UnsubscribeRequestParams::new(uri);
        self.request::<_, serde::de::IgnoredAny>(
            methods::RESOURCES_UNSUBSCRIBE,
            &params,
            RequestOptions::new(),
        )
        .await
        .map(drop)
    }

    /// One page of `prompts/list`.
    pub async fn list_prompts(&self, cursor: Option<String>) -> Result<ListPromptsResult, Error> {
        self.paged(methods::PROMPTS_LIST, cursor).await
    }

    /// Every prompt.
    pub async fn list_all_prompts(&self) -> Result<Vec<Prompt>, Error> {
        self.all_pages(methods::PROMPTS_LIST, |p: ListPromptsResult| {
            (p.prompts, p.next_cursor)
        })
        .await
    }

    /// `prompts/get`.
    pub async fn get_prompt(
        &self,
        params: GetPromptRequestParams,
    ) -> Result<GetPromptResult, Error> {
        self.get_prompt_with(params, RequestOptions::new()).await
    }

    /// `prompts/get` with per-call options (timeout, cancellation, progress, the raw
    /// result).
    pub async fn get_prompt_with(
        &self,
        params: GetPromptRequestParams,
        options: RequestOptions,
    ) -> Result<GetPromptResult, Error> {
        self.request(methods::PROMPTS_GET, &params, options).await
    }

    /// `completion/complete` (needs the server's `completions`).
    pub async fn complete(&self, params: CompleteRequestParams) -> Result<CompleteResult, Error> {
        self.complete_with(params, RequestOptions::new()).await
    }

    /// `completion/complete` with per-call options (timeout, cancellation, the raw result).
    pub async fn complete_with(
        &self,
        params: CompleteRequestParams,
        options: RequestOptions,
    ) -> Result<CompleteResult, Error> {
        self.request(methods::COMPLETION_COMPLETE, &params, options)
            .await
    }

    /// `logging/setLevel` (needs the server's `logging`).
    pub async fn set_logging_level(&self, level: LoggingLevel) -> Result<(), Error> {
        let params = SetLevelRequestParams::new(level);
        self.request::<_, serde::de::IgnoredAny>(
            methods::LOGGING_SET_LEVEL,
            &params,
            RequestOptions::new(),
        )
        .await
        .map(drop)
    }

    pub(crate) async fn paged<R: DeserializeOwned>(
        &self,
        method: &str,
        cursor: Option<String>,
    ) -> Result<R, Error> {
        let raw = self.paged_raw(method, cursor).await?;
        decode(method, &raw)
    }

    async fn paged_raw(&self, method: &str, cursor: Option<String>) -> Result<RawResult, Error> {
        let params = cursor
            .map(|c| encode(&PaginatedRequestParams::default().with_cursor(c)))
            .transpose()?;
        self.request_raw(method, params, RequestOptions::new())
            .await
    }

    /// Every item of the listing `method` (`"tools/list"`, `"prompts/list"`,
    /// `"resources/list"`, `"resources/templates/list"`), each as the server sent it (the
    /// member `key` of each page: `"tools"`, `"prompts"`, `"resources"`,
    /// `"resourceTemplates"`), following `nextCursor` within the same bounds as the
    /// `list_all_*` methods. For a program that passes the server's JSON on unchanged (key
    /// order, number spelling); the typed `list_all_*` methods are what most callers want.
    /// Unlike [`list_all_tools`](Self::list_all_tools), this does not learn the tools'
    /// output schemas; tools left out for their `x-mcp-header` annotations are left out here
    /// too ([`left_out_tools`](Self::left_out_tools)).
    pub async fn list_all_raw(
        &self,
        method: &str,
        key: &str,
    ) -> Result<Vec<Box<serde_json::value::RawValue>>, Error> {
        let max_bytes = self.inner.dispatcher.options().max_listing_bytes;
        pages::collect(method, max_bytes, |cursor| async {
            let raw = self.paged_raw(method, cursor).await?;
            let (mut items, next_cursor) = pages::raw_page(raw.get(), key).map_err(|source| {
                Error::Session(SessionError::InvalidResult {
                    method: method.to_owned(),
                    source,
                })
            })?;
            // Left out means left out, as sent too.
            if method == methods::TOOLS_LIST {
                self.inner.dialect.vet_raw_tools(&mut items);
            }
            Ok(Page {
                items,
                next_cursor,
                bytes: raw.get().len(),
            })
        })
        .await
    }

    /// Every item of the listing `method`, within the bounds of [`pages::collect`]: the
    /// size of each page is counted as it arrives, before it is decoded and kept.
    pub(crate) async fn all_pages<P: DeserializeOwned, T>(
        &self,
        method: &str,
        split: impl Fn(P) -> (Vec<T>, Option<String>),
    ) -> Result<Vec<T>, Error> {
        let max_bytes = self.inner.dispatcher.options().max_listing_bytes;
        pages::collect(method, max_bytes, |cursor| async {
            let raw = self.paged_raw(method, cursor).await?;
            let (items, next_cursor) = split(decode(method, &raw)?);
            Ok(Page {
                items,
                next_cursor,
                bytes: raw.get().len(),
            })
        })
        .await
    }
}

/// Request params as JSON text; params that do not encode are the caller's mistake.
pub(crate) fn encode<P: Serialize + ?Sized>(params: &P) -> Result<Box<RawValue>, Error> {
    mcp_types::to_raw(params)
        .map_err(|e| Error::invalid_argument(format!("cannot encode params: {e}")))
}

pub(crate) fn decode<R: DeserializeOwned>(method: &str, raw: &RawResult) -> Result<R, Error> {
    raw.decode()
        .map_err(|source| invalid_result(method, source))
}

/// A result of `method` that does not decode into the type asked for.
fn invalid_result(method: &str, source: serde_json::Error) -> Error {
    Error::Session(SessionError::InvalidResult {
        method: method.to_owned(),
        source,
    })
}
