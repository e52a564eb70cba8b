//! The Streamable HTTP front end (revision 2025-11-25): routing, the checks every request
//! to `/mcp` passes, and DELETE.
//! <https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http>

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use hyper::body::Incoming;
use hyper::header::{HeaderValue, WWW_AUTHENTICATE};
use hyper::{HeaderMap, Method, Request, Response, StatusCode};
use mcp_types::is_supported_version;
use serde_json::json;

use super::body::Body;
use super::log::{Entry, RequestLog};
use super::oauth::OAuth;
use super::reply::{self, Refusal, header};
use super::session::{Session, Sessions};
use crate::options::{Era, ServerOptions};
use crate::server::{Frontend, Server};

/// The MCP endpoint's path.
pub(crate) const MCP_PATH: &str = "/mcp";
/// Where `--require-bearer` points clients for the protected resource metadata (RFC 9728).
pub(crate) const RESOURCE_METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// Everything the Streamable HTTP handlers share.
#[derive(Debug)]
pub(crate) struct Streamable {
    pub(crate) options: ServerOptions,
    /// `http://ADDR`, for absolute URLs.
    pub(crate) base: String,
    pub(crate) log: Arc<RequestLog>,
    pub(crate) sessions: Sessions,
    /// With `--oauth`: the authorization server and the token checks.
    pub(crate) oauth: Option<OAuth>,
    next_stream: AtomicU64,
    /// The one stateless core that serves every 2026-07-28 request (`--era modern|dual`).
    pub(crate) modern: Option<Server>,
}

impl Streamable {
    pub(crate) fn new(options: ServerOptions, base: String) -> Self {
        let log = Arc::new(RequestLog::default());
        let modern = (options.era != Era::Legacy).then(|| {
            let frontend = Frontend {
                request_log: Some(Arc::clone(&log)),
                server_requests: None,
            };
            Server::with_frontend(options.clone(), frontend)
        });
        let oauth = options
            .oauth
            .oauth
            .then(|| OAuth::new(options.oauth.clone(), &base, MCP_PATH));
        Self {
            oauth,
            options,
            base,
            log,
            sessions: Sessions::default(),
            next_stream: AtomicU64::new(0),
            modern,
        }
    }

    /// Answer one HTTP request and record it.
    pub(crate) async fn handle(self: Arc<Self>, request: Request<Incoming>) -> Response<Body> {
        let path = request
            .uri()
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_owned();
        let mut entry = Entry::new(request.method().as_str(), &path, request.headers());
        let response = self.route(request, &mut entry).await;
        self.log.push(entry, response.status().as_u16());
        response
    }

    async fn route(&self, request: Request<Incoming>, entry: &mut Entry) -> Response<Body> {
        let request = match &self.oauth {
            Some(oauth) => match oauth.route(request).await {
                Ok(answered) => return answered,
                Err(request) => request,
            },
            None => request,
        };
        let path = request.uri().path();
        if path == RESOURCE_METADATA_PATH && self.options.require_bearer.is_some() {
            return self.resource_metadata();
        }
        if path != MCP_PATH {
            return reply::text(StatusCode::NOT_FOUND, "Not Found");
        }
        if let Some(refused) = self.check_bearer(request.headers()) {
            return refused;
        }
        if let Some(origin) = header(request.headers(), "origin")
            && !is_local_origin(origin)
        {
            // The spec's defence against DNS rebinding: only local pages may talk to us.
            return reply::text(StatusCode::FORBIDDEN, "Forbidden: Origin is not local");
        }
        if self.options.era == Era::Modern && *request.method() != Method::POST {
            // 2026-07-28 has no GET stream and no session to DELETE.
            return reply::method_not_allowed("POST");
        }
        match *request.method() {
            Method::POST => self.post(request, entry).await,
            Method::GET => self.get(request).await,
            Method::DELETE => self.delete(request.headers()),
            _ => reply::method_not_allowed("GET, POST, DELETE"),
        }
    }

