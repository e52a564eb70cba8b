//! Helpers for enums tagged by a string member (`type`, `mode`) that keep unknown variants.
//!
//! serde's derived internally tagged enums cannot fall back to a raw value for an unknown
//! tag, and a newer peer must never make a whole result fail to parse, so the content enums
//! go through `serde_json::Value` by hand with these helpers.

use serde::Serialize;
use serde_json::{Map, Value};

/// Serialize `inner` (a struct) and add `tag_key: tag` to its members.
pub(crate) fn to_tagged_value<T: Serialize>(
    tag_key: &str,
    tag: &str,
    inner: &T,
) -> Result<Value, serde_json::Error> {
    let mut object = match serde_json::to_value(inner)? {
        Value::Object(object) => object,
        // Every tagged variant is a struct; anything else is a bug in this crate.
        other => {
            return Err(serde::ser::Error::custom(format!(
                "tagged variant `{tag}` did not serialize to an object: {other}"
            )));
        }
    };
    // Inserted last so the tag wins over a `type` someone put in `extra` by hand.
    object.insert(tag_key.to_owned(), Value::String(tag.to_owned()));
    Ok(Value::Object(object))
}

/// Read the string tag of an object without consuming it. `Ok(None)` when absent.
pub(crate) fn tag_of(object: &Map<String, Value>, tag_key: &str) -> Result<Option<String>, String> {
    match object.get(tag_key) {
        None => Ok(None),
        Some(Value::String(tag)) => Ok(Some(tag.clone())),
        Some(other) => Err(format!("`{tag_key}` must be a string, got {other}")),
    }
}

/// Decode a struct variant from an object whose tag was already read; the tag member is
/// removed so it does not land in the variant's `extra`.
pub(crate) fn from_tagged_object<T: serde::de::DeserializeOwned>(
    mut object: Map<String, Value>,
    tag_key: &str,
) -> Result<T, serde_json::Error> {
    object.remove(tag_key);
    serde_json::from_value(Value::Object(object))
}
