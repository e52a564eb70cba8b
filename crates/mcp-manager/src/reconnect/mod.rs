//! When and how often a managed server is reconnected: the [`ReconnectPolicy`] (all the
//! durations), the backoff schedules built from it, and the storm breaker.
//!
//! The reconnect procedure itself lives with the manager (`manager/reconnect.rs`); this
//! module holds the pieces that decide, so they can be tested without a server.

mod backoff;
mod breaker;
mod policy;

pub(crate) use backoff::{ladder, remote_retry};
pub(crate) use breaker::StormBreaker;
pub use policy::ReconnectPolicy;