    /// 401 with a challenge unless the request carries the required bearer token.
    pub(crate) fn check_bearer(&self, headers: &HeaderMap) -> Option<Response<Body>> {
        if let Some(oauth) = &self.oauth {
            return oauth.check_bearer(headers);
        }
        let token = &self.options.require_bearer.as_ref()?.0;
        let presented = header(headers, "authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|t| t == token);
        if presented {
            return None;
        }
        Some(unauthorized(&self.base))
    }

    fn resource_metadata(&self) -> Response<Body> {
        let metadata = json!({
            "resource": format!("{}{MCP_PATH}", self.base),
            "authorization_servers": [],
            "bearer_methods_supported": ["header"],
        });
        reply::json(StatusCode::OK, metadata.to_string())
    }

    /// The session a request names, or the response refusing it: 400 without an id, 404
    /// for an unknown (or forgotten) one, 400 for an unsupported `MCP-Protocol-Version`.
    pub(crate) fn session_of(&self, headers: &HeaderMap) -> Result<Arc<Session>, Refusal> {
        let Some(id) = header(headers, "mcp-session-id") else {
            return Err(Box::new(reply::text(
                StatusCode::BAD_REQUEST,
                "Bad Request: Mcp-Session-Id header is required",
            )));
        };
        let session = self.sessions.get(id).ok_or_else(|| {
            Box::new(if self.options.lost_session_400 {
                reply::rpc_error(
                    StatusCode::BAD_REQUEST,
                    -32000,
                    "Bad Request: Session not found",
                )
            } else {
                reply::text(StatusCode::NOT_FOUND, "Not Found: unknown session")
            })
        })?;
        check_protocol_version(headers)?;
        Ok(session)
    }

    fn delete(&self, headers: &HeaderMap) -> Response<Body> {
        let session = match self.session_of(headers) {
            Ok(session) => session,
            Err(refused) => return *refused,
        };
        self.sessions.remove(&session.id);
        reply::status(StatusCode::NO_CONTENT)
    }

    /// A fresh id for a reply stream that may be resumed.
    pub(crate) fn next_stream_id(&self) -> String {
        format!("s{}", self.next_stream.fetch_add(1, Ordering::Relaxed) + 1)
    }
}

/// 400 when the request names a revision we do not speak.
pub(crate) fn check_protocol_version(headers: &HeaderMap) -> Result<(), Refusal> {
    match header(headers, "mcp-protocol-version") {
        Some(version) if !is_supported_version(version) => Err(Box::new(reply::text(
            StatusCode::BAD_REQUEST,
            &format!("Bad Request: unsupported MCP-Protocol-Version {version:?}"),
        ))),
        _ => Ok(()),
    }
}

/// Whether an `Origin` names this machine (`http://127.0.0.1:…`, `http://localhost:…`, ...).
fn is_local_origin(origin: &str) -> bool {
    let Some((_, rest)) = origin.split_once("://") else {
        return false;
    };
    let host = match rest.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => rest.split(':').next().unwrap_or(""),
    };
    matches!(host, "127.0.0.1" | "localhost" | "::1")
}

/// 401 with the challenge RFC 9728 describes.
pub(crate) fn unauthorized(base: &str) -> Response<Body> {
    let mut response = reply::text(StatusCode::UNAUTHORIZED, "Unauthorized");
    let challenge = format!("Bearer resource_metadata=\"{base}{RESOURCE_METADATA_PATH}\"");
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_origins_pass() {
        for ok in [
            "http://127.0.0.1:8080",
            "http://localhost",
            "https://[::1]:3000",
        ] {
            assert!(is_local_origin(ok), "{ok}");
        }
        for bad in [
            "http://evil.example",
            "http://127.0.0.1.evil.example",
            "null",
            "http://localhost.evil:80",
        ] {
            assert!(!is_local_origin(bad), "{bad}");
        }
    }
}
