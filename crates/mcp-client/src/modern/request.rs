//! One request at 2026-07-28: refused locally when the revision removed its method, sent
//! with the request `_meta` (and on HTTP the mirrored headers), and, for the methods that
//! may answer `input_required`, retried with the answers to the server's input requests
//! and its exact `requestState`, under a new id each round, until the result is complete
//! (bounded by [`ClientOptions::with_max_input_rounds`](crate::ClientOptions::with_max_input_rounds)),
//! each round's input requests within their own bounds (`input_bounds.rs`).

use crate::{Error, SessionError};
use mcp_jsonrpc::{RequestOptions, Session};
use mcp_types::mrtr::{INPUT_REQUIRED_METHODS, InputRequiredResult, InputResponses, ResultKind};
use mcp_types::{RawResult, RawValue, Request, RequestId, methods};
use serde_json::Value;
use std::collections::BTreeMap;

use super::{ModernMeta, ToolHeaders, request_headers};
use crate::dispatcher::Dispatcher;

/// What a modern connection keeps beside the session.
#[derive(Debug)]
pub(crate) struct Modern {
    pub(crate) version: String,
    pub(crate) meta: ModernMeta,
    /// Streamable HTTP: mirror requests into headers.
    pub(crate) http: bool,
    pub(crate) tool_headers: ToolHeaders,
}

impl Modern {
    /// The typed refusal of a method this revision removed, before any I/O.
    pub(crate) fn refuse_removed(&self, method: &str) -> Result<(), Error> {
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
        session: &Session,
        dispatcher: &Dispatcher,
        method: &str,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
    ) -> Result<RawResult, Error> {
        self.refuse_removed(method)?;
        let params = self.meta.params(params.as_deref())?;
        self.request_with_meta(session, dispatcher, method, params, options)
            .await
    }

    /// [`request`](Self::request) with params that already carry our `_meta`
    /// ([`ModernMeta::encode_with_meta`](super::ModernMeta::encode_with_meta)).
    pub(crate) async fn request_with_meta(
        &self,
        session: &Session,
        dispatcher: &Dispatcher,
        method: &str,
        mut params: Box<RawValue>,
        options: RequestOptions,
    ) -> Result<RawResult, Error> {
        self.refuse_removed(method)?;
        let headers = if self.http {
            // The headers mirror fields of the params: read them back (HTTP only, where a
            // round trip costs far more than this parse).
            let object = object_of(&params)?;
            let tool_params = match (method, object.get("name").and_then(Value::as_str)) {
                // A tool left out for its annotations is refused here, before any I/O.
                (methods::TOOLS_CALL, Some(name)) => self.tool_headers.for_call(name)?,
                _ => None,
            };
            request_headers(method, &object, tool_params.as_deref().unwrap_or_default())
        } else {
            Vec::new()
        };
        let multi_round = INPUT_REQUIRED_METHODS.contains(&method);
        let max_rounds = dispatcher.options().max_input_rounds;
        let mut rounds = 0;
        loop {
            let raw = self
                .send(session, method, &params, &options, &headers)
                .await?;
            // Screened on the text as it arrived: `get()` would check the value with a full
            // parse first, the very cost this screen avoids.
            if !multi_round || !may_require_input(raw.unchecked_text()) {
                return Ok(raw);
            }
            let kind: ResultKind = crate::client::decode(method, &raw)?;
            if !kind.is_input_required() {
                return Ok(raw);
            }
            if rounds >= max_rounds {
                return Err(Error::InputRoundsExceeded {
                    method: method.to_owned(),
                    rounds,
                });
            }
            rounds += 1;
            // Counted and measured on the text, before a single request is decoded.
            dispatcher
                .options()
                .input_bounds
                .check(raw.get())
                .map_err(|bound| Error::InputRequestsRefused {
                    method: method.to_owned(),
                    bound,
                })?;
            let input: InputRequiredResult = crate::client::decode(method, &raw)?;
            let as_written = params_as_written(raw.unchecked_text());
            let responses = answer_all(dispatcher, method, &input, &as_written, &options).await?;
            // Only what this answer asked for goes into the retry: a previous round's
            // responses and state are replaced, never carried over.
            let mut object = object_of(&params)?;
            object.remove("inputResponses");
            object.remove("requestState");
            if input.input_requests.is_some() {
                object.insert("inputResponses".into(), Value::Object(responses));
            }
            if let Some(state) = input.request_state {
                object.insert("requestState".into(), Value::String(state));
            }
            params = crate::client::encode(&object)?;
            tracing::debug!(target: "mcp::client", method, rounds, "retrying with the requested input");
        }
    }
}

impl Modern {
    /// One round: a request with a new id. Over HTTP a reply stream that broke before the
    /// answer (2026-07-28 streams are not resumable) is re-issued once, with a new id.
    async fn send(
        &self,
        session: &Session,
        method: &str,
        params: &RawValue,
        options: &RequestOptions,
        headers: &[(String, String)],
    ) -> Result<RawResult, Error> {
        let attempts = if self.http { 2 } else { 1 };
        let mut outcome = Err(SessionError::closed());
        for attempt in 0..attempts {
            let mut round_options = options.clone();
            round_options.transport_headers = headers.to_vec();
            outcome = session
                .request(method, Some(params.to_owned()), round_options)
                .await;
            match &outcome {
                Err(SessionError::NoResponse { id }) if attempt + 1 < attempts => {
                    tracing::debug!(target: "mcp::client", method, %id, "reply stream broke; re-issuing the request");
                }
                _ => break,
            }
        }
        Ok(outcome?)
    }
}

/// Whether `result` may be `input_required`: its text holds that word, or a `\\u` escape
/// that could spell it. Most results do not, and this check (a SIMD substring search)
/// spares them a second full parse just to read `resultType`: for a 1 MB result that parse
/// was the largest cost of a 2026-07-28 call. (A `resultType` that is not a string then
/// goes unnoticed; the result is treated as complete, as any other unknown value is.)
fn may_require_input(result: &str) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
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
        let answer = dispatcher.answer(synthetic);
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
        // An escape could spell it: parsed, to be sure.
        assert!(may_require_input(r#"{"resultType":"input\u005frequired"}"#));
    }
}
