//! The one poison-tolerant lock helper every crate of the workspace uses.
//!
//! A panic while a lock is held poisons it. Every critical section in this workspace leaves
//! its data consistent (plain assignments, inserts, removals), so a poisoned lock is still
//! usable, and failing every later caller over one panic would only spread it.

use std::sync::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Lock `mutex`, recovering the guard when a thread panicked while holding it.
pub fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// Read-lock `rw`, recovering the guard when a writer panicked.
pub fn read<T: ?Sized>(rw: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    rw.read().unwrap_or_else(|p| p.into_inner())
}

/// Write-lock `rw`, recovering the guard when a writer panicked.
pub fn write<T: ?Sized>(rw: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    rw.write().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poisoned_lock_is_still_usable() {
        let mutex = std::sync::Arc::new(Mutex::new(1));
        let poisoner = std::sync::Arc::clone(&mutex);
        let _ = std::thread::spawn(move || {
            let _guard = poisoner.lock().unwrap();
            panic!("poison it");
        })
        .join();
        assert!(mutex.is_poisoned());
        *lock(&mutex) += 1;
        assert_eq!(*lock(&mutex), 2);
        let rw = RwLock::new(1);
        *write(&rw) += 1;
        assert_eq!(*read(&rw), 2);
    }
}
