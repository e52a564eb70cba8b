//! Log levels (RFC 5424 severities, as MCP names them) and `logging/setLevel`.

use mcp_types::{ErrorObject, error_codes};
use serde_json::{Value, json};

/// A log severity, least severe first so that `Ord` filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

const NAMES: [(&str, LogLevel); 8] = [
    ("debug", LogLevel::Debug),
    ("info", LogLevel::Info),
    ("notice", LogLevel::Notice),
    ("warning", LogLevel::Warning),
    ("error", LogLevel::Error),
    ("critical", LogLevel::Critical),
    ("alert", LogLevel::Alert),
    ("emergency", LogLevel::Emergency),
];

impl LogLevel {
    /// The level called `name` on the wire.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        NAMES.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
    }

    /// The wire name.
    pub(crate) fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(_, l)| *l == self)
            .map_or("info", |(n, _)| n)
    }
}

/// `logging/setLevel {level}`: the level to store, or -32602.
pub(crate) fn parse_set_level(params: &Value) -> Result<LogLevel, ErrorObject> {
    params
        .get("level")
        .and_then(Value::as_str)
        .and_then(LogLevel::parse)
        .ok_or_else(|| {
            ErrorObject::new(
                error_codes::INVALID_PARAMS,
                "Invalid params: level must be one of debug, info, notice, warning, error, \
                 critical, alert, emergency",
            )
        })
}

/// Params of a `notifications/message`.
pub(crate) fn message_params(level: LogLevel, data: &str, logger: Option<&str>) -> Value {
    let logger = logger.unwrap_or(crate::DEFAULT_NAME);
    json!({"level": level.name(), "logger": logger, "data": data})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_order_and_round_trip() {
        assert!(LogLevel::Debug < LogLevel::Emergency);
        assert!(LogLevel::Warning > LogLevel::Info);
        for (name, level) in NAMES {
            assert_eq!(LogLevel::parse(name), Some(level));
            assert_eq!(level.name(), name);
        }
        assert_eq!(LogLevel::parse("loud"), None);
        assert!(parse_set_level(&json!({"level": "verbose"})).is_err());
        assert_eq!(
            parse_set_level(&json!({"level": "error"})).unwrap(),
            LogLevel::Error
        );
    }
}
