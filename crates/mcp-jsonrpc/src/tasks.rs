//! [`Exchanges`]: the work a transport runs beside the session (each HTTP POST with its reply
//! stream, a background event stream), as futures the transport owns and polls whenever the
//! session's driver polls it, and the bounded queue through which they hand what they read
//! to the session.
//!
//! They are not tasks of their own: a task per request cost a spawn and a wake-up through
//! the scheduler for each, and with 64 requests in flight over HTTP made the client three
//! times slower than polling them here (docs/performance.md). Nothing outlives the
//! transport: dropping it (or [`Exchanges::stop`]) drops every future; its close waits for
//! the ones that should finish.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use futures_util::future::{AbortHandle, Abortable};
use futures_util::stream::{FuturesUnordered, Stream};
use mcp_types::RequestId;
use tokio::sync::mpsc;

use crate::Inbound;

type Work = Pin<Box<dyn Future<Output = Option<Inbound>> + Send>>;

/// A piece of work, and the request it serves. The request is kept here, beside the boxed
/// future, not in a future wrapping it: a request's exchange is large, and every wrapper
/// copied it once more on its way into the box (docs/performance.md, issue 26).
struct Tagged {
    request: Option<RequestId>,
    work: Work,
}

impl Future for Tagged {
    /// The last frame the work read.
    type Output = Option<Inbound>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Inbound>> {
        self.work.as_mut().poll(cx)
    }
}

/// Where a transport's futures hand what they read: bounded, so while the session takes
/// nothing (it answers as many of the peer's requests as it takes at once), the streams
/// stop being read. Cheap to clone.
#[derive(Debug, Clone)]
pub struct InboundQueue(mpsc::Sender<Inbound>);

impl InboundQueue {
    /// Hand `inbound` to the session (waiting while the queue is full). `false` when the
    /// transport is gone.
    pub async fn deliver(&self, inbound: Inbound) -> bool {
        self.0.send(inbound).await.is_ok()
    }

    /// Whether the transport is gone.
    pub fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

/// The futures one transport runs, each tagged with the request it serves (if any), so
/// that request's cancellation stops it.
///
/// A request's work carries no abort handle of its own: cancelling is rare, and a handle
/// (an allocation, an atomic waker registered on every poll, an entry in a map by request)
/// cost every request; [`abort`](Self::abort) takes the request's work out of the set
/// instead (docs/performance.md, issue 26).
pub struct Exchanges {
    running: FuturesUnordered<Tagged>,
    inbound: mpsc::Receiver<Inbound>,
    queue: InboundQueue,
    /// The task that last polled the work: woken when the set is made anew (its futures
    /// must be polled again to be woken again).
    poller: Option<Waker>,
    /// The frames requests' work ended with, handed out after what is queued (a frame a
    /// piece of work queued before it ended comes first). At most one per request in
    /// flight.
    ended: VecDeque<Inbound>,
}

impl std::fmt::Debug for Exchanges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exchanges")
            .field("running", &self.running.len())
            .finish()
    }
}

impl Exchanges {
    /// No work yet; what the futures read is queued up to `capacity` frames.
    pub fn new(capacity: usize) -> Self {
        let (tx, inbound) = mpsc::channel(capacity.max(1));
        Self {
            running: FuturesUnordered::new(),
            poller: None,
            inbound,
            queue: InboundQueue(tx),
            ended: VecDeque::new(),
        }
    }

    /// Where the futures hand what they read.
    pub fn queue(&self) -> InboundQueue {
        self.queue.clone()
    }

    /// Run `work` until it ends, the transport drops it, or `stop` does. Returns its abort
    /// handle.
    pub fn run(&mut self, work: impl Future<Output = ()> + Send + 'static) -> AbortHandle {
        let (handle, registration) = AbortHandle::new_pair();
        let work = Box::pin(async move {
            // Aborted or not, it ends with nothing to hand out.
            let _ = Abortable::new(work, registration).await;
            None
        });
        self.running.push(Tagged {
            request: None,
            work,
        });
        handle
    }

