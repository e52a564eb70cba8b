//! One request at 2026-07-28: refused locally when the revision removed its method, sent
//! with the request `_meta` (and on HTTP the mirrored headers), and, for the methods that
//! may answer `input_required`, retried with the answers to the server's input requests
//! and its exact `requestState`, under a new id each round, until the result is complete
//! (bounded by [`ClientOptions::with_max_input_rounds`](crate::ClientOptions::with_max_input_rounds)),
//! each round's input requests within their own bounds (`input_bounds.rs`).

use std::collections::BTreeMap;
use std::sync::Arc;

use mcp_jsonrpc::{McpHeader, RequestOptions, Session, WireRules};
use mcp_types::mrtr::{INPUT_REQUIRED_METHODS, InputRequiredResult, InputResponses, ResultKind};
use mcp_types::{
    CallToolRequestParams, InitializeResult, RawResult, RawValue, Request, RequestId, Tool, methods,
};
use serde::Serialize;
use serde_json::Value;

use super::headers::{headers_of, request_headers};
use super::{ModernMeta, ToolHeaders};
use crate::dialect::Ctx;
use crate::dispatcher::Dispatcher;
use crate::{ClientOptions, Error, SessionError};

/// The rules of revision `version` (2026-07-28) on the wire: stateless, cancelled by
/// closing the reply stream, no requests from the server (it asks for input in its
/// results instead).
pub(crate) fn rules(version: &str) -> WireRules {
    WireRules::new()
        .with_protocol_version(version)
        .stateless(true)
        .cancel_by_close(true)
        .peer_requests(false)
}

/// A connection at 2026-07-28.
#[derive(Debug)]
pub(crate) struct Modern {
    version: String,
    meta: ModernMeta,
    /// The transport sends request headers (Streamable HTTP): requests are mirrored into
    /// them, and tools whose header annotations are invalid are left out.
    headers: bool,
    tool_headers: ToolHeaders,
    server: Arc<InitializeResult>,
}

impl Modern {
    pub(crate) fn new(
        server: InitializeResult,
        options: &ClientOptions,
        session: &Session,
    ) -> Self {
        Self {
            version: server.protocol_version.clone(),
            meta: ModernMeta::new(&server.protocol_version, options),
            headers: session.traits().request_headers,
            tool_headers: ToolHeaders::default(),
            server: Arc::new(server),
        }
    }

    pub(crate) fn server(&self) -> Arc<InitializeResult> {
        Arc::clone(&self.server)
    }

    /// The typed refusal of a method this revision removed, before any I/O.
    pub(crate) fn refuse(&self, method: &str) -> Result<(), Error> {
        if methods::REMOVED_IN_2026.contains(&method) {
            return Err(Error::NotInRevision {
                method: method.to_owned(),
                revision: self.version.clone(),
            });
        }
        Ok(())
    }

    /// Send `method` and return its complete result.
    pub(crate) async fn request(
        &self,
        cx: &Ctx<'_>,
        method: &str,
        params: Option<Box<RawValue>>,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        self.refuse(method)?;
        let made = || -> Result<Parts, Error> {
            let params = self.meta.params(params.as_deref())?;
            let headers = self.headers_of(method, &params)?;
            Ok((params, headers))
        };
        self.rounds(cx, method, made()?, &made, options).await
    }

    /// [`request`](Self::request) with typed params: serialised with our `_meta` already
    /// in them ([`ModernMeta::encode_with_meta`]) when they allow it.
    pub(crate) async fn request_typed<P: Serialize + ?Sized>(
        &self,
        cx: &Ctx<'_>,
        method: &str,
        params: &P,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        self.refuse(method)?;
        let made = || -> Result<Parts, Error> {
            let params = match self.meta.encode_with_meta(params) {
                Some(params) => params,
                None => self.meta.params(Some(&crate::client::encode(params)?))?,
            };
            let headers = self.headers_of(method, &params)?;
            Ok((params, headers))
        };
        self.rounds(cx, method, made()?, &made, options).await
    }

