//! Parameters of the utility notifications the protocol core routes itself:
//! progress and cancellation (`basic/utilities/progress`, `basic/utilities/cancellation`).

use serde::{Deserialize, Serialize};

use crate::{Meta, RequestId};

/// Method name of the progress notification.
pub const PROGRESS_NOTIFICATION: &str = "notifications/progress";
/// Method name of the cancellation notification.
pub const CANCELLED_NOTIFICATION: &str = "notifications/cancelled";

/// A progress token: same shape as a request id (string or integer), unique among the
/// sender's active requests.
pub type ProgressToken = RequestId;

/// `notifications/progress` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ProgressNotificationParams {
    /// The token from the request's `_meta.progressToken`.
    pub progress_token: ProgressToken,
    /// Progress so far; increases with every notification.
    pub progress: f64,
    /// Total, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// Human-readable status (2025-03-26 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl ProgressNotificationParams {
    /// Progress for `token`.
    pub fn new(progress_token: ProgressToken, progress: f64) -> Self {
        Self {
            progress_token,
            progress,
            total: None,
            message: None,
            meta: None,
            extra: Default::default(),
        }
    }

    /// Set the total.
    #[must_use]
    pub fn with_total(mut self, total: f64) -> Self {
        self.total = Some(total);
        self
    }

    /// Set the message.
    #[must_use]
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}

/// `notifications/cancelled` parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CancelledNotificationParams {
    /// The id of the request being cancelled (sent earlier in the same direction).
    /// Optional in 2025-11-25 (tasks are cancelled with `tasks/cancel`), required before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// Why, for logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl CancelledNotificationParams {
    /// Cancel `request_id`, optionally saying why.
    pub fn new(request_id: RequestId, reason: Option<String>) -> Self {
        Self {
            request_id: Some(request_id),
            reason,
            meta: None,
            extra: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_round_trips_with_unknown_members() {
        let text = r#"{"progressToken":"abc","progress":50.0,"total":100.0,"message":"half","_meta":{"x":1},"future":true}"#;
        let p: ProgressNotificationParams = serde_json::from_str(text).unwrap();
        assert_eq!(p.progress_token, RequestId::from("abc"));
        assert_eq!(p.total, Some(100.0));
        let back: serde_json::Value = serde_json::to_value(&p).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(text).unwrap()
        );
    }

    #[test]
    fn cancelled_serializes_camel_case() {
        let c = CancelledNotificationParams::new(RequestId::Number(4), Some("timeout".into()));
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            r#"{"requestId":4,"reason":"timeout"}"#
        );
    }
}
