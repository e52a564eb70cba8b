//! Multi round-trip requests (2026-07-28, `basic/patterns/mrtr`): a result's `resultType`,
//! the `input_required` result, and the `inputResponses` a client retries with.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `resultType` of a complete result (also what an absent `resultType` means).
pub const RESULT_TYPE_COMPLETE: &str = "complete";
/// `resultType` of an [`InputRequiredResult`].
pub const RESULT_TYPE_INPUT_REQUIRED: &str = "input_required";

/// The methods a server may answer with an [`InputRequiredResult`].
pub const INPUT_REQUIRED_METHODS: &[&str] = &[
    crate::methods::TOOLS_CALL,
    crate::methods::PROMPTS_GET,
    crate::methods::RESOURCES_READ,
];

/// The part of any result that says how to read the rest: `resultType`, absent meaning
/// `"complete"` (results of legacy servers have none).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResultKind {
    /// As sent; see [`ResultKind::is_input_required`].
    #[serde(default)]
    pub result_type: Option<String>,
}

impl ResultKind {
    /// Whether the result asks for input before the request can complete.
    pub fn is_input_required(&self) -> bool {
        self.result_type.as_deref() == Some(RESULT_TYPE_INPUT_REQUIRED)
    }
}

/// One request of the server inside an [`InputRequiredResult`]: `elicitation/create`,
/// `sampling/createMessage` or `roots/list`, with its params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct InputRequest {
    /// The method the client answers as if the server had sent it as a request.
    pub method: String,
    /// Its params, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

/// `resultType: "input_required"`: the server needs the answers to `input_requests` (keyed by
/// its own ids) before it can complete; the client retries the original request with them
/// as `inputResponses` and the exact `request_state`, under a new id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InputRequiredResult {
    /// The requests to answer, keyed by the server's ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<Map<String, Value>>,
    /// Opaque: echoed back byte for byte, never inspected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}

impl InputRequiredResult {
    /// The input requests, decoded; a malformed entry is an error naming its key.
    pub fn requests(&self) -> Result<Vec<(String, InputRequest)>, String> {
        self.input_requests
            .iter()
            .flatten()
            .map(|(key, value)| {
                serde_json::from_value(value.clone())
                    .map(|request| (key.clone(), request))
                    .map_err(|e| format!("input request {key:?} is malformed: {e}"))
            })
            .collect()
    }
}

/// `inputResponses`: the client's result for each input request, under the same key.
pub type InputResponses = Map<String, Value>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_result_type_means_complete() {
        let kind: ResultKind = serde_json::from_str(r#"{"content":[]}"#).unwrap();
        assert!(!kind.is_input_required());
        let kind: ResultKind =
            serde_json::from_str(r#"{"resultType":"input_required","requestState":"x"}"#).unwrap();
        assert!(kind.is_input_required());
    }

    #[test]
    fn input_requests_decode_and_state_is_kept_verbatim() {
        let result: InputRequiredResult = serde_json::from_str(
            r#"{"resultType":"input_required","requestState":" AEAD blob= ",
                "inputRequests":{"login":{"method":"elicitation/create","params":{"message":"m"}},
                                 "roots":{"method":"roots/list"}}}"#,
        )
        .unwrap();
        assert_eq!(result.request_state.as_deref(), Some(" AEAD blob= "));
        let requests = result.requests().unwrap();
        assert_eq!(requests.len(), 2);
        assert!(
            requests
                .iter()
                .any(|(k, r)| k == "roots" && r.method == "roots/list")
        );
        let bad = InputRequiredResult {
            input_requests: Some(serde_json::from_str(r#"{"k":{"nomethod":1}}"#).unwrap()),
            request_state: None,
        };
        assert!(bad.requests().unwrap_err().contains("\"k\""));
    }
}
