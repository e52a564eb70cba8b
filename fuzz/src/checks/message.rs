//! The hand-written response-head reader and envelope writers of `mcp-types`, checked
//! against the full serde parse.
//!
//! - `Message::from_string` (fast path: `response_head`, a guessed `result` span) and
//!   `Message::from_slice` (full parse) agree on every input: same message, same id, same
//!   result text. Where the full parse rejects a message the fast path may still hand out a
//!   response (by design: its result then decodes to an error and reads `null`).
//! - A response's result decodes as a `tools/call` result the same through
//!   `decode_tool_result` and `into_tool_result` (their fast path for one text block, the
//!   second in place) as through serde.
//! - Every message that parses re-encodes (`to_json`, i.e. the hand-written encoders) to
//!   JSON equal to what serde makes of its parts, and parses back to the same message.

use mcp_types::{CallToolResult, Message, RawResult, RequestId};
use serde_json::{Value, json};

/// Run the checks on one input.
pub fn check(data: &[u8]) {
    let full = Message::from_slice(data);
    // The transports' path: owned text when it is UTF-8 (as `Frame::from_vec` does).
    let fast = match String::from_utf8(data.to_vec()) {
        Ok(text) => Message::from_string(text),
        Err(_) => Message::from_slice(data),
    };
    match (&full, fast) {
        (Ok(full), Ok(fast)) => {
            assert_eq!(
                full.to_json(),
                fast.to_json(),
                "fast and full parse disagree"
            );
            if let (Message::Response(a), Message::Response(b)) = (full, &fast) {
                assert_eq!(a.id, b.id);
                let (x, y): (Result<Value, _>, Result<Value, _>) =
                    (a.result.decode(), b.result.clone().decode());
                assert_eq!(x.ok(), y.ok(), "results decode differently");
                tool_result_paths_agree(&a.result);
                tool_result_paths_agree(&b.result);
            }
            encoders_agree_with_serde(full);
        }
        (Err(_), Err(_)) => {}
        (Err(e), Ok(Message::Response(r))) => {
            // The fast path's guess: it must turn out malformed whichever way it is read.
            let decoded: Result<Value, _> = r.result.clone().decode();
            assert!(
                decoded.is_err(),
                "full parse said {e}, fast path decoded {decoded:?}"
            );
            assert_eq!(r.result.get(), "null", "full parse said {e}");
            assert!(r.result.clone().decode_tool_result().is_err());
            assert!(r.result.clone().into_tool_result().is_err());
        }
        (Err(e), Ok(other)) => panic!("full parse said {e}, fast path gave {other:?}"),
        (Ok(full), Err(e)) => panic!("fast path said {e}, full parse gave {full:?}"),
    }
}

/// `decode_tool_result` and `into_tool_result` (with their fast path for one text block)
/// decode exactly as the plain serde decode does, on a fresh result (the guess unchecked)
/// and on one already read.
fn tool_result_paths_agree(result: &RawResult) {
    let serde: Option<CallToolResult> = result.clone().decode().ok();
    assert_eq!(
        result.clone().decode_tool_result().ok(),
        serde,
        "tool result paths disagree"
    );
    assert_eq!(
        result.clone().into_tool_result().ok(),
        serde,
        "tool result paths disagree (in place)"
    );
    let read = result.clone();
    let _ = read.get();
    assert_eq!(
        read.decode_tool_result().ok(),
        serde,
        "tool result paths disagree"
    );
    assert_eq!(
        read.into_tool_result().ok(),
        serde,
        "tool result paths disagree (in place, after a read)"
    );
}

fn id_value(id: &RequestId) -> Value {
    match id {
        RequestId::Number(n) => json!(n),
        RequestId::String(s) => json!(&**s),
        #[allow(unreachable_patterns)]
        _ => serde_json::to_value(id).unwrap_or(Value::Null),
    }
}

/// `text` as a `Value`; `None` for JSON that `Value` cannot hold (a number such as
/// `1E77777777` is valid JSON, kept as text by `RawValue`, but out of `f64`'s range).
fn raw(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

/// What serde makes of the message's parts, member by member.
fn expected(message: &Message) -> Option<Value> {
    Some(match message {
        Message::Request(r) => {
            let mut v = json!({"jsonrpc": "2.0", "id": id_value(&r.id), "method": r.method});
            if let Some(p) = &r.params {
                v["params"] = raw(p.get())?;
            }
            v
        }
        Message::Notification(n) => {
            let mut v = json!({"jsonrpc": "2.0", "method": n.method});
            if let Some(p) = &n.params {
                v["params"] = raw(p.get())?;
            }
            v
        }
        Message::Response(r) => {
            json!({"jsonrpc": "2.0", "id": id_value(&r.id), "result": raw(r.result.get())?})
        }
        Message::Error(e) => json!({
            "jsonrpc": "2.0",
            "id": e.id.as_ref().map_or(Value::Null, id_value),
            "error": serde_json::to_value(&e.error).ok()?,
        }),
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

fn encoders_agree_with_serde(message: &Message) {
    let encoded = message.to_json();
    // Always JSON; compared member by member where `Value` can hold every part.
    if let Err(e) = serde_json::from_str::<Box<serde_json::value::RawValue>>(&encoded) {
        panic!("encoder output is not JSON ({e}): {encoded}");
    }
    if let (Some(got), Some(want)) = (raw(&encoded), expected(message)) {
        assert!(
            same(&got, &want),
            "encoder output: {encoded}\nexpected: {want}"
        );
    }
    let again = Message::from_slice(encoded.as_bytes())
        .unwrap_or_else(|e| panic!("re-encoded message does not parse ({e}): {encoded}"));
    let twice = again.to_json();
    if twice != encoded {
        // Only numbers may differ, by an ulp (see `same`).
        let (a, b) = (raw(&twice), raw(&encoded));
        assert!(
            a.is_some() && b.is_some() && same(&a.unwrap_or_default(), &b.unwrap_or_default()),
            "encoding is not stable: {encoded} then {twice}"
        );
    }
}

/// Equal, except that floats may differ in their last bits: serde_json's default float
/// parsing is not exactly round-trip (a 41-digit integer in an error's `data` came back one
/// ulp off after one encode and parse; found by this target). That is serde_json's parser,
/// not our encoders, and only error `data` (a `Value`) is affected: results and params stay
/// text.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x != y => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => (x - y).abs() <= x.abs().max(y.abs()) * 1e-15,
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}
