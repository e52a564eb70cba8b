//! Cursor pagination shared by every `*/list` method.

use mcp_types::{ErrorObject, error_codes};
use serde_json::Value;

const CURSOR_PREFIX: &str = "mcp-test-server:offset:";

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
    fn no_page_size_means_one_page_and_bad_cursors_are_rejected() {
        let (all, next) = page(items(3), &json!({}), None).unwrap();
        assert_eq!((all.len(), next), (3, None));
        let err = page(items(3), &json!({"cursor": "nope"}), Some(1)).unwrap_err();
        assert_eq!(err.code, error_codes::INVALID_PARAMS);
        assert!(page(items(3), &json!({"cursor": 7}), Some(1)).is_err());
    }
}
