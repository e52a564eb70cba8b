//! Finding the authorization server: protected resource metadata (RFC 9728), the
//! authorization server's metadata (RFC 8414 / OpenID Connect Discovery) in the order the
//! MCP specification gives, and the 2025-03-26 fallbacks.

use serde::Deserialize;
use url::Url;

use mcp_http::HttpClient;

use crate::AuthError;
use crate::net;

/// Protected resource metadata (RFC 9728 §2), the fields a client uses.
#[derive(Debug, Clone, Default, Deserialize)]
#[non_exhaustive]
pub struct ResourceMetadata {
    /// The resource's identifier: must match the server's URL.
    #[serde(default)]
    pub resource: Option<String>,
    /// Authorization servers that issue tokens for it.
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    /// Scopes the resource knows.
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
}

/// Authorization server metadata (RFC 8414 §2), the fields a client uses.
#[derive(Debug, Clone, Default, Deserialize)]
#[non_exhaustive]
pub struct AuthServerMetadata {
    /// The issuer identifier.
    pub issuer: String,
    /// Where the person approves.
    #[serde(default)]
    pub authorization_endpoint: Option<String>,
    /// Where codes and credentials become tokens.
    #[serde(default)]
    pub token_endpoint: Option<String>,
    /// Dynamic client registration (RFC 7591).
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    /// Scopes the server knows (`offline_access` is only asked for when listed here).
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    /// Grant types the server supports.
    #[serde(default)]
    pub grant_types_supported: Option<Vec<String>>,
    /// PKCE methods: must include `S256`.
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// Token endpoint client authentication methods (default `client_secret_basic`).
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// Whether the server takes a URL as `client_id` (client ID metadata documents).
    #[serde(default)]
    pub client_id_metadata_document_supported: Option<bool>,
    /// Whether authorization responses carry `iss` (RFC 9207).
    #[serde(default)]
    pub authorization_response_iss_parameter_supported: Option<bool>,
    /// The DPoP proof algorithms the server takes (RFC 9449 §5.1): DPoP is on offer.
    #[serde(default)]
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
}

/// Where the authorization server is and what it supports, for one server.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Discovery {
    /// The protected resource metadata, when the server publishes it (not in 2025-03-26).
    pub resource_metadata: Option<ResourceMetadata>,
    /// The `resource` parameter to send (RFC 8707): the server's canonical URI.
    pub resource: String,
    /// The authorization server's issuer identifier (as recorded for `iss` checks).
    pub issuer: String,
    /// Its metadata; `None` when the 2025-03-26 default endpoints are used.
    pub metadata: Option<AuthServerMetadata>,
    /// The authorization endpoint.
    pub authorization_endpoint: Url,
    /// The token endpoint.
    pub token_endpoint: Url,
    /// The registration endpoint, when there is one.
    pub registration_endpoint: Option<Url>,
}

impl Discovery {
    /// Whether the server takes DPoP proofs signed with ES256 (the only kind we make).
    pub fn supports_dpop_es256(&self) -> bool {
        self.metadata
            .as_ref()
            .and_then(|m| m.dpop_signing_alg_values_supported.as_ref())
            .is_some_and(|algs| algs.iter().any(|a| a == "ES256"))
    }

    /// Whether the server takes client ID metadata documents.
    pub fn supports_cimd(&self) -> bool {
        self.metadata
            .as_ref()
            .and_then(|m| m.client_id_metadata_document_supported)
            .unwrap_or(false)
    }

    /// The token endpoint auth methods the server supports (RFC 8414 default:
    /// `client_secret_basic`).
    pub fn token_auth_methods(&self) -> Vec<String> {
        self.metadata
            .as_ref()
            .and_then(|m| m.token_endpoint_auth_methods_supported.clone())
            .unwrap_or_else(|| vec!["client_secret_basic".to_owned()])
    }

    /// Whether `scope` is listed in the server's `scopes_supported`.
    pub fn lists_scope(&self, scope: &str) -> bool {
        self.metadata
            .as_ref()
            .and_then(|m| m.scopes_supported.as_ref())
            .is_some_and(|s| s.iter().any(|x| x == scope))
    }
}

/// The server's canonical URI (RFC 8707 / MCP): no fragment, no trailing slash on a
/// non-root path.
pub fn canonical_resource(server: &Url) -> String {
    let mut url = server.clone();
    url.set_fragment(None);
    let text = url.to_string();
    if url.path() == "/" && url.query().is_none() {
        return text.trim_end_matches('/').to_owned();
    }
    text
}