    /// `tools/call`: its headers come from the typed params, not from reading the encoded
    /// ones back.
    pub(crate) async fn call_tool(
        &self,
        cx: &Ctx<'_>,
        params: &CallToolRequestParams,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        let method = methods::TOOLS_CALL;
        let made = || -> Result<Parts, Error> {
            let headers = if self.headers {
                // A tool left out for its annotations is refused here, before any I/O.
                let tool_params = self.tool_headers.for_call(&params.name)?;
                request_headers(
                    method,
                    Some(&params.name),
                    params.arguments.as_ref(),
                    tool_params.as_deref().unwrap_or_default(),
                )
            } else {
                Vec::new()
            };
            let encoded = match self.meta.encode_with_meta(params) {
                Some(encoded) => encoded,
                None => self.meta.params(Some(&crate::client::encode(params)?))?,
            };
            Ok((encoded, headers))
        };
        self.rounds(cx, method, made()?, &made, options).await
    }

    /// The headers of a request whose params are only at hand encoded: read back (only
    /// over a transport with headers, where a round trip costs far more than this parse).
    fn headers_of(&self, method: &str, params: &RawValue) -> Result<Vec<McpHeader>, Error> {
        if !self.headers {
            return Ok(Vec::new());
        }
        let object = object_of(params)?;
        let tool_params = match (method, object.get("name").and_then(Value::as_str)) {
            // A tool left out for its annotations is refused here, before any I/O.
            (methods::TOOLS_CALL, Some(name)) => self.tool_headers.for_call(name)?,
            _ => None,
        };
        Ok(headers_of(
            method,
            &object,
            tool_params.as_deref().unwrap_or_default(),
        ))
    }

    /// A listing arrived: over a transport with headers, leave out tools whose
    /// `x-mcp-header` annotations are invalid (with a warning, remembering why) and
    /// remember the others'.
    pub(crate) fn vet_tools(&self, tools: &mut Vec<Tool>) {
        if self.headers {
            self.tool_headers.vet(tools);
        }
    }

    /// [`vet_tools`](Self::vet_tools) for tools as the server sent them.
    pub(crate) fn vet_raw_tools(&self, tools: &mut Vec<Box<RawValue>>) {
        if self.headers {
            self.tool_headers.vet_raw(tools);
        }
    }

    /// The tools left out of listings for their annotations, each with why.
    pub(crate) fn left_out_tools(&self) -> Vec<crate::LeftOutTool> {
        if self.headers {
            self.tool_headers.left_out()
        } else {
            Vec::new()
        }
    }

    /// Whether `error` says the server wants other `Mcp-Param-*` headers than the last
    /// listing gave (list again, call once more).
    pub(crate) fn lists_again_after(&self, error: &Error) -> bool {
        self.headers
            && error
                .rpc()
                .is_some_and(|e| e.code == mcp_types::error_codes::HEADER_MISMATCH)
    }

    /// Send `first` (params that carry our `_meta`, and their headers) and, for the methods
    /// that may answer `input_required`, retry with the answers to the server's input
    /// requests and its exact `requestState`, under a new id each round, until the result
    /// is complete (bounded by the client's `max_input_rounds`).
    ///
    /// `first` is moved into the first request; `made` makes the same parts again for a
    /// request after it (the first round re-issued, the next round built on the caller's
    /// params). Made again only then, not copied for every request: most calls are one
    /// request, and the copy showed in the HTTP benchmark (docs/performance.md).
    async fn rounds(
        &self,
        cx: &Ctx<'_>,
        method: &str,
        first: Parts,
        made: &impl Fn() -> Result<Parts, Error>,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        let multi_round = INPUT_REQUIRED_METHODS.contains(&method);
        let mut raw = self.send(cx.session, method, first, made, options).await?;
        let mut rounds = 0;
        // Screened on the text as it arrived: `get()` would check the value with a full
        // parse first, the very cost this screen avoids.
        while multi_round && may_require_input(raw.unchecked_text()) {
            // Boxed: a round of questions is rare, and inline it would weigh on every
            // request's future (docs/performance.md).
            let next = Box::pin(self.next_round(cx, method, &raw, rounds, made, options));
            match next.await? {
                Some(answer) => raw = answer,
                None => break,
            }
            rounds += 1;
        }
        Ok(raw)
    }

