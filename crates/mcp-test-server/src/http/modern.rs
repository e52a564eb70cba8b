//! POST `/mcp` at revision 2026-07-28: no session, the request headers checked against the
//! body, HTTP statuses for the modern errors, and a closed reply stream cancelling.
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http>

use hyper::header::HeaderValue;
use hyper::{HeaderMap, Response, StatusCode};
use mcp_types::{ErrorObject, RequestId, encode_error_response, error_codes};
use serde_json::Value;

use super::body::{self, Body};
use super::post::{is_answer, pump_events};
use super::reply;
use super::streamable::Streamable;
use crate::modern::{
    self, HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION,
};
use crate::options::{Era, ServerOptions};
use crate::sink::Sink;

/// Whether a POST body is served in the modern era: every body with `--era modern`; with
/// `--era dual`, a single message whose `_meta` names a protocol version.
pub(crate) fn is_modern_body(options: &ServerOptions, body: &Value) -> bool {
    match options.era {
        Era::Legacy => false,
        Era::Modern => true,
        Era::Dual => {
            let method = body
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let params = body.get("params").unwrap_or(&Value::Null);
            modern::is_modern(options, method, params)
        }
    }
}

impl Streamable {
    pub(crate) async fn post_modern(
        &self,
        headers: &HeaderMap,
        bytes: &[u8],
        body: &Value,
    ) -> Response<Body> {
        let Some(server) = &self.modern else {
            return reply::text(StatusCode::INTERNAL_SERVER_ERROR, "no modern server");
        };
        let (Some(message), Some(method)) =
            (body.as_object(), body.get("method").and_then(Value::as_str))
        else {
            return reply::rpc_error(
                StatusCode::BAD_REQUEST,
                error_codes::INVALID_REQUEST,
                "Invalid Request: at revision 2026-07-28 a POST carries one request or \
                 notification (no batches, no responses)",
            );
        };
        let Some(id) = message.get("id") else {
            // A notification (the core protocol defines none for HTTP at 2026-07-28; a
            // `notifications/cancelled` is stdio's, closing the stream replaces it here):
            // accepted and recorded, without effect.
            server.note_notification(bytes);
            return reply::status(StatusCode::ACCEPTED);
        };
        let id: Option<RequestId> = serde_json::from_value(id.clone()).ok();
        let params = message.get("params").unwrap_or(&Value::Null);
        let schema = (method == "tools/call")
            .then(|| params.get("name").and_then(Value::as_str))
            .flatten()
            .and_then(input_schema);
        let checked = modern::check(&self.options, method, params)
            .and_then(|_| modern::headers::check(headers, method, params, schema.as_ref()));
        if let Err(error) = checked {
            let mut buf = Vec::new();
            encode_error_response(&mut buf, id.as_ref(), &error);
            return reply::json(status_of(&error), buf);
        }
        let (sink, mut rx) = Sink::channel();
        server.handle(bytes, &sink);
        drop(sink);
        // `--sse-replies` opens the stream at once; otherwise the first frame decides: a
        // lone answer goes back as JSON (with the status its error calls for), anything
        // said before it turns the reply into an SSE stream.
        let first = if self.options.sse_replies {
            None
        } else {
            let Some(first) = rx.recv().await else {
                return reply::status(StatusCode::ACCEPTED);
            };
            if is_answer(&first) {
                let status = serde_json::from_slice::<Value>(&first)
                    .ok()
                    .and_then(|v| v.pointer("/error/code").and_then(Value::as_i64))
                    .map_or(StatusCode::OK, code_status);
                return reply::json(status, first);
            }
            Some(first)
        };
        let (tx, stream) = body::channel();
        tokio::spawn(pump_events(first, rx, tx, None));
        let mut response = reply::event_stream(stream);
        response
            .headers_mut()
            .insert("x-accel-buffering", HeaderValue::from_static("no"));
        response
    }
}

/// The tool's `inputSchema`, to find its `x-mcp-header` parameters.
fn input_schema(name: &str) -> Option<Value> {
    modern::tools::definitions()
        .into_iter()
        .chain(crate::tools::definitions(true))
        .find(|t| t["name"] == name)
        .map(|t| t["inputSchema"].clone())
}

fn status_of(error: &ErrorObject) -> StatusCode {
    match error.code {
        // A malformed modern request (a required `_meta` field missing) is a 400 too.
        error_codes::INVALID_PARAMS => StatusCode::BAD_REQUEST,
        code => code_status(code),
    }
}

/// The HTTP status of a JSON-RPC error at 2026-07-28.
fn code_status(code: i64) -> StatusCode {
    match code {
        HEADER_MISMATCH | MISSING_CLIENT_CAPABILITY | UNSUPPORTED_PROTOCOL_VERSION => {
            StatusCode::BAD_REQUEST
        }
        error_codes::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        _ => StatusCode::OK,
    }
}
