//! Revision 2026-07-28 (`basic/versioning`): the `_meta` every request carries, the HTTP
//! headers that mirror a request, the multi round-trip request loop and the rules on the
//! wire (`request.rs`); the `server/discover` probe is in `negotiate.rs`.

mod headers;
mod input_bounds;
mod request;
#[cfg(test)]
mod scripted_tests;
mod tool_headers;

use crate::{Error, SessionError};
use mcp_types::splice::members_in_front;
use mcp_types::{META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, RawValue};
use serde_json::{Map, Value};

use crate::ClientOptions;

pub(crate) use input_bounds::InputBounds;
pub use input_bounds::{
    DEFAULT_MAX_INPUT_REQUEST_BYTES, DEFAULT_MAX_INPUT_REQUESTS, InputRequestsBound,
};
pub(crate) use request::{Modern, rules};
pub use tool_headers::LeftOutTool;
pub(crate) use tool_headers::{HeaderParam, ToolHeaders};

/// The request `_meta` of a modern connection: `io.modelcontextprotocol/protocolVersion`,
/// `.../clientInfo` and `.../clientCapabilities`, built once per connection.
#[derive(Debug, Clone)]
pub(crate) struct ModernMeta {
    keys: Map<String, Value>,
    /// `keys` encoded once as the members of a JSON object (`"k":v,"k":v,"k":v`), spliced
    /// into each request's params by [`params`](Self::params) without parsing them.
    members: String,
    /// `keys` encoded once as an object, written into typed params as they are serialised
    /// ([`encode_with_meta`](Self::encode_with_meta)).
    object: Box<RawValue>,
}

/// Typed params with our `_meta` written first, in one serialisation.
#[derive(serde::Serialize)]
struct WithMeta<'a, P: ?Sized> {
    #[serde(rename = "_meta")]
    meta: &'a RawValue,
    #[serde(flatten)]
    params: &'a P,
}

