//! [`Session`]: a handle to one connection, whose driver task owns the
//! [`SessionState`](crate::SessionState), the [`Transport`], the timer and every task the
//! session starts (feature `tokio`).
//!
//! A request goes from the caller's handle to the driver as a command, the driver registers
//! it in the state and hands the frame to the transport, and the answer comes back the same
//! way; a caller that gives up (its token, a dropped future) tells the driver, which tells
//! the peer. [`Session::close`] returns once the driver and everything it started have
//! ended. See `docs/architecture.md` for the data path of one call.

mod hold;
mod peer_requests;
mod run;
#[cfg(test)]
mod tests;

pub use hold::{DeadlineHold, Deadlines};

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_types::sync::lock;
use mcp_types::{RawResult, RawValue, RequestId};
use tokio::sync::{OnceCell, mpsc, oneshot};
use tokio::task::JoinHandle;

use self::run::{Command, Driver};
use crate::{
    Error, IdAllocator, RequestOptions, SessionOptions, SessionState, Transport, TransportHandler,
    TransportInfo, TransportTraits, WireRules,
};

/// One JSON-RPC session over one transport: requests and notifications, either role.
///
/// Cheap to clone; clones share the session. Requests may run concurrently. Dropping every
/// clone without [`close`](Self::close) stops the driver at once and drops the transport
/// (which stops its server: stdio kills the process group), without the closed event.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use std::sync::Arc;
/// use std::task::{Context, Poll};
/// use mcp_jsonrpc::{
///     BoxFuture, FrameKind, Inbound, NoopHandler, Outbound, Received, RequestOptions, Session,
///     SessionOptions, Transport,
/// };
///
/// /// A pipe to a server that answers every request with `{}`.
/// #[derive(Default)]
/// struct Echo(Vec<Inbound>);
///
/// impl Transport for Echo {
///     fn send(&mut self, frame: Outbound) {
///         if let FrameKind::Request(id) = &frame.kind {
///             let reply = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);
///             self.0.push(Inbound::Frame(Received::Text(reply)));
///         }
///     }
///     fn poll_recv(&mut self, _: &mut Context<'_>) -> Poll<Inbound> {
///         // The driver polls again after every send.
///         self.0.pop().map_or(Poll::Pending, Poll::Ready)
///     }
///     fn close(&mut self) -> BoxFuture<'_, ()> { Box::pin(async {}) }
///     fn kind(&self) -> &'static str { "echo" }
/// }
///
/// let session = Session::start(Echo::default(), SessionOptions::new(), Arc::new(NoopHandler));
/// let result = session.request("ping", None, RequestOptions::new()).await.unwrap();
/// assert_eq!(result.get(), "{}");
/// session.close().await;
/// assert!(!session.is_connected());
/// # }
/// ```
#[derive(Clone)]
pub struct Session {
    shared: Arc<Shared>,
}

struct Shared {
    commands: mpsc::UnboundedSender<Command>,
    ids: Arc<IdAllocator>,
    kind: &'static str,
    traits: TransportTraits,
    info: Option<Arc<dyn TransportInfo>>,
    default_timeout: Option<Duration>,
    status: Arc<Status>,
    driver: Mutex<Option<JoinHandle<()>>>,
    closing: OnceCell<()>,
}

/// What the driver last reported, for the handles' queries.
#[derive(Debug, Default)]
pub(crate) struct Status {
    pending: AtomicUsize,
    peer_requests: AtomicUsize,
    closed: AtomicBool,
}

impl Status {
    fn pending(&self, pending: usize) {
        self.pending.store(pending, Ordering::Release);
    }

    fn update<C>(&self, state: &SessionState<C>, peer_requests: usize) {
        self.pending.store(state.pending_len(), Ordering::Relaxed);
        self.peer_requests.store(peer_requests, Ordering::Relaxed);
        self.closed.store(state.is_closed(), Ordering::Release);
    }
}

