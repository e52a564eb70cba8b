//! Opening a URL in the user's browser: `$BROWSER`, else the platform opener, else print
//! it. Always a program given the URL as one argument, never a shell.

use std::process::{Command, Stdio};
use std::sync::Arc;

use url::Url;

use super::check_authorization_url;
use crate::AuthError;

/// How [`LoopbackVisitor`](super::LoopbackVisitor) shows the authorization URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum BrowserOpener {
    /// `$BROWSER` when set, else the platform opener (`xdg-open`, `open`,
    /// `rundll32 url.dll,FileProtocolHandler`), else print the URL on stderr.
    #[default]
    Auto,
    /// Only print the URL on stderr for the user to open.
    Print,
    /// Run this program with the URL as its one argument.
    Program(String),
    /// Hand the URL to the host program, which shows it (and, for a headless login, says
    /// where to paste the redirect). An error it returns ends the login.
    Callback(ShowUrl),
}

/// The host program's way of showing an authorization URL ([`BrowserOpener::Callback`]).
/// Two are equal when they are the same function.
#[derive(Clone)]
pub struct ShowUrl(Arc<ShowFn>);

/// The function inside a [`ShowUrl`].
type ShowFn = dyn Fn(&Url) -> Result<(), AuthError> + Send + Sync;

impl ShowUrl {
    /// Show URLs with `show`.
    pub fn new(show: impl Fn(&Url) -> Result<(), AuthError> + Send + Sync + 'static) -> Self {
        Self(Arc::new(show))
    }
}

impl std::fmt::Debug for ShowUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ShowUrl(..)")
    }
}

impl PartialEq for ShowUrl {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ShowUrl {}

/// Open `url` as `opener` says. The URL must be http(s). Returns how it was shown. The
/// program runs detached (its exit is reaped by a thread), with no shell involved.
pub fn open_url(url: &Url, opener: &BrowserOpener) -> Result<&'static str, AuthError> {
    check_authorization_url(url)?;
    let opened = match opener {
        BrowserOpener::Print => false,
        BrowserOpener::Program(program) => run_first(url, &[(program.clone(), Vec::new())]),
        BrowserOpener::Auto => open_in_browser(url)?,
        BrowserOpener::Callback(show) => {
            (show.0)(url)?;
            return Ok("shown");
        }
    };
    if opened {
        return Ok("browser");
    }
    eprintln!("Open this URL in a browser to authorize:\n{url}");
    Ok("printed")
}

/// Open `url` in the user's browser: `$BROWSER` when set, else the platform opener.
/// `false` when none could be started (nothing is printed).
pub fn open_in_browser(url: &Url) -> Result<bool, AuthError> {
    check_authorization_url(url)?;
    let mut programs = Vec::new();
    if let Some(browser) = std::env::var_os("BROWSER").filter(|b| !b.is_empty()) {
        programs.push((browser.to_string_lossy().into_owned(), Vec::new()));
    }
    if cfg!(target_os = "macos") {
        programs.push(("open".to_owned(), Vec::new()));
    } else if cfg!(windows) {
        programs.push((
            "rundll32".to_owned(),
            vec!["url.dll,FileProtocolHandler".to_owned()],
        ));
    } else {
        programs.push(("xdg-open".to_owned(), Vec::new()));
    }
    Ok(run_first(url, &programs))
}

/// Start the first of `programs` (with its arguments, then the URL) that can be started.
fn run_first(url: &Url, programs: &[(String, Vec<String>)]) -> bool {
    for (program, args) in programs {
        let spawned = Command::new(program)
            .args(args)
            .arg(url.as_str())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        match spawned {
            Ok(mut child) => {
                // Reap it whenever it ends, so no zombie is left.
                std::thread::spawn(move || {
                    let _ = child.wait();
                });
                tracing::info!(program = %program, "opened the authorization URL");
                return true;
            }
            Err(e) => tracing::debug!(program = %program, error = %e, "cannot run the opener"),
        }
    }
    false
}
