//! Following `nextCursor` to the end of a listing, within bounds a server cannot stretch.
//!
//! A server decides how many pages a listing has and what each holds. Without bounds, one
//! that keeps returning cursors (endlessly, or in a cycle) makes the client keep every page
//! until memory runs out. So a walk stops with [`Error::PaginationAborted`] when:
//! - a cursor comes back that was already followed (a loop),
//! - the bytes received (page results and cursors) pass the configured bound,
//! - the page count passes [`MAX_PAGES`].

use std::collections::{HashMap, HashSet};
use std::future::Future;

use crate::Error;
use mcp_jsonrpc::PaginationAbort;
use serde_json::value::RawValue;

/// The most pages a `list_all_*` call follows, whatever their size.
pub(crate) const MAX_PAGES: usize = 10_000;

/// The default bound on the bytes a `list_all_*` call keeps (see
/// [`ClientOptions::with_max_listing_bytes`](crate::ClientOptions::with_max_listing_bytes)).
pub const DEFAULT_MAX_LISTING_BYTES: usize = 64 * 1024 * 1024;

/// One fetched page: its items, the next cursor, and how many bytes its result took.
pub(crate) struct Page<T> {
    pub(crate) items: Vec<T>,
    pub(crate) next_cursor: Option<String>,
    pub(crate) bytes: usize,
}

/// Fetch pages of `method` with `fetch` until a page has no cursor, within the bounds above.
pub(crate) async fn collect<T, Fut>(
    method: &str,
    max_bytes: usize,
    mut fetch: impl FnMut(Option<String>) -> Fut,
) -> Result<Vec<T>, Error>
where
    Fut: Future<Output = Result<Page<T>, Error>>,
{
    let abort = |reason| Error::PaginationAborted {
        method: method.to_owned(),
        reason,
    };
    let mut items = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut bytes = 0usize;
    let mut cursor = None;
    for _ in 0..MAX_PAGES {
        let page = fetch(cursor.take()).await?;
        bytes = bytes.saturating_add(page.bytes);
        if bytes > max_bytes {
            return Err(abort(PaginationAbort::TooManyBytes { limit: max_bytes }));
        }
        items.extend(page.items);
        let Some(next) = page.next_cursor else {
            return Ok(items);
        };
        // The cursors remembered for loop detection are kept bytes too.
        bytes = bytes.saturating_add(next.len());
        if bytes > max_bytes {
            return Err(abort(PaginationAbort::TooManyBytes { limit: max_bytes }));
        }
        if !seen.insert(next.clone()) {
            return Err(abort(PaginationAbort::repeated_cursor(&next)));
        }
        cursor = Some(next);
    }
    Err(abort(PaginationAbort::TooManyPages { limit: MAX_PAGES }))
}

/// One page of a listing as the server sent it: the items under `key`, each its own JSON
/// text, and `nextCursor`.
pub(crate) fn raw_page(
    page: &str,
    key: &str,
) -> Result<(Vec<Box<RawValue>>, Option<String>), serde_json::Error> {
    // `flatten` cannot hold raw values, so the page is taken apart member by member.
    let mut members: HashMap<String, Box<RawValue>> = serde_json::from_str(page)?;
    let items = match members.remove(key) {
        Some(items) => serde_json::from_str(items.get())?,
        None => {
            return Err(serde::de::Error::custom(format_args!(
                "missing field `{key}`"
            )));
        }
    };
    let next_cursor = match members.remove("nextCursor") {
        Some(cursor) => serde_json::from_str(cursor.get())?,
        None => None,
    };
    Ok((items, next_cursor))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(n: usize, next: Option<&str>) -> Result<Page<usize>, Error> {
        Ok(Page {
            items: vec![n],
            next_cursor: next.map(str::to_owned),
            bytes: 10,
        })
    }

    async fn walk(
        max_bytes: usize,
        pages: impl Fn(Option<&str>) -> Result<Page<usize>, Error>,
    ) -> Result<Vec<usize>, Error> {
        collect("x/list", max_bytes, |c| {
            let p = pages(c.as_deref());
            async move { p }
        })
        .await
    }

    #[tokio::test]
    async fn a_finite_listing_is_gathered_in_order() {
        let got = walk(1000, |c| match c {
            None => page(0, Some("a")),
            Some("a") => page(1, Some("b")),
            _ => page(2, None),
        })
        .await
        .unwrap();
        assert_eq!(got, vec![0, 1, 2]);
    }

    #[tokio::test]
    async fn a_cycle_of_cursors_is_named() {
        let err = walk(1000, |c| match c {
            None => page(0, Some("a")),
            Some("a") => page(1, Some("b")),
            _ => page(2, Some("a")),
        })
        .await
        .unwrap_err();
        assert!(
            matches!(&err, Error::PaginationAborted { method, reason: PaginationAbort::RepeatedCursor { cursor } } if method == "x/list" && cursor == "a"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn bytes_past_the_bound_stop_the_walk() {
        let mut n = 0;
        let err = collect("x/list", 100, |_| {
            n += 1;
            let p = page(n, Some(&format!("c{n}")));
            async move { p }
        })
        .await
        .unwrap_err();
        assert!(
            matches!(
                err,
                Error::PaginationAborted {
                    reason: PaginationAbort::TooManyBytes { limit: 100 },
                    ..
                }
            ),
            "{err}"
        );
        // 10 bytes per page and 2 or 3 per cursor: the bound is hit on the ninth page.
        assert!(n < 10, "{n}");
    }

    #[tokio::test]
    async fn pages_past_the_page_bound_stop_the_walk() {
        let mut n = 0usize;
        let err = collect("x/list", usize::MAX, |_| {
            n += 1;
            let p = Ok(Page::<usize> {
                items: Vec::new(),
                next_cursor: Some(n.to_string()),
                bytes: 0,
            });
            async move { p }
        })
        .await
        .unwrap_err();
        assert!(
            matches!(
                err,
                Error::PaginationAborted {
                    reason: PaginationAbort::TooManyPages { limit: MAX_PAGES },
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn raw_pages_keep_each_item_as_it_was_sent() {
        let (items, next) = raw_page(
            r#"{"tools":[{"b":1, "a":1.0},{"name":"x"}],"nextCursor":"c2"}"#,
            "tools",
        )
        .unwrap();
        let texts: Vec<&str> = items.iter().map(|i| i.get()).collect();
        assert_eq!(texts, [r#"{"b":1, "a":1.0}"#, r#"{"name":"x"}"#]);
        assert_eq!(next.as_deref(), Some("c2"));
        let (_, none) = raw_page(r#"{"tools":[]}"#, "tools").unwrap();
        assert_eq!(none, None);
        assert!(raw_page(r#"{"prompts":[]}"#, "tools").is_err());
        assert!(raw_page(r#"{"tools":{}}"#, "tools").is_err());
    }
}
