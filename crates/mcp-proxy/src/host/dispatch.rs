//! Each request of the host, to where it goes: the handshake; the lists, from what the
//! manager holds for every server; a call, prompt, resource or completion, to the server
//! its name or URI belongs to; anything else, to a transparent proxy's one server as it
//! is.

use std::sync::Arc;

use mcp_jsonrpc::{CancelToken, RequestOptions};
use mcp_types::{
    CallToolRequestParams, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, LoggingLevel, RawValue, Request, methods,
};
use serde_json::{Value, json};

use super::Host;
use super::calls::Call;
use super::modern;
use crate::reply::{self, Answer};
use crate::upstream::Upstreams;

impl Host {
    /// The answer to one request of the host.
    pub(super) async fn dispatch(
        self: &Arc<Self>,
        request: Request,
        cancel: CancelToken,
    ) -> Answer {
        let Request {
            id, method, params, ..
        } = request;
        let _ = cancel; // The session stops this task when the host cancels.
        let meta = match modern::meta_of(params.as_deref()) {
            Some(Ok(meta)) => Some(meta),
            Some(Err(error)) => return Err(error),
            None => None,
        };
        let is_modern = meta.is_some();
        // The handshakes are boxed where awaited: inline they would size the future of
        // every request (docs/performance.md, issue 26).
        let answer = match method.as_str() {
            methods::INITIALIZE if !is_modern => Box::pin(self.initialize(params.as_deref())).await,
            methods::SERVER_DISCOVER => Box::pin(self.discover(meta)).await,
            _ => {
                let call = Call::new(id, method.clone(), params.as_deref(), meta)?;
                self.request(call).await
            }
        };
        if is_modern {
            let info = serde_json::to_value(self.server_info()).unwrap_or_default();
            answer.map(|result| modern::finish(&method, result, &info))
        } else {
            answer
        }
    }

    /// Who answers, as the host is told in results at 2026-07-28.
    fn server_info(&self) -> mcp_types::Implementation {
        match self.core.started() {
            Some(upstreams) => upstreams.server_info(&self.core.options.server_info),
            None => self.core.options.server_info.clone(),
        }
    }

    /// A request after the handshake.
    async fn request(self: &Arc<Self>, call: Call) -> Answer {
        let upstreams = match (&call.modern, self.core.started()) {
            (Some(meta), _) => self.start_modern(&meta.capabilities).await,
            (None, Some(upstreams)) => Arc::clone(upstreams),
            // The handshake is under way (the host did not wait for its answer): the
            // servers it is starting.
            (None, None) if self.era().is_some() => match self.core.wait_started().await {
                Some(upstreams) => upstreams,
                None => return Err(reply::internal("the servers did not start")),
            },
            (None, None) => {
                return Err(reply::invalid_params(
                    "the first request must be initialize (or, at 2026-07-28, carry _meta)",
                ));
            }
        };
        match call.method.as_str() {
            methods::PING => reply::encode(&json!({})),
            methods::TOOLS_LIST => reply::encode(&ListToolsResult::new(upstreams.tools())),
            methods::PROMPTS_LIST => reply::encode(&ListPromptsResult::new(upstreams.prompts())),
            methods::RESOURCES_LIST => {
                reply::encode(&ListResourcesResult::new(upstreams.resources()))
            }
            // Each method's future is boxed where awaited but `tools/call`'s: the future of
            // every request is as large as its largest branch (7.9 KB with them inline).
            methods::RESOURCES_TEMPLATES_LIST => reply::encode(&ListResourceTemplatesResult::new(
                Box::pin(upstreams.resource_templates()).await?,
            )),
            methods::TOOLS_CALL => self.call_tool(&upstreams, &call).await,
            methods::PROMPTS_GET => {
                let name = call.text("name").unwrap_or_default().to_owned();
                let (server, original) = upstreams.prompt_target(&name)?;
                Box::pin(self.pass(&upstreams, &server, call, |p| {
                    p.insert("name".into(), Value::String(original))
                }))
                .await
            }
            methods::RESOURCES_READ => {
                let uri = call.text("uri").unwrap_or_default().to_owned();
                let server = Box::pin(upstreams.resource_target(&uri)).await?;
                Box::pin(self.pass(&upstreams, &server, call, |_| None)).await
            }
            methods::COMPLETION_COMPLETE => Box::pin(self.complete(&upstreams, call)).await,
            methods::RESOURCES_SUBSCRIBE | methods::RESOURCES_UNSUBSCRIBE => {
                Box::pin(self.subscription(&upstreams, &call)).await
            }
            methods::LOGGING_SET_LEVEL => Box::pin(self.set_level(&upstreams, &call)).await,
            methods::SUBSCRIPTIONS_LISTEN if call.modern.is_some() => {
                Box::pin(self.listen(&upstreams, &call)).await
            }
            _ => match upstreams.only() {
                // One server: whatever else it understands, it answers.
                Some(server) => {
                    let server = server.to_owned();
                    Box::pin(self.pass(&upstreams, &server, call, |_| None)).await
                }
                None => Err(reply::method_not_found(&call.method)),
            },
        }
    }

