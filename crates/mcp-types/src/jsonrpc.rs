//! JSON-RPC 2.0 envelopes: what goes on the wire around every MCP message.
//!
//! Incoming bytes are classified by [`Message::from_slice`] (one object) or
//! [`Frame::from_slice`] (one object or a batch). Parameters and results stay as raw JSON
//! ([`RawValue`]) so the hot path never builds a `serde_json::Value` tree: the caller decodes
//! a result once, into the type it wants.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use crate::response_head::{is_ws, response_head};
use crate::{RawResult, RequestId};

/// The only JSON-RPC version there is.
pub const JSONRPC_VERSION: &str = "2.0";

/// A request: a method call that expects a response with the same id.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Request {
    /// Correlation id, unique among the sender's outstanding requests.
    pub id: RequestId,
    /// Method name, e.g. `tools/call`.
    pub method: String,
    /// Raw parameters, if any.
    pub params: Option<Box<RawValue>>,
}

impl Request {
    /// A request with the given id, method and raw parameters.
    pub fn new(id: RequestId, method: impl Into<String>, params: Option<Box<RawValue>>) -> Self {
        Self {
            id,
            method: method.into(),
            params,
        }
    }
}

/// A notification: a method call without an id, never answered.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Notification {
    /// Method name, e.g. `notifications/progress`.
    pub method: String,
    /// Raw parameters, if any.
    pub params: Option<Box<RawValue>>,
}

impl Notification {
    /// A notification with the given method and raw parameters.
    pub fn new(method: impl Into<String>, params: Option<Box<RawValue>>) -> Self {
        Self {
            method: method.into(),
            params,
        }
    }
}

/// A successful response.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Response {
    /// The id of the request this answers.
    pub id: RequestId,
    /// The raw result; decode it into the type the request expects.
    pub result: RawResult,
}

impl Response {
    /// A successful response.
    pub fn new(id: RequestId, result: impl Into<RawResult>) -> Self {
        Self {
            id,
            result: result.into(),
        }
    }
}

/// A failed response. Its id is `None` when the peer could not read the request's id
/// (for example after a parse error).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ErrorResponse {
    /// The id of the request this answers, when known.
    pub id: Option<RequestId>,
    /// What went wrong.
    pub error: ErrorObject,
}

impl ErrorResponse {
    /// A failed response.
    pub fn new(id: Option<RequestId>, error: ErrorObject) -> Self {
        Self { id, error }
    }
}

/// The `error` member of a failed response.
///
/// ```
/// use mcp_types::{ErrorObject, error_codes};
/// let e = ErrorObject::new(error_codes::METHOD_NOT_FOUND, "Method not found");
/// assert_eq!(e.to_string(), "MCP error -32601: Method not found");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ErrorObject {
    /// Error code; see [`crate::error_codes`].
    pub code: i64,
    /// Short description.
    pub message: String,
    /// Additional information, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

impl ErrorObject {
    /// An error object without data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// The same error with `data` attached.
    #[must_use]
    pub fn with_data(mut self, data: serde_json::Value) -> Self {
        self.data = Some(data);
        self
    }

    /// `-32601 Method not found`, naming the method.
    pub fn method_not_found(method: &str) -> Self {
        Self::new(
            crate::error_codes::METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
        )
    }
}

impl fmt::Display for ErrorObject {
    /// `MCP error CODE: MESSAGE`. Some servers (the TypeScript SDK's) put that prefix in the
    /// message already: it is not written twice.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = format!("MCP error {}:", self.code);
        if self.message.starts_with(&prefix) {
            f.write_str(&self.message)
        } else {
            write!(f, "{prefix} {}", self.message)
        }
    }
}

impl std::error::Error for ErrorObject {}

/// Any single JSON-RPC message, classified by its members.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Message {
    /// `method` and `id`.
    Request(Request),
    /// `method` without `id`.
    Notification(Notification),
    /// `result` and `id`.
    Response(Response),
    /// `error`, with an id or `null`.
    Error(ErrorResponse),
}

