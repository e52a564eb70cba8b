//! Streamable HTTP before 2026-07-28 (2025-03-26 to 2025-11-25): `initialize` opens a
//! session named by `Mcp-Session-Id`; each POST brings messages of that session and, when
//! they hold requests, is answered with their replies (one JSON reply, or an SSE stream
//! that carries the requests' progress and the servers' questions before the replies); a
//! GET opens the stream for everything else; DELETE ends the session.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Response, StatusCode};
use mcp_jsonrpc::Received;
use mcp_types::sync::lock;
use mcp_types::{ErrorObject, RequestId, error_codes, is_supported_version};
use serde_json::Value;

use super::Face;
use super::body::{self, Body};
use super::pipe::HttpHost;
use crate::limits::MAX_HTTP_SESSIONS;

/// The session header.
const SESSION_HEADER: &str = "mcp-session-id";
/// The revision header.
const VERSION_HEADER: &str = "mcp-protocol-version";

/// One session of a host.
struct LegacySession {
    http: HttpHost,
    last_used: Mutex<Instant>,
}

/// The live sessions, by id.
#[derive(Default)]
pub(crate) struct Sessions {
    map: Mutex<HashMap<String, Arc<LegacySession>>>,
}

impl Sessions {
    fn get(&self, id: &str) -> Option<Arc<LegacySession>> {
        let mut map = lock(&self.map);
        let session = map.get(id).cloned()?;
        if session.http.host.is_closed() {
            map.remove(id);
            return None;
        }
        *lock(&session.last_used) = Instant::now();
        Some(session)
    }

    /// Keep `session` under a new id; past the bound, the session used least recently is
    /// ended to make room.
    fn insert(&self, session: Arc<LegacySession>) -> (String, Option<Arc<LegacySession>>) {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let mut map = lock(&self.map);
        map.retain(|_, s| !s.http.host.is_closed());
        let evicted = if map.len() >= MAX_HTTP_SESSIONS {
            let oldest = map
                .iter()
                .min_by_key(|(_, s)| *lock(&s.last_used))
                .map(|(id, _)| id.clone());
            oldest.and_then(|id| map.remove(&id))
        } else {
            None
        };
        map.insert(id.clone(), session);
        (id, evicted)
    }

    fn remove(&self, id: &str) -> Option<Arc<LegacySession>> {
        lock(&self.map).remove(id)
    }

    /// End every session.
    pub(crate) async fn close_all(&self) {
        let sessions: Vec<_> = lock(&self.map).drain().map(|(_, s)| s).collect();
        for session in sessions {
            session.close().await;
        }
    }
}

impl LegacySession {
    async fn close(&self) {
        self.http.streams.close();
        self.http.host.close().await;
        self.http.session.close().await;
    }
}

impl Face {
    /// A POST of the legacy era.
    pub(super) async fn post_legacy(
        self: &Arc<Self>,
        headers: &HeaderMap,
        bytes: Bytes,
    ) -> Response<Body> {
        let messages: Vec<Value> = match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Array(items)) if !items.is_empty() => items,
            Ok(item @ Value::Object(_)) => vec![item],
            Ok(_) => return invalid_request("the body must be a JSON-RPC message or a batch"),
            Err(e) => {
                let error = ErrorObject::new(error_codes::PARSE_ERROR, format!("Parse error: {e}"));
                return body::rpc_error(StatusCode::BAD_REQUEST, None, &error);
            }
        };
        let initialize = messages
            .iter()
            .any(|m| m.get("method").and_then(Value::as_str) == Some("initialize"));
        let requests: Vec<RequestId> = messages
            .iter()
            .filter(|m| m.get("method").is_some())
            .filter_map(|m| serde_json::from_value(m.get("id")?.clone()).ok())
            .collect();
        let session_id = headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok());
        let (session, new_id) = match (session_id, initialize) {
            (None, true) if messages.len() == 1 => {
                let session = self.open_session();
                let (id, evicted) = self.sessions.insert(Arc::clone(&session));
                if let Some(evicted) = evicted {
                    evicted.close().await;
                }
                (session, Some(id))
            }
            (None, _) => return invalid_request("Bad Request: Mcp-Session-Id header is required"),
            (Some(id), _) => match self.sessions.get(id) {
                Some(session) => (session, None),
                None => return session_not_found(),
            },
        };
        if new_id.is_none()
            && let Some(version) = headers.get(VERSION_HEADER).and_then(|v| v.to_str().ok())
            && !is_supported_version(version)
        {
            return invalid_request(&format!(
                "Bad Request: unsupported MCP-Protocol-Version {version}"
            ));
        }
        let replies = (!requests.is_empty()).then(|| session.http.streams.open_replies(&requests));
        if session
            .http
            .inlet
            .send(Received::Bytes(bytes.to_vec()))
            .await
            .is_err()
        {
            return session_not_found();
        }
        let Some(mut replies) = replies else {
            return body::status(StatusCode::ACCEPTED);
        };
        let Some(first) = replies.recv().await else {
            return body::status(StatusCode::ACCEPTED);
        };
        let mut response = if requests.len() == 1 && first.reply {
            body::json(StatusCode::OK, first.bytes)
        } else {
            body::event_stream(replies, Some(first))
        };
        if let Some(id) = new_id
            && let Ok(value) = HeaderValue::from_str(&id)
        {
            response.headers_mut().insert(SESSION_HEADER, value);
        }
        response
    }

    /// A new session: a host in the server role over an HTTP pipe.
    fn open_session(&self) -> Arc<LegacySession> {
        Arc::new(LegacySession {
            http: HttpHost::open(&self.core),
            last_used: Mutex::new(Instant::now()),
        })
    }

    /// GET: the session's stream for what belongs to no request.
    pub(super) async fn get(&self, headers: &HeaderMap) -> Response<Body> {
        let Some(id) = headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok()) else {
            // Nothing to stream without a session (and 2026-07-28 has no GET stream).
            return body::status(StatusCode::METHOD_NOT_ALLOWED);
        };
        let Some(session) = self.sessions.get(id) else {
            return session_not_found();
        };
        match session.http.streams.open_get() {
            Some(stream) => body::event_stream(stream, None),
            None => invalid_status(
                StatusCode::CONFLICT,
                "Conflict: a GET stream is already open for this session",
            ),
        }
    }

    /// DELETE: the host ends its session.
    pub(super) async fn delete(&self, headers: &HeaderMap) -> Response<Body> {
        let Some(id) = headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok()) else {
            return invalid_request("Bad Request: Mcp-Session-Id header is required");
        };
        match self.sessions.remove(id) {
            Some(session) => {
                session.close().await;
                body::status(StatusCode::OK)
            }
            None => session_not_found(),
        }
    }
}

fn invalid_request(message: &str) -> Response<Body> {
    invalid_status(StatusCode::BAD_REQUEST, message)
}

fn invalid_status(status: StatusCode, message: &str) -> Response<Body> {
    let error = ErrorObject::new(error_codes::INVALID_REQUEST, message);
    body::rpc_error(status, None, &error)
}

/// 404: the session is unknown or over; the host must initialize again.
fn session_not_found() -> Response<Body> {
    let error = ErrorObject::new(-32001, "Session not found");
    body::rpc_error(StatusCode::NOT_FOUND, None, &error)
}
