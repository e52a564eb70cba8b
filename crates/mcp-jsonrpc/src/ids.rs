//! Request-id allocation, one allocator per transport.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use mcp_types::{MAX_SAFE_INTEGER, RequestId};

/// How a transport writes its request ids (`requestIdFormat` in server configs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdFormat {
    /// Integers from 1, never above 2^53 - 1 (safe for JavaScript servers). The default.
    #[default]
    Number,
    /// Snowflake-style strings: a time-ordered, random per-transport prefix (a UUIDv7)
    /// plus a sequence number, so ids are unique across processes and restarts.
    String,
}

impl IdFormat {
    /// The name used in server configs (`requestIdFormat`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Number => "number",
            Self::String => "string",
        }
    }
}

impl std::str::FromStr for IdFormat {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "number" => Ok(Self::Number),
            "string" => Ok(Self::String),
            other => Err(format!(
                "unknown requestIdFormat {other:?} (expected \"number\" or \"string\")"
            )),
        }
    }
}

impl serde::Serialize for IdFormat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for IdFormat {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// Allocates request ids that are never reused within one session (see
/// [`SessionState::next_id`](crate::SessionState::next_id)): integers from 1, or
/// snowflake-style strings.
#[derive(Debug)]
pub(crate) struct IdAllocator {
    format: IdFormat,
    next: AtomicI64,
    /// For [`IdFormat::String`]: `<uuidv7-simple>-`, made once so each id costs one
    /// small formatting call instead of a random draw (the `snowflake` crate's ids were
    /// 64-bit integers above 2^53, which JavaScript peers corrupt).
    prefix: Arc<str>,
}

impl IdAllocator {
    /// A fresh allocator.
    pub(crate) fn new(format: IdFormat) -> Self {
        let prefix = match format {
            IdFormat::Number => Arc::from(""),
            IdFormat::String => Arc::from(format!("{}-", uuid::Uuid::now_v7().simple())),
        };
        Self {
            format,
            next: AtomicI64::new(1),
            prefix,
        }
    }

    /// The next id.
    pub(crate) fn next(&self) -> RequestId {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        // Wrapping at 2^53 would take 285 years at a million calls a second; keep the bound
        // anyway so a JavaScript peer never sees an unsafe integer.
        let n = if n > MAX_SAFE_INTEGER {
            self.next.store(2, Ordering::Relaxed);
            1
        } else {
            n
        };
        match self.format {
            IdFormat::Number => RequestId::Number(n),
            IdFormat::String => RequestId::String(Arc::from(format!("{}{n}", self.prefix))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn numbers_start_at_one_and_stay_safe() {
        let ids = IdAllocator::new(IdFormat::Number);
        assert_eq!(ids.next(), RequestId::Number(1));
        ids.next.store(MAX_SAFE_INTEGER, Ordering::Relaxed);
        assert_eq!(ids.next(), RequestId::Number(MAX_SAFE_INTEGER));
        assert_eq!(ids.next(), RequestId::Number(1));
        assert_eq!(ids.next(), RequestId::Number(2));
    }

    #[test]
    fn string_ids_are_unique_across_allocators() {
        let a = IdAllocator::new(IdFormat::String);
        let b = IdAllocator::new(IdFormat::String);
        let mut seen = HashSet::new();
        for _ in 0..1000 {
            assert!(seen.insert(a.next()));
            assert!(seen.insert(b.next()));
        }
        let RequestId::String(s) = a.next() else {
            panic!("expected a string id")
        };
        assert!(s.len() > 33 && s.is_ascii(), "{s}");
    }
}
