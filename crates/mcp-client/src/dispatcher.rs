//! The client's side of the transport events: notifications go to subscribers, standard
//! server-to-client requests are answered, and a server's `notifications/cancelled` stops
//! the handler of the request it names and suppresses its reply.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use crate::SessionError;
use mcp_jsonrpc::{BoxFuture, CancelToken, ServerRequestOutcome, TransportHandler};
use mcp_types::{
    CancelledNotificationParams, ElicitRequestParams, ErrorObject, ListRootsResult, Notification,
    RawValue, Request, RequestId, Root, error_codes, methods,
    notifications::CANCELLED_NOTIFICATION,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::{broadcast, watch};

use crate::ServerNotification;
use crate::handlers::RequestContext;
use crate::options::ClientOptions;

/// How many notifications a slow subscriber may fall behind before it misses some.
const NOTIFICATION_BUFFER: usize = 1024;

/// Server requests being handled, by id, so the server can cancel them.
type InFlightServerRequests = Arc<Mutex<HashMap<RequestId, CancelToken>>>;

pub(crate) struct Dispatcher {
    options: ClientOptions,
    roots: RwLock<Vec<Root>>,
    notifications: broadcast::Sender<ServerNotification>,
    in_flight: InFlightServerRequests,
    closed: watch::Sender<bool>,
    /// The connection speaks 2026-07-28: servers send no requests, and the client sends no
    /// responses (input reaches it through multi round-trip results instead).
    modern: std::sync::atomic::AtomicBool,
    /// The session's request clocks, which a handler may hold while a person answers; set
    /// once the session is open.
    deadlines: std::sync::OnceLock<mcp_jsonrpc::Deadlines>,
}

impl Dispatcher {
    pub(crate) fn new(options: ClientOptions) -> Arc<Self> {
        let roots = options.roots.clone().unwrap_or_default();
        Arc::new(Self {
            options,
            roots: RwLock::new(roots),
            notifications: broadcast::channel(NOTIFICATION_BUFFER).0,
            in_flight: Arc::default(),
            closed: watch::channel(false).0,
            modern: std::sync::atomic::AtomicBool::new(false),
            deadlines: std::sync::OnceLock::new(),
        })
    }

    /// The session whose request clocks handlers may hold (see
    /// [`RequestContext::hold_timeouts`]).
    pub(crate) fn attach_deadlines(&self, deadlines: mcp_jsonrpc::Deadlines) {
        let _ = self.deadlines.set(deadlines);
    }

    pub(crate) fn options(&self) -> &ClientOptions {
        &self.options
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<ServerNotification> {
        self.notifications.subscribe()
    }

    pub(crate) fn closed(&self) -> watch::Receiver<bool> {
        self.closed.subscribe()
    }

    /// From now on, server requests go unanswered (2026-07-28).
    pub(crate) fn set_modern(&self) {
        self.modern
            .store(true, std::sync::atomic::Ordering::Release);
    }

    pub(crate) fn set_roots(&self, roots: Vec<Root>) {
        *self.roots.write().unwrap_or_else(|p| p.into_inner()) = roots;
    }

    fn roots(&self) -> Vec<Root> {
        self.roots.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The answer to a standard server request (also an MRTR input request at 2026-07-28).
    pub(crate) fn answer(
        &self,
        request: Request,
    ) -> BoxFuture<'static, Result<Box<RawValue>, ErrorObject>> {
        let id = request.id.clone();
        match request.method.as_str() {
            methods::PING => ready(Ok(mcp_types::empty_object())),
            methods::ROOTS_LIST => {
                let result = ListRootsResult::new(self.roots());
                ready(encode(&result))
            }
            methods::SAMPLING_CREATE_MESSAGE => {
                let Some(handler) = self.options.sampling.clone() else {
                    return ready(Err(ErrorObject::new(
                        error_codes::USER_REJECTED,
                        "Sampling declined: this client has no sampling handler",
                    )));
                };
                let params = match decode(request.params.as_deref()) {
                    Ok(p) => p,
                    Err(e) => return ready(Err(e)),
                };
                let context = self.context(id);
                Box::pin(async move { encode(&handler.create_message(params, context).await?) })
            }
            methods::ELICITATION_CREATE => {
                let Some((modes, handler)) = self.options.elicitation.clone() else {
                    return ready(encode(&mcp_types::ElicitResult::decline()));
                };
                let params: ElicitRequestParams = match decode(request.params.as_deref()) {
                    Ok(p) => p,
                    Err(e) => return ready(Err(e)),
                };
                let mode_ok = match &params {
                    ElicitRequestParams::Form(_) => modes.form,
                    ElicitRequestParams::Url(_) => modes.url,
                    _ => false,
                };
                if !mode_ok {
                    return ready(Err(ErrorObject::new(
                        error_codes::INVALID_PARAMS,
                        "Elicitation mode not supported by this client",
                    )));
                }
                let context = self.context(id);
                Box::pin(async move { encode(&handler.elicit(params, context).await?) })
            }
            other => ready(Err(ErrorObject::method_not_found(other))),
        }
    }

    fn context(&self, id: RequestId) -> RequestContext {
        let cancel = self
            .in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&id)
            .cloned()
            .unwrap_or_default();
        RequestContext {
            request_id: id,
            cancel,
            deadlines: self.deadlines.get().cloned().unwrap_or_default(),
        }
    }
}

fn ready<T: Send + 'static>(value: T) -> BoxFuture<'static, T> {
    Box::pin(std::future::ready(value))
}

fn encode<T: Serialize>(value: &T) -> Result<Box<RawValue>, ErrorObject> {
    mcp_types::to_raw(value)
        .map_err(|e| ErrorObject::new(error_codes::INTERNAL_ERROR, e.to_string()))
}

fn decode<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    serde_json::from_str(params.map_or("{}", RawValue::get))
        .map_err(|e| ErrorObject::new(error_codes::INVALID_PARAMS, format!("Invalid params: {e}")))
}

