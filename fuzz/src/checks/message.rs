//! The hand-written response-head reader and envelope writers of `mcp-types`, checked
//! against the full serde parse.
//!
//! - `Message::from_string` (fast path: `response_head`, a guessed `result` span) and
//!   `Message::from_slice` (full parse) agree on every input: same message, same id, same
//!   result text. Where the full parse rejects a message the fast path may still hand out a
//!   response (by design: its result then decodes to an error and reads `null`).
//! - Every message that parses re-encodes (`to_json`, i.e. the hand-written encoders) to
//!   JSON equal to what serde makes of its parts, and parses back to the same message.

use mcp_types::{Message, RequestId};
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
        }
        (Err(e), Ok(other)) => panic!("full parse said {e}, fast path gave {other:?}"),
        (Ok(full), Err(e)) => panic!("fast path said {e}, full parse gave {full:?}"),
    }
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
        assert_eq!(got, want, "encoder output: {encoded}");
    }
    let again = Message::from_slice(encoded.as_bytes())
        .unwrap_or_else(|e| panic!("re-encoded message does not parse ({e}): {encoded}"));
    assert_eq!(again.to_json(), encoded, "encoding is not stable");
}
