//! Bounding `insufficient_scope` step-ups across requests, not only within one.
//!
//! The HTTP sender bounds how often one request may ask the hook again
//! (`max_step_ups`), but a server that answers *every* request with 403
//! `insufficient_scope` would otherwise make the client authorize again on every request,
//! forever (a browser tab per tool call). Two rules stop that:
//!
//! 1. **A refused union is not asked for again.** Tokens obtained by a step-up remember the
//!    scope set that step-up asked for ([`StoredTokens::step_up_scopes`], persisted with
//!    them, kept across refreshes). When such a token is refused with `insufficient_scope`
//!    and the scopes a new step-up would ask for are all in that set, authorizing again
//!    cannot help (the authorization server did not grant them, or the resource refuses
//!    them anyway): [`AuthError::StepUpRefused`]. A token obtained otherwise (a first
//!    authorization, a login) carries no such set, so the next step-up is allowed.
//! 2. **A window cap.** At most `max_step_ups_per_window` step-ups per provider within
//!    `step_up_window`, whatever the scopes ([`AuthError::StepUpLimit`]): a server that
//!    names a new scope on every refusal is bounded too.
//!
//! An explicit [`login`](crate::OAuthProvider::login) starts both afresh.

use std::collections::{BTreeSet, VecDeque};
use std::time::{Duration, Instant};

use crate::store::StoredTokens;
use crate::{AuthError, OAuthConfig};

/// The step-ups one provider made recently (in memory; the refused-union rule lives in the
/// stored tokens, so it survives a restart).
#[derive(Debug, Default)]
pub(crate) struct StepUps {
    /// When each step-up within the window was admitted, oldest first.
    recent: VecDeque<Instant>,
}

impl StepUps {
    /// Admit a step-up that would ask for `scopes` while holding `held`, or refuse it.
    /// An admitted step-up is counted against the window.
    pub(crate) fn admit(
        &mut self,
        config: &OAuthConfig,
        held: Option<&StoredTokens>,
        scopes: &[String],
    ) -> Result<(), AuthError> {
        if let Some(asked) = held.and_then(|t| t.step_up_scopes.as_ref()) {
            let asked: BTreeSet<&String> = asked.iter().collect();
            if scopes.iter().all(|s| asked.contains(s)) {
                return Err(AuthError::StepUpRefused {
                    scopes: scopes.join(" "),
                });
            }
        }
        let now = Instant::now();
        while self
            .recent
            .front()
            .is_some_and(|at| now.saturating_duration_since(*at) >= config.step_up_window)
        {
            self.recent.pop_front();
        }
        let made = u32::try_from(self.recent.len()).unwrap_or(u32::MAX);
        if made >= config.max_step_ups_per_window {
            return Err(AuthError::StepUpLimit {
                attempts: made,
                scopes: scopes.join(" "),
            });
        }
        self.recent.push_back(now);
        Ok(())
    }

    /// Forget the window (an explicit login).
    pub(crate) fn clear(&mut self) {
        self.recent.clear();
    }
}

/// How long the window of the step-up cap lasts by default.
pub(crate) const DEFAULT_WINDOW: Duration = Duration::from_secs(600);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;

    fn scopes(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_owned).collect()
    }

    fn tokens(step_up: Option<&str>) -> StoredTokens {
        let mut t = StoredTokens::new("http://as", Secret::new("at"));
        t.step_up_scopes = step_up.map(scopes);
        t
    }

    #[test]
    fn a_union_a_step_up_already_asked_for_is_refused() {
        let config = OAuthConfig::new();
        let mut ups = StepUps::default();
        let held = tokens(Some("read write admin"));
        let err = ups
            .admit(&config, Some(&held), &scopes("read admin"))
            .unwrap_err();
        assert!(matches!(err, AuthError::StepUpRefused { .. }), "{err}");
        // More than was asked: a new union, allowed.
        ups.admit(&config, Some(&held), &scopes("read admin deploy"))
            .unwrap();
        // Tokens not from a step-up: allowed.
        ups.admit(&config, Some(&tokens(None)), &scopes("read admin"))
            .unwrap();
    }

    #[test]
    fn the_window_caps_step_ups_until_it_passes_or_is_cleared() {
        let mut config = OAuthConfig::new();
        config.max_step_ups_per_window = 2;
        let mut ups = StepUps::default();
        ups.admit(&config, None, &scopes("a")).unwrap();
        ups.admit(&config, None, &scopes("b")).unwrap();
        let err = ups.admit(&config, None, &scopes("c")).unwrap_err();
        assert!(err.to_string().contains("(now: c)"), "{err}");
        assert!(
            matches!(err, AuthError::StepUpLimit { attempts: 2, .. }),
            "{err}"
        );
        ups.clear();
        ups.admit(&config, None, &scopes("c")).unwrap();
        config.step_up_window = Duration::ZERO;
        ups.admit(&config, None, &scopes("d")).unwrap();
        ups.admit(&config, None, &scopes("e")).unwrap();
        ups.admit(&config, None, &scopes("f")).unwrap();
    }
}
