//! Opening a URL in the user's browser: `$BROWSER`, else the platform opener, else print
//! it. Always a program given the URL as one argument, never a shell.

use std::process::{Command, Stdio};

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
}

/// Open `url` as `opener` says. The URL must be http(s). Returns how it was shown. The
/// program runs detached (its exit is reaped by a thread), with no shell involved.
pub fn open_url(url: &Url, opener: &BrowserOpener) -> Result<&'static str, AuthError> {
    check_authorization_url(url)?;
    let programs: Vec<(String, Vec<String>)> = match opener {
        BrowserOpener::Print => Vec::new(),
        BrowserOpener::Program(p) => vec![(p.clone(), Vec::new())],
        BrowserOpener::Auto => {
            let mut list = Vec::new();
            if let Some(browser) = std::env::var_os("BROWSER").filter(|b| !b.is_empty()) {
                list.push((browser.to_string_lossy().into_owned(), Vec::new()));
            }
            if cfg!(target_os = "macos") {
                list.push(("open".to_owned(), Vec::new()));
            } else if cfg!(windows) {
                list.push((
                    "rundll32".to_owned(),
                    vec!["url.dll,FileProtocolHandler".to_owned()],
                ));
            } else {
                list.push(("xdg-open".to_owned(), Vec::new()));
            }
            list
        }
    };
    for (program, args) in programs {
        let spawned = Command::new(&program)
            .args(&args)
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
                return Ok("browser");
            }
            Err(e) => tracing::debug!(program = %program, error = %e, "cannot run the opener"),
        }
    }
    eprintln!("Open this URL in a browser to authorize:\n{url}");
    Ok("printed")
}
