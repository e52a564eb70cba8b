//! URLs as they may be shown in logs and errors: without their credentials.
//!
//! [`redact_url`] takes one URL; [`redact_urls_in`] finds the URLs inside free text (an
//! error message, a log line, a server's stderr) and redacts each the same way. Every
//! message, hint, log line and JSON error that may hold a URL goes through one of them.

use std::borrow::Cow;

/// `url` with its credentials hidden: the userinfo (`user:password@`) becomes `***@`, every
/// query value becomes `***` (names are kept when they are plain names, letters, digits and
/// `_-.~%+[]`: they help debugging and are not secret; anything else in a query is hidden
/// whole), and a fragment becomes `#***`. Works on any text, parsable as a URL or not, and
/// never fails.
///
/// ```
/// use mcp_types::redact_url;
/// assert_eq!(
///     redact_url("https://alice:pw@example.com/mcp?token=abc&v=2#frag"),
///     "https://***@example.com/mcp?token=***&v=***#***"
/// );
/// assert_eq!(redact_url("http://127.0.0.1:8080/mcp"), "http://127.0.0.1:8080/mcp");
/// ```
pub fn redact_url(url: &str) -> String {
    let (rest, fragment) = match url.split_once('#') {
        Some((rest, _)) => (rest, Some("***")),
        None => (url, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    let mut out = String::with_capacity(url.len());
    out.push_str(&without_userinfo(rest));
    if let Some(query) = query {
        out.push('?');
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, _)) if is_plain_name(name) => format!("{name}=***"),
                // Not a name (another URL's credentials, say): hidden whole.
                Some(_) => "***".to_owned(),
                None if pair.is_empty() => String::new(),
                // A bare component (`?abc123`) may itself be the token.
                None => "***".to_owned(),
            })
            .collect();
        out.push_str(&pairs.join("&"));
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// A query parameter name that may be shown.
fn is_plain_name(name: &str) -> bool {
    name.chars().all(|c| {
        c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '~' | '%' | '+' | '[' | ']')
    })
}

/// `scheme://user:pw@host/path` → `scheme://***@host/path`; the authority ends at the
/// first `/` after `://` (a `@` in the path is not userinfo). Without `://` (a URL typed
/// without its scheme, `user:pw@host/path`), the authority is what comes before the first
/// `/`.
fn without_userinfo(url: &str) -> String {
    let start = url.find("://").map_or(0, |i| i + 3);
    let authority_end = url[start..].find('/').map_or(url.len(), |i| start + i);
    match url[start..authority_end].rfind('@') {
        Some(at) => format!("{}***{}", &url[..start], &url[start + at..]),
        None => url.to_owned(),
    }
}

/// `text` with every URL in it (`scheme://...`) shown as [`redact_url`] shows it; text
/// without `://` comes back borrowed, unchanged.
///
/// A URL runs from its scheme to the first whitespace, control character, quote, `<`, `>`,
/// `` ` ``, `\`, `{`, `}`, `|` or `^` (none may appear in a URL unencoded), less prose
/// punctuation at its end (`.`, `,`, `;`, `:`, `!`, `?`, `)`, `]`). A second `scheme://`
/// inside a URL's path starts a URL of its own, so its credentials are hidden too.
/// Redacting twice changes nothing more than redacting once.
///
/// ```
/// use mcp_types::redact_urls_in;
/// assert_eq!(
///     redact_urls_in("cannot reach http://u:pw@127.0.0.1:1/mcp?api_key=Q; is it running?"),
///     "cannot reach http://***@127.0.0.1:1/mcp?api_key=***; is it running?"
/// );
/// assert_eq!(redact_urls_in("no address here"), "no address here");
/// ```
pub fn redact_urls_in(text: &str) -> Cow<'_, str> {
    if !text.contains("://") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    // `done`: how much of `text` is in `out`; `from`: where to look for the next `://`.
    let (mut done, mut from) = (0, 0);
    while let Some(found) = text[from..].find("://") {
        let separator = from + found;
        let Some(start) = scheme_start(text, separator, done) else {
            from = separator + 3;
            continue;
        };
        let end = url_end(text, separator);
        out.push_str(&text[done..start]);
        out.push_str(&redact_url(&text[start..end]));
        (done, from) = (end, end);
    }
    out.push_str(&text[done..]);
    Cow::Owned(out)
}

/// The longest scheme looked for: a longer run of scheme characters before `://` keeps only
/// its end as the scheme (the URL is still found and redacted), and the look back stays
/// short, so the scan is linear in the text.
const MAX_SCHEME: usize = 32;

/// Where the scheme before the `://` at `separator` starts (`ALPHA *( ALPHA / DIGIT / "+" /
/// "-" / "." )`, RFC 3986 §3.1), not before `floor` nor more than [`MAX_SCHEME`] back;
/// `None` without one.
fn scheme_start(text: &str, separator: usize, floor: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let floor = floor.max(separator.saturating_sub(MAX_SCHEME));
    let mut start = separator;
    while start > floor && is_scheme_byte(bytes[start - 1]) {
        start -= 1;
    }
    // The scheme begins at its first letter.
    while start < separator && !bytes[start].is_ascii_alphabetic() {
        start += 1;
    }
    (start < separator).then_some(start)
}

