//! The `WWW-Authenticate` parser of mcp-auth (it reads what any server sends on a 401 or
//! 403): no input makes it panic, and what it reads is stable: the challenges written back
//! in canonical form (parameters quoted, separated by commas) parse to the same challenges.

use mcp_auth::challenge::{Challenge, parse_bearer, parse_www_authenticate};

/// Run the checks on one input.
pub fn check(data: &[u8]) {
    let header = String::from_utf8_lossy(data);
    let challenges = parse_www_authenticate(&header);
    let canonical = write(&challenges);
    assert_eq!(
        parse_www_authenticate(&canonical),
        challenges,
        "canonical form {canonical:?} of {header:?}"
    );
    // The Bearer view is the first Bearer challenge's parameters.
    let bearer = challenges
        .iter()
        .find(|c| c.scheme.eq_ignore_ascii_case("bearer"));
    let parsed = parse_bearer(&header);
    assert_eq!(parsed.is_some(), bearer.is_some());
    if let (Some(parsed), Some(bearer)) = (parsed, bearer) {
        assert_eq!(parsed.scope.as_deref(), bearer.param("scope"));
        assert_eq!(
            parsed.resource_metadata.as_deref(),
            bearer.param("resource_metadata")
        );
        assert_eq!(parsed.error.as_deref(), bearer.param("error"));
    }
}

/// `Scheme [token68], name="value", ...` for each challenge, joined by `, `.
fn write(challenges: &[Challenge]) -> String {
    let mut out = Vec::new();
    for challenge in challenges {
        let mut text = challenge.scheme.clone();
        let mut params = Vec::new();
        for (name, value) in &challenge.params {
            if name.is_empty() {
                text.push(' ');
                text.push_str(value);
            } else {
                let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
                params.push(format!("{name}=\"{escaped}\""));
            }
        }
        if !params.is_empty() {
            // The first parameter follows the scheme (or its token68) after a comma when a
            // token68 came first, else after a space.
            let joiner = if challenge.params.first().is_some_and(|(n, _)| n.is_empty()) {
                ", "
            } else {
                " "
            };
            text.push_str(joiner);
            text.push_str(&params.join(", "));
        }
        out.push(text);
    }
    out.join(", ")
}
