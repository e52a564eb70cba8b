//! The signals that end `mcp` early: SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout`, service
//! managers) and SIGHUP (the terminal closed). Each runs the same clean shutdown: the
//! command is dropped and the servers are shut down (a stdio server's whole process group
//! stopped), so none is orphaned. The default action of SIGTERM and SIGHUP would end the
//! process at once and skip that.

/// A signal that asks `mcp` to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// SIGINT.
    Interrupt,
    /// SIGTERM.
    Terminate,
    /// SIGHUP.
    Hangup,
}

impl Stop {
    /// The exit status shells report for death by this signal (128 + its number).
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Self::Interrupt => 130,
            Self::Terminate => 143,
            Self::Hangup => 129,
        }
    }

    /// The signal's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Interrupt => "SIGINT",
            Self::Terminate => "SIGTERM",
            Self::Hangup => "SIGHUP",
        }
    }
}

/// Resolves at the next Ctrl-C (SIGINT) received from now on; never when no handler can be
/// installed. Each call listens afresh, so a Ctrl-C that came before it is not seen.
pub(crate) async fn interrupt() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// The handlers, installed by [`Stops::install`] when `mcp` starts, so a signal that
/// arrives while a server is being started is caught too.
pub(crate) struct Stops {
    /// Whether Ctrl-C stops `mcp`; the interactive shell takes Ctrl-C for itself (it
    /// cancels the running command, see `shell/`).
    interrupts: bool,
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    hangup: Option<tokio::signal::unix::Signal>,
}

impl Stops {
    /// Install the SIGTERM and SIGHUP handlers (SIGINT's is installed on first wait, unless
    /// `interrupts` is false: then Ctrl-C is someone else's to handle). One that cannot be
    /// installed keeps its default action.
    pub(crate) fn install(interrupts: bool) -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Self {
                interrupts,
                terminate: signal(SignalKind::terminate()).ok(),
                hangup: signal(SignalKind::hangup()).ok(),
            }
        }
        #[cfg(not(unix))]
        Self { interrupts }
    }

    /// Resolves with the first stop signal received.
    pub(crate) async fn received(&mut self) -> Stop {
        let interrupts = self.interrupts;
        let interrupt = async {
            if interrupts {
                interrupt().await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        #[cfg(unix)]
        {
            async fn next(signal: Option<&mut tokio::signal::unix::Signal>) {
                if let Some(signal) = signal
                    && signal.recv().await.is_some()
                {
                    return;
                }
                // No handler, or it is gone: never resolve rather than stop.
                std::future::pending().await
            }
            tokio::select! {
                () = interrupt => Stop::Interrupt,
                () = next(self.terminate.as_mut()) => Stop::Terminate,
                () = next(self.hangup.as_mut()) => Stop::Hangup,
            }
        }
        #[cfg(not(unix))]
        {
            interrupt.await;
            Stop::Interrupt
        }
    }
}
