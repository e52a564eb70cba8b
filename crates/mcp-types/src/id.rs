//! JSON-RPC request ids.

use std::fmt;
use std::sync::Arc;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The largest integer a JavaScript peer can hold without losing precision (2^53 - 1).
///
/// Integer ids we allocate never exceed it, so a Node.js server echoes them back intact.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// A JSON-RPC request id: an integer or a string, never `null`.
///
/// Ids are correlation tokens local to one transport. Strings are reference-counted so the
/// pending-request map and the wire frame can share one allocation.
///
/// ```
/// use mcp_types::RequestId;
/// let id: RequestId = serde_json::from_str("7").unwrap();
/// assert_eq!(id, RequestId::Number(7));
/// assert!(serde_json::from_str::<RequestId>("null").is_err());
/// assert_eq!(serde_json::to_string(&RequestId::from("a-1")).unwrap(), "\"a-1\"");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(Arc<str>),
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => f.write_str(s),
        }
    }
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        Self::Number(n)
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        Self::String(Arc::from(s))
    }
}

impl From<String> for RequestId {
    fn from(s: String) -> Self {
        Self::String(Arc::from(s))
    }
}

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Number(n) => serializer.serialize_i64(*n),
            Self::String(s) => serializer.serialize_str(s),
        }
    }
}

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;
        impl Visitor<'_> for IdVisitor {
            type Value = RequestId;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON-RPC id (integer or string, not null)")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RequestId, E> {
                Ok(RequestId::Number(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RequestId, E> {
                i64::try_from(v)
                    .map(RequestId::Number)
                    .map_err(|_| E::custom("request id out of range"))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RequestId, E> {
                // JSON has one number type; accept integral floats like `3.0` some peers send.
                if v.fract() == 0.0 && v.abs() <= MAX_SAFE_INTEGER as f64 {
                    Ok(RequestId::Number(v as i64))
                } else {
                    Err(E::custom("request id must be an integer"))
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RequestId, E> {
                Ok(RequestId::from(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<RequestId, E> {
                Err(E::custom("request id must not be null"))
            }
        }
        deserializer.deserialize_any(IdVisitor)
    }
}
