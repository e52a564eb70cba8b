//! User-supplied handlers for the server-to-client requests that need a human or a model:
//! sampling and elicitation. `ping` and `roots/list` are answered by the client itself.

use std::future::Future;

use mcp_jsonrpc::{BoxFuture, CancelToken, DeadlineHold, Deadlines};
use mcp_types::{
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    ErrorObject, ListRootsResult, RequestId,
};

/// What a handler knows about the request it is answering.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RequestContext {
    /// The server's id for this request.
    pub request_id: RequestId,
    /// Cancelled when the server sends `notifications/cancelled` for this request (or the
    /// connection closes); the client then sends no reply, whatever the handler returns.
    pub cancel: CancelToken,
    /// The session's request clocks, for [`hold_timeouts`](Self::hold_timeouts).
    pub(crate) deadlines: Deadlines,
}

impl RequestContext {
    /// Stop the timeouts of the client's pending requests until the returned hold is
    /// dropped: a handler that waits for a person (a form, a sampling review) holds them, so
    /// the tool call that caused the question does not time out while the person types.
    /// When the hold ends, each request's timeout starts again from the beginning, as a
    /// progress notification restarts it (see [`DeadlineHold`]).
    ///
    /// ```no_run
    /// use mcp_client::{ClientOptions, ElicitationModes, RequestContext};
    /// use mcp_types::{ElicitRequestParams, ElicitResult};
    ///
    /// let options = ClientOptions::new("agent", "1.0").with_elicitation(
    ///     ElicitationModes::FORM,
    ///     |params: ElicitRequestParams, context: RequestContext| async move {
    ///         let _clock_stopped = context.hold_timeouts();
    ///         // ... ask the person, however long they take ...
    ///         Ok(ElicitResult::decline())
    ///     },
    /// );
    /// ```
    pub fn hold_timeouts(&self) -> DeadlineHold {
        self.deadlines.hold()
    }
}

/// Answers `sampling/createMessage`. The specification asks for human approval; reject
/// with error code -1 ([`mcp_types::error_codes::USER_REJECTED`]) when the user declines.
///
/// Implemented for closures `Fn(CreateMessageRequestParams, RequestContext) -> impl Future`.
pub trait SamplingHandler: Send + Sync + 'static {
    /// Produce a completion for the server.
    fn create_message(
        &self,
        params: CreateMessageRequestParams,
        context: RequestContext,
    ) -> BoxFuture<'static, Result<CreateMessageResult, ErrorObject>>;
}

impl<F, Fut> SamplingHandler for F
where
    F: Fn(CreateMessageRequestParams, RequestContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<CreateMessageResult, ErrorObject>> + Send + 'static,
{
    fn create_message(
        &self,
        params: CreateMessageRequestParams,
        context: RequestContext,
    ) -> BoxFuture<'static, Result<CreateMessageResult, ErrorObject>> {
        Box::pin(self(params, context))
    }
}

/// Answers `elicitation/create` in form mode (ask the user for structured input) and URL mode
/// (send the user to a URL: show it in full and never open it without consent).
///
/// Implemented for closures `Fn(ElicitRequestParams, RequestContext) -> impl Future`.
pub trait ElicitationHandler: Send + Sync + 'static {
    /// Ask the user and report what they did.
    fn elicit(
        &self,
        params: ElicitRequestParams,
        context: RequestContext,
    ) -> BoxFuture<'static, Result<ElicitResult, ErrorObject>>;
}

impl<F, Fut> ElicitationHandler for F
where
    F: Fn(ElicitRequestParams, RequestContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<ElicitResult, ErrorObject>> + Send + 'static,
{
    fn elicit(
        &self,
        params: ElicitRequestParams,
        context: RequestContext,
    ) -> BoxFuture<'static, Result<ElicitResult, ErrorObject>> {
        Box::pin(self(params, context))
    }
}

/// Answers `roots/list` when the roots are not a fixed list the client holds (a proxy
/// asks its own client for them).
///
/// Implemented for closures `Fn(RequestContext) -> impl Future`.
pub trait RootsHandler: Send + Sync + 'static {
    /// The roots to offer the server now.
    fn list_roots(
        &self,
        context: RequestContext,
    ) -> BoxFuture<'static, Result<ListRootsResult, ErrorObject>>;
}

impl<F, Fut> RootsHandler for F
where
    F: Fn(RequestContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<ListRootsResult, ErrorObject>> + Send + 'static,
{
    fn list_roots(
        &self,
        context: RequestContext,
    ) -> BoxFuture<'static, Result<ListRootsResult, ErrorObject>> {
        Box::pin(self(context))
    }
}

/// Which elicitation modes a client handles (declared as `elicitation: {form, url}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ElicitationModes {
    /// Form mode: the server sends a JSON schema, the user fills it in.
    pub form: bool,
    /// URL mode (2025-11-25): the user completes an interaction at a URL.
    pub url: bool,
}

impl ElicitationModes {
    /// Form mode only (what `elicitation: {}` meant before 2025-11-25).
    pub const FORM: Self = Self {
        form: true,
        url: false,
    };
    /// Both modes.
    pub const ALL: Self = Self {
        form: true,
        url: true,
    };
}