/// Why bytes are not a valid JSON-RPC message.
///
/// `InvalidJson` and `InvalidErrorObject` keep serde's error as `source()`; show the whole
/// story with [`error_chain`](crate::error_chain).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MessageError {
    /// The bytes are not JSON at all.
    #[error("invalid JSON")]
    InvalidJson(#[source] serde_json::Error),
    /// Valid JSON, but not an object (a string, a number, ...).
    #[error("a JSON-RPC message must be a JSON object")]
    NotAnObject,
    /// A JSON array where one message was expected.
    #[error("unexpected JSON-RPC batch (array) where a single message was expected")]
    UnexpectedBatch,
    /// An empty batch `[]`, which JSON-RPC forbids.
    #[error("empty JSON-RPC batch")]
    EmptyBatch,
    /// `jsonrpc` is missing.
    #[error("missing \"jsonrpc\": \"2.0\" member")]
    MissingVersion,
    /// `jsonrpc` is something other than `"2.0"`.
    #[error("unsupported JSON-RPC version {0}")]
    WrongVersion(String),
    /// A request or success response with `"id": null`.
    #[error("id must not be null")]
    NullId,
    /// An id that is neither an integer nor a string.
    #[error("invalid id {0}")]
    InvalidId(String),
    /// A response carrying both `result` and `error`.
    #[error("response has both \"result\" and \"error\"")]
    ResultAndError,
    /// A `method` beside a `result` or an `error`: neither a request nor a response. (Had
    /// `method` won, a reply written after `result` would read as a request while one with
    /// `result` first reads as a response: the fuzz target `message` found the two paths
    /// disagreeing.)
    #[error("message has both \"method\" and \"result\" or \"error\"")]
    MethodAndResult,
    /// A response without an id.
    #[error("response has no id")]
    MissingId,
    /// An `error` member that is not a valid error object.
    #[error("invalid error object")]
    InvalidErrorObject(#[source] serde_json::Error),
    /// An object with neither `method` nor `result`/`error`.
    #[error("not a request, notification or response (no \"method\", \"result\" or \"error\")")]
    Unclassifiable,
}

/// One JSON text read from the wire: a single message or a batch (2025-03-26 only).
#[derive(Debug)]
#[non_exhaustive]
pub enum Frame {
    /// One message.
    Single(Message),
    /// A batch; each element classified on its own, so one bad element loses no others.
    Batch(Vec<Result<Message, MessageError>>),
}

impl Frame {
    /// Classify a JSON text that may be an object or a batch array.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, MessageError> {
        match first_significant_byte(bytes) {
            Some(b'[') => {
                let items: Vec<&RawValue> =
                    serde_json::from_slice(bytes).map_err(MessageError::InvalidJson)?;
                if items.is_empty() {
                    return Err(MessageError::EmptyBatch);
                }
                Ok(Self::Batch(
                    items
                        .into_iter()
                        .map(|raw| Message::from_slice(raw.get().as_bytes()))
                        .collect(),
                ))
            }
            _ => Message::from_slice(bytes).map(Self::Single),
        }
    }

    /// Like [`from_slice`](Self::from_slice), taking ownership of the text: a single
    /// response keeps its `result` in `text` instead of copying it out (see [`RawResult`]).
    pub fn from_string(text: String) -> Result<Self, MessageError> {
        match first_significant_byte(text.as_bytes()) {
            Some(b'[') => Self::from_slice(text.as_bytes()),
            _ => Message::from_string(text).map(Self::Single),
        }
    }

    /// [`from_string`](Self::from_string) for bytes read off the wire. Bytes that are not
    /// UTF-8 are reported exactly as [`from_slice`](Self::from_slice) reports them.
    pub fn from_vec(bytes: Vec<u8>) -> Result<Self, MessageError> {
        Self::from_vec_keep(bytes).map_err(|(e, _)| e)
    }

    /// [`from_vec`](Self::from_vec) that hands the bytes back with the error, so a caller
    /// can still read what it needs from a message that does not decode (its id:
    /// [`peek_id`](crate::peek_id)).
    pub fn from_vec_keep(bytes: Vec<u8>) -> Result<Self, (MessageError, Vec<u8>)> {
        match String::from_utf8(bytes) {
            Ok(text) => Self::from_string_keep(text).map_err(|(e, text)| (e, text.into_bytes())),
            Err(e) => {
                let bytes = e.into_bytes();
                Self::from_slice(&bytes).map_err(|e| (e, bytes))
            }
        }
    }

    /// [`from_string`](Self::from_string) that hands the text back with the error, like
    /// [`from_vec_keep`](Self::from_vec_keep): for a transport that already holds the frame
    /// as text (checked as UTF-8 while it arrived), so it is not checked again.
    pub fn from_string_keep(text: String) -> Result<Self, (MessageError, String)> {
        match first_significant_byte(text.as_bytes()) {
            Some(b'[') => Self::from_slice(text.as_bytes()).map_err(|e| (e, text)),
            _ => Message::from_string_keep(text).map(Self::Single),
        }
    }
}

