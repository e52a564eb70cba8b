//! The few HTTP requests OAuth makes (GET a JSON document, POST a form or JSON), through
//! `mcp-http`'s client (TLS, proxy, pool), each bounded in size and time; and the URL rules.

use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, header};
use http_body_util::Full;
use mcp_http::{HttpClient, read_body_bounded};
use url::Url;

use crate::AuthError;

/// The bound on one request to an authorization server or a metadata document.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// The bound on a metadata or token response body.
const BODY_LIMIT: usize = 256 * 1024;

/// A response: status, `Location` (for the headless visitor), body.
pub(crate) struct Answer {
    pub status: u16,
    pub location: Option<String>,
    /// `DPoP-Nonce` (RFC 9449 §8): the nonce the server wants in the next proof.
    pub dpop_nonce: Option<String>,
    pub body: Bytes,
}

impl Answer {
    pub(crate) fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The body as JSON of type `T`; `what` names the document in the error.
    pub(crate) fn json<T: serde::de::DeserializeOwned>(&self, what: &str) -> Result<T, AuthError> {
        serde_json::from_slice(&self.body)
            .map_err(|e| AuthError::Discovery(format!("{what} is not valid: {e}")))
    }
}

/// Send one request; `headers` are (name, value).
pub(crate) async fn send(
    client: &HttpClient,
    method: Method,
    url: &Url,
    headers: &[(&str, &str)],
    body: Option<(&str, Vec<u8>)>,
) -> Result<Answer, AuthError> {
    let mut builder = Request::builder()
        .method(method)
        .uri(url.as_str())
        .header(header::ACCEPT, "application/json");
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    let payload = match body {
        Some((content_type, bytes)) => {
            builder = builder.header(header::CONTENT_TYPE, content_type);
            Bytes::from(bytes)
        }
        None => Bytes::new(),
    };
    let request = builder
        .body(Full::new(payload))
        .map_err(|e| AuthError::Discovery(format!("cannot build a request to {url}: {e}")))?;
    let exchange = async {
        let response = client.send(request).await?;
        let status = response.status().as_u16();
        let location = mcp_http::header_str(&response, "location").map(str::to_owned);
        let dpop_nonce = mcp_http::header_str(&response, "dpop-nonce").map(str::to_owned);
        let body = read_body_bounded(response.into_body(), BODY_LIMIT).await?;
        Ok::<_, mcp_http::Error>(Answer {
            status,
            location,
            dpop_nonce,
            body,
        })
    };
    match tokio::time::timeout(REQUEST_TIMEOUT, exchange).await {
        Ok(answer) => Ok(answer?),
        Err(_) => Err(AuthError::Discovery(format!(
            "{} did not answer within {} s",
            mcp_http::shown(url),
            REQUEST_TIMEOUT.as_secs()
        ))),
    }
}

/// GET `url` as JSON.
pub(crate) async fn get(client: &HttpClient, url: &Url) -> Result<Answer, AuthError> {
    send(client, Method::GET, url, &[], None).await
}

/// POST a form (`application/x-www-form-urlencoded`).
pub(crate) async fn post_form(
    client: &HttpClient,
    url: &Url,
    headers: &[(&str, &str)],
    form: &[(&str, &str)],
) -> Result<Answer, AuthError> {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form)
        .finish()
        .into_bytes();
    send(
        client,
        Method::POST,
        url,
        headers,
        Some(("application/x-www-form-urlencoded", body)),
    )
    .await
}

/// POST a JSON document.
pub(crate) async fn post_json(
    client: &HttpClient,
    url: &Url,
    body: &serde_json::Value,
) -> Result<Answer, AuthError> {
    let bytes = serde_json::to_vec(body)
        .map_err(|e| AuthError::Discovery(format!("cannot encode a request: {e}")))?;
    send(
        client,
        Method::POST,
        url,
        &[],
        Some(("application/json", bytes)),
    )
    .await
}

/// Whether `url`'s host is a loopback address or `localhost`.
pub(crate) fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// An authorization server endpoint must be HTTPS, or HTTP on loopback (tests, local
/// servers): tokens and codes never cross a network in the clear.
pub(crate) fn check_endpoint(url: &Url, what: &str) -> Result<(), AuthError> {
    match url.scheme() {
        "https" => Ok(()),
        "http" if is_loopback(url) => Ok(()),
        _ => Err(AuthError::InsecureUrl(format!(
            "{what} {} must be https (http only on loopback)",
            mcp_http::shown(url)
        ))),
    }
}

/// Parse `value` as a URL that must be HTTPS (or loopback HTTP).
pub(crate) fn endpoint(value: &str, what: &str) -> Result<Url, AuthError> {
    let url = Url::parse(value)
        .map_err(|e| AuthError::Discovery(format!("{what} {value:?} is not a URL: {e}")))?;
    check_endpoint(&url, what)?;
    Ok(url)
}
