//! Notifications from the server, as subscribers receive them.

use crate::{Error, SessionError};
use mcp_types::RawValue;
use serde::de::DeserializeOwned;

/// One server notification: its method and raw params. Decode the params into the type
/// the method implies with [`ServerNotification::params_as`].
///
/// ```
/// use mcp_client::ServerNotification;
/// use mcp_types::LoggingMessageNotificationParams;
/// let n = ServerNotification::new(
///     "notifications/message",
///     Some(serde_json::value::to_raw_value(&serde_json::json!({"level": "info", "data": "hi"})).unwrap()),
/// );
/// let log: LoggingMessageNotificationParams = n.params_as().unwrap();
/// assert_eq!(log.data, serde_json::json!("hi"));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServerNotification {
    /// Method, e.g. `notifications/tools/list_changed`.
    pub method: String,
    /// Raw params, as sent.
    pub params: Option<Box<RawValue>>,
}

impl ServerNotification {
    /// A notification.
    pub fn new(method: impl Into<String>, params: Option<Box<RawValue>>) -> Self {
        Self {
            method: method.into(),
            params,
        }
    }

    /// Decode the params (absent params decode as `{}`).
    pub fn params_as<T: DeserializeOwned>(&self) -> Result<T, Error> {
        let text = self.params.as_deref().map_or("{}", RawValue::get);
        serde_json::from_str(text).map_err(|source| {
            Error::Session(SessionError::InvalidResult {
                method: self.method.clone(),
                source,
            })
        })
    }
}