/// Build `<origin>/.well-known/<name><path>` (path inserted) for `base`.
fn well_known_inserted(base: &Url, name: &str) -> Option<Url> {
    let path = base.path().trim_end_matches('/');
    let mut url = base.clone();
    url.set_query(None);
    url.set_fragment(None);
    url.set_path(&format!("/.well-known/{name}{path}"));
    Some(url)
}

fn well_known_root(base: &Url, name: &str) -> Url {
    let mut url = base.clone();
    url.set_query(None);
    url.set_fragment(None);
    url.set_path(&format!("/.well-known/{name}"));
    url
}

/// Fetch the protected resource metadata: from `header_url` (the challenge's
/// `resource_metadata`) when given, else the path-inserted well-known URL, then the root.
/// `None` when the server publishes none (a 2025-03-26 server).
pub async fn fetch_resource_metadata(
    client: &HttpClient,
    server: &Url,
    header_url: Option<&str>,
) -> Result<Option<ResourceMetadata>, AuthError> {
    let mut candidates = Vec::new();
    if let Some(raw) = header_url {
        let url = Url::parse(raw).map_err(|e| {
            AuthError::Discovery(format!("resource_metadata {raw:?} is not a URL: {e}"))
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(AuthError::InsecureUrl(format!(
                "resource_metadata {raw:?} is not http(s)"
            )));
        }
        candidates.push(url);
    }
    if server.path() != "/"
        && let Some(url) = well_known_inserted(server, "oauth-protected-resource")
    {
        candidates.push(url);
    }
    candidates.push(well_known_root(server, "oauth-protected-resource"));
    for url in candidates {
        let answer = net::get(client, &url).await?;
        if answer.ok() {
            tracing::debug!(url = %mcp_http::shown(&url), "protected resource metadata found");
            return answer.json("protected resource metadata").map(Some);
        }
        tracing::debug!(url = %mcp_http::shown(&url), status = answer.status, "no protected resource metadata here");
    }
    Ok(None)
}

/// Check that the metadata's `resource` is the server (the same URL, or a parent path of it
/// on the same origin); return the `resource` parameter to use.
pub fn check_resource(server: &Url, metadata: &ResourceMetadata) -> Result<String, AuthError> {
    let canonical = canonical_resource(server);
    let Some(resource) = metadata.resource.as_deref() else {
        return Ok(canonical);
    };
    let mismatch = || AuthError::ResourceMismatch {
        server: canonical.clone(),
        resource: resource.to_owned(),
    };
    let parsed = Url::parse(resource).map_err(|_| mismatch())?;
    if !mcp_http::same_origin(&parsed, server) {
        return Err(mismatch());
    }
    let want = parsed.path().trim_end_matches('/');
    let have = server.path().trim_end_matches('/');
    let covers = want.is_empty() || have == want || have.starts_with(&format!("{want}/"));
    if !covers {
        return Err(mismatch());
    }
    Ok(resource.to_owned())
}

/// The metadata URLs to try for `issuer`, in the specification's order.
pub fn metadata_candidates(issuer: &Url) -> Vec<Url> {
    let path = issuer.path().trim_end_matches('/');
    if path.is_empty() {
        return vec![
            well_known_root(issuer, "oauth-authorization-server"),
            well_known_root(issuer, "openid-configuration"),
        ];
    }
    let mut appended = issuer.clone();
    appended.set_query(None);
    appended.set_path(&format!("{path}/.well-known/openid-configuration"));
    [
        well_known_inserted(issuer, "oauth-authorization-server"),
        well_known_inserted(issuer, "openid-configuration"),
        Some(appended),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Whether two issuer identifiers are the same (exact, but a lone trailing slash on a bare
/// origin does not count: `https://as.example` and `https://as.example/` name one issuer).
fn same_issuer(a: &str, b: &str) -> bool {
    a == b || a.trim_end_matches('/') == b.trim_end_matches('/') && !a.is_empty()
}

/// Whether `url` is where `issuer` publishes its metadata: one of the well-known URLs made
/// from it (RFC 8414 §3.1, OpenID Connect Discovery §4).
fn published_at(issuer: &str, url: &Url) -> bool {
    Url::parse(issuer).is_ok_and(|issuer| metadata_candidates(&issuer).contains(url))
}

/// Whether `issuer` is on the origin of `url` (scheme, host and port).
fn on_origin_of(issuer: &str, url: &Url) -> bool {
    Url::parse(issuer).is_ok_and(|issuer| mcp_http::same_origin(&issuer, url))
}

/// Fetch the authorization server metadata for `issuer`, trying the well-known URLs in
/// order (or `override_url` alone), and check the document's `issuer` against the URL it
/// was fetched from (RFC 8414 §3.3), on every path:
///
/// - from the well-known URLs of `issuer` named by the protected resource metadata
///   (`named`): the document must name `issuer`;
/// - from the well-known URLs of the MCP server's origin (a 2025-03-26 server, no resource
///   metadata, `named` false): the document must name an issuer on that origin. The
///   2025-03-26 revision puts the metadata at the root of the "authorization base URL" (the
///   origin), and servers of that revision name issuers with a path there (the
///   conformance suite's `auth/2025-03-26-oauth-metadata-backcompat` does), so the path is
///   not compared; the origin, the boundary of what a server speaks for, is;
/// - from `override_url` (configured): the document's issuer must publish its metadata at
///   that URL, and be the named issuer when there is one.
///
/// A document that fails is [`AuthError::IssuerMismatch`]: its issuer keys the stored
/// client, so an unchecked one would send another issuer's client (and secret) here.
pub async fn fetch_as_metadata(
    client: &HttpClient,
    issuer: &str,
    override_url: Option<&Url>,
    named: bool,
) -> Result<Option<AuthServerMetadata>, AuthError> {
    let issuer_url = Url::parse(issuer).map_err(|e| {
        AuthError::Discovery(format!("authorization server {issuer:?} is not a URL: {e}"))
    })?;
    net::check_endpoint(&issuer_url, "authorization server")?;
    let candidates = match override_url {
        Some(url) => vec![url.clone()],
        None => metadata_candidates(&issuer_url),
    };
    for url in candidates {
        let answer = net::get(client, &url).await?;
        if !answer.ok() {
            tracing::debug!(url = %mcp_http::shown(&url), status = answer.status, "no authorization server metadata here");
            continue;
        }
        let metadata: AuthServerMetadata = answer.json("authorization server metadata")?;
        let matches = match override_url {
            None if named => same_issuer(&metadata.issuer, issuer),
            None => same_issuer(&metadata.issuer, issuer) || on_origin_of(&metadata.issuer, &url),
            Some(url) => {
                published_at(&metadata.issuer, url)
                    && (!named || same_issuer(&metadata.issuer, issuer))
            }
        };
        if !matches {
            let expected = match override_url {
                Some(url) if !named => {
                    format!(
                        "an issuer publishing its metadata at {}",
                        mcp_http::shown(url)
                    )
                }
                _ => issuer.to_owned(),
            };
            return Err(AuthError::IssuerMismatch {
                expected,
                found: metadata.issuer,
            });
        }
        return Ok(Some(metadata));
    }
    Ok(None)
}

/// Everything about the authorization server of `server`, from the challenge's
/// `resource_metadata` (if any): resource metadata, the resource check, the authorization
/// server's metadata (or the 2025-03-26 defaults at the server's origin), HTTPS endpoints.
pub async fn discover(
    client: &HttpClient,
    server: &Url,
    header_url: Option<&str>,
    override_url: Option<&Url>,
) -> Result<Discovery, AuthError> {
    let resource_metadata = fetch_resource_metadata(client, server, header_url).await?;
    let (resource, issuer) = match &resource_metadata {
        Some(prm) => {
            let resource = check_resource(server, prm)?;
            let issuer = prm.authorization_servers.first().cloned().ok_or_else(|| {
                AuthError::Discovery(
                    "protected resource metadata lists no authorization_servers".to_owned(),
                )
            })?;
            (resource, issuer)
        }
        // 2025-03-26: the authorization server is the MCP server's origin.
        None => {
            let origin = server.origin().ascii_serialization();
            (canonical_resource(server), origin)
        }
    };
    let named = resource_metadata.is_some();
    let metadata = fetch_as_metadata(client, &issuer, override_url, named).await?;
    // From here on `issuer` is verified: the metadata named it where it was published, or
    // (no metadata, 2025-03-26 defaults) it is the origin of the server itself.
    let issuer_url = Url::parse(&issuer)
        .map_err(|e| AuthError::Discovery(format!("issuer {issuer:?} is not a URL: {e}")))?;
    let (authorization_endpoint, token_endpoint, registration_endpoint) = match &metadata {
        Some(m) => {
            let methods = m.code_challenge_methods_supported.as_deref().unwrap_or(&[]);
            if !methods.iter().any(|x| x == "S256") {
                return Err(AuthError::PkceUnsupported {
                    issuer: issuer.clone(),
                });
            }
            let missing = |what: &str| {
                AuthError::Discovery(format!("authorization server metadata has no {what}"))
            };
            let authorization = match &m.authorization_endpoint {
                Some(e) => net::endpoint(e, "authorization_endpoint")?,
                None => issuer_url
                    .join("/authorize")
                    .map_err(|_| missing("authorization_endpoint"))?,
            };
            let token = match &m.token_endpoint {
                Some(e) => net::endpoint(e, "token_endpoint")?,
                None => return Err(missing("token_endpoint")),
            };
            let registration = match &m.registration_endpoint {
                Some(e) => Some(net::endpoint(e, "registration_endpoint")?),
                None => None,
            };
            (authorization, token, registration)
        }
        None if resource_metadata.is_none() => {
            // 2025-03-26 defaults, at the server's origin.
            let join = |p: &str| {
                issuer_url
                    .join(p)
                    .map_err(|e| AuthError::Discovery(format!("cannot build {p}: {e}")))
            };
            let authorization = join("/authorize")?;
            net::check_endpoint(&authorization, "authorization endpoint")?;
            (authorization, join("/token")?, Some(join("/register")?))
        }
        None => {
            return Err(AuthError::Discovery(format!(
                "no authorization server metadata found for {issuer}"
            )));
        }
    };
    Ok(Discovery {
        resource_metadata,
        resource,
        issuer: metadata.as_ref().map_or(issuer, |m| m.issuer.clone()),
        metadata,
        authorization_endpoint,
        token_endpoint,
        registration_endpoint,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_urls_in_the_specified_order() {
        let with_path = Url::parse("https://auth.example.com/tenant1").unwrap();
        let urls: Vec<String> = metadata_candidates(&with_path)
            .iter()
            .map(Url::to_string)
            .collect();
        assert_eq!(
            urls,
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        let root = Url::parse("https://auth.example.com").unwrap();
        assert_eq!(metadata_candidates(&root).len(), 2);
    }

    #[test]
    fn metadata_is_published_only_at_the_issuers_own_well_known_urls() {
        let at = |u: &str| Url::parse(u).unwrap();
        assert!(published_at(
            "https://as.example",
            &at("https://as.example/.well-known/oauth-authorization-server")
        ));
        assert!(published_at(
            "https://as.example/",
            &at("https://as.example/.well-known/openid-configuration")
        ));
        assert!(published_at(
            "https://as.example/t1",
            &at("https://as.example/t1/.well-known/openid-configuration")
        ));
        assert!(!published_at(
            "https://as.example",
            &at("https://evil.example/.well-known/oauth-authorization-server")
        ));
        assert!(!published_at(
            "https://as.example/t1",
            &at("https://as.example/.well-known/oauth-authorization-server")
        ));
        // 2025-03-26 servers: any issuer on the origin, never another origin.
        let root = at("http://localhost:3000/.well-known/oauth-authorization-server");
        assert!(on_origin_of("http://localhost:3000/oauth", &root));
        assert!(!on_origin_of("http://localhost:3001", &root));
        assert!(!on_origin_of("https://localhost:3000", &root));
        assert!(!published_at(
            "not a url",
            &at("https://as.example/.well-known/oauth-authorization-server")
        ));
    }

    #[test]
    fn the_resource_must_cover_the_server() {
        let server = Url::parse("http://localhost:3000/mcp").unwrap();
        let prm = |r: &str| ResourceMetadata {
            resource: Some(r.to_owned()),
            ..ResourceMetadata::default()
        };
        assert_eq!(
            check_resource(&server, &prm("http://localhost:3000/mcp")).unwrap(),
            "http://localhost:3000/mcp"
        );
        assert!(check_resource(&server, &prm("http://localhost:3000")).is_ok());
        assert!(check_resource(&server, &prm("https://evil.example.com/mcp")).is_err());
        assert!(check_resource(&server, &prm("http://localhost:3000/other")).is_err());
        assert!(check_resource(&server, &prm("http://localhost:3000/mc")).is_err());
        assert_eq!(canonical_resource(&server), "http://localhost:3000/mcp");
    }
}
