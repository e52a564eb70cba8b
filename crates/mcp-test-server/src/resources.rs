//! Resources: two static ones, one template, subscriptions.

use mcp_types::{ErrorObject, error_codes};
use serde_json::{Value, json};

use crate::server::Core;

/// URI of the text resource.
pub(crate) const HELLO_URI: &str = "test://static/hello";
/// URI of the binary resource.
pub(crate) const BLOB_URI: &str = "test://static/blob";
/// The one resource template.
pub(crate) const ITEM_TEMPLATE: &str = "test://items/{id}";
const ITEM_PREFIX: &str = "test://items/";

/// The bytes of [`BLOB_URI`]: every byte value once, so any encoding slip shows.
fn blob_bytes() -> Vec<u8> {
    (0..=255u8).collect()
}

/// `resources/list` entries.
pub(crate) fn list() -> Vec<Value> {
    vec![
        json!({
            "uri": HELLO_URI,
            "name": "hello",
            "title": "Hello",
            "description": "A short greeting in plain text.",
            "mimeType": "text/plain",
        }),
        json!({
            "uri": BLOB_URI,
            "name": "blob",
            "title": "Blob",
            "description": "256 bytes, 0x00 to 0xff, base64-encoded.",
            "mimeType": "application/octet-stream",
            "size": 256,
        }),
    ]
}

/// `resources/templates/list` entries.
pub(crate) fn templates() -> Vec<Value> {
    vec![json!({
        "uriTemplate": ITEM_TEMPLATE,
        "name": "item",
        "title": "Item",
        "description": "Item <id>, for any id without a slash.",
        "mimeType": "text/plain",
    })]
}

/// The id of an item URI, if `uri` is one.
fn item_id(uri: &str) -> Option<&str> {
    uri.strip_prefix(ITEM_PREFIX)
        .filter(|id| !id.is_empty() && !id.contains('/'))
}

fn exists(uri: &str) -> bool {
    uri == HELLO_URI || uri == BLOB_URI || item_id(uri).is_some()
}

fn uri_param(params: &Value) -> Result<&str, ErrorObject> {
    params.get("uri").and_then(Value::as_str).ok_or_else(|| {
        ErrorObject::new(
            error_codes::INVALID_PARAMS,
            "Invalid params: uri (string) is required",
        )
    })
}

fn not_found(uri: &str) -> ErrorObject {
    ErrorObject::new(error_codes::RESOURCE_NOT_FOUND, "Resource not found")
        .with_data(json!({ "uri": uri }))
}

/// `resources/read`.
pub(crate) fn read(params: &Value) -> Result<Value, ErrorObject> {
    let uri = uri_param(params)?;
    if crate::skills::is_skill_uri(uri) {
        return crate::skills::read(uri);
    }
    let content = if uri == HELLO_URI {
        json!({"uri": uri, "mimeType": "text/plain", "text": "Hello, world!"})
    } else if uri == BLOB_URI {
        json!({
            "uri": uri,
            "mimeType": "application/octet-stream",
            "blob": base64(&blob_bytes()),
        })
    } else if let Some(id) = item_id(uri) {
        json!({"uri": uri, "mimeType": "text/plain", "text": format!("item {id}")})
    } else {
        return Err(not_found(uri));
    };
    Ok(json!({ "contents": [content] }))
}

/// `resources/subscribe` (`subscribe == true`) and `resources/unsubscribe`.
pub(crate) fn subscribe(
    core: &Core,
    params: &Value,
    subscribe: bool,
) -> Result<Value, ErrorObject> {
    let uri = uri_param(params)?;
    if !exists(uri) {
        return Err(not_found(uri));
    }
    let mut state = core.state();
    if subscribe {
        state.subscriptions.insert(uri.to_owned());
    } else {
        state.subscriptions.remove(uri);
    }
    Ok(json!({}))
}

/// Standard base64 with padding (RFC 4648 section 4).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
        assert!(base64(&blob_bytes()).ends_with("+/w=="));
    }

    #[test]
    fn reads_static_and_templated_resources() {
        let hello = read(&json!({"uri": HELLO_URI})).unwrap();
        assert_eq!(hello["contents"][0]["text"], "Hello, world!");
        let item = read(&json!({"uri": "test://items/42"})).unwrap();
        assert_eq!(item["contents"][0]["text"], "item 42");
        let blob = read(&json!({"uri": BLOB_URI})).unwrap();
        assert!(blob["contents"][0]["blob"].as_str().unwrap().len() > 300);
        for missing in ["test://nope", "test://items/", "test://items/a/b"] {
            let e = read(&json!({"uri": missing})).unwrap_err();
            assert_eq!((e.code, e.message.as_str()), (-32002, "Resource not found"));
        }
        assert_eq!(read(&json!({})).unwrap_err().code, -32602);
    }
}