fn first_significant_byte(bytes: &[u8]) -> Option<u8> {
    bytes.iter().copied().find(|b| !is_ws(*b))
}

/// The members we look at, borrowed from the input so nothing is copied twice.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

/// Distinguishes a member that is present with `null` (`Some("null")`) from an absent one
/// (`None`, through `#[serde(default)]`); plain `Option` would fold both into `None`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

fn is_null(raw: &RawValue) -> bool {
    raw.get() == "null"
}

fn parse_id(raw: &RawValue) -> Result<RequestId, MessageError> {
    if is_null(raw) {
        return Err(MessageError::NullId);
    }
    serde_json::from_str(raw.get()).map_err(|_| MessageError::InvalidId(raw.get().to_owned()))
}

fn owned_params(raw: Option<&RawValue>) -> Option<Box<RawValue>> {
    raw.filter(|r| !is_null(r)).map(ToOwned::to_owned)
}

impl Message {
    /// Classify one JSON object as a request, notification, response or error response.
    ///
    /// ```
    /// use mcp_types::{Message, MessageError};
    /// let m = Message::from_slice(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#).unwrap();
    /// assert!(matches!(m, Message::Response(_)));
    /// let e = Message::from_slice(br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#);
    /// assert!(matches!(e, Err(MessageError::NullId)));
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Self, MessageError> {
        Ok(match classify(Input::Bytes(bytes))? {
            Classified::Response { id, result } => Self::Response(Response {
                id,
                result: RawResult::from(result.to_owned()),
            }),
            Classified::Other(message) => message,
        })
    }

    /// Like [`from_slice`](Self::from_slice), taking ownership of the text: a response keeps
    /// its `result` in `text` instead of copying it out (see [`RawResult`]).
    pub fn from_string(text: String) -> Result<Self, MessageError> {
        Self::from_string_keep(text).map_err(|(e, _)| e)
    }

    /// [`from_string`](Self::from_string) that hands the text back with the error.
    fn from_string_keep(text: String) -> Result<Self, (MessageError, String)> {
        // The usual response shape skips the full parse: see `response_head.rs`.
        if let Some((id, guess)) = response_head(&text) {
            return Ok(Self::Response(Response {
                id,
                result: RawResult::from_guess(text, guess),
            }));
        }
        let (id, span) = match classify(Input::Text(&text)) {
            Ok(Classified::Response { id, result }) => (id, span_in(&text, result)),
            Ok(Classified::Other(message)) => return Ok(message),
            Err(e) => return Err((e, text)),
        };
        Ok(Self::Response(Response {
            id,
            result: RawResult::from_span(text, span),
        }))
    }

    /// Serialize this message as one line of JSON (no trailing newline).
    pub fn to_json(&self) -> String {
        let mut buf = Vec::with_capacity(128);
        match self {
            Self::Request(r) => encode_request(&mut buf, &r.id, &r.method, r.params.as_deref()),
            Self::Notification(n) => encode_notification(&mut buf, &n.method, n.params.as_deref()),
            Self::Response(r) => encode_raw_response(&mut buf, &r.id, r.result.get()),
            Self::Error(e) => encode_error_response(&mut buf, e.id.as_ref(), &e.error),
        }
        // Serde only ever writes valid UTF-8.
        String::from_utf8(buf).unwrap_or_default()
    }
}

/// A classified message whose response result still borrows from the input.
enum Classified<'a> {
    Response { id: RequestId, result: &'a RawValue },
    Other(Message),
}

/// Where `value`, borrowed from `text`, lies in it.
fn span_in(text: &str, value: &RawValue) -> Range<usize> {
    let start = value.get().as_ptr() as usize - text.as_ptr() as usize;
    start..start + value.get().len()
}

/// The span of the `result` of the response `text`, by the full parse; `None` when `text` is
/// not a valid response.
pub(crate) fn result_span(text: &str) -> Option<Range<usize>> {
    match classify(Input::Text(text)) {
        Ok(Classified::Response { result, .. }) => Some(span_in(text, result)),
        _ => None,
    }
}