impl TransportHandler for Dispatcher {
    fn on_notification(&self, notification: Notification) {
        if notification.method == CANCELLED_NOTIFICATION {
            let cancelled = notification
                .params
                .as_deref()
                .and_then(|p| serde_json::from_str::<CancelledNotificationParams>(p.get()).ok());
            if let Some(CancelledNotificationParams {
                request_id: Some(id),
                reason,
                ..
            }) = cancelled
            {
                let token = self
                    .in_flight
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&id);
                if let Some(token) = token {
                    token.cancel(reason.unwrap_or_else(|| "cancelled by server".into()));
                }
            }
        }
        let notification = ServerNotification::new(notification.method, notification.params);
        if let Some(callback) = &self.options.on_notification {
            callback(&notification);
        }
        // No subscriber is not an error: the notification is simply not wanted.
        let _ = self.notifications.send(notification);
    }

    fn on_request(&self, request: Request) -> BoxFuture<'static, ServerRequestOutcome> {
        if self.modern.load(std::sync::atomic::Ordering::Acquire) {
            tracing::debug!(
                target: "mcp::client",
                method = %request.method,
                "server request ignored: revision 2026-07-28 has none"
            );
            return ready(ServerRequestOutcome::Suppressed);
        }
        let id = request.id.clone();
        let cancel = CancelToken::new();
        self.in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.clone(), cancel.clone());
        let answer = self.answer(request);
        let in_flight = Arc::clone(&self.in_flight);
        Box::pin(async move {
            let outcome = tokio::select! {
                result = answer => ServerRequestOutcome::Reply(result),
                () = cancel.cancelled() => ServerRequestOutcome::Suppressed,
            };
            in_flight
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&id);
            // A cancellation that raced with the answer still suppresses the reply.
            if cancel.is_cancelled() {
                ServerRequestOutcome::Suppressed
            } else {
                outcome
            }
        })
    }

    fn on_error(&self, error: &SessionError) {
        tracing::debug!(target: "mcp::client", error = %mcp_types::error_chain(error), "transport reported an error");
    }

    fn on_closed(&self) {
        for (_, token) in self
            .in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain()
        {
            token.cancel("connection closed");
        }
        self.closed.send_replace(true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ElicitationModes;
    use mcp_types::ElicitResult;

    fn request(method: &str, params: serde_json::Value) -> Request {
        Request::new(
            RequestId::Number(9),
            method,
            Some(mcp_types::to_raw(&params).unwrap()),
        )
    }

    async fn reply(dispatcher: &Dispatcher, req: Request) -> Result<Box<RawValue>, ErrorObject> {
        match dispatcher.on_request(req).await {
            ServerRequestOutcome::Reply(r) => r,
            other => panic!("expected a reply, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn undeclared_elicitation_mode_gets_invalid_params() {
        let handler =
            |_p: ElicitRequestParams, _c: RequestContext| async { Ok(ElicitResult::decline()) };
        let dispatcher = Dispatcher::new(
            ClientOptions::new("t", "0").with_elicitation(ElicitationModes::FORM, handler),
        );
        let url = request(
            "elicitation/create",
            serde_json::json!({"mode": "url", "message": "m", "url": "https://x", "elicitationId": "e1"}),
        );
        let err = reply(&dispatcher, url).await.unwrap_err();
        assert_eq!(err.code, error_codes::INVALID_PARAMS);
        // A request without `mode` is form mode, which is declared.
        let form = request(
            "elicitation/create",
            serde_json::json!({"message": "m", "requestedSchema": {"type": "object"}}),
        );
        assert!(
            reply(&dispatcher, form)
                .await
                .unwrap()
                .get()
                .contains("decline")
        );
    }

    #[tokio::test]
    async fn defaults_answer_ping_roots_and_refuse_the_rest() {
        let dispatcher = Dispatcher::new(ClientOptions::new("t", "0"));
        assert_eq!(
            reply(&dispatcher, request("ping", serde_json::json!({})))
                .await
                .unwrap()
                .get(),
            "{}"
        );
        assert_eq!(
            reply(&dispatcher, request("roots/list", serde_json::json!({})))
                .await
                .unwrap()
                .get(),
            r#"{"roots":[]}"#
        );
        let elicit = request(
            "elicitation/create",
            serde_json::json!({"message": "m", "requestedSchema": {}}),
        );
        assert!(
            reply(&dispatcher, elicit)
                .await
                .unwrap()
                .get()
                .contains("decline")
        );
        let sampling = reply(
            &dispatcher,
            request(
                "sampling/createMessage",
                serde_json::json!({"messages": [], "maxTokens": 1}),
            ),
        )
        .await;
        assert_eq!(sampling.unwrap_err().code, error_codes::USER_REJECTED);
        let unknown = reply(&dispatcher, request("tasks/get", serde_json::json!({}))).await;
        assert_eq!(unknown.unwrap_err().code, error_codes::METHOD_NOT_FOUND);
    }
}
