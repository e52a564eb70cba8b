//! [`Deadlines`] and [`DeadlineHold`]: stopping the clocks of a session's requests while a
//! person answers the peer's question.

use tokio::sync::mpsc::WeakUnboundedSender;

use super::run::{Command, now};

/// A handle on a session's request clocks: hand it to code that waits for a person (see
/// [`DeadlineHold`]). It does not keep the session alive; once the session is gone,
/// [`hold`](Self::hold) holds nothing. The default holds nothing either.
#[derive(Clone, Debug, Default)]
pub struct Deadlines {
    commands: Option<WeakUnboundedSender<Command>>,
}

impl Deadlines {
    pub(super) fn new(commands: WeakUnboundedSender<Command>) -> Self {
        Self {
            commands: Some(commands),
        }
    }

    fn send(&self, command: impl FnOnce() -> Command) {
        if let Some(commands) = self
            .commands
            .as_ref()
            .and_then(WeakUnboundedSender::upgrade)
        {
            let _ = commands.send(command());
        }
    }

    /// Stop the clocks until the returned hold is dropped.
    pub fn hold(&self) -> DeadlineHold {
        let at = now();
        self.send(|| Command::Hold(at));
        DeadlineHold {
            deadlines: self.clone(),
        }
    }
}

/// While alive, no pending request of the session times out: the time a person takes to
/// answer a peer's question (an elicitation form) is not the peer's. When the last hold of
/// the session is dropped, each pending request's timeout starts again from the beginning,
/// as a progress notification restarts it, and a hard maximum
/// ([`RequestOptions::with_reset_timeout_on_progress`](crate::RequestOptions::with_reset_timeout_on_progress))
/// moves later by the time held.
///
/// It holds every pending request of the session, not only the one a peer's request belongs
/// to: on stdio nothing ties a server's request to the client request it serves, and while a
/// person answers, every request of the session waits on that person's answer.
///
/// ```
/// # #[tokio::main(flavor = "current_thread", start_paused = true)] async fn main() {
/// use std::sync::Arc;
/// use std::task::{Context, Poll};
/// use std::time::Duration;
/// use mcp_jsonrpc::{BoxFuture, Inbound, NoopHandler, Outbound, RequestOptions, Session, SessionOptions, Transport};
///
/// /// A server that never answers.
/// struct Silent;
/// impl Transport for Silent {
///     fn send(&mut self, _: Outbound) {}
///     fn poll_recv(&mut self, _: &mut Context<'_>) -> Poll<Inbound> { Poll::Pending }
///     fn close(&mut self) -> BoxFuture<'_, ()> { Box::pin(async {}) }
///     fn kind(&self) -> &'static str { "silent" }
/// }
///
/// let options = SessionOptions::new().with_timeout(Some(Duration::from_millis(100)));
/// let session = Session::start(Silent, options, Arc::new(NoopHandler));
/// let call = session.request("tools/call", None, RequestOptions::new());
/// let hold = session.deadlines().hold();
/// // A person takes ten times the timeout to answer: nothing times out meanwhile.
/// let mut call = std::pin::pin!(call);
/// assert!(tokio::time::timeout(Duration::from_secs(1), &mut call).await.is_err());
/// drop(hold);
/// // The clock starts again: a full timeout later the call times out as usual.
/// assert!(call.await.is_err());
/// # }
/// ```
#[derive(Debug)]
#[must_use = "the deadlines run again as soon as the hold is dropped"]
pub struct DeadlineHold {
    deadlines: Deadlines,
}

impl Drop for DeadlineHold {
    fn drop(&mut self) {
        let at = now();
        self.deadlines.send(|| Command::Release(at));
    }
}