    /// Run `work` for request `id`: its cancellation ([`abort`](Self::abort)) stops it.
    /// What it ends with (its answer, or why there is none) is handed out like a frame of
    /// the queue, after the ones it queued.
    pub fn run_for(
        &mut self,
        id: RequestId,
        work: impl Future<Output = Option<Inbound>> + Send + 'static,
    ) {
        self.running.push(Tagged {
            request: Some(id),
            work: Box::pin(work),
        });
    }

    /// Stop the work of request `id`, if it still runs: it is dropped now.
    pub fn abort(&mut self, id: &RequestId) {
        if self
            .running
            .iter()
            .any(|tagged| tagged.request.as_ref() == Some(id))
        {
            self.keep(|request| request != Some(id));
        }
    }

    /// Stop the work of every request: nobody waits for their answers any more (close).
    pub fn abort_requests(&mut self) {
        self.keep(|request| request.is_none());
    }

    /// Drop the work whose request `keep` refuses. The set is made anew from the work kept
    /// (each is polled again, which work allows): a set of futures cannot take one out.
    fn keep(&mut self, keep: impl Fn(Option<&RequestId>) -> bool) {
        self.running = std::mem::take(&mut self.running)
            .into_iter()
            .filter(|tagged| keep(tagged.request.as_ref()))
            .collect();
        if let Some(poller) = &self.poller {
            poller.wake_by_ref();
        }
    }

    /// Make progress on every piece of work that can, and hand out the next thing read.
    pub fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Inbound> {
        self.poll_work(cx);
        match self.inbound.poll_recv(cx) {
            Poll::Ready(Some(inbound)) => Poll::Ready(inbound),
            // The queue holds a sender itself: it never ends.
            Poll::Ready(None) | Poll::Pending => {
                self.ended.pop_front().map_or(Poll::Pending, Poll::Ready)
            }
        }
    }

    /// Make progress on every piece of work that can (without taking what it read).
    pub fn poll_work(&mut self, cx: &mut Context<'_>) {
        if !self
            .poller
            .as_ref()
            .is_some_and(|poller| poller.will_wake(cx.waker()))
        {
            self.poller = Some(cx.waker().clone());
        }
        while let Poll::Ready(Some(last)) = Pin::new(&mut self.running).poll_next(cx) {
            self.ended.extend(last);
        }
    }

    /// How many pieces of work run.
    pub fn len(&self) -> usize {
        self.running.len()
    }

    /// Whether none runs.
    pub fn is_empty(&self) -> bool {
        self.running.is_empty()
    }

    /// Stop every piece of work now.
    pub fn stop(&mut self) {
        self.running.clear();
        self.ended.clear();
    }

    /// Let the work run to its end within `grace` (what it reads is dropped: the session is
    /// closing), then stop the rest.
    pub async fn finish(&mut self, grace: Duration) {
        let all_done = std::future::poll_fn(|cx| {
            self.poll_work(cx);
            while let Poll::Ready(Some(_)) = self.inbound.poll_recv(cx) {}
            self.ended.clear();
            if self.running.is_empty() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        });
        let _ = tokio::time::timeout(grace, all_done).await;
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[tokio::test]
    async fn work_hands_frames_out_and_a_request_s_work_stops_with_it() {
        let mut exchanges = Exchanges::new(4);
        let queue = exchanges.queue();
        exchanges.run(async move {
            queue.deliver(Inbound::Error(crate::Error::closed())).await;
        });
        let finished = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&finished);
        exchanges.run_for(RequestId::Number(1), async move {
            std::future::pending::<()>().await;
            flag.store(true, Ordering::SeqCst);
            None
        });
        let got = std::future::poll_fn(|cx| exchanges.poll_recv(cx)).await;
        assert!(matches!(got, Inbound::Error(_)));
        assert_eq!(exchanges.len(), 1);
        exchanges.abort(&RequestId::Number(1));
        std::future::poll_fn(|cx| {
            exchanges.poll_work(cx);
            Poll::Ready(())
        })
        .await;
        assert!(exchanges.is_empty());
        assert!(!finished.load(Ordering::SeqCst));
    }

