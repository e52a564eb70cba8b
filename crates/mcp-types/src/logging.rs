//! Server log messages: `logging/setLevel` and `notifications/message`
//! (`server/utilities/logging`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Extra, Meta};

/// Severity of a log message, the syslog levels of RFC 5424, least severe first, so
/// `level >= LoggingLevel::Warning` reads as "warning or worse". Lowercase on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum LoggingLevel {
    /// Detailed debugging information.
    Debug,
    /// General information.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LoggingLevel {
    /// Every level, least severe first.
    pub const ALL: [LoggingLevel; 8] = [
        Self::Debug,
        Self::Info,
        Self::Notice,
        Self::Warning,
        Self::Error,
        Self::Critical,
        Self::Alert,
        Self::Emergency,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LoggingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that is not one of the eight logging levels.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown logging level {0:?}; expected one of debug, info, notice, warning, error, critical, alert, emergency"
)]
pub struct UnknownLoggingLevel(pub String);

impl FromStr for LoggingLevel {
    type Err = UnknownLoggingLevel;

    /// Parse a wire name (exact, lowercase).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|level| level.as_str() == s)
            .ok_or_else(|| UnknownLoggingLevel(s.to_owned()))
    }
}

/// `logging/setLevel` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SetLevelRequestParams {
    /// The least severe level the client wants to receive.
    pub level: LoggingLevel,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl SetLevelRequestParams {
    /// Ask for `level` and above.
    pub fn new(level: LoggingLevel) -> Self {
        Self {
            level,
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// `notifications/message` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct LoggingMessageNotificationParams {
    /// Severity.
    pub level: LoggingLevel,
    /// Name of the logger that issued the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// The message: a string or any JSON value.
    pub data: Value,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl LoggingMessageNotificationParams {
    /// A message at `level` carrying `data`.
    pub fn new(level: LoggingLevel, data: Value) -> Self {
        Self {
            level,
            logger: None,
            data,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the logger name.
    #[must_use]
    pub fn with_logger(mut self, logger: impl Into<String>) -> Self {
        self.logger = Some(logger.into());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_order_by_severity() {
        assert!(LoggingLevel::Debug < LoggingLevel::Info);
        assert!(LoggingLevel::Warning < LoggingLevel::Error);
        assert!(LoggingLevel::Alert < LoggingLevel::Emergency);
        let mut sorted = LoggingLevel::ALL;
        sorted.sort();
        assert_eq!(sorted, LoggingLevel::ALL);
    }

    #[test]
    fn wire_names_round_trip_through_serde_and_from_str() {
        for level in LoggingLevel::ALL {
            let wire = serde_json::to_value(level).unwrap();
            assert_eq!(wire, serde_json::Value::String(level.as_str().to_owned()));
            assert_eq!(serde_json::from_value::<LoggingLevel>(wire).unwrap(), level);
            assert_eq!(level.as_str().parse::<LoggingLevel>().unwrap(), level);
            assert_eq!(level.to_string(), level.as_str());
        }
    }

    #[test]
    fn unsupported_level_fails_with_a_clear_error() {
        let err = serde_json::from_str::<LoggingLevel>(r#""verbose""#).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("unknown variant `verbose`"), "{text}");
        assert!(text.contains("emergency"), "{text}");

        let err = serde_json::from_str::<LoggingMessageNotificationParams>(
            r#"{"level":"WARN","data":1}"#,
        )
        .unwrap_err();
        assert!(err.to_string().contains("`WARN`"), "{err}");

        let err = "Info".parse::<LoggingLevel>().unwrap_err();
        assert_eq!(err, UnknownLoggingLevel("Info".to_owned()));
        assert!(err.to_string().contains("expected one of debug"), "{err}");
    }
}