fn empty_object() -> Box<RawValue> {
    RawValue::from_string("{}".to_owned()).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

impl ModernMeta {
    pub(crate) fn new(version: &str, options: &ClientOptions) -> Self {
        let mut keys = Map::new();
        keys.insert(META_PROTOCOL_VERSION.into(), Value::String(version.into()));
        keys.insert(
            META_CLIENT_INFO.into(),
            serde_json::to_value(&options.client_info).unwrap_or(Value::Null),
        );
        keys.insert(
            META_CLIENT_CAPABILITIES.into(),
            serde_json::to_value(options.capabilities())
                .unwrap_or_else(|_| Value::Object(Map::new())),
        );
        let encoded = serde_json::to_string(&keys).unwrap_or_else(|_| "{}".into());
        // `{...}` minus the braces (the encoder writes no whitespace).
        let members = encoded[1..encoded.len() - 1].to_owned();
        let object = RawValue::from_string(encoded).unwrap_or_else(|_| empty_object());
        Self {
            keys,
            members,
            object,
        }
    }

    /// Typed `params` encoded with our `_meta` keys already in them, in one serialisation:
    /// [`params`](Self::params) of the encoded params gives the same JSON, but its splice
    /// is a copy plus a parse of the whole text to make it a `RawValue` again (serde_json
    /// has no unchecked constructor), about 3,000 instructions per call
    /// (docs/performance.md). `None` when the params are not an object, or may hold a
    /// `_meta` of their own (which must be merged): then take the general path.
    pub(crate) fn encode_with_meta<P: serde::Serialize + ?Sized>(
        &self,
        params: &P,
    ) -> Option<Box<RawValue>> {
        let encoded = mcp_types::to_raw(&WithMeta {
            meta: &self.object,
            params,
        })
        .ok()?;
        // Ours is the first member; a second `"_meta"` is the caller's (or a string that
        // spells it, which the general path handles just as well).
        let after_ours = encoded
            .get()
            .get(self.object.get().len() + "{\"_meta\":".len()..)?;
        (!after_ours.contains("\"_meta\"")).then_some(encoded)
    }

    /// `params` (an object, or absent) as an object with our `_meta` keys added to any
    /// `_meta` it has.
    pub(crate) fn object(&self, params: Option<&RawValue>) -> Result<Map<String, Value>, Error> {
        let mut object = match params {
            None => Map::new(),
            Some(raw) => match serde_json::from_str::<Value>(raw.get()) {
                Ok(Value::Object(map)) => map,
                Ok(Value::Null) => Map::new(),
                Ok(_) => {
                    return Err(Error::Session(SessionError::InvalidArgument(
                        "request params must be a JSON object".into(),
                    )));
                }
                Err(e) => {
                    return Err(Error::Session(SessionError::InvalidArgument(format!(
                        "cannot read request params: {e}"
                    ))));
                }
            },
        };
        let meta = object
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(meta) = meta else {
            return Err(Error::Session(SessionError::InvalidArgument(
                "request params have a `_meta` that is not an object".into(),
            )));
        };
        for (key, value) in &self.keys {
            meta.insert(key.clone(), value.clone());
        }
        Ok(object)
    }

    /// [`object`](Self::object), encoded.
    ///
    /// Every request at 2026-07-28 but `tools/call` with typed params (which takes
    /// [`encode_with_meta`](Self::encode_with_meta)) goes through here, so the usual case
    /// takes a fast path:
    /// params that are absent, `null` or an object in which `_meta` cannot appear get our
    /// `_meta` spliced in as text, with no parse into a `Value` tree and no re-encoding of
    /// the caller's arguments (that round trip made a modern request cost about twice a
    /// legacy one; see docs/performance.md). Anything else (a `_meta` of the caller's to
    /// merge with, a `\u` escape that might spell one, params that are not an object) takes
    /// the general path.
    pub(crate) fn params(&self, params: Option<&RawValue>) -> Result<Box<RawValue>, Error> {
        match self.splice(params) {
            Some(spliced) => Ok(spliced),
            None => crate::client::encode(&self.object(params)?),
        }
    }

    /// The fast path of [`params`](Self::params), or `None` when it does not apply.
    fn splice(&self, params: Option<&RawValue>) -> Option<Box<RawValue>> {
        let text = params.map_or("null", RawValue::get).trim();
        // What follows our `_meta` member: the object's own members and its closing brace.
        let rest = if text == "null" {
            "}"
        } else {
            let rest = text.strip_prefix('{')?;
            // A key is `_meta` only if the text holds `_meta`, or spells it with escapes.
            if text.contains("_meta") || text.contains("\\u") {
                return None;
            }
            rest
        };
        let mut out = String::with_capacity(text.len() + self.members.len() + 12);
        members_in_front(&mut out, rest, |out| {
            out.push_str("\"_meta\":{");
            out.push_str(&self.members);
            out.push('}');
        });
        // `from_string` checks the text once more (a scan, no allocation); the params were
        // valid JSON and the splice keeps them so, so this does not fail in practice.
        RawValue::from_string(out).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_keys_are_added_beside_the_callers_own() {
        let options = ClientOptions::new("agent", "1.2");
        let meta = ModernMeta::new("2026-07-28", &options);
        let raw =
            RawValue::from_string(r#"{"name":"t","_meta":{"progressToken":3}}"#.into()).unwrap();
        let object = meta.object(Some(&raw)).unwrap();
        let m = object["_meta"].as_object().unwrap();
        assert_eq!(m["progressToken"], 3);
        assert_eq!(m[META_PROTOCOL_VERSION], "2026-07-28");
        assert_eq!(m[META_CLIENT_INFO]["name"], "agent");
        assert!(m[META_CLIENT_CAPABILITIES].is_object());
        assert_eq!(object["name"], "t");
        let none = meta.object(None).unwrap();
        assert!(none["_meta"].is_object());
        let bad = RawValue::from_string("[1]".into()).unwrap();
        assert!(meta.object(Some(&bad)).is_err());
    }

    #[test]
    fn the_spliced_params_equal_the_general_paths() {
        let meta = ModernMeta::new("2026-07-28", &ClientOptions::new("agent", "1.2"));
        let general = |raw: Option<&RawValue>| Value::Object(meta.object(raw).unwrap());
        let cases = [
            "null",
            "{}",
            " { } ",
            r#"{"name":"t","arguments":{"a":[1,{"b":null}],"s":"x}"}}"#,
            "{ \n \"name\" : \"t\" }",
            r#"{"name":"t","_meta":{"progressToken":3}}"#,
            r#"{"name":"t","arguments":{"_meta":1}}"#,
            r#"{"\u005fmeta":{"progressToken":3}}"#,
        ];
        for case in cases {
            let raw = RawValue::from_string(case.into()).unwrap();
            let sent: Value = serde_json::from_str(meta.params(Some(&raw)).unwrap().get()).unwrap();
            assert_eq!(sent, general(Some(&raw)), "{case}");
        }
        let sent: Value = serde_json::from_str(meta.params(None).unwrap().get()).unwrap();
        assert_eq!(sent, general(None));
        // Only objects without `_meta` take the fast path.
        let plain = RawValue::from_string(r#"{"name":"t"}"#.into()).unwrap();
        assert!(meta.splice(Some(&plain)).is_some());
        let own = RawValue::from_string(r#"{"_meta":{}}"#.into()).unwrap();
        assert!(meta.splice(Some(&own)).is_none());
        let escaped = RawValue::from_string(r#"{"\u005fmeta":{}}"#.into()).unwrap();
        assert!(meta.splice(Some(&escaped)).is_none());
        let array = RawValue::from_string("[1]".into()).unwrap();
        assert!(meta.params(Some(&array)).is_err());
    }

    #[test]
    fn typed_params_encoded_with_meta_equal_the_general_path() {
        use mcp_types::CallToolRequestParams;

        let meta = ModernMeta::new("2026-07-28", &ClientOptions::new("agent", "1.2"));
        let general = |params: &CallToolRequestParams| {
            let encoded = crate::client::encode(params).unwrap();
            Value::Object(meta.object(Some(&encoded)).unwrap())
        };
        let mut with_arguments = CallToolRequestParams::new("echo");
        with_arguments.arguments = Some(
            serde_json::json!({"text": "a \"quoted\" _meta-free text", "n": [1, null]})
                .as_object()
                .unwrap()
                .clone(),
        );
        let mut with_extra = CallToolRequestParams::new("echo");
        with_extra.extra.insert("other".into(), Value::Bool(true));
        for params in [
            CallToolRequestParams::new("echo"),
            with_arguments,
            with_extra,
        ] {
            let encoded = meta.encode_with_meta(&params).expect("the fast path");
            // Our keys come first, as the splice writes them.
            assert!(
                encoded
                    .get()
                    .starts_with(r#"{"_meta":{"io.modelcontextprotocol/"#)
            );
            let sent: Value = serde_json::from_str(encoded.get()).unwrap();
            assert_eq!(sent, general(&params), "{}", encoded.get());
        }
        // A `_meta` of the caller's must be merged: the general path.
        let mut own = CallToolRequestParams::new("echo");
        own.meta = Some(serde_json::from_value(serde_json::json!({"progressToken": 3})).unwrap());
        assert!(meta.encode_with_meta(&own).is_none());
        let mut extra_meta = CallToolRequestParams::new("echo");
        extra_meta
            .extra
            .insert("_meta".into(), serde_json::json!({}));
        assert!(meta.encode_with_meta(&extra_meta).is_none());
        // So are params that are not an object; none at all are our `_meta` alone.
        assert!(meta.encode_with_meta(&[1, 2]).is_none());
        let none: Value = serde_json::from_str(meta.encode_with_meta(&()).unwrap().get()).unwrap();
        assert_eq!(none, Value::Object(meta.object(None).unwrap()));
    }
}