    #[tokio::test]
    async fn what_a_request_s_work_ends_with_comes_after_what_it_queued() {
        let mut exchanges = Exchanges::new(4);
        let queue = exchanges.queue();
        exchanges.run_for(RequestId::Number(7), async move {
            queue.deliver(Inbound::Error(crate::Error::closed())).await;
            Some(Inbound::Failed {
                id: RequestId::Number(7),
                error: crate::Error::closed(),
            })
        });
        let first = std::future::poll_fn(|cx| exchanges.poll_recv(cx)).await;
        assert!(matches!(first, Inbound::Error(_)), "{first:?}");
        let last = std::future::poll_fn(|cx| exchanges.poll_recv(cx)).await;
        assert!(matches!(last, Inbound::Failed { .. }), "{last:?}");
        assert!(exchanges.is_empty());
    }

    #[tokio::test]
    async fn aborting_one_request_s_work_leaves_the_others_running() {
        let mut exchanges = Exchanges::new(4);
        let (release, released) = tokio::sync::oneshot::channel::<()>();
        let dropped = Arc::new(AtomicBool::new(false));
        let guard = DropFlag(Arc::clone(&dropped));
        exchanges.run_for(RequestId::Number(1), async move {
            let _guard = guard;
            std::future::pending::<()>().await;
            None
        });
        exchanges.run_for(RequestId::Number(2), async move {
            let _ = released.await;
            Some(Inbound::Failed {
                id: RequestId::Number(2),
                error: crate::Error::closed(),
            })
        });
        let background = exchanges.run(std::future::pending());
        let wakes = Arc::new(Wakes::default());
        let waker = std::task::Waker::from(Arc::clone(&wakes));
        exchanges.poll_work(&mut Context::from_waker(&waker));
        let before = wakes.0.load(Ordering::SeqCst);
        exchanges.abort(&RequestId::Number(1));
        // Dropped at once, not when next polled; the poller is told to poll the rest again.
        assert!(dropped.load(Ordering::SeqCst));
        assert!(wakes.0.load(Ordering::SeqCst) > before);
        assert_eq!(exchanges.len(), 2);
        release.send(()).unwrap();
        let last = std::future::poll_fn(|cx| exchanges.poll_recv(cx)).await;
        assert!(
            matches!(
                last,
                Inbound::Failed {
                    id: RequestId::Number(2),
                    ..
                }
            ),
            "{last:?}"
        );
        // Background work is stopped by its own handle, not by a request's abort.
        exchanges.abort_requests();
        assert_eq!(exchanges.len(), 1);
        background.abort();
        std::future::poll_fn(|cx| {
            exchanges.poll_work(cx);
            Poll::Ready(())
        })
        .await;
        assert!(exchanges.is_empty());
    }

    /// Counts its wake-ups.
    #[derive(Default)]
    struct Wakes(std::sync::atomic::AtomicUsize);

    impl std::task::Wake for Wakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Sets its flag when dropped.
    struct DropFlag(Arc<AtomicBool>);

    impl Drop for DropFlag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    #[tokio::test]
    async fn finish_waits_within_its_grace_then_stops_the_rest() {
        let mut exchanges = Exchanges::new(1);
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        exchanges.run(async move {
            tokio::task::yield_now().await;
            flag.store(true, Ordering::SeqCst);
        });
        exchanges.run(std::future::pending());
        exchanges.finish(Duration::from_millis(50)).await;
        assert!(done.load(Ordering::SeqCst));
        assert!(exchanges.is_empty());
    }
}
