//! The legacy revisions (2024-11-05 to 2025-11-25, `basic/lifecycle`): `initialize`, wait
//! for the answer, check the revision, let the transport set up (Streamable HTTP: the
//! protocol header and the GET stream), then `notifications/initialized`; nothing else is
//! sent before the answer arrives. A Streamable HTTP server that forgot the session gets a
//! fresh `initialize`, and the request is sent once more.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use mcp_jsonrpc::{RequestOptions, Session, WireRules};
use mcp_types::sync::{read, write};
use mcp_types::{
    InitializeRequestParams, InitializeResult, RawResult, RawValue, is_supported_version, methods,
};
use serde::Serialize;
use tokio::sync::Mutex as AsyncMutex;

use super::Ctx;
use crate::client::decode;
use crate::{ClientOptions, Error, SessionError};

/// A connection in a legacy revision.
pub(crate) struct Legacy {
    server: RwLock<Arc<InitializeResult>>,
    /// Bumped by every re-initialization, so concurrent requests that all saw the session
    /// expire share one fresh `initialize`.
    generation: AtomicU64,
    reinit: AsyncMutex<()>,
    /// The transport keeps a session the server may forget (a copy of each request's
    /// params is kept to send it again).
    renewable: bool,
}

impl Legacy {
    pub(crate) fn new(server: InitializeResult, session: &Session) -> Self {
        Self {
            server: RwLock::new(Arc::new(server)),
            generation: AtomicU64::new(0),
            reinit: AsyncMutex::new(()),
            renewable: session.traits().renewable_session,
        }
    }

    pub(crate) fn server(&self) -> Arc<InitializeResult> {
        Arc::clone(&read(&self.server))
    }

    /// `subscriptions/listen` and the other methods added by 2026-07-28 are not here.
    pub(crate) fn refuse(&self, method: &str) -> Result<(), Error> {
        if method == methods::SUBSCRIPTIONS_LISTEN {
            return Err(Error::NotInRevision {
                method: method.to_owned(),
                revision: self.server().protocol_version.clone(),
            });
        }
        Ok(())
    }

    /// Send a request; when the HTTP session expired, initialize a fresh session and send
    /// it once more.
    pub(crate) async fn request(
        &self,
        cx: &Ctx<'_>,
        method: &str,
        params: Option<Box<RawValue>>,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        // Only such sessions expire: do not pay for a copy of the params elsewhere.
        let retry_params = self.renewable.then(|| params.clone()).flatten();
        self.request_renewing(cx, method, params, || Ok(retry_params), options)
            .await
    }

    /// [`request`](Self::request) with typed params: encoded again for the retry after
    /// an expired session, rather than copied for it on every request.
    pub(crate) async fn request_typed<P: Serialize + ?Sized>(
        &self,
        cx: &Ctx<'_>,
        method: &str,
        params: &P,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        let encoded = Some(crate::client::encode(params)?);
        let again = || crate::client::encode(params).map(Some);
        self.request_renewing(cx, method, encoded, again, options)
            .await
    }

    /// Send a request; when the HTTP session expired, initialize a fresh session and send
    /// it once more, with the params `again` makes.
    async fn request_renewing(
        &self,
        cx: &Ctx<'_>,
        method: &str,
        params: Option<Box<RawValue>>,
        again: impl FnOnce() -> Result<Option<Box<RawValue>>, Error>,
        options: &RequestOptions,
    ) -> Result<RawResult, Error> {
        let generation = self.generation.load(Ordering::Acquire);
        match cx.session.request(method, params, options.clone()).await {
            Err(e) if self.renewable && crate::error::session_expired(&e) => {
                // Boxed: rare, and inline it would weigh on every request's future.
                Box::pin(self.reinitialize(cx, generation)).await?;
                Ok(cx
                    .session
                    .request(method, again()?, options.clone())
                    .await?)
            }
            other => Ok(other?),
        }
    }

    async fn reinitialize(&self, cx: &Ctx<'_>, seen_generation: u64) -> Result<(), Error> {
        let _guard = self.reinit.lock().await;
        if self.generation.load(Ordering::Acquire) != seen_generation {
            return Ok(()); // another request already started a fresh session
        }
        tracing::info!(target: "mcp::client", "session expired; initializing a new session");
        let server = initialize(cx.session, cx.dispatcher.options()).await?;
        *write(&self.server) = Arc::new(server);
        cx.schemas.clear();
        self.generation.fetch_add(1, Ordering::AcqRel);
        Ok(())
    }

    /// `notifications/roots/list_changed`, when the client declared `roots.listChanged`.
    pub(crate) async fn roots_changed(&self, cx: &Ctx<'_>) -> Result<(), Error> {
        if cx.dispatcher.options().declares_roots() {
            cx.session.notify(methods::ROOTS_LIST_CHANGED, None).await?;
        }
        Ok(())
    }
}

/// The rules of a legacy revision on the wire: its version header, a session, cancellation
/// by notification, the server's requests answered.
fn rules(version: &str) -> WireRules {
    WireRules::new().with_protocol_version(version)
}

/// The handshake: `initialize`, the revision check, the transport set up for what follows
/// (Streamable HTTP: the protocol header, the GET stream), `notifications/initialized`.
pub(crate) async fn initialize(
    session: &Session,
    options: &ClientOptions,
) -> Result<InitializeResult, Error> {
    // A fresh session: no revision header until the server chose one.
    session.set_rules(WireRules::new());
    let params = InitializeRequestParams::new(
        options.protocol_version.clone(),
        options.capabilities(),
        options.client_info.clone(),
    );
    let params = mcp_types::to_raw(&params).map_err(|e| Error::invalid_argument(e.to_string()))?;
    let raw = session
        .request(
            methods::INITIALIZE,
            Some(params),
            options.startup_request_options(),
        )
        .await
        .map_err(|e| super::negotiate::explain_early_close(session, e))?;
    let result: InitializeResult = decode(methods::INITIALIZE, &raw)?;
    if !is_supported_version(&result.protocol_version) {
        // The schema says MUST disconnect; the caller closes the session.
        return Err(Error::UnsupportedProtocolVersion {
            version: result.protocol_version,
        });
    }
    session.negotiated(rules(&result.protocol_version)).await;
    session
        .notify(methods::INITIALIZED, None)
        .await
        .map_err(|e: SessionError| Error::from(e))?;
    tracing::debug!(
        target: "mcp::client",
        server = %result.server_info.name,
        version = %result.protocol_version,
        "initialized"
    );
    Ok(result)
}
