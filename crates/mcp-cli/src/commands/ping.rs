//! `ping SERVER`.

use std::time::Instant;

use super::Report;
use crate::error::CliError;
use crate::output::{self, Entry, Outcome};
use crate::servers::Connection;

/// Ping and report the round trip.
pub(crate) async fn ping(connection: &Connection) -> Result<Report, CliError> {
    let started = Instant::now();
    connection
        .client
        .ping()
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))?;
    let ms = started.elapsed().as_millis();
    let text = format!("{}: ok ({ms} ms)\n", connection.name);
    // The server's answer is an empty result (`ping` has nothing else to say).
    let entry = Entry::result(&connection.name, output::raw(&serde_json::json!({})))
        .with_elapsed_ms(u64::try_from(ms).unwrap_or(u64::MAX));
    Ok(Outcome::entry(entry, text).into())
}
