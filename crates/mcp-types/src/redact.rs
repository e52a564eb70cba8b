//! URLs as they may be shown in logs and errors: without their credentials.

/// `url` with its credentials hidden: the userinfo (`user:password@`) becomes `***@`, every
/// query value becomes `***` (names are kept: they help debugging and are not secret), and
/// a fragment becomes `#***`. Works on any text, parsable as a URL or not, and never fails.
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
                Some((name, _)) => format!("{name}=***"),
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

/// `scheme://user:pw@host/path` → `scheme://***@host/path`; the authority ends at the
/// first `/` after `://` (a `@` in the path is not userinfo).
fn without_userinfo(url: &str) -> String {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        return url.to_owned();
    };
    let authority_end = url[start..].find('/').map_or(url.len(), |i| start + i);
    match url[start..authority_end].rfind('@') {
        Some(at) => format!("{}***{}", &url[..start], &url[start + at..]),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact_url;

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
        ] {
            assert_eq!(redact_url(url), shown, "{url}");
        }
    }

    #[test]
    fn a_password_with_at_signs_is_hidden_whole() {
        let shown = redact_url("https://u:p@ss@w0rd@host/mcp");
        assert_eq!(shown, "https://***@host/mcp");
    }
}
