//! A transport's own error, carried by the session's [`Error::Transport`](crate::Error).
//!
//! The session does not know the transports: an HTTP status, a child process that could not
//! be spawned or a legacy SSE stream that ended are the transports' errors (`mcp_http::Error`,
//! `mcp_transport_stdio::Error`, ...). The session carries them boxed and transparent (the
//! text and `source()` are the transport error's, so a chain shows each level once), hands
//! them back typed with `downcast_ref`, and asks them the two questions it and the layers
//! above need answered without naming their types: what kind of failure is it (for
//! machine-readable output) and does a reconnect help.

use std::error::Error as StdError;
use std::fmt;

/// What every transport error answers, so the layers above classify it without knowing
/// its type. Implemented by each transport crate's error type.
pub trait TransportFailure: StdError + Send + Sync + 'static {
    /// A short, stable name for the kind of failure (`"http"`, `"connect"`, `"spawn"`, ...),
    /// the same vocabulary as [`Error::kind`](crate::Error::kind).
    fn kind(&self) -> &'static str;

    /// Whether the connection is gone and a reconnect may help (a refused connection, an
    /// expired session, a stream that ended).
    fn is_retryable_connection(&self) -> bool;
}

/// A transport's error, boxed and transparent: `Display`, `Debug` and `source()` are the
/// transport's own (so a chain walk prints each level once), and
/// [`downcast_ref`](Self::downcast_ref) gives it back typed.
///
/// ```
/// use mcp_jsonrpc::{Error, TransportError, TransportFailure};
///
/// #[derive(Debug, thiserror::Error)]
/// #[error("pipe burst")]
/// struct Burst;
/// impl TransportFailure for Burst {
///     fn kind(&self) -> &'static str { "closed" }
///     fn is_retryable_connection(&self) -> bool { true }
/// }
///
/// let error = Error::from(TransportError::new(Burst));
/// assert_eq!(error.kind(), "closed");
/// assert!(error.is_retryable_connection());
/// assert!(error.transport_error::<Burst>().is_some());
/// assert_eq!(error.to_string(), "pipe burst");
/// ```
pub struct TransportError {
    inner: Box<dyn TransportFailure>,
}

impl TransportError {
    /// Box a transport's error.
    pub fn new<E: TransportFailure>(error: E) -> Self {
        Self {
            inner: Box::new(error),
        }
    }

    /// The transport's [`kind`](TransportFailure::kind).
    pub fn kind(&self) -> &'static str {
        self.inner.kind()
    }

    /// Whether a reconnect may help (see [`TransportFailure::is_retryable_connection`]).
    pub fn is_retryable_connection(&self) -> bool {
        self.inner.is_retryable_connection()
    }

    /// The transport's error, if it is an `E`.
    pub fn downcast_ref<E: TransportFailure>(&self) -> Option<&E> {
        self.get_ref().downcast_ref::<E>()
    }

    /// Whether the transport's error is an `E`.
    pub fn is<E: TransportFailure>(&self) -> bool {
        self.downcast_ref::<E>().is_some()
    }

    /// The transport's error as a plain `dyn Error`.
    pub fn get_ref(&self) -> &(dyn StdError + Send + Sync + 'static) {
        &*self.inner
    }
}

impl fmt::Debug for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.inner, f)
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.inner, f)
    }
}

impl StdError for TransportError {
    /// The transport's error's own cause: the wrapper is transparent (its `Display` is the
    /// transport error's), so returning the transport error itself here would show its text
    /// twice in a chain. Reach the transport error typed with
    /// [`downcast_ref`](Self::downcast_ref) or [`Error::transport_error`](crate::Error::transport_error).
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.inner.source()
    }
}
