//! Each protocol revision in one place, chosen once at connect (as rmcp's
//! `ClientLifecycleMode`): the rest of the client asks its [`Dialect`] and never branches on
//! the revision itself.
//!
//! - [`legacy`] (2024-11-05 to 2025-11-25): `initialize`, the server's requests answered,
//!   `notifications/cancelled`, `notifications/roots/list_changed`, and a fresh
//!   `initialize` when a Streamable HTTP server forgot the session.
//! - [`modern`] (2026-07-28, `basic/versioning`): `server/discover`, the request `_meta`,
//!   multi round-trip results, the request headers, methods removed from the revision
//!   refused locally; on the wire, stateless and cancelled by closing the reply stream.
//!
//! What the session and the transports need of a revision travels as data: the
//! [`WireRules`](mcp_jsonrpc::WireRules) each dialect hands the session once, and the typed
//! hints the session puts on each frame.

pub(crate) mod legacy;
pub(crate) mod modern;
mod negotiate;

use std::sync::Arc;

use mcp_jsonrpc::{RequestOptions, Session};
use mcp_types::{CallToolRequestParams, Era, InitializeResult, RawResult, RawValue, Tool};
use serde::Serialize;

use crate::Error;
use crate::dispatcher::Dispatcher;
use crate::output_schema::OutputSchemas;

pub(crate) use negotiate::negotiate;

/// What a dialect works with: the session, the client's handlers and options, what the
/// client learned from listings.
pub(crate) struct Ctx<'a> {
    pub(crate) session: &'a Session,
    pub(crate) dispatcher: &'a Dispatcher,
    pub(crate) schemas: &'a OutputSchemas,
}

/// The protocol revision a connection speaks.
pub(crate) enum Dialect {
    Legacy(legacy::Legacy),
    Modern(modern::Modern),
}

impl Dialect {
    /// Which era.
    pub(crate) fn era(&self) -> Era {
        match self {
            Self::Legacy(_) => Era::Legacy,
            Self::Modern(_) => Era::Modern,
        }
    }

    /// The server's description: its `initialize` answer, or the same built from its
    /// `server/discover` answer.
    pub(crate) fn server(&self) -> Arc<InitializeResult> {
        match self {
            Self::Legacy(d) => d.server(),
            Self::Modern(d) => d.server(),
        }
    }

    /// The request that checks the server is alive: `ping`, or `server/discover` at
    /// 2026-07-28, which removed `ping`.
    pub(crate) fn ping_method(&self) -> &'static str {
        match self {
            Self::Legacy(_) => mcp_types::methods::PING,
            Self::Modern(_) => mcp_types::methods::SERVER_DISCOVER,
        }
    }

    /// The typed refusal of a method the revision does not have, before any I/O.
    pub(crate) fn refuse(&self, method: &str) -> Result<(), Error> {
        match self {
            Self::Legacy(d) => d.refuse(method),
            Self::Modern(d) => d.refuse(method),
        }
    }

    /// Send `method` with `params` and return its complete raw result.
    pub(crate) async fn request(
        &self,
        cx: &Ctx<'_>,
        method: &str,
        params: Option<Box<RawValue>>,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        match self {
            Self::Legacy(d) => d.request(cx, method, params, options).await,
            Self::Modern(d) => d.request(cx, method, params, options).await,
        }
    }

    /// [`request`](Self::request) with typed params, encoded the way the revision wants
    /// them (at 2026-07-28 with the `_meta` written as they are serialised).
    pub(crate) async fn request_typed<P: Serialize + ?Sized>(
        &self,
        cx: &Ctx<'_>,
        method: &str,
        params: &P,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        match self {
            Self::Legacy(d) => d.request_typed(cx, method, params, options).await,
            Self::Modern(d) => d.request_typed(cx, method, params, options).await,
        }
    }

    /// `tools/call` with `params`.
    pub(crate) async fn call_tool(
        &self,
        cx: &Ctx<'_>,
        params: &CallToolRequestParams,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        match self {
            Self::Legacy(d) => {
                d.request_typed(cx, mcp_types::methods::TOOLS_CALL, params, options)
                    .await
            }
            Self::Modern(d) => d.call_tool(cx, params, options).await,
        }
    }

    /// The client's roots changed: tell the server, where the revision has a way to
    /// (2026-07-28 has none: the server asks for roots in each request).
    pub(crate) async fn roots_changed(&self, cx: &Ctx<'_>) -> Result<(), Error> {
        match self {
            Self::Legacy(d) => d.roots_changed(cx).await,
            Self::Modern(_) => Ok(()),
        }
    }

    /// A listing of tools arrived: drop what the revision says cannot be used (2026-07-28
    /// over a transport with request headers: tools with invalid `x-mcp-header`
    /// annotations) and remember what later calls need.
    pub(crate) fn vet_tools(&self, tools: &mut Vec<Tool>) {
        if let Self::Modern(d) = self {
            d.vet_tools(tools);
        }
    }

    /// [`vet_tools`](Self::vet_tools) for a listing kept as the server sent it.
    pub(crate) fn vet_raw_tools(&self, tools: &mut Vec<Box<RawValue>>) {
        if let Self::Modern(d) = self {
            d.vet_raw_tools(tools);
        }
    }

    /// The tools left out of listings (2026-07-28 over a transport with request headers:
    /// invalid `x-mcp-header` annotations), each with why.
    pub(crate) fn left_out_tools(&self) -> Vec<crate::LeftOutTool> {
        match self {
            Self::Legacy(_) => Vec::new(),
            Self::Modern(d) => d.left_out_tools(),
        }
    }

    /// Whether `error` of a tool call means the tool listing is stale and the call should
    /// be made once more after listing again (2026-07-28: the server wants other
    /// `Mcp-Param-*` headers than the last listing gave).
    pub(crate) fn lists_again_after(&self, error: &Error) -> bool {
        match self {
            Self::Legacy(_) => false,
            Self::Modern(d) => d.lists_again_after(error),
        }
    }
}
