//! Credentials for remote servers, and refreshing them when the server says 401/403.
//!
//! - [`Token`]: a secret that never shows in `Debug`, logs or errors.
//! - [`CredentialProvider`]: static headers, or a token with a refresh function; on an auth
//!   error it refreshes and hands back new headers, and concurrent auth errors of one server
//!   share a single refresh.
//! - It implements `mcp_http::AuthHook` (features `http`/`sse`), the hook the HTTP
//!   transports call on 401/403. The manager sends the provider's headers at every connect
//!   and reconnect of a remote server and installs it as that connection's auth hook.

mod error;
#[cfg(any(feature = "http", feature = "sse"))]
mod hook;
mod provider;
mod token;

pub use error::AuthError;
pub use provider::{CredentialProvider, RefreshFn};
pub use token::Token;