fn is_scheme_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// Where the URL whose `://` is at `separator` ends: at the first character no URL holds,
/// or where another `scheme://` starts in its path (before any query or fragment, which
/// are hidden whole), less prose punctuation at its end. One pass over the URL.
fn url_end(text: &str, separator: usize) -> usize {
    let after = separator + 3;
    let mut end = text.len();
    let mut in_path = true;
    for (i, c) in text[after..].char_indices() {
        let at = after + i;
        if c.is_whitespace()
            || c.is_control()
            || matches!(
                c,
                '"' | '\'' | '<' | '>' | '`' | '\\' | '{' | '}' | '|' | '^'
            )
        {
            end = at;
            break;
        }
        match c {
            '?' | '#' => in_path = false,
            ':' if in_path && text[at..].starts_with("://") => {
                if let Some(next) = scheme_start(text, at, after) {
                    end = next;
                    break;
                }
            }
            _ => {}
        }
    }
    while end > after && text[..end].ends_with(['.', ',', ';', ':', '!', '?', ')', ']']) {
        end -= 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::{Cow, redact_url, redact_urls_in};

    #[test]
    fn userinfo_query_values_and_fragments_are_hidden() {
        for (url, shown) in [
            (
                "http://user:s3cret@host:1/p?token=T0K&x=1",
                "http://***@host:1/p?token=***&x=***",
            ),
            ("https://tok@host/p", "https://***@host/p"),
            ("https://h/p?s3cret", "https://h/p?***"),
            ("https://h/p?a=1&&b", "https://h/p?a=***&&***"),
            ("https://h/a@b/c", "https://h/a@b/c"),
            ("https://h/p#access_token=x", "https://h/p#***"),
            ("not a url", "not a url"),
            ("", ""),
            // Typed without a scheme.
            ("u:pw@h:1/mcp?k=v", "***@h:1/mcp?k=***"),
            ("h/a@b", "h/a@b"),
            // A name that is not one is hidden with its value.
            (
                "https://h/p?a(https://u:pw@h2/p?key=v&ok=1",
                "https://h/p?***&ok=***",
            ),
            (
                "https://h/p?filter[x]=1&a%20b=2",
                "https://h/p?filter[x]=***&a%20b=***",
            ),
        ] {
            assert_eq!(redact_url(url), shown, "{url}");
        }
    }

    #[test]
    fn a_password_with_at_signs_is_hidden_whole() {
        let shown = redact_url("https://u:p@ss@w0rd@host/mcp");
        assert_eq!(shown, "https://***@host/mcp");
    }

    #[test]
    fn urls_inside_text_are_found_and_redacted() {
        for (text, shown) in [
            (
                "listens at http://u:PW@127.0.0.1:1/mcp?api_key=Q",
                "listens at http://***@127.0.0.1:1/mcp?api_key=***",
            ),
            (
                "config=ServerConfig { url: Some(\"https://tok@h/p?x=1\") }",
                "config=ServerConfig { url: Some(\"https://***@h/p?x=***\") }",
            ),
            ("(see https://h/p?t=s3cret).", "(see https://h/p?t=***)."),
            ("a https://h/p?t=1, then b", "a https://h/p?t=***, then b"),
            (
                "from http://a/x to sse://u:p@b/y?k=v",
                "from http://a/x to sse://***@b/y?k=***",
            ),
            // A URL in another URL's path: both hidden; in its query: hidden whole.
            ("http://a/http://u:p@b/", "http://a/http://***@b/"),
            // Past a `://` without a scheme before it.
            (
                "p://u@.-://1:k=Q(https://u:pw@h/p",
                "p://***@.-://1:k=Q(https://***@h/p",
            ),
            (
                "ws://[::1]:80/x?y(https://user:pw@host:1/p?key=k).",
                "ws://[::1]:80/x?***).",
            ),
            ("'http://u:p@h'", "'http://***@h'"),
            ("x://", "x://"),
            ("://u:p@h", "://u:p@h"),
            ("no url: just text", "no url: just text"),
            ("", ""),
        ] {
            assert_eq!(redact_urls_in(text), shown, "{text}");
            assert_eq!(redact_urls_in(shown), shown, "twice: {text}");
        }
        assert!(matches!(
            redact_urls_in("plain text"),
            Cow::Borrowed("plain text")
        ));
    }

    #[test]
    fn many_urls_and_separators_are_one_pass() {
        // Before: each URL scanned to the end of the text (and each `://` back to the start
        // of the last URL), quadratic: a server's 256 KiB stderr line took minutes to log.
        for unit in ["a://", "1://", "http://h/a://", "x"] {
            let text = unit.repeat(256 * 1024 / unit.len());
            let shown = redact_urls_in(&text);
            assert_eq!(shown.len(), text.len(), "{unit}");
        }
    }

    proptest::proptest! {
        #[test]
        fn secrets_in_a_url_in_any_text_never_show(
            before in "\\PC{0,40}",
            after in "\\PC{0,40}",
            secret in "[A-Za-z0-9]{6,20}",
            tail in "[.,;:)]{0,2}",
        ) {
            proptest::prop_assume!(!before.contains(&secret) && !after.contains(&secret));
            let text = format!("{before} http://user:{secret}@host/p?k={secret}{tail} {after}");
            let shown = redact_urls_in(&text);
            proptest::prop_assert!(!shown.contains(&secret), "{}", shown);
            proptest::prop_assert_eq!(redact_urls_in(&shown), shown.clone());
        }
    }
}
