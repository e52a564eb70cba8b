//! How much one `input_required` result (2026-07-28, `basic/patterns/mrtr`) may ask of the
//! client: its `inputRequests` are counted and measured on the text as it arrived, before
//! any of them is decoded into a value or answered. A server that asks for two million
//! answers at once is refused, not obeyed (decoded, such a result took 2.2 GB).

use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

/// The most input requests one `input_required` result may carry by default
/// ([`ClientOptions::with_max_input_requests`](crate::ClientOptions::with_max_input_requests)):
/// the number of server-to-client requests a session runs at once
/// (`mcp_jsonrpc::DEFAULT_MAX_SERVER_REQUESTS`), which is what they stand for.
pub const DEFAULT_MAX_INPUT_REQUESTS: usize = 64;

/// The most bytes the `inputRequests` of one `input_required` result may take by default
/// ([`ClientOptions::with_max_input_request_bytes`](crate::ClientOptions::with_max_input_request_bytes)):
/// room for sampling requests that carry images, as much as one SSE event may hold.
pub const DEFAULT_MAX_INPUT_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// Which bound an `input_required` result went past (see [`Error::InputRequestsRefused`]).
///
/// [`Error::InputRequestsRefused`]: crate::Error::InputRequestsRefused
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputRequestsBound {
    /// More input requests than the bound.
    TooMany {
        /// The bound, in requests.
        limit: usize,
    },
    /// `inputRequests` takes more bytes than the bound.
    TooManyBytes {
        /// The bound, in bytes.
        limit: usize,
    },
}

impl fmt::Display for InputRequestsBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooMany { limit } => write!(f, "more than {limit} input requests"),
            Self::TooManyBytes { limit } => {
                write!(f, "input requests larger than {limit} bytes")
            }
        }
    }
}

/// The bounds one client applies ([`ClientOptions`](crate::ClientOptions)).
#[derive(Debug, Clone, Copy)]
pub(crate) struct InputBounds {
    pub(crate) max_requests: usize,
    pub(crate) max_bytes: usize,
}

impl InputBounds {
    /// Check the `inputRequests` of `result` (an `input_required` result's text) against
    /// the bounds: its length first, then its entries, counted without keeping any. A
    /// result that is not what it should be passes: decoding it reports that precisely.
    pub(crate) fn check(&self, result: &str) -> Result<(), InputRequestsBound> {
        #[derive(Deserialize)]
        struct Requests<'a> {
            #[serde(borrow, rename = "inputRequests", default)]
            input_requests: Option<&'a RawValue>,
        }
        let Ok(Requests {
            input_requests: Some(requests),
        }) = serde_json::from_str::<Requests<'_>>(result)
        else {
            return Ok(());
        };
        if requests.get().len() > self.max_bytes {
            return Err(InputRequestsBound::TooManyBytes {
                limit: self.max_bytes,
            });
        }
        let mut reader = serde_json::Deserializer::from_str(requests.get());
        match reader.deserialize_map(CountEntries) {
            Ok(n) if n > self.max_requests => Err(InputRequestsBound::TooMany {
                limit: self.max_requests,
            }),
            _ => Ok(()),
        }
    }
}

/// The number of entries of a JSON object, each skipped as it is read.
struct CountEntries;

impl<'de> Visitor<'de> for CountEntries {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
        let mut n = 0usize;
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
            n += 1;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result_with(n: usize) -> String {
        let requests: Vec<String> = (0..n)
            .map(|i| format!(r#""k{i}":{{"method":"roots/list"}}"#))
            .collect();
        format!(
            r#"{{"resultType":"input_required","inputRequests":{{{}}},"requestState":"s"}}"#,
            requests.join(",")
        )
    }

    #[test]
    fn requests_are_counted_and_measured() {
        let bounds = InputBounds {
            max_requests: 3,
            max_bytes: 1000,
        };
        assert_eq!(bounds.check(&result_with(3)), Ok(()));
        assert_eq!(
            bounds.check(&result_with(4)),
            Err(InputRequestsBound::TooMany { limit: 3 })
        );
        let small = InputBounds {
            max_requests: 100,
            max_bytes: 50,
        };
        assert_eq!(
            small.check(&result_with(3)),
            Err(InputRequestsBound::TooManyBytes { limit: 50 })
        );
    }

    #[test]
    fn what_decoding_reports_better_passes() {
        let none_allowed = InputBounds {
            max_requests: 0,
            max_bytes: usize::MAX,
        };
        for result in [
            r#"{"resultType":"input_required","requestState":"s"}"#,
            r#"{"resultType":"input_required","inputRequests":null}"#,
            r#"{"resultType":"input_required","inputRequests":[1,2]}"#,
            r#"{"inputRequests":{}}"#,
            "not json",
        ] {
            assert_eq!(none_allowed.check(result), Ok(()), "{result}");
        }
    }
}