/// What to classify: bytes, or text already known to be UTF-8 (which serde_json then does
/// not check again).
#[derive(Clone, Copy)]
enum Input<'a> {
    Bytes(&'a [u8]),
    Text(&'a str),
}

impl<'a> Input<'a> {
    fn bytes(self) -> &'a [u8] {
        match self {
            Self::Bytes(b) => b,
            Self::Text(t) => t.as_bytes(),
        }
    }

    fn parse<T: Deserialize<'a>>(self) -> Result<T, serde_json::Error> {
        match self {
            Self::Bytes(b) => serde_json::from_slice(b),
            Self::Text(t) => serde_json::from_str(t),
        }
    }
}

fn classify(input: Input<'_>) -> Result<Classified<'_>, MessageError> {
    let bytes = input.bytes();
    match first_significant_byte(bytes) {
        Some(b'{') => {}
        Some(b'[') => return Err(MessageError::UnexpectedBatch),
        _ => {
            // Distinguish "not JSON" from "JSON but not an object".
            return match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
                Ok(_) => Err(MessageError::NotAnObject),
                Err(e) => Err(MessageError::InvalidJson(e)),
            };
        }
    }
    let env: Envelope<'_> = input.parse().map_err(MessageError::InvalidJson)?;
    match env.jsonrpc {
        None => return Err(MessageError::MissingVersion),
        Some(v) if v.get() != "\"2.0\"" => {
            return Err(MessageError::WrongVersion(v.get().to_owned()));
        }
        Some(_) => {}
    }
    if env.method.is_some() && (env.result.is_some() || env.error.is_some()) {
        return Err(MessageError::MethodAndResult);
    }
    if let Some(method) = env.method {
        let params = owned_params(env.params);
        return Ok(Classified::Other(match env.id {
            Some(id) => Message::Request(Request {
                id: parse_id(id)?,
                method: method.into_owned(),
                params,
            }),
            None => Message::Notification(Notification {
                method: method.into_owned(),
                params,
            }),
        }));
    }
    match (env.result, env.error) {
        (Some(_), Some(_)) => Err(MessageError::ResultAndError),
        (Some(result), None) => {
            let id = parse_id(env.id.ok_or(MessageError::MissingId)?)?;
            Ok(Classified::Response { id, result })
        }
        (None, Some(error)) => {
            let id = match env.id {
                None => return Err(MessageError::MissingId),
                Some(raw) if is_null(raw) => None,
                Some(raw) => Some(parse_id(raw)?),
            };
            let error: ErrorObject =
                serde_json::from_str(error.get()).map_err(MessageError::InvalidErrorObject)?;
            Ok(Classified::Other(Message::Error(ErrorResponse {
                id,
                error,
            })))
        }
        (None, None) => Err(MessageError::Unclassifiable),
    }
}

#[derive(Serialize)]
struct OutError<'a> {
    jsonrpc: &'static str,
    id: Option<&'a RequestId>,
    error: &'a ErrorObject,
}

fn write_json<T: Serialize>(buf: &mut Vec<u8>, value: &T) {
    // Writing these borrowed envelopes to a Vec cannot fail: every member is already JSON.
    let _ = serde_json::to_writer(buf, value);
}

/// Append a request to `buf` as compact JSON, without building an owned [`Request`].
pub fn encode_request(buf: &mut Vec<u8>, id: &RequestId, method: &str, params: Option<&RawValue>) {
    // Written by hand, members in the order a derived `Serialize` would write them: the
    // derived impl went through serde's map machinery for each member, a measurable share of
    // a small call's instructions (docs/performance.md).
    buf.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    write_json(buf, id);
    write_method_and_params(buf, method, params);
}

/// Append a notification to `buf` as compact JSON.
pub fn encode_notification(buf: &mut Vec<u8>, method: &str, params: Option<&RawValue>) {
    buf.extend_from_slice(b"{\"jsonrpc\":\"2.0\"");
    write_method_and_params(buf, method, params);
}

/// `,"method":…[,"params":…]}`: the end of a request or notification.
fn write_method_and_params(buf: &mut Vec<u8>, method: &str, params: Option<&RawValue>) {
    buf.extend_from_slice(b",\"method\":");
    write_json(buf, &method);
    if let Some(params) = params {
        buf.extend_from_slice(b",\"params\":");
        buf.extend_from_slice(params.get().as_bytes());
    }
    buf.push(b'}');
}

/// Append a success response to `buf` as compact JSON.
pub fn encode_response(buf: &mut Vec<u8>, id: &RequestId, result: &RawValue) {
    encode_raw_response(buf, id, result.get());
}