impl Session {
    /// Start a session over `transport`: spawn its driver task. Events go to `handler`.
    /// Must be called inside a tokio runtime.
    pub fn start<T: Transport>(
        transport: T,
        options: SessionOptions,
        handler: Arc<dyn TransportHandler>,
    ) -> Self {
        let state = SessionState::new(options);
        let (commands, receiver) = mpsc::unbounded_channel();
        let status = Arc::new(Status::default());
        let shared = Shared {
            ids: state.id_allocator(),
            kind: transport.kind(),
            traits: transport.traits(),
            info: transport.info(),
            default_timeout: state.default_timeout(),
            status: Arc::clone(&status),
            driver: Mutex::new(None),
            closing: OnceCell::new(),
            commands: commands.clone(),
        };
        let driver = Driver::new(
            state,
            transport,
            handler,
            receiver,
            commands.downgrade(),
            status,
        );
        let handle = tokio::spawn(driver.run());
        *lock(&shared.driver) = Some(handle);
        Self {
            shared: Arc::new(shared),
        }
    }

    fn command(&self, command: Command) -> Result<(), Error> {
        self.shared
            .commands
            .send(command)
            .map_err(|_| Error::closed())
    }

    /// Send a request and wait for its raw result, under `options`' timeout, cancellation
    /// and progress rules.
    ///
    /// When the request times out, is cancelled through its token, or the caller drops this
    /// future before it finished, the peer is told (`notifications/cancelled`, or at
    /// revision 2026-07-28 over HTTP the closed reply stream; never for `initialize`). A
    /// response that arrives later is ignored.
    #[allow(
        clippy::manual_async_fn,
        reason = "an `async fn` keeps its arguments twice in its future (rustc #62958)"
    )]
    pub fn request<'a>(
        &'a self,
        method: &'a str,
        params: Option<Box<RawValue>>,
        options: RequestOptions,
    ) -> impl Future<Output = Result<RawResult, Error>> + Send + 'a {
        // A block rather than an `async fn`, which keeps its arguments twice (rustc
        // #62958): this future is part of every request's (docs/performance.md).
        async move {
            let id = self.shared.ids.next();
            let (reply, answer) = oneshot::channel();
            let cancel = options.cancel.clone();
            let slot = options.raw_result.clone();
            // A known method is not copied: the pending request keeps it until its answer.
            let method = mcp_types::methods::known_request(method)
                .map_or_else(|| Cow::Owned(method.to_owned()), Cow::Borrowed);
            self.command(Command::Request {
                id: id.clone(),
                method,
                params,
                options,
                reply,
            })?;
            let abandoned = Abandon {
                session: self,
                id: Some(id),
            };
            let answer = match &cancel {
                None => answer.await,
                Some(token) => tokio::select! {
                    biased;
                    answer = answer => answer,
                    () = token.cancelled() => {
                        let reason = token.reason().unwrap_or_else(|| "cancelled by caller".to_owned());
                        abandoned.give_up(reason.clone());
                        return Err(Error::Cancelled { reason });
                    }
                },
            };
            abandoned.disarm();
            // The driver ended before answering: the session is closed.
            let result = answer.unwrap_or_else(|_| Err(Error::closed()));
            if let (Ok(raw), Some(slot)) = (&result, slot) {
                slot.put(raw.clone());
            }
            result
        }
    }

    /// Send a notification, and wait until the transport delivered it (within the
    /// session's default timeout).
    ///
    /// `Ok` also when the peer has gone away (a notification has no answer to lose, and the
    /// closed event reports the disconnect); [`Error::TransportClosed`] after the caller's
    /// own [`close`](Self::close).
    pub async fn notify(&self, method: &str, params: Option<Box<RawValue>>) -> Result<(), Error> {
        self.notify_related(method, params, None).await
    }

    /// [`notify`](Self::notify) a notification that belongs to the peer's request
    /// `related` (a server's progress or log message while it answers that request): a
    /// server transport with a reply stream per request sends it there (see
    /// [`FrameHints::related_request`](crate::FrameHints::related_request)).
    pub async fn notify_related(
        &self,
        method: &str,
        params: Option<Box<RawValue>>,
        related: Option<RequestId>,
    ) -> Result<(), Error> {
        let (done, delivered) = oneshot::channel();
        self.command(Command::Notify {
            method: method.to_owned(),
            params,
            related,
            done,
        })?;
        delivered.await.unwrap_or_else(|_| Err(Error::closed()))
    }

    /// Speak by `rules` from now on (a dialect probing a revision).
    pub fn set_rules(&self, rules: WireRules) {
        let _ = self.command(Command::Rules(rules));
    }

    /// The handshake is over under `rules`: frames follow them from now on, and the
    /// transport sets up what comes after a handshake (Streamable HTTP: the GET stream).
    /// Returns once the transport is ready (bounded by it).
    pub async fn negotiated(&self, rules: WireRules) {
        let (ready, future) = oneshot::channel();
        if self.command(Command::Negotiated { rules, ready }).is_err() {
            return;
        }
        if let Ok(future) = future.await {
            future.await;
        }
    }

    /// Close: every request waiting fails with "Transport closed" and new ones are refused;
    /// frames already queued (the cancellation of a call that just ended) go out first, the
    /// peer's requests stop being answered, the transport closes (stdio: the shutdown
    /// sequence; HTTP: the session is deleted), and every task of the session ends before
    /// this returns; the handler hears of it once. Idempotent: concurrent callers wait for
    /// the same close.
    pub async fn close(&self) {
        let shared = &self.shared;
        shared
            .closing
            .get_or_init(|| async {
                let _ = self.command(Command::Close);
                let driver = lock(&shared.driver).take();
                if let Some(driver) = driver {
                    let _ = driver.await;
                }
            })
            .await;
    }

    /// Whether requests can be sent.
    pub fn is_connected(&self) -> bool {
        !self.shared.status.closed.load(Ordering::Acquire) && !self.shared.commands.is_closed()
    }

    /// How many requests wait for their answer. Zero after every call has finished, one way
    /// or another.
    ///
    /// A request whose caller gave up (its token, a dropped future) is forgotten by the
    /// driver a moment after the caller moved on.
    pub fn pending_len(&self) -> usize {
        self.shared.status.pending.load(Ordering::Acquire)
    }

    /// How many requests of the peer are being answered.
    pub fn server_requests_running(&self) -> usize {
        self.shared.status.peer_requests.load(Ordering::Relaxed)
    }

    /// Whether the driver task (and with it every task of the session) has ended.
    pub fn is_finished(&self) -> bool {
        lock(&self.shared.driver)
            .as_ref()
            .is_none_or(JoinHandle::is_finished)
    }

    /// The transport's short name (`"stdio"`, `"http"`, `"sse"`).
    pub fn kind(&self) -> &'static str {
        self.shared.kind
    }

    /// What the transport can carry beyond frames.
    pub fn traits(&self) -> TransportTraits {
        self.shared.traits
    }

    /// What the transport can tell about itself (a child's stderr, an HTTP session id).
    pub fn info(&self) -> Option<&Arc<dyn TransportInfo>> {
        self.shared.info.as_ref()
    }

    /// The last lines a stdio server wrote to its stderr.
    pub fn stderr_tail(&self) -> Option<String> {
        self.info().and_then(|info| info.stderr_tail())
    }

    /// The default timeout of requests that do not set their own.
    pub fn default_timeout(&self) -> Option<Duration> {
        self.shared.default_timeout
    }

    /// A handle that stops the clocks of this session's pending requests while a handler of
    /// the peer's request waits for a person: see [`DeadlineHold`].
    pub fn deadlines(&self) -> Deadlines {
        Deadlines::new(self.shared.commands.downgrade())
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("transport", &self.shared.kind)
            .field("connected", &self.is_connected())
            .field("pending", &self.pending_len())
            .finish_non_exhaustive()
    }
}

/// Tells the driver when a caller drops its request future before the request finished (an
/// outer `tokio::time::timeout`, a `select!` that took another branch): the peer should stop
/// working on it, as after a timeout.
struct Abandon<'a> {
    session: &'a Session,
    /// `None` once the request finished.
    id: Option<RequestId>,
}

impl Abandon<'_> {
    fn disarm(mut self) {
        self.id = None;
    }

    fn give_up(mut self, reason: String) {
        if let Some(id) = self.id.take() {
            let _ = self.session.command(Command::Cancel { id, reason });
        }
    }
}

impl Drop for Abandon<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            let reason = "request abandoned by the caller".to_owned();
            let _ = self.session.command(Command::Cancel { id, reason });
        }
    }
}
