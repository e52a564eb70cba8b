//! Which requests the face serves at all (transports, "Security Warning"): the `Origin`
//! header, when a browser sends one, must name this machine or an origin the user
//! allowed; and while the proxy listens on loopback, the `Host` header must name loopback
//! too, so a web page whose name was made to resolve to 127.0.0.1 (DNS rebinding) gets 403.

use http::HeaderMap;
use http::header::{HOST, ORIGIN};

/// What the face lets in.
#[derive(Debug, Clone, Default)]
pub(crate) struct Gate {
    /// Origins allowed besides this machine's (`scheme://host[:port]`, as browsers send
    /// them).
    pub(crate) allowed_origins: Vec<String>,
    /// Whether the listener is on a loopback address (then `Host` must be loopback).
    pub(crate) loopback: bool,
}

impl Gate {
    /// Why a request with `headers` is refused, if it is.
    pub(crate) fn refuse(&self, headers: &HeaderMap) -> Option<&'static str> {
        if let Some(origin) = headers.get(ORIGIN) {
            let origin = origin.to_str().unwrap_or_default();
            let allowed = self.allowed_origins.iter().any(|a| a == origin)
                || url::Url::parse(origin)
                    .ok()
                    .and_then(|u| u.host_str().map(is_loopback_name))
                    .unwrap_or(false);
            if !allowed {
                return Some("Forbidden: Origin not allowed");
            }
        }
        if self.loopback
            && let Some(host) = headers.get(HOST)
        {
            let host = host.to_str().unwrap_or_default();
            if !is_loopback_name(host_name(host)) {
                return Some("Forbidden: Host is not this machine");
            }
        }
        None
    }
}

/// The name part of a `Host` header (`name[:port]`, `[v6][:port]`).
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default();
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

fn is_loopback_name(name: &str) -> bool {
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn only_this_machine_and_allowed_origins_get_in() {
        let gate = Gate {
            allowed_origins: vec!["https://app.example".into()],
            loopback: true,
        };
        assert!(
            gate.refuse(&headers(&[("host", "127.0.0.1:8080")]))
                .is_none()
        );
        assert!(
            gate.refuse(&headers(&[
                ("host", "localhost:1"),
                ("origin", "http://localhost:3000")
            ]))
            .is_none()
        );
        assert!(
            gate.refuse(&headers(&[
                ("host", "[::1]:9"),
                ("origin", "http://[::1]:9")
            ]))
            .is_none()
        );
        assert!(
            gate.refuse(&headers(&[
                ("host", "127.0.0.1"),
                ("origin", "https://app.example")
            ]))
            .is_none()
        );
        // DNS rebinding: the page's own name, resolved to 127.0.0.1.
        assert!(
            gate.refuse(&headers(&[
                ("host", "evil.example.com"),
                ("origin", "http://evil.example.com")
            ]))
            .is_some()
        );
        assert!(
            gate.refuse(&headers(&[
                ("host", "127.0.0.1"),
                ("origin", "http://evil.example.com")
            ]))
            .is_some()
        );
        assert!(
            gate.refuse(&headers(&[("host", "evil.example.com:80")]))
                .is_some()
        );
        assert!(
            gate.refuse(&headers(&[("host", "127.0.0.1"), ("origin", "null")]))
                .is_some()
        );
        // Listening elsewhere, by the user's choice: any Host, still no foreign Origin.
        let open = Gate {
            allowed_origins: Vec::new(),
            loopback: false,
        };
        assert!(open.refuse(&headers(&[("host", "proxy.lan:80")])).is_none());
        assert!(
            open.refuse(&headers(&[("origin", "http://evil.example.com")]))
                .is_some()
        );
    }
}
