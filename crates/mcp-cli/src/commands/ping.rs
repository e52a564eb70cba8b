//! `ping [SERVER]`: a liveness check in either era, with its round-trip time.
//!
//! 2026-07-28 removed `ping`; there the check is `server/discover`, which every server of
//! that revision answers (see [`mcp_client::Client::ping_method`]).

use std::time::Instant;

use mcp_client::RequestOptions;

use super::Report;
use crate::error::CliError;
use crate::output::{self, Entry, Outcome};
use crate::servers::Connection;

/// Ping and report the round trip: `NAME: ok (N ms)`, and in `--json` the server's answer
/// as it came with `elapsedMs` and the `method` sent beside it.
pub(crate) async fn ping(connection: &Connection) -> Result<Report, CliError> {
    let client = &connection.client;
    let started = Instant::now();
    let answer = client
        .ping_with(RequestOptions::new())
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(client)))?;
    let elapsed = started.elapsed();
    let text = format!("{}: ok ({} ms)\n", connection.name, elapsed.as_millis());
    let entry = Entry::result(&connection.name, output::received(&answer))
        .with_elapsed_ms(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
        .with_method(client.ping_method());
    Ok(Outcome::entry(entry, text).into())
}
