//! Two session states wired to each other in memory with a fake clock, after quinn-proto's
//! `tests/util.rs` `Pair`: a client-role state and a server-role state exchange every frame
//! they queue, and time only moves when a test moves it, so timeouts, progress and
//! cancellation are tested in microseconds without sleeping.

use std::time::{Duration, Instant};

use crate::state::{Event, FrameKind, Received, SessionOptions, SessionState, Transmit};

/// A client and a server, and the time.
pub(crate) struct Pair {
    pub(crate) now: Instant,
    pub(crate) client: SessionState<&'static str>,
    pub(crate) server: SessionState<&'static str>,
    /// Every frame the client sent, as text, in order.
    pub(crate) client_sent: Vec<(FrameKind, String)>,
    /// Every frame the server sent.
    pub(crate) server_sent: Vec<(FrameKind, String)>,
    /// Events each side reported, not yet looked at.
    pub(crate) client_events: Vec<Event<&'static str>>,
    pub(crate) server_events: Vec<Event<&'static str>>,
    /// Frames the transport on each side lost instead of delivering.
    pub(crate) drop_to_server: bool,
}

impl Pair {
    pub(crate) fn new(client: SessionOptions, server: SessionOptions) -> Self {
        Self {
            now: Instant::now(),
            client: SessionState::new(client),
            server: SessionState::new(server),
            client_sent: Vec::new(),
            server_sent: Vec::new(),
            client_events: Vec::new(),
            server_events: Vec::new(),
            drop_to_server: false,
        }
    }

    /// Both sides with a 30 s timeout.
    pub(crate) fn default_pair() -> Self {
        Self::new(SessionOptions::new(), SessionOptions::server())
    }

    /// Deliver frames both ways, and collect events, until neither side has anything left.
    pub(crate) fn drive(&mut self) {
        loop {
            let mut moved = false;
            while let Some(t) = self.client.poll_transmit() {
                moved = true;
                let frame = record(&mut self.client_sent, t);
                if !self.drop_to_server {
                    self.server.handle_frame(self.now, frame);
                }
            }
            while let Some(t) = self.server.poll_transmit() {
                moved = true;
                let frame = record(&mut self.server_sent, t);
                self.client.handle_frame(self.now, frame);
            }
            while let Some(e) = self.client.poll_event() {
                self.client_events.push(e);
            }
            while let Some(e) = self.server.poll_event() {
                self.server_events.push(e);
            }
            if !moved {
                return;
            }
        }
    }

    /// Move time on by `by`, fire what is due on both sides, and drive.
    pub(crate) fn advance(&mut self, by: Duration) {
        self.now += by;
        self.client.handle_timeout(self.now);
        self.server.handle_timeout(self.now);
        self.drive();
    }

    /// The client's events so far, taken.
    pub(crate) fn client_events(&mut self) -> Vec<Event<&'static str>> {
        std::mem::take(&mut self.client_events)
    }

    /// The server's events so far, taken.
    pub(crate) fn server_events(&mut self) -> Vec<Event<&'static str>> {
        std::mem::take(&mut self.server_events)
    }
}

/// Keep a copy of `transmit` as text, and hand on its bytes as the peer would read them.
fn record(log: &mut Vec<(FrameKind, String)>, transmit: Transmit) -> Received {
    let text = String::from_utf8(transmit.bytes).expect("frames are UTF-8");
    log.push((transmit.kind, text.clone()));
    Received::Text(text)
}
