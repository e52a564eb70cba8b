//! `_meta.progressToken` added to a request's params, for a caller that listens to
//! progress.
//!
//! Every request of a caller with a progress callback goes through here (the proxy relays
//! progress, so each call it forwards does), so the usual shapes take a fast path: the
//! token is spliced into the text, with no parse into a `Value` tree and no re-encoding of
//! the arguments. That round trip was a tenth of the proxy's instructions per call
//! (docs/performance.md, issue 26). Anything the splice cannot be sure of takes the general
//! path.

use mcp_types::RequestId;
use mcp_types::splice::members_in_front;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::Error;

/// `params` (an object, or absent) with `_meta.progressToken = id`.
pub(super) fn with_progress_token(
    params: Option<&RawValue>,
    id: &RequestId,
) -> Result<Box<RawValue>, Error> {
    match splice(params, id) {
        Some(spliced) => Ok(spliced),
        None => general(params, id),
    }
}

/// The fast path, or `None` when it does not apply: params absent or `null`, an object
/// with no `_meta`, or an object whose first member is a `_meta` object (as the
/// 2026-07-28 dialect writes its own) and that names neither a second `_meta` nor a
/// `progressToken`; no `\u` escape anywhere (one could spell either key).
fn splice(params: Option<&RawValue>, id: &RequestId) -> Option<Box<RawValue>> {
    let text = params.map_or("null", RawValue::get).trim();
    if text.contains("\\u") || text.contains("progressToken") {
        return None;
    }
    let token = serde_json::to_string(id).ok()?;
    let ours = |out: &mut String| {
        out.push_str("\"progressToken\":");
        out.push_str(&token);
    };
    let mut out = String::with_capacity(text.len() + token.len() + 32);
    if let Some(inside) = text.strip_prefix("{\"_meta\":{") {
        // Our key first inside the existing `_meta`; no other `_meta` may follow it.
        if inside.contains("\"_meta\"") {
            return None;
        }
        out.push_str("{\"_meta\":");
        members_in_front(&mut out, inside, ours);
    } else {
        // No params are an empty object.
        let rest = if text == "null" {
            "}"
        } else if text.contains("_meta") {
            return None;
        } else {
            text.strip_prefix('{')?
        };
        members_in_front(&mut out, rest, |out| {
            out.push_str("\"_meta\":{");
            ours(out);
            out.push('}');
        });
    }
    // `from_string` checks the text once more (a scan, no allocation); valid params stay
    // valid through the splice, so this does not fail in practice.
    RawValue::from_string(out).ok()
}

/// The general path: parse, insert, encode. `null` params count as none.
fn general(params: Option<&RawValue>, id: &RequestId) -> Result<Box<RawValue>, Error> {
    let mut object: Map<String, Value> = match params.filter(|raw| raw.get().trim() != "null") {
        Some(raw) => serde_json::from_str(raw.get()).map_err(|_| {
            Error::InvalidArgument(
                "request params must be a JSON object to carry a progress token".into(),
            )
        })?,
        None => Map::new(),
    };
    let meta = object
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(meta) = meta else {
        return Err(Error::InvalidArgument(
            "request params have a `_meta` that is not an object".into(),
        ));
    };
    meta.insert(
        "progressToken".into(),
        serde_json::to_value(id).unwrap_or(Value::Null),
    );
    mcp_types::to_raw(&object).map_err(|e| Error::InvalidArgument(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    #[test]
    fn the_spliced_params_equal_the_general_paths() {
        let ids = [RequestId::Number(7), RequestId::String("a\"b".into())];
        let cases = [
            None,
            Some("null"),
            Some("{}"),
            Some(" { } "),
            Some(r#"{"name":"t","arguments":{"a":[1,{"b":null}],"s":"x}"}}"#),
            Some(r#"{"_meta":{},"name":"t"}"#),
            Some(
                r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"t","arguments":{}}"#,
            ),
            Some(r#"{"_meta":{ },"name":"t"}"#),
            // General path: a caller's token, a second `_meta`, `_meta` not first, escapes.
            Some(r#"{"_meta":{"progressToken":3},"name":"t"}"#),
            Some(r#"{"_meta":{"a":1},"arguments":{"_meta":2}}"#),
            Some(r#"{"name":"t","_meta":{"a":1}}"#),
            Some(r#"{"\u005fmeta":{"a":1}}"#),
        ];
        for id in &ids {
            for case in cases {
                let params = case.map(raw);
                let got = with_progress_token(params.as_deref(), id).unwrap();
                let want = general(params.as_deref(), id).unwrap();
                let got: Value = serde_json::from_str(got.get()).unwrap();
                let want: Value = serde_json::from_str(want.get()).unwrap();
                assert_eq!(got, want, "{case:?} with {id:?}");
            }
        }
    }

    #[test]
    fn the_usual_shapes_take_the_splice() {
        let id = RequestId::Number(1);
        for case in [
            "null",
            r#"{"name":"t"}"#,
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"t"}"#,
        ] {
            assert!(splice(Some(&raw(case)), &id).is_some(), "{case}");
        }
        for case in [
            r#"{"_meta":{"progressToken":3}}"#,
            r#"{"name":"t","_meta":{}}"#,
            "[1]",
        ] {
            assert!(splice(Some(&raw(case)), &id).is_none(), "{case}");
        }
    }

    #[test]
    fn params_that_cannot_carry_a_token_are_refused() {
        let id = RequestId::Number(1);
        assert!(with_progress_token(Some(&raw("[1]")), &id).is_err());
        assert!(with_progress_token(Some(&raw(r#"{"_meta":3}"#)), &id).is_err());
    }
}
