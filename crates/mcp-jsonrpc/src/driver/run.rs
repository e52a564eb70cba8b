//! The driver task: one per connection. It owns the [`SessionState`], the transport, the
//! one timer and the tasks answering the peer's requests, and joins them: commands from the
//! session's handles and what the transport reads go into the state; the frames, events and
//! deadline the state hands back go to the transport, the callers, the handler and the
//! timer. Nothing else in a session runs on a task of its own.

use std::borrow::Cow;
use std::collections::HashMap;
use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Instant;

use mcp_types::{RawResult, RawValue, RequestId};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Sleep;

use super::Status;
use super::peer_requests::PeerRequests;
use crate::{
    Ack, BoxFuture, Error, Event, Inbound, Outbound, ProgressCallback, RequestOptions, SendId,
    ServerRequestOutcome, SessionState, Transmit, Transport, TransportHandler, WireRules,
};

/// What a handle (or a task of the driver's) asks of the driver.
pub(crate) enum Command {
    Request {
        id: RequestId,
        /// As the pending request keeps it: borrowed when known, else owned here.
        method: Cow<'static, str>,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
        reply: oneshot::Sender<Result<RawResult, Error>>,
    },
    /// The caller gave up on its request (its token, or it stopped waiting).
    Cancel {
        id: RequestId,
        reason: String,
    },
    Notify {
        method: String,
        params: Option<Box<RawValue>>,
        /// The peer's request it belongs to.
        related: Option<RequestId>,
        done: oneshot::Sender<Result<(), Error>>,
    },
    /// A transport finished a send somebody waits to hear about.
    Sent {
        send: SendId,
        result: Result<(), Error>,
    },
    /// A handler of the peer's request ended (`None`: without an answer).
    Answered {
        id: RequestId,
        outcome: Option<ServerRequestOutcome>,
    },
    /// A [`DeadlineHold`](crate::DeadlineHold) was taken, or dropped, at this instant.
    Hold(Instant),
    Release(Instant),
    Rules(WireRules),
    Negotiated {
        rules: WireRules,
        ready: oneshot::Sender<BoxFuture<'static, ()>>,
    },
    Close,
}

/// What a request of ours is registered with in the state: how to hand its outcome back.
pub(crate) struct Waiter {
    reply: oneshot::Sender<Result<RawResult, Error>>,
    progress: Option<ProgressCallback>,
}

/// How many frames the transport may hand over before the driver looks at its commands.
/// After a full batch the driver yields, so the callers it just answered make their next
/// requests before more answers are read: with 64 in flight over stdio, reading up to 64
/// at a time and sending nothing meanwhile made the client and the server take turns
/// (0.2 s of 0.4 s idle); 8 kept both busy (docs/performance.md, issue 26).
const READ_BATCH: usize = 8;

/// With this many commands taken in one go, the driver lets the transport write what they
/// queued before taking more: the server starts on the first requests of a burst while
/// the rest are still being made (the stdio numbers are in `docs/performance.md`).
const WRITE_BATCH: usize = 32;

/// Where the state's events go: the callers, the handler, the handlers' tasks.
struct Outlet {
    handler: Arc<dyn TransportHandler>,
    peer: PeerRequests,
    notified: HashMap<SendId, oneshot::Sender<Result<(), Error>>>,
    /// Where a transport's acknowledgements and the handlers' answers go; weak, so the
    /// driver notices when every handle is gone.
    commands: mpsc::WeakUnboundedSender<Command>,
    status: Arc<Status>,
}

pub(crate) struct Driver<T> {
    state: SessionState<Waiter>,
    transport: T,
    outlet: Outlet,
    commands: mpsc::UnboundedReceiver<Command>,
    sleep: Pin<Box<Sleep>>,
    armed: Option<Instant>,
    /// The transport has not said [`Inbound::Closed`].
    open: bool,
    /// The time of this wake-up: read once per turn of the loop, not per command.
    now: Instant,
    status: Arc<Status>,
}

/// The time, as the state takes it: tokio's clock (which tests may pause), as a std
/// `Instant`.
pub(super) fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}

impl<T: Transport> Driver<T> {
    pub(crate) fn new(
        state: SessionState<Waiter>,
        transport: T,
        handler: Arc<dyn TransportHandler>,
        commands: mpsc::UnboundedReceiver<Command>,
        weak: mpsc::WeakUnboundedSender<Command>,
        status: Arc<Status>,
    ) -> Self {
        Self {
            state,
            transport,
            outlet: Outlet {
                handler,
                peer: PeerRequests::default(),
                notified: HashMap::new(),
                commands: weak,
                status: Arc::clone(&status),
            },
            commands,
            sleep: Box::pin(tokio::time::sleep_until(tokio::time::Instant::now())),
            armed: None,
            open: true,
            now: now(),
            status,
        }
    }

