//! The client's side of the session's events: notifications go to subscribers, standard
//! server-to-client requests are answered. (A server's `notifications/cancelled` is the
//! session's: it cancels the handler's token, stops its task and sends no reply.)

use std::sync::{Arc, RwLock};

use crate::SessionError;
use mcp_jsonrpc::{BoxFuture, CancelToken, ServerRequestOutcome, TransportHandler};
use mcp_types::sync::{read, write};
use mcp_types::{
    ElicitRequestParams, ErrorObject, ListRootsResult, Notification, RawValue, Request, RequestId,
    Root, error_codes, methods,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::{broadcast, watch};

use crate::ServerNotification;
use crate::handlers::RequestContext;
use crate::options::ClientOptions;

/// How many notifications a slow subscriber may fall behind before it misses some.
const NOTIFICATION_BUFFER: usize = 1024;

pub(crate) struct Dispatcher {
    options: ClientOptions,
    roots: RwLock<Vec<Root>>,
    notifications: broadcast::Sender<ServerNotification>,
    closed: watch::Sender<bool>,
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
            closed: watch::channel(false).0,
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

    pub(crate) fn set_roots(&self, roots: Vec<Root>) {
        *write(&self.roots) = roots;
    }

    fn roots(&self) -> Vec<Root> {
        read(&self.roots).clone()
    }

    /// The answer to a standard server request (also an MRTR input request at 2026-07-28);
    /// `cancel` says when the server no longer wants it.
    pub(crate) fn answer(
        &self,
        request: Request,
        cancel: CancelToken,
    ) -> BoxFuture<'static, Result<Box<RawValue>, ErrorObject>> {
        let id = request.id.clone();
        match request.method.as_str() {
            methods::PING => ready(Ok(mcp_types::empty_object())),
            methods::ROOTS_LIST => {
                if let Some(handler) = self.options.roots_handler.clone() {
                    let context = self.context(id, cancel);
                    return Box::pin(async move { encode(&handler.list_roots(context).await?) });
                }
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
                let context = self.context(id, cancel);
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
                let context = self.context(id, cancel);
                Box::pin(async move { encode(&handler.elicit(params, context).await?) })
            }
            other => ready(Err(ErrorObject::method_not_found(other))),
        }
    }

    /// What a handler learns of the request it answers.
    fn context(&self, request_id: RequestId, cancel: CancelToken) -> RequestContext {
        RequestContext {
            request_id,
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
        let notification = ServerNotification::new(notification.method, notification.params);
        if let Some(callback) = &self.options.on_notification {
            callback(&notification);
        }
        // No subscriber is not an error: the notification is simply not wanted.
        let _ = self.notifications.send(notification);
    }

    fn on_request(
        &self,
        request: Request,
        cancel: CancelToken,
    ) -> BoxFuture<'static, ServerRequestOutcome> {
        let answer = self.answer(request, cancel.clone());
        Box::pin(async move {
            let outcome = tokio::select! {
                result = answer => ServerRequestOutcome::Reply(result),
                () = cancel.cancelled() => ServerRequestOutcome::Suppressed,
            };
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
            mcp_types::RequestId::Number(9),
            method,
            Some(mcp_types::to_raw(&params).unwrap()),
        )
    }

    async fn reply(dispatcher: &Dispatcher, req: Request) -> Result<Box<RawValue>, ErrorObject> {
        match dispatcher.on_request(req, CancelToken::new()).await {
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
    async fn a_roots_handler_answers_roots_list_and_declares_roots() {
        let handler = |_c: RequestContext| async {
            Ok(ListRootsResult::new(vec![
                Root::new("file:///asked").unwrap(),
            ]))
        };
        let options = ClientOptions::new("t", "0").with_roots_handler(handler);
        assert_eq!(
            options.capabilities().roots.unwrap().list_changed,
            Some(true)
        );
        let dispatcher = Dispatcher::new(options);
        let roots = reply(&dispatcher, request("roots/list", serde_json::json!({})))
            .await
            .unwrap();
        assert_eq!(roots.get(), r#"{"roots":[{"uri":"file:///asked"}]}"#);
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
