//! Transport detection for a bare `url` or `type: "auto"` (spec 2025-11-25, transports,
//! "Backwards compatibility"): POST `initialize` as Streamable HTTP; when that fails with
//! 400, 404 or 405, the server is an old HTTP+SSE one: GET the same URL as a legacy event
//! stream and run a fresh handshake there. What worked is kept for the life of the
//! connection and reported by [`Client::transport_kind`].

use std::sync::{Arc, Mutex};

use crate::{Error, SessionError};
use mcp_jsonrpc::{BoxFuture, CancelToken, ServerRequestOutcome, TransportHandler};
use mcp_types::{Notification, Request};

use crate::Client;
use crate::config::ServerConfig;
use crate::connect::{connect_http, connect_sse};
use crate::dispatcher::Dispatcher;

/// The statuses of a failed `initialize` POST that mean "not a Streamable HTTP server".
const FALLBACK_STATUSES: [u16; 3] = [400, 404, 405];

/// Whether a failed Streamable HTTP handshake should fall back to legacy SSE.
pub(crate) fn falls_back(error: &Error) -> bool {
    error
        .http_status()
        .is_some_and(|s| FALLBACK_STATUSES.contains(&s))
}

pub(crate) async fn connect_auto(
    config: &ServerConfig,
    dispatcher: Arc<Dispatcher>,
) -> Result<Client, Error> {
    if !cfg!(feature = "http") && cfg!(feature = "sse") {
        // Nothing to try first in a build without Streamable HTTP.
        let handler = Arc::clone(&dispatcher) as Arc<dyn TransportHandler>;
        let sse = connect_sse(config, dispatcher.options(), handler).await?;
        return Client::handshake_on(sse, dispatcher).await;
    }
    let probe = Arc::new(Probe::new(Arc::clone(&dispatcher)));
    let http = connect_http(
        config,
        dispatcher.options(),
        Arc::clone(&probe) as Arc<dyn TransportHandler>,
    )
    .await?;
    let error = match Client::handshake_on(http, Arc::clone(&dispatcher)).await {
        Ok(client) => {
            probe.settle();
            return Ok(client);
        }
        Err(e) if falls_back(&e) && cfg!(feature = "sse") => e,
        Err(e) => return Err(e),
    };
    tracing::debug!(
        target: "mcp::client",
        error = %mcp_types::error_chain(&error),
        "Streamable HTTP initialize refused; trying legacy HTTP+SSE at the same URL"
    );
    let handler = Arc::clone(&dispatcher) as Arc<dyn TransportHandler>;
    let sse = connect_sse(config, dispatcher.options(), handler).await?;
    Client::handshake_on(sse, dispatcher).await
}

/// The handler of the Streamable HTTP attempt: forwards every event to the dispatcher,
/// except that a `closed` during the attempt is held back. A refused attempt closes its
/// transport, and that must not mark the client closed before the legacy SSE transport
/// has even started; when the attempt succeeds, a held-back `closed` is delivered.
struct Probe {
    dispatcher: Arc<Dispatcher>,
    state: Mutex<ProbeState>,
}

#[derive(Default)]
struct ProbeState {
    settled: bool,
    closed_while_probing: bool,
}

impl Probe {
    fn new(dispatcher: Arc<Dispatcher>) -> Self {
        Self {
            dispatcher,
            state: Mutex::default(),
        }
    }

    /// The attempt succeeded: from now on `closed` goes straight through.
    fn settle(&self) {
        let closed = {
            let mut state = mcp_types::sync::lock(&self.state);
            state.settled = true;
            state.closed_while_probing
        };
        if closed {
            self.dispatcher.on_closed();
        }
    }
}

impl TransportHandler for Probe {
    fn on_notification(&self, notification: Notification) {
        self.dispatcher.on_notification(notification);
    }

    fn on_request(
        &self,
        request: Request,
        cancel: CancelToken,
    ) -> BoxFuture<'static, ServerRequestOutcome> {
        self.dispatcher.on_request(request, cancel)
    }

    fn on_error(&self, error: &SessionError) {
        self.dispatcher.on_error(error);
    }

    fn on_closed(&self) {
        {
            let mut state = mcp_types::sync::lock(&self.state);
            if !state.settled {
                state.closed_while_probing = true;
                return;
            }
        }
        self.dispatcher.on_closed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http(status: u16) -> Error {
        mcp_http::Error::Status {
            status,
            body: String::new(),
            www_authenticate: None,
            auth_server: None,
        }
        .into()
    }

    #[test]
    fn only_400_404_405_fall_back() {
        for status in [400, 404, 405] {
            assert!(falls_back(&http(status)), "{status}");
        }
        for status in [401, 403, 406, 415, 500, 502] {
            assert!(!falls_back(&http(status)), "{status}");
        }
        assert!(!falls_back(&mcp_http::Error::connect("refused").into()));
        assert!(!falls_back(&Error::closed()));
    }

    #[test]
    fn closed_is_held_back_while_probing_and_delivered_after_success() {
        let dispatcher = Dispatcher::new(crate::ClientOptions::new("t", "0"));
        let closed = dispatcher.closed();
        let probe = Probe::new(Arc::clone(&dispatcher));
        probe.on_closed();
        assert!(
            !*closed.borrow(),
            "a refused attempt must not close the client"
        );
        probe.settle();
        assert!(*closed.borrow(), "a settled attempt delivers its closed");

        let dispatcher = Dispatcher::new(crate::ClientOptions::new("t", "0"));
        let closed = dispatcher.closed();
        let probe = Probe::new(Arc::clone(&dispatcher));
        probe.settle();
        assert!(!*closed.borrow());
        probe.on_closed();
        assert!(*closed.borrow());
    }
}
