//! `subscriptions/listen` (2026-07-28, `basic/patterns/subscriptions`): one long-lived
//! request whose stream carries the list-change and resource-update notifications the
//! client opted in to. Replaces the GET stream and `resources/subscribe`.

use serde::{Deserialize, Serialize};

use crate::{Meta, RequestId};

/// What a `subscriptions/listen` stream should carry; every kind is opt-in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscriptionFilter {
    /// `notifications/tools/list_changed`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tools_list_changed: bool,
    /// `notifications/prompts/list_changed`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prompts_list_changed: bool,
    /// `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resources_list_changed: bool,
    /// `notifications/resources/updated` for these URIs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_subscriptions: Vec<String>,
}

impl SubscriptionFilter {
    /// Every list change, no resource.
    pub fn list_changes() -> Self {
        Self {
            tools_list_changed: true,
            prompts_list_changed: true,
            resources_list_changed: true,
            resource_subscriptions: Vec::new(),
        }
    }

    /// Also `notifications/resources/updated` for `uri`.
    #[must_use]
    pub fn with_resource(mut self, uri: impl Into<String>) -> Self {
        self.resource_subscriptions.push(uri.into());
        self
    }
}

/// `subscriptions/listen` params (besides `_meta`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SubscriptionsListenRequestParams {
    /// What the stream should carry.
    pub notifications: SubscriptionFilter,
}

impl SubscriptionsListenRequestParams {
    /// Listen for `notifications`.
    pub fn new(notifications: SubscriptionFilter) -> Self {
        Self { notifications }
    }
}

/// `notifications/subscriptions/acknowledged` params: what the server agreed to send.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SubscriptionsAcknowledgedParams {
    /// The subset of the request's filter the server honours.
    pub notifications: SubscriptionFilter,
    /// `_meta`; its [`META_SUBSCRIPTION_ID`](crate::META_SUBSCRIPTION_ID) names the stream (see
    /// [`subscription_id`](Self::subscription_id)).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl SubscriptionsAcknowledgedParams {
    /// The `subscriptions/listen` request this acknowledges (its `_meta`
    /// [`META_SUBSCRIPTION_ID`](crate::META_SUBSCRIPTION_ID)), when the server named it and the value is a request id.
    ///
    /// ```
    /// use mcp_types::RequestId;
    /// use mcp_types::subscriptions::SubscriptionsAcknowledgedParams;
    /// let ack: SubscriptionsAcknowledgedParams = serde_json::from_str(
    ///     r#"{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{}}"#,
    /// ).unwrap();
    /// assert_eq!(ack.subscription_id(), Some(RequestId::Number(7)));
    /// ```
    pub fn subscription_id(&self) -> Option<RequestId> {
        crate::meta::subscription_id(self.meta.as_ref()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_opted_in_kinds_are_sent() {
        let params = SubscriptionsListenRequestParams::new(
            SubscriptionFilter::default().with_resource("f:/a"),
        );
        assert_eq!(
            serde_json::to_string(&params).unwrap(),
            r#"{"notifications":{"resourceSubscriptions":["f:/a"]}}"#
        );
        let all = serde_json::to_value(SubscriptionFilter::list_changes()).unwrap();
        assert_eq!(all["toolsListChanged"], true);
    }
}
