//! The record of every HTTP request, which the `http_log` tool shows so tests can check
//! the headers a client sent.

use std::sync::Mutex;

use hyper::HeaderMap;
use serde_json::{Value, json};

use crate::client_requests::lock;

/// Every HTTP request the server received, oldest first, shared by all sessions.
#[derive(Debug, Default)]
pub(crate) struct RequestLog {
    entries: Mutex<Vec<Value>>,
}

/// One request as the log shows it. Credentials are reduced to "present or not".
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) headers: Value,
    /// The JSON-RPC methods in a POST body (responses show as `"response"`).
    pub(crate) rpc: Vec<String>,
}

/// The headers worth asserting on, by their lower-case names.
const RECORDED: [&str; 5] = [
    "mcp-session-id",
    "mcp-protocol-version",
    "accept",
    "host",
    "last-event-id",
];

impl Entry {
    /// The parts of a request the log keeps.
    pub(crate) fn new(method: &str, path: &str, headers: &HeaderMap) -> Self {
        let mut recorded = serde_json::Map::new();
        for name in RECORDED {
            if let Some(value) = headers.get(name).and_then(|v| v.to_str().ok()) {
                recorded.insert(name.to_owned(), json!(value));
            }
        }
        recorded.insert(
            "authorization".to_owned(),
            json!(headers.contains_key("authorization")),
        );
        Self {
            method: method.to_owned(),
            path: path.to_owned(),
            headers: Value::Object(recorded),
            rpc: Vec::new(),
        }
    }
}

impl RequestLog {
    /// Record a request with the status it was answered with.
    pub(crate) fn push(&self, entry: Entry, status: u16) {
        lock(&self.entries).push(json!({
            "method": entry.method,
            "path": entry.path,
            "status": status,
            "headers": entry.headers,
            "rpc": entry.rpc,
        }));
    }

    /// The whole log as a JSON array.
    pub(crate) fn to_json(&self) -> Value {
        Value::Array(lock(&self.entries).clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_selected_headers_and_hides_credentials() {
        let mut headers = HeaderMap::new();
        headers.insert("authorization", "Bearer s3cret".parse().unwrap());
        headers.insert("mcp-session-id", "abc".parse().unwrap());
        headers.insert("x-other", "ignored".parse().unwrap());
        let log = RequestLog::default();
        let mut entry = Entry::new("POST", "/mcp", &headers);
        entry.rpc.push("ping".into());
        log.push(entry, 200);
        let json = log.to_json();
        let text = json.to_string();
        assert!(
            !text.contains("s3cret") && !text.contains("x-other"),
            "{text}"
        );
        assert_eq!(json[0]["headers"]["authorization"], true);
        assert_eq!(json[0]["headers"]["mcp-session-id"], "abc");
        assert_eq!(json[0]["status"], 200);
        assert_eq!(json[0]["rpc"][0], "ping");
    }
}