/// A success response around `result`, JSON text (a `RawValue`'s, or a [`RawResult`]'s),
/// written by hand as the other envelopes are.
fn encode_raw_response(buf: &mut Vec<u8>, id: &RequestId, result: &str) {
    buf.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    write_json(buf, id);
    buf.extend_from_slice(b",\"result\":");
    buf.extend_from_slice(result.as_bytes());
    buf.push(b'}');
}

/// Append an error response to `buf` as compact JSON (`"id": null` when `id` is `None`).
pub fn encode_error_response(buf: &mut Vec<u8>, id: Option<&RequestId>, error: &ErrorObject) {
    write_json(
        buf,
        &OutError {
            jsonrpc: JSONRPC_VERSION,
            id,
            error,
        },
    );
}

/// Serialize `value` to raw JSON for use as params or a result.
pub fn to_raw<T: Serialize + ?Sized>(value: &T) -> Result<Box<RawValue>, serde_json::Error> {
    serde_json::value::to_raw_value(value)
}

/// The empty object `{}`, the result of `ping` and of many acknowledgements.
pub fn empty_object() -> Box<RawValue> {
    // "{}" is valid JSON, so this never fails.
    RawValue::from_string("{}".to_owned()).unwrap_or_else(|_| unreachable!())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_message_that_has_the_prefix_already_gets_it_once() {
        let typescript = ErrorObject::new(-32602, "MCP error -32602: Tool nosuch not found");
        assert_eq!(
            typescript.to_string(),
            "MCP error -32602: Tool nosuch not found"
        );
        // Another code's prefix is the server's text, kept.
        let other = ErrorObject::new(-32603, "MCP error -32602: x");
        assert_eq!(other.to_string(), "MCP error -32603: MCP error -32602: x");
    }

    #[test]
    fn envelopes_are_written_exactly() {
        let raw = |s: &str| RawValue::from_string(s.to_owned()).unwrap();
        let mut buf = Vec::new();
        encode_request(
            &mut buf,
            &RequestId::Number(-7),
            "tools/call",
            Some(&raw(r#"{"a":1}"#)),
        );
        assert_eq!(
            String::from_utf8(std::mem::take(&mut buf)).unwrap(),
            r#"{"jsonrpc":"2.0","id":-7,"method":"tools/call","params":{"a":1}}"#
        );
        encode_request(&mut buf, &RequestId::String("a\"b".into()), "m\n", None);
        assert_eq!(
            String::from_utf8(std::mem::take(&mut buf)).unwrap(),
            r#"{"jsonrpc":"2.0","id":"a\"b","method":"m\n"}"#
        );
        encode_notification(&mut buf, "notifications/initialized", None);
        assert_eq!(
            String::from_utf8(std::mem::take(&mut buf)).unwrap(),
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        );
        encode_response(&mut buf, &RequestId::Number(1), &raw("[]"));
        assert_eq!(
            String::from_utf8(std::mem::take(&mut buf)).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":[]}"#
        );
    }

    fn classify(s: &str) -> Result<Message, MessageError> {
        Message::from_slice(s.as_bytes())
    }

    #[test]
    fn classifies_the_four_kinds() {
        assert!(
            matches!(classify(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), Ok(Message::Request(r)) if r.id == RequestId::Number(1) && r.params.is_none())
        );
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Ok(Message::Notification(_))
        ));
        assert!(
            matches!(classify(r#"{"jsonrpc":"2.0","id":"a","result":{"x":1}}"#), Ok(Message::Response(r)) if r.result.get() == r#"{"x":1}"#)
        );
        assert!(
            matches!(classify(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#), Ok(Message::Error(e)) if e.id.is_none() && e.error.code == -32700)
        );
    }

    #[test]
    fn rejects_malformed_envelopes_with_precise_errors() {
        assert!(matches!(
            classify(r#"{"id":1,"method":"ping"}"#),
            Err(MessageError::MissingVersion)
        ));
        assert!(matches!(
            classify(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#),
            Err(MessageError::WrongVersion(_))
        ));
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            Err(MessageError::NullId)
        ));
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","id":null,"result":{}}"#),
            Err(MessageError::NullId)
        ));
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#),
            Err(MessageError::InvalidId(_))
        ));
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","id":{},"result":{}}"#),
            Err(MessageError::InvalidId(_))
        ));
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#),
            Err(MessageError::ResultAndError)
        ));
        for both in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":7,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","error":{"code":1,"message":"x"}}"#,
        ] {
            assert!(
                matches!(classify(both), Err(MessageError::MethodAndResult)),
                "{both}"
            );
        }
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","result":{}}"#),
            Err(MessageError::MissingId)
        ));
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}"#),
            Err(MessageError::InvalidErrorObject(_))
        ));
        assert!(matches!(
            classify(r#"{"jsonrpc":"2.0","id":1}"#),
            Err(MessageError::Unclassifiable)
        ));
        assert!(matches!(
            classify(r#"[{"jsonrpc":"2.0","method":"a"}]"#),
            Err(MessageError::UnexpectedBatch)
        ));
        assert!(matches!(classify("42"), Err(MessageError::NotAnObject)));
        assert!(matches!(
            classify(r#""hello""#),
            Err(MessageError::NotAnObject)
        ));
        assert!(matches!(
            classify("{not json"),
            Err(MessageError::InvalidJson(_))
        ));
        assert!(matches!(classify(""), Err(MessageError::InvalidJson(_))));
    }

    #[test]
    fn batches_classify_each_element() {
        let frame = Frame::from_slice(
            br#"[{"jsonrpc":"2.0","method":"a"}, 3, {"jsonrpc":"2.0","id":2,"result":null}]"#,
        )
        .unwrap();
        let Frame::Batch(items) = frame else {
            panic!("expected a batch")
        };
        assert_eq!(items.len(), 3);
        assert!(matches!(items[0], Ok(Message::Notification(_))));
        assert!(matches!(items[1], Err(MessageError::NotAnObject)));
        assert!(matches!(items[2], Ok(Message::Response(_))));
        assert!(matches!(
            Frame::from_slice(b"[]"),
            Err(MessageError::EmptyBatch)
        ));
    }

    #[test]
    fn escaped_method_names_are_decoded() {
        let m = classify(r#"{"jsonrpc":"2.0","method":"tools\/list","id":3}"#).unwrap();
        assert!(matches!(m, Message::Request(r) if r.method == "tools/list"));
    }

    #[test]
    fn encoding_round_trips() {
        let params = to_raw(&serde_json::json!({"name": "echo"})).unwrap();
        let mut buf = Vec::new();
        encode_request(
            &mut buf,
            &RequestId::from("x-1"),
            "tools/call",
            Some(&params),
        );
        assert_eq!(
            std::str::from_utf8(&buf).unwrap(),
            r#"{"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{"name":"echo"}}"#
        );
        let back = Message::from_slice(&buf).unwrap();
        assert_eq!(back.to_json().as_bytes(), &buf[..]);

        let err = Message::Error(ErrorResponse::new(
            None,
            ErrorObject::new(-32700, "Parse error"),
        ));
        assert_eq!(
            err.to_json(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
        );
        assert_eq!(empty_object().get(), "{}");
    }

    #[test]
    fn from_string_classifies_like_from_slice() {
        let cases = [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
            r#" {"result" : [1, "é\"}"] ,"id":"a","jsonrpc":"2.0"} "#,
        ];
        for text in cases {
            let owned = Message::from_string(text.to_owned()).unwrap();
            let borrowed = classify(text).unwrap();
            assert_eq!(owned.to_json(), borrowed.to_json(), "{text}");
        }
        let Ok(Message::Response(r)) = Message::from_string(cases[3].to_owned()) else {
            panic!("not a response");
        };
        assert_eq!(r.result.get(), r#"[1, "é\"}"]"#);
        assert_eq!(
            Message::from_string(cases[3].to_owned()).unwrap().to_json(),
            r#"{"jsonrpc":"2.0","id":"a","result":[1, "é\"}"]}"#
        );
        for bad in [
            "",
            "[]",
            "{\"jsonrpc\":\"2.0\",\"id\":1}",
            "{\"id\":1,\"result\":1}",
        ] {
            assert_eq!(
                Message::from_string(bad.to_owned())
                    .unwrap_err()
                    .to_string(),
                classify(bad).unwrap_err().to_string(),
                "{bad}"
            );
        }
    }

    #[test]
    fn frame_from_string_takes_batches_too() {
        let batch = r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"x"}]"#;
        let Ok(Frame::Batch(items)) = Frame::from_string(batch.to_owned()) else {
            panic!("not a batch");
        };
        assert!(matches!(&items[0], Ok(Message::Response(r)) if r.result.get() == "{}"));
        assert!(matches!(items[1], Ok(Message::Notification(_))));
        assert!(matches!(
            Frame::from_string(r#"{"jsonrpc":"2.0","id":2,"result":null}"#.to_owned()),
            Ok(Frame::Single(Message::Response(r))) if r.result.get() == "null"
        ));
    }
}