    /// When `raw` asks for input (round `rounds` answered it): answer the server's input
    /// requests with the client's handlers and send the next round, its params the
    /// caller's (`made`) with those answers and the server's exact `requestState`. `None`
    /// when `raw` is complete after all.
    async fn next_round(
        &self,
        cx: &Ctx<'_>,
        method: &str,
        raw: &RawResult,
        rounds: usize,
        made: &impl Fn() -> Result<Parts, Error>,
        options: &RequestOptions,
    ) -> Result<Option<RawResult>, Error> {
        let kind: ResultKind = crate::client::decode(method, raw)?;
        if !kind.is_input_required() {
            return Ok(None);
        }
        if rounds >= cx.dispatcher.options().max_input_rounds {
            return Err(Error::InputRoundsExceeded {
                method: method.to_owned(),
                rounds,
            });
        }
        // Counted and measured on the text, before a single request is decoded.
        cx.dispatcher
            .options()
            .input_bounds
            .check(raw.get())
            .map_err(|bound| Error::InputRequestsRefused {
                method: method.to_owned(),
                bound,
            })?;
        let input: InputRequiredResult = crate::client::decode(method, raw)?;
        let as_written = params_as_written(raw.unchecked_text());
        let responses = answer_all(cx.dispatcher, method, &input, &as_written, options).await?;
        // Built on the caller's params: only what this answer asked for goes into the
        // retry, a previous round's responses and state are never carried over.
        let (params, headers) = made()?;
        let mut object = object_of(&params)?;
        object.remove("inputResponses");
        object.remove("requestState");
        if input.input_requests.is_some() {
            object.insert("inputResponses".into(), Value::Object(responses));
        }
        if let Some(state) = input.request_state {
            object.insert("requestState".into(), Value::String(state));
        }
        let params = crate::client::encode(&object)?;
        tracing::debug!(target: "mcp::client", method, rounds = rounds + 1, "retrying with the requested input");
        let again = || Ok((params.clone(), headers.clone()));
        self.send(cx.session, method, again()?, &again, options)
            .await
            .map(Some)
    }

    /// One round: a request with a new id. A reply stream that broke before the answer
    /// (2026-07-28 streams are not resumable) is re-issued once, with a new id and the
    /// parts `made` makes again.
    async fn send(
        &self,
        session: &Session,
        method: &str,
        first: Parts,
        made: &impl Fn() -> Result<Parts, Error>,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        let (params, headers) = first;
        let outcome = session
            .request(method, Some(params), with_headers(options, headers))
            .await;
        match outcome {
            Err(SessionError::NoResponse { id }) => {
                tracing::debug!(target: "mcp::client", method, %id, "reply stream broke; re-issuing the request");
                let (params, headers) = made()?;
                // Boxed: rare, and inline it would weigh on every request's future.
                let again =
                    Box::pin(session.request(method, Some(params), with_headers(options, headers)));
                Ok(again.await?)
            }
            other => Ok(other?),
        }
    }
}

/// The params of one request (with our `_meta`) and its headers.
type Parts = (Box<RawValue>, Vec<McpHeader>);

/// The options of one request: the call's, with that request's headers.
fn with_headers(options: &RequestOptions, headers: Vec<McpHeader>) -> RequestOptions {
    let mut options = options.clone();
    options.headers = headers;
    options
}

/// Whether `result` may be `input_required`: its text holds that word, or a `\\u` escape
/// that could spell it. Most results do not, and this check (a SIMD substring search)
/// spares them a second full parse just to read `resultType`: for a 1 MB result that parse
/// was the largest cost of a 2026-07-28 call. (A `resultType` that is not a string then
/// goes unnoticed; the result is treated as complete, as any other unknown value is.)
///
/// A result whose first member says it is complete, as SDKs write it, is not scanned at
/// all: for a 1 MB text the two passes were a fifth of the client's instructions
/// (docs/performance.md). (A second `resultType` after it would then go unnoticed too.)
fn may_require_input(result: &str) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    if result.starts_with(r#"{"resultType":"complete""#) {
        return false;
    }
    // Built once: building a searcher costs more than searching a small result.
    static WORD: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("input_required"));
    static ESCAPE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("\\u"));
    let text = result.as_bytes();
    WORD.find(text).is_some() || ESCAPE.find(text).is_some()
}

/// Params we built (always an object) as a map, to read or amend.
fn object_of(params: &RawValue) -> Result<serde_json::Map<String, Value>, Error> {
    serde_json::from_str(params.get())
        .map_err(|e| Error::invalid_argument(format!("cannot read request params: {e}")))
}

