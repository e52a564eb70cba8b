//! Listings for `--json`, which passes the server's JSON on unchanged: every item of a
//! listing as the server sent it, beside its typed form (for the text and for filtering).

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::error::CliError;
use crate::servers::Connection;

/// Items decoded, each with the JSON the server sent for it.
pub(crate) type AsSent<T> = Vec<(T, Box<RawValue>)>;

/// Every item of the listing `method` (items under `key`), following its pages.
pub(crate) async fn as_sent<T: DeserializeOwned>(
    connection: &Connection,
    method: &str,
    key: &str,
) -> Result<AsSent<T>, mcp_client::Error> {
    let raw = connection.client.list_all_raw(method, key).await?;
    raw.into_iter()
        .map(|item| {
            let typed = serde_json::from_str(item.get()).map_err(|source| {
                mcp_client::SessionError::InvalidResult {
                    method: method.to_owned(),
                    source,
                }
            })?;
            Ok((typed, item))
        })
        .collect()
}

/// The typed items and the items as sent, apart.
pub(crate) fn split<T>(items: AsSent<T>) -> (Vec<T>, Vec<Box<RawValue>>) {
    items.into_iter().unzip()
}

/// [`as_sent`], with the error said for `connection`.
pub(crate) async fn fetch<T: DeserializeOwned>(
    connection: &Connection,
    method: &str,
    key: &str,
) -> Result<AsSent<T>, CliError> {
    as_sent(connection, method, key)
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))
}
