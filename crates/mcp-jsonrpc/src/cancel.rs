//! Caller cancellation with a reason, runtime-free: a waiter is woken through its own
//! `Waker`, so the token works under any executor (and in the sans-IO core's build, which
//! has no tokio).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::task::{Context, Poll, Waker};

/// A cancellation token that carries the reason the caller gave.
///
/// Cheap to clone; all clones observe the same cancellation. The first reason wins.
///
/// ```
/// use mcp_jsonrpc::CancelToken;
/// let token = CancelToken::new();
/// let other = token.clone();
/// token.cancel("user pressed Esc");
/// assert!(other.is_cancelled());
/// assert_eq!(other.reason().as_deref(), Some("user pressed Esc"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct CancelToken {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    cancelled: AtomicBool,
    reason: OnceLock<String>,
    waiters: Mutex<Waiters>,
}

/// The wakers of the futures waiting for the cancellation, each in a slot of its own that
/// it reuses on every poll and frees when dropped, so a waiter polled many times (inside a
/// `select!`) holds one slot, not one per poll.
#[derive(Debug, Default)]
struct Waiters {
    slots: Vec<Option<Waker>>,
    free: Vec<usize>,
}

impl Inner {
    fn waiters(&self) -> MutexGuard<'_, Waiters> {
        mcp_types::sync::lock(&self.waiters)
    }
}

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancel, recording `reason` unless an earlier call already gave one.
    pub fn cancel(&self, reason: impl Into<String>) {
        let _ = self.inner.reason.set(reason.into());
        if self.inner.cancelled.swap(true, Ordering::AcqRel) {
            return;
        }
        let woken: Vec<Waker> = {
            let mut waiters = self.inner.waiters();
            waiters.slots.iter_mut().filter_map(Option::take).collect()
        };
        for waker in woken {
            waker.wake();
        }
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::Acquire)
    }

    /// The reason given, once cancelled.
    pub fn reason(&self) -> Option<String> {
        self.inner.reason.get().cloned()
    }

    /// Resolves when the token is cancelled.
    pub fn cancelled(&self) -> Cancelled<'_> {
        Cancelled {
            token: self,
            slot: None,
        }
    }
}

/// The future of [`CancelToken::cancelled`].
#[derive(Debug)]
#[must_use = "futures do nothing unless polled"]
pub struct Cancelled<'a> {
    token: &'a CancelToken,
    slot: Option<usize>,
}

impl Future for Cancelled<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.token.is_cancelled() {
            return Poll::Ready(());
        }
        let inner = &self.token.inner;
        let mut waiters = inner.waiters();
        // Checked again under the lock: `cancel` takes the wakers under it, after the flag.
        if inner.cancelled.load(Ordering::Acquire) {
            return Poll::Ready(());
        }
        match self.slot {
            Some(slot) => match &mut waiters.slots[slot] {
                Some(waker) if waker.will_wake(cx.waker()) => {}
                entry => *entry = Some(cx.waker().clone()),
            },
            None => {
                let slot = match waiters.free.pop() {
                    Some(slot) => {
                        waiters.slots[slot] = Some(cx.waker().clone());
                        slot
                    }
                    None => {
                        waiters.slots.push(Some(cx.waker().clone()));
                        waiters.slots.len() - 1
                    }
                };
                drop(waiters);
                self.slot = Some(slot);
            }
        }
        Poll::Pending
    }
}

impl Drop for Cancelled<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            let mut waiters = self.token.inner.waiters();
            waiters.slots[slot] = None;
            waiters.free.push(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::task::Wake;

    struct Count(AtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_waiter_is_woken_once_and_its_slot_is_reused() {
        let token = CancelToken::new();
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(Arc::clone(&count));
        let mut cx = Context::from_waker(&waker);
        {
            let mut first = token.cancelled();
            for _ in 0..10 {
                assert!(Pin::new(&mut first).poll(&mut cx).is_pending());
            }
            assert_eq!(
                token.inner.waiters().slots.len(),
                1,
                "one slot however often polled"
            );
        }
        let mut second = token.cancelled();
        assert!(Pin::new(&mut second).poll(&mut cx).is_pending());
        assert_eq!(
            token.inner.waiters().slots.len(),
            1,
            "the freed slot is reused"
        );
        token.cancel("stop");
        token.cancel("again");
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
        assert!(Pin::new(&mut second).poll(&mut cx).is_ready());
        assert_eq!(token.reason().as_deref(), Some("stop"));
    }
}
