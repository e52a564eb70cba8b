//! How `mcp login` shows the authorization page: in a browser on this machine, or, headless
//! (`--no-browser`, or no browser to open), as a URL to open anywhere, with the address
//! the browser ends on pasted back on the terminal. The redirect to the 127.0.0.1
//! listener is taken either way (a browser on this machine reaches it).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use mcp_client::oauth::{
    AuthError, BrowserOpener, LoopbackVisitor, PastedRedirects, ShowUrl, open_in_browser,
};

use crate::ask;

/// The visitor of `mcp login NAME`: `visitor` showing the URL as said above. Without a
/// terminal and without a browser there is no way to finish, and the login fails at once
/// saying so (not after the listener's five minutes).
pub(crate) fn visitor(visitor: LoopbackVisitor, name: &str, no_browser: bool) -> LoopbackVisitor {
    let terminal = ask::on_terminal();
    let (visitor, pasted) = if terminal {
        let (visitor, pasted) = visitor.with_pasted_redirects();
        (visitor, Some(pasted))
    } else {
        (visitor, None)
    };
    let name = name.to_owned();
    let reading = Arc::new(AtomicBool::new(false));
    let show = ShowUrl::new(move |url| {
        if !no_browser && open_in_browser(url)? {
            ask::say(&format!(
                "Opened a browser to log in to {name}; waiting for it to come back.\n"
            ));
            return Ok(());
        }
        let Some(pasted) = &pasted else {
            return Err(AuthError::Visit(no_way(&name, no_browser)));
        };
        ask::say(&format!(
            "Open this URL in a browser, on any machine, to log in to {name}:\n\n{url}\n\n\
             After you approve, the browser goes to a 127.0.0.1 address. On this machine it \
             comes back by itself; elsewhere the page will not load: copy the address from the \
             browser's address bar and paste it here.\n"
        ));
        if !reading.swap(true, Ordering::SeqCst) {
            read_pasted(pasted.clone());
        }
        Ok(())
    });
    visitor.with_opener(BrowserOpener::Callback(show))
}

/// `--no-browser` needs a terminal to paste into: without one, the error to give at once
/// (before any request).
pub(crate) fn check_terminal(name: &str, no_browser: bool) -> Result<(), AuthError> {
    if no_browser && !ask::on_terminal() {
        return Err(AuthError::Visit(no_way(name, true)));
    }
    Ok(())
}

/// What the login says when it has neither a browser nor a terminal.
fn no_way(name: &str, no_browser: bool) -> String {
    let browser = if no_browser {
        "no browser is opened (--no-browser)"
    } else {
        "no browser could be opened (set BROWSER to one)"
    };
    format!(
        "cannot finish a login here: {browser} and standard input is not a terminal to paste \
         the address the browser ends on into; run `mcp login {name} --no-browser` in a \
         terminal"
    )
}

/// Read pasted lines from the terminal until one is taken (or input ends), on a thread of
/// its own: the login waits for the listener meanwhile. A line that is not this login's
/// redirect is said so, and another is read.
fn read_pasted(pasted: PastedRedirects) {
    std::thread::spawn(move || {
        while let Some(line) = ask::line("Paste the address here: ") {
            if line.trim().is_empty() {
                continue;
            }
            match pasted.paste(&line) {
                Ok(()) => return,
                Err(e) => ask::say(&format!("{}\n", mcp_types::error_chain(&e))),
            }
        }
    });
}
