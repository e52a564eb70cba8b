//! Parsing `WWW-Authenticate` (RFC 9110 §11.6.1) for the `Bearer` challenge's parameters
//! (RFC 6750 §3, RFC 9728 §5.1). A pure function of the header text, with no I/O, so it can
//! be fuzzed alone.

/// The parameters of a `Bearer` challenge that matter to an MCP client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BearerChallenge {
    /// `resource_metadata`: where the protected resource metadata is (RFC 9728).
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes the request needs, space-separated.
    pub scope: Option<String>,
    /// `error`, e.g. `invalid_token` or `insufficient_scope`.
    pub error: Option<String>,
    /// `error_description`.
    pub error_description: Option<String>,
}

impl BearerChallenge {
    /// The `scope` parameter split on spaces.
    pub fn scopes(&self) -> Vec<String> {
        split_scopes(self.scope.as_deref())
    }

    /// Whether the server wants a DPoP nonce in the proof (RFC 9449 §9).
    pub fn is_use_dpop_nonce(&self) -> bool {
        self.error.as_deref() == Some("use_dpop_nonce")
    }

    /// Whether this is an `insufficient_scope` error (RFC 6750 §3.1).
    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// Split a space-separated scope string, dropping empty parts.
pub(crate) fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .map(|s| {
            s.split(' ')
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// One challenge of a `WWW-Authenticate` header: its scheme and its `name=value` parameters
/// (quoted values unescaped; a `token68` is kept under the empty name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// The scheme, as written (compare case-insensitively).
    pub scheme: String,
    /// The parameters in order; names lower-cased.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// The value of parameter `name` (lower case).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The `Bearer` challenge of a `WWW-Authenticate` header, when there is one.
pub fn parse_bearer(header: &str) -> Option<BearerChallenge> {
    parse_scheme(header, "bearer")
}

/// The `Bearer` challenge of a `WWW-Authenticate` header, else its `DPoP` challenge
/// (RFC 9449 §7.1: the same parameters, plus `algs`): what a client that may hold a DPoP
/// token reads.
pub fn parse_bearer_or_dpop(header: &str) -> Option<BearerChallenge> {
    parse_scheme(header, "bearer").or_else(|| parse_scheme(header, "dpop"))
}

fn parse_scheme(header: &str, scheme: &str) -> Option<BearerChallenge> {
    let challenge = parse_www_authenticate(header)
        .into_iter()
        .find(|c| c.scheme.eq_ignore_ascii_case(scheme))?;
    let get = |name: &str| challenge.param(name).map(str::to_owned);
    Some(BearerChallenge {
        resource_metadata: get("resource_metadata"),
        scope: get("scope"),
        error: get("error"),
        error_description: get("error_description"),
    })
}

/// Every challenge of a `WWW-Authenticate` header value, leniently: a malformed part ends
/// the parse with what was read so far, never a panic.
pub fn parse_www_authenticate(header: &str) -> Vec<Challenge> {
    let mut parser = Parser {
        s: header.as_bytes(),
        i: 0,
    };
    let mut out: Vec<Challenge> = Vec::new();
    loop {
        parser.skip_separators();
        let Some(word) = parser.token() else { break };
        parser.skip_spaces();
        // `word` is a scheme unless followed by `=` (then it is a parameter of the current
        // challenge, after a comma).
        if parser.peek() == Some(b'=') && !parser.is_token68_end() {
            let Some(current) = out.last_mut() else { break };
            parser.i += 1;
            parser.skip_spaces();
            let Some(value) = parser.value() else { break };
            current.params.push((word.to_ascii_lowercase(), value));
            continue;
        }
        let mut challenge = Challenge {
            scheme: word,
            params: Vec::new(),
        };
        // A token68 right after the scheme (`Basic abc==`).
        let save = parser.i;
        if let Some(t68) = parser.token68()
            && (parser.at_end_of_item())
        {
            challenge.params.push((String::new(), t68));
        } else {
            parser.i = save;
        }
        out.push(challenge);
    }
    out
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn skip_separators(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b',')) {
            self.i += 1;
        }
    }

    /// An RFC 9110 token.
    fn token(&mut self) -> Option<String> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c) {
                self.i += 1;
            } else {
                break;
            }
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// `=` followed by more `=` and then the end of the item: the padding of a token68,
    /// not a parameter's `=`.
    fn is_token68_end(&self) -> bool {
        let mut j = self.i;
        while self.s.get(j) == Some(&b'=') {
            j += 1;
        }
        while matches!(self.s.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        j > self.i + 1 && matches!(self.s.get(j), None | Some(b','))
    }

    fn token68(&mut self) -> Option<String> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || b"-._~+/".contains(&c) {
                self.i += 1;
            } else {
                break;
            }
        }
        if self.i == start {
            return None;
        }
        while self.peek() == Some(b'=') {
            self.i += 1;
        }
        Some(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    fn at_end_of_item(&mut self) -> bool {
        self.skip_spaces();
        matches!(self.peek(), None | Some(b','))
    }

    /// A quoted string (backslash escapes removed), or an unquoted value read leniently up
    /// to the next comma or space (servers write `scope=files:read`, not a strict token).
    fn value(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            let start = self.i;
            while !matches!(self.peek(), None | Some(b',' | b' ' | b'\t')) {
                self.i += 1;
            }
            return (self.i > start)
                .then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned());
        }
        self.i += 1;
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                b'\\' => {
                    if let Some(next) = self.peek() {
                        out.push(next);
                        self.i += 1;
                    }
                }
                b'"' => return Some(String::from_utf8_lossy(&out).into_owned()),
                other => out.push(other),
            }
        }
        // Unterminated: keep what was there.
        Some(String::from_utf8_lossy(&out).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dpop_challenge_is_read_when_there_is_no_bearer_one() {
        let header = r#"DPoP error="use_dpop_nonce", resource_metadata="http://127.0.0.1:1/prm""#;
        assert!(parse_bearer(header).is_none());
        let c = parse_bearer_or_dpop(header).unwrap();
        assert!(c.is_use_dpop_nonce());
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://127.0.0.1:1/prm")
        );
        let both = r#"DPoP algs="ES256", Bearer scope="a""#;
        assert_eq!(
            parse_bearer_or_dpop(both).unwrap().scope.as_deref(),
            Some("a")
        );
    }

    #[test]
    fn bearer_parameters_are_read() {
        let c = parse_bearer(
            r#"Bearer resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp", scope="a b""#,
        )
        .unwrap();
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://localhost:3000/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(c.scopes(), ["a", "b"]);
        assert!(!c.is_insufficient_scope());
    }

    #[test]
    fn several_challenges_and_escapes() {
        let all = parse_www_authenticate(
            r#"Basic realm="x", Bearer error="insufficient_scope", scope=files:read, error_description="say \"more\"""#,
        );
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].scheme, "Basic");
        assert_eq!(all[0].param("realm"), Some("x"));
        let bearer = parse_bearer(
            r#"Basic realm="x", Bearer error="insufficient_scope", scope=files:read, error_description="say \"more\"""#,
        )
        .unwrap();
        assert!(bearer.is_insufficient_scope());
        assert_eq!(bearer.scope.as_deref(), Some("files:read"));
        assert_eq!(bearer.error_description.as_deref(), Some("say \"more\""));
    }

    #[test]
    fn token68_and_garbage_never_panic() {
        let all = parse_www_authenticate("Negotiate abc123==, Bearer");
        assert_eq!(all[0].param(""), Some("abc123=="));
        assert_eq!(all[1].scheme, "Bearer");
        for junk in [
            "",
            "=",
            ",,,",
            "\"",
            "Bearer =",
            "Bearer a=\"unterminated",
            "é",
        ] {
            let _ = parse_www_authenticate(junk);
        }
        assert!(parse_bearer("Basic realm=x").is_none());
        assert_eq!(parse_bearer("bearer").unwrap(), BearerChallenge::default());
    }
}
