//! Cursor pagination shared by every `*/list` method.

use mcp_types::{ErrorObject, error_codes};
use serde_json::Value;

const CURSOR_PREFIX: &str = "mcp-test-server:offset:";

/// The cursor faults a server can commit (`--endless-pages`, `--repeat-cursor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CursorFault {
    /// A fresh cursor on every page: the listing never ends.
    Endless,
    /// The same cursor on every page: following it loops.
    Repeat,
}

/// Like [`page`], but committing `fault`: the first page of `items` (by page size), and a
/// cursor that never ends the listing. Any cursor is accepted.
pub(crate) fn faulty_page(
    items: Vec<Value>,
    params: &Value,
    page_size: Option<u32>,
    fault: CursorFault,
) -> (Vec<Value>, Option<String>) {
    let n = params
        .get("cursor")
        .and_then(Value::as_str)
        .and_then(|c| c.strip_prefix(ENDLESS_PREFIX))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or(0);
    let next = match fault {
        CursorFault::Endless => format!("{ENDLESS_PREFIX}{}", n + 1),
        CursorFault::Repeat => format!("{ENDLESS_PREFIX}0"),
    };
    let size = page_size.map_or(usize::MAX, |n| n as usize);
    (items.into_iter().take(size).collect(), Some(next))
}

const ENDLESS_PREFIX: &str = "mcp-test-server:page:";

/// One page of `items` starting at the request's `cursor`, and the cursor of the next page.
///
/// Cursors are opaque to the client; an unknown one is -32602, as the spec asks.
pub(crate) fn page(
    items: Vec<Value>,
    params: &Value,
    page_size: Option<u32>,
) -> Result<(Vec<Value>, Option<String>), ErrorObject> {
    let start = match params.get("cursor") {
        None | Some(Value::Null) => 0,
        Some(cursor) => cursor
            .as_str()
            .and_then(|c| c.strip_prefix(CURSOR_PREFIX))
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| *n <= items.len())
            .ok_or_else(|| {
                ErrorObject::new(
                    error_codes::INVALID_PARAMS,
                    "Invalid params: unknown cursor",
                )
            })?,
    };
    let size = page_size.map_or(usize::MAX, |n| n as usize);
    let end = start.saturating_add(size).min(items.len());
    let next = (end < items.len()).then(|| format!("{CURSOR_PREFIX}{end}"));
    let page = items.into_iter().skip(start).take(end - start).collect();
    Ok((page, next))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn items(n: i64) -> Vec<Value> {
        (0..n).map(|i| json!(i)).collect()
    }

    #[test]
    fn pages_walk_the_whole_list_once() {
        let mut seen = Vec::new();
        let mut params = json!({});
        loop {
            let (page, next) = page(items(5), &params, Some(2)).unwrap();
            assert!(page.len() <= 2);
            seen.extend(page);
            match next {
                Some(c) => params = json!({"cursor": c}),
                None => break,
            }
        }
        assert_eq!(seen, items(5));
    }

    #[test]
    fn cursor_faults_never_end_the_listing() {
        let (first, c1) = faulty_page(items(5), &json!({}), Some(2), CursorFault::Endless);
        let (_, c2) = faulty_page(
            items(5),
            &json!({ "cursor": c1 }),
            Some(2),
            CursorFault::Endless,
        );
        assert_eq!(first, items(2));
        assert!(c1.is_some() && c2.is_some() && c1 != c2);
        let (_, r1) = faulty_page(items(5), &json!({}), None, CursorFault::Repeat);
        let (all, r2) = faulty_page(
            items(5),
            &json!({ "cursor": r1 }),
            None,
            CursorFault::Repeat,
        );
        assert_eq!(all, items(5));
        assert_eq!(r1, r2);
    }

    #[test]
    fn no_page_size_means_one_page_and_bad_cursors_are_rejected() {
        let (all, next) = page(items(3), &json!({}), None).unwrap();
        assert_eq!((all.len(), next), (3, None));
        let err = page(items(3), &json!({"cursor": "nope"}), Some(1)).unwrap_err();
        assert_eq!(err.code, error_codes::INVALID_PARAMS);
        assert!(page(items(3), &json!({"cursor": 7}), Some(1)).is_err());
    }
}