/// The params of each input request as the server wrote them, by key: a decoded `Value`
/// keeps its members sorted, and a form must be asked in the order of its fields.
fn params_as_written(result: &str) -> BTreeMap<String, Box<RawValue>> {
    #[derive(serde::Deserialize)]
    struct Requests {
        #[serde(rename = "inputRequests")]
        input_requests: Option<BTreeMap<String, Params>>,
    }
    #[derive(serde::Deserialize)]
    struct Params {
        params: Option<Box<RawValue>>,
    }
    serde_json::from_str::<Requests>(result)
        .ok()
        .and_then(|r| r.input_requests)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(key, request)| Some((key, request.params?)))
        .collect()
}

/// Answer every input request with the client's handlers (sampling, elicitation, roots),
/// as if the server had sent it as a request (with its params `as_written`). A handler's
/// error fails the call.
async fn answer_all(
    dispatcher: &Dispatcher,
    method: &str,
    input: &InputRequiredResult,
    as_written: &BTreeMap<String, Box<RawValue>>,
    options: &RequestOptions,
) -> Result<InputResponses, Error> {
    let requests = input
        .requests()
        .map_err(|e| Error::Protocol(format!("{method}: {e}")))?;
    let mut responses = InputResponses::new();
    for (key, request) in requests {
        let params = match as_written.get(&key) {
            Some(raw) => Some(raw.clone()),
            None => request
                .params
                .as_ref()
                .map(mcp_types::to_raw)
                .transpose()
                .map_err(|e| Error::Protocol(format!("{method}: input request {key:?}: {e}")))?,
        };
        let synthetic = Request::new(
            RequestId::from(key.as_str()),
            request.method.clone(),
            params,
        );
        let cancel = options.cancel.clone().unwrap_or_default();
        let answer = dispatcher.answer(synthetic, cancel);
        let answer = match &options.cancel {
            Some(cancel) => tokio::select! {
                answer = answer => answer,
                () = cancel.cancelled() => {
                    return Err(Error::Session(SessionError::Cancelled {
                        reason: cancel.reason().unwrap_or_default(),
                    }));
                }
            },
            None => answer.await,
        };
        let result = answer.map_err(|e| {
            Error::Protocol(format!(
                "{method}: could not answer the server's {} input request {key:?}: {} ({})",
                request.method, e.message, e.code
            ))
        })?;
        let value: Value = serde_json::from_str(result.get())
            .map_err(|e| Error::Protocol(format!("{method}: input response {key:?}: {e}")))?;
        responses.insert(key, value);
    }
    Ok(responses)
}

#[cfg(test)]
mod tests {
    use super::{may_require_input, params_as_written};

    #[test]
    fn input_request_params_are_kept_as_the_server_wrote_them() {
        let result = r#"{"resultType":"input_required","inputRequests":{
            "form":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"properties":{"zeta":{},"alpha":{}}}}},
            "roots":{"method":"roots/list"}}}"#;
        let written = params_as_written(result);
        assert_eq!(written.len(), 1, "roots/list has no params");
        let form = written["form"].get();
        assert!(
            form.find("zeta").unwrap() < form.find("alpha").unwrap(),
            "{form}"
        );
        assert!(params_as_written("not json").is_empty());
    }

    #[test]
    fn only_results_that_may_spell_input_required_are_parsed_again() {
        assert!(!may_require_input(
            r#"{"resultType":"complete","content":[]}"#
        ));
        assert!(!may_require_input(
            r#"{"content":[{"type":"text","text":"hi"}]}"#
        ));
        assert!(may_require_input(r#"{"resultType":"input_required"}"#));
        // Complete in its first member: not scanned, whatever its text holds.
        assert!(!may_require_input(
            r#"{"resultType":"complete","content":[{"type":"text","text":"input_required \\u"}]}"#
        ));
        // Not quite that member: scanned.
        assert!(may_require_input(
            r#"{"resultType":"completed","x":"input_required"}"#
        ));
        assert!(may_require_input(
            r#"{ "resultType":"complete","x":"input_required"}"#
        ));
        // An escape could spell it: parsed, to be sure.
        assert!(may_require_input(r#"{"resultType":"input\u005frequired"}"#));
    }
}
