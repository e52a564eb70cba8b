//! The one poison-tolerant lock helper of this crate.

use std::sync::{Mutex, MutexGuard};

/// Lock `m`, recovering the guard when a thread panicked while holding it: every critical
/// section in this crate leaves its data consistent (plain assignments, pushes and
/// removals), so a poisoned lock is still usable, and failing every later request over one
/// panic would only spread it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
