//! `mcp_types::redact_urls_in` (and through it `redact_url`): no panic on any text;
//! redacting twice is redacting once; text without `://` is unchanged; and a password and
//! a query value put into a URL inside the input never show, whatever surrounds it.

use mcp_types::redact_urls_in;

/// Stands for a secret: a run the fuzzer is unlikely to produce by itself.
const SECRET: &str = "Zq7Secret9Xw";

/// Run the checks on one input.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let shown = redact_urls_in(text);
    assert_eq!(redact_urls_in(&shown), shown, "redacting twice differs");
    if !text.contains("://") {
        assert_eq!(shown, text, "text without a URL changed");
    }
    if text.contains(SECRET) {
        return;
    }
    // The input before and after a URL that carries the secret as its password and as a
    // query value, joined by a space or by quotes (how messages and Debug output hold URLs).
    for (open, close) in [(" ", " "), ("\"", "\""), ("(", ")."), ("'", "'")] {
        let joined =
            format!("{text}{open}https://user:{SECRET}@host:1/p?key={SECRET}{close}{text}");
        let shown = redact_urls_in(&joined);
        assert!(!shown.contains(SECRET), "a secret shows: {shown:?}");
    }
}
