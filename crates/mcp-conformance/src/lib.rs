//! Plays the client scenarios of the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, pinned by `cargo xtask conformance`) through
//! `mcp-client`'s public API only: no raw HTTP, no shortcuts around the library.
//!
//! The suite starts a mock server per scenario and runs
//! `mcp-conformance-client <server URL>` with `MCP_CONFORMANCE_SCENARIO=<name>` in the
//! environment; the client passes when it exits 0 and every check the mock server made
//! passed. See `docs/conformance.md` for how to run it and what each scenario checks.
//!
//! - [`Scenario`]: the scenario names this client knows and what each one does.
//! - [`play`]: connect to the mock server and act the scenario out.
//! - [`form_defaults`]: the `default` values of an elicitation form (SEP-1034), which the
//!   scenario's "user" accepts unchanged.
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcp_conformance::ScenarioError> {
//! use mcp_conformance::{Scenario, play};
//! let scenario = Scenario::from_name("tools_call");
//! play(&scenario, "http://127.0.0.1:3000/mcp").await?;
//! # Ok(()) }
//! ```

mod auth;
mod defaults;
mod error;
mod play;
mod scenario;
mod skills;

pub use defaults::form_defaults;
pub use error::ScenarioError;
pub use play::play;
pub use scenario::{Scenario, SkillCheck};
