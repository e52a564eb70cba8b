//! Progress notifications as a bar on stderr, only when stderr is a terminal.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mcp_client::RequestOptions;
use mcp_types::ProgressNotificationParams;

/// Steps of the bar when the server gives a total (progress values may be fractions).
const STEPS: u64 = 1000;

/// Shows a call's progress; does nothing when stderr is not a terminal.
#[derive(Clone, Default)]
pub(crate) struct ProgressDisplay {
    /// Created on the first notification, so calls without progress draw nothing.
    bar: Option<Arc<Mutex<Option<ProgressBar>>>>,
}

impl ProgressDisplay {
    /// A display on stderr if it is a terminal.
    pub(crate) fn on_stderr() -> Self {
        Self {
            bar: std::io::stderr().is_terminal().then(Arc::default),
        }
    }

    /// `options` with a progress callback feeding this display (unchanged when off).
    pub(crate) fn attach(&self, options: RequestOptions) -> RequestOptions {
        match &self.bar {
            Some(slot) => {
                let slot = Arc::clone(slot);
                options.with_progress(move |p| update(&slot, p))
            }
            None => options,
        }
    }

    /// Whether progress is drawn (stderr is a terminal).
    pub(crate) fn is_shown(&self) -> bool {
        self.bar.is_some()
    }

    /// Remove the bar from the terminal.
    pub(crate) fn finish(&self) {
        if let Some(slot) = &self.bar
            && let Some(bar) = mcp_types::sync::lock(slot).take()
        {
            bar.finish_and_clear();
        }
    }
}

fn update(slot: &Mutex<Option<ProgressBar>>, p: &ProgressNotificationParams) {
    let mut slot = mcp_types::sync::lock(slot);
    let bar = slot.get_or_insert_with(|| {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        let style = match p.total {
            Some(_) => ProgressStyle::with_template("{bar:40} {msg}"),
            None => ProgressStyle::with_template("{spinner} {msg}"),
        };
        if let Ok(style) = style {
            bar.set_style(style);
        }
        bar
    });
    // The server's text, on one line and shown rather than obeyed: indicatif prints it as
    // it is.
    let message = crate::terminal::one_line(p.message.as_deref().unwrap_or_default());
    match p.total {
        Some(total) if total > 0.0 => {
            bar.set_length(STEPS);
            // Truncation is intended: a position on a 1000-step bar.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            bar.set_position(((p.progress / total).clamp(0.0, 1.0) * STEPS as f64) as u64);
            bar.set_message(format!("{}/{} {message}", p.progress, total));
        }
        _ => {
            bar.set_message(format!("{} {message}", p.progress));
            bar.tick();
        }
    }
}