    /// Run until the session is closed (then close the transport and wait for every task)
    /// or every handle is dropped (then stop at once: the transport's `Drop` releases what
    /// it holds).
    pub(crate) async fn run(mut self) {
        loop {
            self.settle();
            // The callers' requests before more answers: read first, the driver sent nothing
            // while answers kept coming, and with many calls in flight the peer and we took
            // turns instead of working at once (docs/performance.md, issue 26).
            if let Ok(command) = self.commands.try_recv() {
                if !self.commands(command).await {
                    break;
                }
                continue;
            }
            let reading = self.open && !self.state.is_busy();
            let timed = self.armed.is_some();
            let Self {
                state,
                transport,
                outlet,
                commands,
                sleep,
                open,
                ..
            } = &mut self;
            let transporting = *open;
            tokio::select! {
                biased;
                full = poll_fn(|cx| {
                    if reading {
                        read(transport, state, outlet, open, cx)
                    } else {
                        // Busy: nothing is read, but what is queued still goes out.
                        transport.poll_send(cx);
                        Poll::Pending
                    }
                }), if transporting => {
                    if full {
                        // More may wait: first let the callers just answered run and make
                        // their next requests, which then go out before the rest is read.
                        behind_the_ready().await;
                    }
                }
                command = commands.recv() => match command {
                    Some(command) => {
                        if !self.commands(command).await {
                            break;
                        }
                    }
                    None => {
                        // Every handle is gone without a close.
                        self.state.close();
                        self.outlet.peer.stop_all();
                        return;
                    }
                },
                () = sleep, if timed => {
                    self.now = now();
                    self.state.handle_timeout(self.now);
                }
            }
        }
        self.close().await;
    }

    /// Take `first` and every command already queued (letting the transport write after
    /// each [`WRITE_BATCH`]). `false` when one of them closes the session.
    async fn commands(&mut self, first: Command) -> bool {
        self.now = now();
        let mut next = Some(first);
        let mut taken = 0;
        while let Some(command) = next {
            if !self.command(command) {
                return false;
            }
            taken += 1;
            if taken % WRITE_BATCH == 0 {
                self.settle();
                // One poll: the transport writes what is queued (stdio's writer has written
                // each group of 32 by itself, and writes the rest once its reads pause); a
                // frame it read meanwhile is handled like any other.
                let Self {
                    state,
                    transport,
                    outlet,
                    open,
                    ..
                } = &mut *self;
                let _ = poll_fn(|cx| Poll::Ready(read(transport, state, outlet, open, cx))).await;
            }
            next = self.commands.try_recv().ok();
        }
        true
    }

    /// One command. `false` for close.
    fn command(&mut self, command: Command) -> bool {
        match command {
            Command::Request {
                id,
                method,
                params,
                options,
                reply,
            } => {
                let waiter = Waiter {
                    reply,
                    progress: options.on_progress.clone(),
                };
                let registered = self
                    .state
                    .request_named(self.now, id, method, params, options, waiter);
                if let Err((e, waiter)) = registered {
                    let _ = waiter.reply.send(Err(e));
                }
            }
            Command::Cancel { id, reason } => {
                self.state.cancel(&id, reason);
            }
            Command::Notify {
                method,
                params,
                related,
                done,
            } => match self
                .state
                .notify_related(self.now, &method, params.as_deref(), related)
            {
                Ok(Some(send)) => {
                    self.outlet.notified.insert(send, done);
                }
                Ok(None) => {
                    let _ = done.send(Ok(()));
                }
                Err(e) => {
                    let _ = done.send(Err(e));
                }
            },
            Command::Sent { send, result } => self.state.handle_sent(send, result),
            Command::Answered { id, outcome } => {
                self.outlet.peer.finished(&id);
                match outcome {
                    Some(ServerRequestOutcome::Reply(outcome)) => {
                        self.state.respond(self.now, &id, &outcome);
                    }
                    _ => self.state.decline(&id),
                }
            }
            Command::Hold(at) => self.state.hold(at),
            Command::Release(at) => self.state.release(at),
            Command::Rules(rules) => self.state.set_rules(rules),
            Command::Negotiated { rules, ready } => {
                let future = self.transport.negotiated(&rules);
                self.state.set_rules(rules);
                let _ = ready.send(future);
            }
            Command::Close => return false,
        }
        true
    }

    /// Hand the state's frames to the transport and its events to their owners, until it
    /// has none left; then set the timer and the counters the handles read.
    fn settle(&mut self) {
        self.outlet.drain(&mut self.state);
        while let Some(transmit) = self.state.poll_transmit() {
            let frame = self.outlet.outbound(transmit);
            self.transport.send(frame);
        }
        let next = self.state.poll_timeout();
        if next != self.armed {
            if let Some(at) = next {
                self.sleep
                    .as_mut()
                    .reset(tokio::time::Instant::from_std(at));
            }
            self.armed = next;
        }
        self.status.update(&self.state, self.outlet.peer.len());
    }

