//! What every timed call sends and how its reply is checked (the same for every client).

use serde_json::{Map, Value};

use crate::BenchError;

/// The text every call echoes.
pub const ECHO_TEXT: &str = "hello";

/// The `echo` arguments: `{"text":"hello"}`, plus `"size"` when a reply size is asked for.
pub fn echo_arguments(size: Option<usize>) -> Map<String, Value> {
    let mut args = Map::new();
    args.insert("text".into(), Value::from(ECHO_TEXT));
    if let Some(size) = size {
        args.insert("size".into(), Value::from(size));
    }
    args
}

/// Check a reply's text: `"hello"`, or exactly `size` bytes when a size was asked for.
pub fn check_text(text: &[u8], size: Option<usize>) -> Result<(), BenchError> {
    let ok = match size {
        Some(size) => text.len() == size,
        None => text == ECHO_TEXT.as_bytes(),
    };
    if ok {
        Ok(())
    } else {
        // Never echo a megabyte into an error message.
        let shown = String::from_utf8_lossy(&text[..text.len().min(64)]).into_owned();
        Err(BenchError::BadReply(format!(
            "reply text of {} bytes ({shown:?}…), expected {}",
            text.len(),
            size.map_or_else(|| format!("{ECHO_TEXT:?}"), |s| format!("{s} bytes")),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_text_and_size() {
        assert!(check_text(b"hello", None).is_ok());
        assert!(check_text(b"hell", None).is_err());
        assert!(check_text(&[b'x'; 10], Some(10)).is_ok());
        assert!(check_text(&[b'x'; 9], Some(10)).is_err());
        assert_eq!(
            Value::Object(echo_arguments(Some(3))).to_string(),
            r#"{"size":3,"text":"hello"}"#
        );
    }
}
