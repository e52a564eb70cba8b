//! `ping SERVER`.

use std::time::Instant;

use super::Report;
use crate::error::CliError;
use crate::output::Outcome;
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
    let json = serde_json::json!({"server": connection.name, "ok": true, "ms": ms});
    Ok(Outcome::new(json, format!("{}: ok ({ms} ms)\n", connection.name)).into())
}
