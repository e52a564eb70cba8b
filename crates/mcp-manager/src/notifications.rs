//! Server notifications from every managed server, tagged with the server's name.
//!
//! A notification that arrives before anyone subscribed is not lost: the hub keeps the last
//! [`BUFFERED_NOTIFICATIONS`] and hands them to the first subscriber (an agent usually
//! subscribes after `connect_all`, and a server's first log lines come during it).

use std::collections::VecDeque;
use std::sync::Mutex;

use mcp_client::ServerNotification;
use tokio::sync::broadcast;

/// How many notifications are kept for the first subscriber (the oldest are dropped).
pub const BUFFERED_NOTIFICATIONS: usize = 100;

/// How far a subscriber may fall behind before it misses the oldest notifications.
const CHANNEL_CAPACITY: usize = 1024;

/// A notification and the name of the server that sent it.
pub type TaggedNotification = (String, ServerNotification);

/// Fans notifications out to subscribers; buffers them until the first one arrives.
pub(crate) struct NotificationHub {
    state: Mutex<HubState>,
}

struct HubState {
    /// `Some` until the first subscriber takes it.
    backlog: Option<VecDeque<TaggedNotification>>,
    sender: broadcast::Sender<TaggedNotification>,
}

impl NotificationHub {
    pub(crate) fn new() -> Self {
        Self {
            state: Mutex::new(HubState {
                backlog: Some(VecDeque::new()),
                sender: broadcast::channel(CHANNEL_CAPACITY).0,
            }),
        }
    }

    pub(crate) fn publish(&self, server: &str, notification: ServerNotification) {
        let mut state = mcp_types::sync::lock(&self.state);
        let item = (server.to_owned(), notification);
        match state.backlog.as_mut() {
            Some(backlog) => {
                if backlog.len() == BUFFERED_NOTIFICATIONS {
                    backlog.pop_front();
                }
                backlog.push_back(item);
            }
            // No receiver left is fine: nobody is listening any more.
            None => drop(state.sender.send(item)),
        }
    }

    pub(crate) fn subscribe(&self) -> NotificationReceiver {
        // Under the lock, so nothing published meanwhile is missed or seen twice.
        let mut state = mcp_types::sync::lock(&self.state);
        NotificationReceiver {
            backlog: state.backlog.take().unwrap_or_default(),
            receiver: state.sender.subscribe(),
        }
    }
}

/// A subscription to the notifications of every managed server.
#[derive(Debug)]
pub struct NotificationReceiver {
    backlog: VecDeque<TaggedNotification>,
    receiver: broadcast::Receiver<TaggedNotification>,
}

impl NotificationReceiver {
    /// The next notification. `None` once the manager is gone. A subscriber more than 1024
    /// notifications behind skips the oldest ones (with a warning in the log).
    pub async fn recv(&mut self) -> Option<TaggedNotification> {
        if let Some(item) = self.backlog.pop_front() {
            return Some(item);
        }
        loop {
            match self.receiver.recv().await {
                Ok(item) => return Some(item),
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    tracing::warn!(target: "mcp::manager", skipped = n, "notification subscriber fell behind");
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }

    /// The next notification if one is ready, without waiting.
    pub fn try_recv(&mut self) -> Option<TaggedNotification> {
        if let Some(item) = self.backlog.pop_front() {
            return Some(item);
        }
        loop {
            match self.receiver.try_recv() {
                Ok(item) => return Some(item),
                Err(broadcast::error::TryRecvError::Lagged(_)) => continue,
                Err(_) => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(i: usize) -> ServerNotification {
        ServerNotification::new(format!("notifications/n{i}"), None)
    }

    #[test]
    fn first_subscriber_gets_the_last_100_in_order() {
        let hub = NotificationHub::new();
        for i in 0..150 {
            hub.publish("s", note(i));
        }
        let mut first = hub.subscribe();
        let got: Vec<String> = std::iter::from_fn(|| first.try_recv())
            .map(|(server, n)| {
                assert_eq!(server, "s");
                n.method
            })
            .collect();
        assert_eq!(got.len(), BUFFERED_NOTIFICATIONS);
        assert_eq!(got[0], "notifications/n50", "the 50 oldest were dropped");
        assert_eq!(got[99], "notifications/n149");
    }

    #[test]
    fn later_subscribers_get_only_what_comes_after_them() {
        let hub = NotificationHub::new();
        hub.publish("a", note(0));
        let mut first = hub.subscribe();
        let mut second = hub.subscribe();
        assert!(
            second.try_recv().is_none(),
            "the backlog went to the first subscriber"
        );
        hub.publish("b", note(1));
        assert_eq!(first.try_recv().unwrap().1.method, "notifications/n0");
        let (server, n) = first.try_recv().unwrap();
        assert_eq!(
            (server.as_str(), n.method.as_str()),
            ("b", "notifications/n1")
        );
        assert_eq!(second.try_recv().unwrap().0, "b");
        assert!(first.try_recv().is_none() && second.try_recv().is_none());
    }

    #[tokio::test]
    async fn recv_waits_for_the_next_notification() {
        let hub = std::sync::Arc::new(NotificationHub::new());
        let mut rx = hub.subscribe();
        let publisher = std::sync::Arc::clone(&hub);
        tokio::spawn(async move { publisher.publish("x", note(7)) });
        let (server, n) = tokio::time::timeout(std::time::Duration::from_secs(5), rx.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (server.as_str(), n.method.as_str()),
            ("x", "notifications/n7")
        );
    }
}
