//! The modern protocol (2026-07-28): the `_meta` every request carries, the HTTP headers
//! that mirror a request, and the multi round-trip request loop (`request.rs`).

mod headers;
mod request;
#[cfg(test)]
mod scripted_tests;
mod tool_headers;

use crate::{Error, SessionError};
use mcp_types::{META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, RawValue};
use serde_json::{Map, Value};

use crate::ClientOptions;

pub(crate) use headers::request_headers;
pub(crate) use request::Modern;
pub(crate) use tool_headers::{HeaderParam, ToolHeaders};

/// The request `_meta` of a modern connection: `io.modelcontextprotocol/protocolVersion`,
/// `.../clientInfo` and `.../clientCapabilities`, built once per connection.
#[derive(Debug, Clone)]
pub(crate) struct ModernMeta {
    keys: Map<String, Value>,
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
        Self { keys }
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
    pub(crate) fn params(&self, params: Option<&RawValue>) -> Result<Box<RawValue>, Error> {
        encode(&self.object(params)?)
    }
}

pub(crate) fn encode(object: &Map<String, Value>) -> Result<Box<RawValue>, Error> {
    mcp_types::to_raw(object).map_err(|e| {
        Error::Session(SessionError::InvalidArgument(format!(
            "cannot encode params: {e}"
        )))
    })
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
}
