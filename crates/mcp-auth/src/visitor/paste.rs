//! Redirects a person pastes: the headless login. The browser runs on another machine (an
//! SSH session, a container), so its redirect to `127.0.0.1` never reaches this one; the
//! person copies the address the browser ended on (or its `code=…&state=…` part) and the
//! host program hands it to [`PastedRedirects::paste`]. It is checked for the login's
//! `state` at once (the person hears at once that it was the wrong one), then goes where
//! the loopback listener's callback would, and the provider checks `state` and `iss`
//! again, as for every response.

use mcp_types::sync::lock;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc::Sender;
use url::Url;

use super::AuthorizationResponse;
use crate::AuthError;

/// Where pasted redirects go: the login waiting for one, if any.
#[derive(Debug, Default)]
pub(crate) struct PasteInbox {
    waiting: Mutex<Option<Waiting>>,
}

#[derive(Debug)]
struct Waiting {
    /// The authorization request's `state` (`None`: it had none).
    state: Option<String>,
    found: Sender<AuthorizationResponse>,
}

impl PasteInbox {
    /// A login waits for a redirect with `state`, to be sent to `found`, until the
    /// returned guard is dropped.
    pub(crate) fn expect(
        self: &Arc<Self>,
        state: Option<String>,
        found: Sender<AuthorizationResponse>,
    ) -> Expecting {
        *lock(&self.waiting) = Some(Waiting { state, found });
        Expecting {
            inbox: Arc::clone(self),
        }
    }
}

/// A login's wait for a pasted redirect; it ends when this is dropped.
pub(crate) struct Expecting {
    inbox: Arc<PasteInbox>,
}

impl Drop for Expecting {
    fn drop(&mut self) {
        *lock(&self.inbox.waiting) = None;
    }
}

/// The host program's side of a headless login (from
/// [`LoopbackVisitor::with_pasted_redirects`](super::LoopbackVisitor::with_pasted_redirects)):
/// give it what the person pastes.
#[derive(Debug, Clone)]
pub struct PastedRedirects {
    inbox: Arc<PasteInbox>,
}

impl PastedRedirects {
    pub(crate) fn new(inbox: Arc<PasteInbox>) -> Self {
        Self { inbox }
    }

    /// Hand over one pasted line: the full address the browser ended on, or its query
    /// (`code=…&state=…`, with or without the `?`). `Ok` when the waiting login took it;
    /// an error (nothing taken, the login still waits) when it is not a redirect, its
    /// `state` is not this login's, or no login waits. Errors never repeat the text.
    pub fn paste(&self, text: &str) -> Result<(), AuthError> {
        let response = parse_pasted(text)?;
        let waiting = lock(&self.inbox.waiting);
        let Some(waiting) = waiting.as_ref() else {
            return Err(AuthError::Visit(
                "no login is waiting for a redirect".to_owned(),
            ));
        };
        if waiting.state.is_some() && response.state != waiting.state {
            return Err(AuthError::Visit(
                "that address is not for this login (its state differs): paste the address \
                 the browser ended on after you approved this login"
                    .to_owned(),
            ));
        }
        waiting.found.try_send(response).map_err(|_| {
            AuthError::Visit("this login has already received its redirect".to_owned())
        })
    }
}

/// The response in a pasted line: a URL's query, or a bare query.
fn parse_pasted(text: &str) -> Result<AuthorizationResponse, AuthError> {
    let text = text.trim();
    let response = match Url::parse(text) {
        Ok(url) => AuthorizationResponse::from_url(&url),
        Err(_) => {
            let query = text.rsplit_once('?').map_or(text, |(_, query)| query);
            AuthorizationResponse::from_query(query)
        }
    };
    if response.state.is_none() || response.code.is_none() && response.error.is_none() {
        return Err(AuthError::Visit(
            "that is not the address the browser ended on: it has no code and state (paste \
             the whole address from the browser's address bar, or its code=…&state=… part)"
                .to_owned(),
        ));
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;

    fn waiting(
        state: &str,
    ) -> (
        PastedRedirects,
        tokio::sync::mpsc::Receiver<AuthorizationResponse>,
        Expecting,
    ) {
        let inbox = Arc::new(PasteInbox::default());
        let (found, arrived) = tokio::sync::mpsc::channel(1);
        let expecting = inbox.expect(Some(state.to_owned()), found);
        (PastedRedirects::new(inbox), arrived, expecting)
    }

    #[test]
    fn a_pasted_address_or_query_with_this_logins_state_is_taken() {
        for line in [
            "http://127.0.0.1:5555/callback?code=c0de&state=s1&iss=http%3A%2F%2Fas\n",
            "  code=c0de&state=s1  ",
            "?code=c0de&state=s1",
            "/callback?code=c0de&state=s1",
        ] {
            let (pasted, mut arrived, _expecting) = waiting("s1");
            pasted.paste(line).unwrap();
            let response = arrived.try_recv().unwrap();
            assert_eq!(response.code, Some(Secret::new("c0de")), "{line}");
            assert_eq!(response.state.as_deref(), Some("s1"));
        }
    }

    #[test]
    fn another_state_garbage_or_no_waiting_login_is_refused_without_echoing_it() {
        let (pasted, mut arrived, expecting) = waiting("s1");
        let err = pasted.paste("code=SECRET-CODE&state=other").unwrap_err();
        assert!(err.to_string().contains("state differs"), "{err}");
        assert!(!err.to_string().contains("SECRET-CODE"));
        let err = pasted.paste("hello").unwrap_err();
        assert!(err.to_string().contains("no code and state"), "{err}");
        assert!(arrived.try_recv().is_err(), "nothing was taken");
        drop(expecting);
        let err = pasted.paste("code=c&state=s1").unwrap_err();
        assert!(err.to_string().contains("no login is waiting"), "{err}");
    }
}
