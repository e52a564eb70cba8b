//! One request at 2026-07-28: refused locally when the revision removed its method, sent
//! with the request `_meta` (and on HTTP the mirrored headers), and, for the methods that
//! may answer `input_required`, retried with the answers to the server's input requests
//! and its exact `requestState`, under a new id each round, until the result is complete
//! (bounded by [`ClientOptions::with_max_input_rounds`](crate::ClientOptions::with_max_input_rounds)).

use crate::{Error, SessionError};
use mcp_jsonrpc::{RequestOptions, Session};
use mcp_types::mrtr::{INPUT_REQUIRED_METHODS, InputRequiredResult, InputResponses, ResultKind};
use mcp_types::{RawResult, RawValue, Request, RequestId, methods};
use serde_json::Value;

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
        let mut object = self.meta.object(params.as_deref())?;
        let tool_params = match (self.http, method) {
            (true, methods::TOOLS_CALL) => object
                .get("name")
                .and_then(Value::as_str)
                .and_then(|name| self.tool_headers.of(name)),
            _ => None,
        };
        let headers = if self.http {
            request_headers(method, &object, tool_params.as_deref().unwrap_or_default())
        } else {
            Vec::new()
        };
        let multi_round = INPUT_REQUIRED_METHODS.contains(&method);
        let max_rounds = dispatcher.options().max_input_rounds;
        let mut rounds = 0;
        loop {
            let raw = self
                .send(session, method, &object, &options, &headers)
                .await?;
            if !multi_round {
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
            let input: InputRequiredResult = crate::client::decode(method, &raw)?;
            let responses = answer_all(dispatcher, method, &input, &options).await?;
            // Only what this answer asked for goes into the retry: a previous round's
            // responses and state are replaced, never carried over.
            object.remove("inputResponses");
            object.remove("requestState");
            if input.input_requests.is_some() {
                object.insert("inputResponses".into(), Value::Object(responses));
            }
            if let Some(state) = input.request_state {
                object.insert("requestState".into(), Value::String(state));
            }
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
        object: &serde_json::Map<String, Value>,
        options: &RequestOptions,
        headers: &[(String, String)],
    ) -> Result<RawResult, Error> {
        let attempts = if self.http { 2 } else { 1 };
        let mut outcome = Err(SessionError::closed());
        for attempt in 0..attempts {
            let mut round_options = options.clone();
            round_options.transport_headers = headers.to_vec();
            outcome = session
                .request(method, Some(super::encode(object)?), round_options)
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

/// Answer every input request with the client's handlers (sampling, elicitation, roots),
/// as if the server had sent it as a request. A handler's error fails the call.
async fn answer_all(
    dispatcher: &Dispatcher,
    method: &str,
    input: &InputRequiredResult,
    options: &RequestOptions,
) -> Result<InputResponses, Error> {
    let requests = input
        .requests()
        .map_err(|e| Error::Protocol(format!("{method}: {e}")))?;
    let mut responses = InputResponses::new();
    for (key, request) in requests {
        let params = request
            .params
            .as_ref()
            .map(mcp_types::to_raw)
            .transpose()
            .map_err(|e| Error::Protocol(format!("{method}: input request {key:?}: {e}")))?;
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
