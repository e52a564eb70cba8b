//! The bounded queue between a connection's reader and the manager's forwarder task.
//!
//! Notifications are queued from the moment the client connects, but the forwarder only
//! starts once the connection is installed (after the handshake and the first listings):
//! a server can send millions of notifications meanwhile (906 MB from 3 M log messages
//! with the unbounded channel this replaces). The reader must never block on the queue
//! (that would stall replies too), so the policy is **drop the oldest**: past
//! [`NotificationQueueLimits`] (a count and a byte total), the oldest queued notification is
//! discarded to make room, the drop is counted, and the forwarder logs one warning with the
//! count when it next takes a notification. Recent notifications are usually the useful
//! ones (the latest log lines, the latest `list_changed`).
//!
//! Public (as [`notification_queue`](crate::notification_queue)) for the layers above that
//! forward notifications on to someone who may read slowly (a proxy's host).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use mcp_client::ServerNotification;
use tokio::sync::Notify;

/// The default bounds of a server's notification queue: 1024 notifications, 16 MiB.
pub const DEFAULT_NOTIFICATION_QUEUE: NotificationQueueLimits = NotificationQueueLimits {
    max_count: 1024,
    max_bytes: 16 * 1024 * 1024,
};

/// How much of a server's notifications the manager holds while it is not forwarding them
/// (during the connect, or while a `list_changed` reloads a list). The oldest are dropped
/// past either bound; one notification larger than `max_bytes` is still kept on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotificationQueueLimits {
    /// The most notifications queued.
    pub max_count: usize,
    /// The most bytes of params (plus method names) queued.
    pub max_bytes: usize,
}

/// The reader's end ([`NotificationSender`](crate::NotificationSender)): pushes never
/// wait. Dropping it ends the queue once it is drained.
pub struct QueueSender {
    shared: Arc<Shared>,
}

/// The forwarder's end ([`NotificationQueue`](crate::NotificationQueue)).
pub struct QueueReceiver {
    shared: Arc<Shared>,
}

struct Shared {
    limits: NotificationQueueLimits,
    state: Mutex<State>,
    ready: Notify,
}

#[derive(Default)]
struct State {
    items: VecDeque<ServerNotification>,
    bytes: usize,
    /// Dropped since the receiver last took a notification.
    dropped: u64,
    closed: bool,
}

/// A new queue with these bounds (a zero count is taken as one).
pub fn queue(limits: NotificationQueueLimits) -> (QueueSender, QueueReceiver) {
    let shared = Arc::new(Shared {
        limits,
        state: Mutex::new(State::default()),
        ready: Notify::new(),
    });
    (
        QueueSender {
            shared: Arc::clone(&shared),
        },
        QueueReceiver { shared },
    )
}

fn size(n: &ServerNotification) -> usize {
    n.method.len() + n.params.as_deref().map_or(0, |p| p.get().len())
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        mcp_types::sync::lock(&self.state)
    }
}

impl QueueSender {
    /// Queue `notification`, dropping the oldest ones past the bounds. Never waits.
    pub fn push(&self, notification: ServerNotification) {
        let limits = self.shared.limits;
        let mut state = self.shared.lock();
        let added = size(&notification);
        while !state.items.is_empty()
            && (state.items.len() >= limits.max_count.max(1)
                || state.bytes.saturating_add(added) > limits.max_bytes)
        {
            if let Some(old) = state.items.pop_front() {
                state.bytes -= size(&old);
                state.dropped += 1;
            }
        }
        state.bytes += added;
        state.items.push_back(notification);
        drop(state);
        self.shared.ready.notify_one();
    }
}

impl Drop for QueueSender {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_one();
    }
}

impl QueueReceiver {
    /// The oldest queued notification and how many were dropped since the last call, or
    /// `None` once the sender is gone and the queue is empty.
    pub async fn recv(&mut self) -> Option<(ServerNotification, u64)> {
        loop {
            {
                let mut state = self.shared.lock();
                if let Some(item) = state.items.pop_front() {
                    state.bytes -= size(&item);
                    let dropped = std::mem::take(&mut state.dropped);
                    return Some((item, dropped));
                }
                if state.closed {
                    return None;
                }
            }
            // One consumer: a notify_one that came before this await left a permit.
            self.shared.ready.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(i: usize) -> ServerNotification {
        let params = serde_json::value::to_raw_value(&i).unwrap();
        ServerNotification::new("m", Some(params))
    }

    fn index(n: &ServerNotification) -> usize {
        n.params_as().unwrap()
    }

    #[tokio::test]
    async fn past_the_count_the_oldest_are_dropped_and_counted() {
        let (tx, mut rx) = queue(NotificationQueueLimits {
            max_count: 3,
            max_bytes: usize::MAX,
        });
        for i in 0..10 {
            tx.push(note(i));
        }
        drop(tx);
        let (first, dropped) = rx.recv().await.unwrap();
        assert_eq!((index(&first), dropped), (7, 7));
        let (second, dropped) = rx.recv().await.unwrap();
        assert_eq!((index(&second), dropped), (8, 0));
        assert_eq!(index(&rx.recv().await.unwrap().0), 9);
        assert!(rx.recv().await.is_none());
    }

    #[tokio::test]
    async fn past_the_bytes_the_oldest_are_dropped_but_one_big_one_is_kept() {
        // Each note is "m" plus one or two digits: 2 or 3 bytes.
        let (tx, mut rx) = queue(NotificationQueueLimits {
            max_count: 100,
            max_bytes: 6,
        });
        for i in 7..12 {
            tx.push(note(i)); // 2, 2, 2 (7, 8, 9) then 3, 3 (10, 11)
        }
        let (first, dropped) = rx.recv().await.unwrap();
        assert_eq!((index(&first), dropped), (10, 3));
        assert_eq!(index(&rx.recv().await.unwrap().0), 11);
        let big = ServerNotification::new(
            "m",
            Some(serde_json::value::to_raw_value(&"x".repeat(100)).unwrap()),
        );
        tx.push(big);
        assert_eq!(size(&rx.recv().await.unwrap().0), 103);
    }

    #[tokio::test]
    async fn a_waiting_receiver_wakes_for_a_push_and_for_the_end() {
        let (tx, mut rx) = queue(DEFAULT_NOTIFICATION_QUEUE);
        let waiter = tokio::spawn(async move {
            let first = rx.recv().await.map(|(n, _)| index(&n));
            let end = rx.recv().await.is_none();
            (first, end)
        });
        tokio::task::yield_now().await;
        tx.push(note(1));
        drop(tx);
        let (first, end) = tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((first, end), (Some(1), true));
    }
}
