//! [`Connection`]: one open session, and what its transport offers beyond the message pipe
//! (an HTTP session to negotiate and reset, a child process's stderr).

use std::sync::Arc;

use mcp_jsonrpc::{HttpSessionControl, ProcessDiagnostics, Session, Transport};

pub(crate) struct Connection {
    pub(crate) session: Session,
    /// Streamable HTTP: the protocol header, the GET stream, session expiry.
    pub(crate) http: Option<Arc<dyn HttpSessionControl>>,
    /// stdio: the server's stderr tail for error messages.
    pub(crate) process: Option<Arc<dyn ProcessDiagnostics>>,
}

impl Connection {
    /// A transport with no extras (legacy SSE, or one of the caller's own).
    pub(crate) fn plain<T: Transport>(session: Session<T>) -> Self {
        Self {
            session: session.into_dyn(),
            http: None,
            process: None,
        }
    }

    /// A transport with a server-side session.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn with_http_session<T: Transport + HttpSessionControl>(
        session: Session<T>,
    ) -> Self {
        let http = Arc::clone(session.transport()) as Arc<dyn HttpSessionControl>;
        Self {
            http: Some(http),
            ..Self::plain(session)
        }
    }

    /// A transport that runs the server as a child process.
    #[cfg_attr(not(feature = "stdio"), allow(dead_code))]
    pub(crate) fn with_process<T: Transport + ProcessDiagnostics>(session: Session<T>) -> Self {
        let process = Arc::clone(session.transport()) as Arc<dyn ProcessDiagnostics>;
        Self {
            process: Some(process),
            ..Self::plain(session)
        }
    }

    /// The last lines the server wrote to its stderr, for transports that have one.
    pub(crate) fn stderr_tail(&self) -> Option<String> {
        self.process.as_ref().and_then(|p| p.stderr_tail())
    }
}