    /// `tools/call`, through the manager (which waits for a server that reconnects, and
    /// retries once a call that lost its connection).
    async fn call_tool(self: &Arc<Self>, upstreams: &Arc<Upstreams>, call: &Call) -> Answer {
        let mut params: CallToolRequestParams =
            serde_json::from_value(Value::Object(call.params.clone()))
                .map_err(|e| reply::invalid_params(e.to_string()))?;
        let (server, tool) = upstreams.tool_target(&params.name)?;
        params.name = tool;
        // A task the proxy runs to completion itself: the host gets the result.
        params.task = None;
        let upstreams = Arc::clone(upstreams);
        self.forward(call, move |options| async move {
            match upstreams
                .manager()
                .call_server_tool(&server, params, options)
                .await
            {
                Ok(result) => reply::encode(&result),
                Err(e) => Err(upstreams.error(&server, &e)),
            }
        })
        .await
    }

    /// Send `call` to `server` as it is, after `amend` changed its params.
    async fn pass(
        self: &Arc<Self>,
        upstreams: &Arc<Upstreams>,
        server: &str,
        mut call: Call,
        amend: impl FnOnce(&mut serde_json::Map<String, Value>) -> Option<Value>,
    ) -> Answer {
        amend(&mut call.params);
        let client = upstreams
            .client(server)
            .await
            .map_err(|e| upstreams.error(server, &e))?;
        let params = call.raw_params()?;
        let method = call.method.clone();
        let server = server.to_owned();
        let upstreams = Arc::clone(upstreams);
        self.forward(&call, move |options: RequestOptions| async move {
            match client.request_raw(&method, params, options).await {
                Ok(raw) => RawValue::from_string(raw.get().to_owned())
                    .map_err(|e| reply::internal(format!("the server's result: {e}"))),
                Err(e) => Err(upstreams.client_error(&server, &e)),
            }
        })
        .await
    }

    /// `completion/complete`, to the server of the prompt or resource it is about.
    async fn complete(self: &Arc<Self>, upstreams: &Arc<Upstreams>, call: Call) -> Answer {
        let reference = call.params.get("ref").cloned().unwrap_or_default();
        let kind = reference
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let server = match kind {
            "ref/prompt" => {
                let name = reference
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let (server, original) = upstreams.prompt_target(name)?;
                let mut call = call;
                if let Some(Value::Object(r)) = call.params.get_mut("ref") {
                    r.insert("name".into(), Value::String(original));
                }
                return self.pass(upstreams, &server, call, |_| None).await;
            }
            "ref/resource" => {
                let uri = reference
                    .get("uri")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                upstreams.resource_target(uri).await?
            }
            other => {
                return Err(reply::invalid_params(format!(
                    "unknown completion reference {other:?}"
                )));
            }
        };
        self.pass(upstreams, &server, call, |_| None).await
    }

    /// `resources/subscribe` and `unsubscribe`, through the manager (which subscribes again
    /// after a reconnect).
    async fn subscription(&self, upstreams: &Arc<Upstreams>, call: &Call) -> Answer {
        let uri = call
            .text("uri")
            .ok_or_else(|| reply::invalid_params("uri is required"))?
            .to_owned();
        let server = upstreams.resource_target(&uri).await?;
        let result = if call.method == methods::RESOURCES_SUBSCRIBE {
            upstreams.manager().subscribe_resource(&server, &uri).await
        } else {
            upstreams
                .manager()
                .unsubscribe_resource(&server, &uri)
                .await
        };
        result.map_err(|e| upstreams.error(&server, &e))?;
        reply::encode(&json!({}))
    }

    /// `logging/setLevel`: to every connected server that logs (a 2026-07-28 server has no
    /// such request; it is left as it is).
    async fn set_level(&self, upstreams: &Arc<Upstreams>, call: &Call) -> Answer {
        let level: LoggingLevel =
            serde_json::from_value(call.params.get("level").cloned().unwrap_or(Value::Null))
                .map_err(|e| reply::invalid_params(e.to_string()))?;
        for server in upstreams.available() {
            let Ok(client) = upstreams.client(&server).await else {
                continue;
            };
            if client.server_capabilities().logging.is_none()
                || client.era() == mcp_types::Era::Modern
            {
                continue;
            }
            if let Err(e) = client.set_logging_level(level).await {
                if upstreams.only().is_some() {
                    return Err(upstreams.client_error(&server, &e));
                }
                tracing::warn!(target: "mcp::proxy", %server, error = %crate::reply::cause(&e), "could not set the log level");
            }
        }
        reply::encode(&json!({}))
    }
}