    /// Close: the state fails what waits; frames already queued (cancellations) go to the
    /// transport; the handlers stop; the transport closes (stdio: the shutdown sequence;
    /// HTTP: its sends finish, the session is deleted) and every task it started ends; the
    /// handler hears of it, once.
    async fn close(mut self) {
        let was_open = !self.state.is_closed();
        self.state.close();
        self.settle();
        self.outlet.peer.join_all().await;
        self.transport.close().await;
        // Acknowledgements that came in while the transport closed.
        while let Ok(command) = self.commands.try_recv() {
            if let Command::Sent { send, result } = command {
                self.state.handle_sent(send, result);
            }
        }
        self.settle();
        for (_, done) in self.outlet.notified.drain() {
            let _ = done.send(Err(Error::closed()));
        }
        if was_open {
            self.outlet.handler.on_closed();
        }
        self.status.update(&self.state, 0);
    }
}

impl Outlet {
    /// Hand every event the state has to its owner, in order.
    fn drain(&mut self, state: &mut SessionState<Waiter>) {
        while let Some(event) = state.poll_event() {
            self.event(state, event);
        }
    }

    fn event(&mut self, state: &SessionState<Waiter>, event: Event<Waiter>) {
        match event {
            Event::Response {
                context, result, ..
            } => {
                // Counted before the caller hears, so a caller that asks next sees its own
                // request gone.
                self.status.pending(state.pending_len());
                // The caller may have gone: nobody to tell.
                let _ = context.reply.send(result);
            }
            Event::Progress { id, params } => {
                if let Some(callback) = state
                    .context(&id)
                    .and_then(|waiter| waiter.progress.as_ref())
                {
                    callback(&params);
                }
            }
            Event::Notification(notification) => self.handler.on_notification(notification),
            Event::Request(request) => self.peer.start(request, &*self.handler, &self.commands),
            Event::PeerCancelled { id, reason } => self
                .peer
                .cancel(&id, reason.as_deref().unwrap_or("cancelled by the peer")),
            Event::Sent { send, result } => {
                if let Some(done) = self.notified.remove(&send) {
                    let _ = done.send(result);
                }
            }
            Event::Error(error) => self.handler.on_error(&error),
            Event::Closed => {
                // The peer went away: the handlers stop now and the handler hears of it.
                // After our own close that is the last thing the close does.
                if !state.is_closed_locally() {
                    self.peer.stop_all();
                    self.handler.on_closed();
                }
            }
        }
    }

    /// A frame for the transport, with an acknowledgement when the state waits to hear it
    /// was delivered.
    fn outbound(&self, transmit: Transmit) -> Outbound {
        let mut frame = Outbound::new(transmit.kind, transmit.bytes).with_hints(transmit.hints);
        if let Some(send) = transmit.send {
            let commands = self.commands.clone();
            frame = frame.with_ack(Ack::new(move |result| {
                if let Some(commands) = commands.upgrade() {
                    let _ = commands.send(Command::Sent { send, result });
                }
            }));
        }
        frame
    }
}

/// Poll the transport for what it has and hand it to the state, each item's events at
/// once (a progress callback runs before the answer that follows it), up to
/// [`READ_BATCH`] items and only while the state takes more requests of the peer
/// (back-pressure: what is not read waits in the transport, and the peer's writes block):
/// ready once one was taken, with whether the batch was full (more may wait).
fn read<T: Transport>(
    transport: &mut T,
    state: &mut SessionState<Waiter>,
    outlet: &mut Outlet,
    open: &mut bool,
    cx: &mut std::task::Context<'_>,
) -> Poll<bool> {
    let mut taken = 0;
    let now = now();
    while taken < READ_BATCH && *open && !state.is_busy() {
        let Poll::Ready(inbound) = transport.poll_recv(cx) else {
            break;
        };
        taken += 1;
        match inbound {
            Inbound::Frame(frame) => state.handle_frame(now, frame),
            Inbound::TooLarge { head, limit } => state.handle_too_large(&head, limit),
            Inbound::Failed { id, error } => state.request_failed(&id, error),
            Inbound::Error(error) => outlet.handler.on_error(&error),
            Inbound::Closed { detail, error } => {
                *open = false;
                tracing::debug!(
                    kind = transport.kind(),
                    ?detail,
                    "transport closed by the peer"
                );
                state.handle_peer_closed(detail, error);
            }
        }
        outlet.drain(state);
    }
    if taken == 0 {
        Poll::Pending
    } else {
        Poll::Ready(taken == READ_BATCH)
    }
}

/// Let every task that is ready run once before this one goes on: wake itself and wait to
/// be polled again, at the back of the runtime's queue. Not `tokio::task::yield_now`,
/// which defers the wake-up until the runtime has polled its I/O driver: one `epoll_wait`
/// per yield, every 8 answers with 64 calls in flight over stdio (2 500 system calls per
/// 20 000 calls; docs/performance.md, issue 26).
async fn behind_the_ready() {
    let mut woken = false;
    std::future::poll_fn(|cx| {
        if woken {
            return Poll::Ready(());
        }
        woken = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    })
    .await;
}
