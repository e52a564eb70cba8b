//! Method routing: which handler answers which request.

use std::sync::Arc;

use mcp_types::{ErrorObject, RequestId};
use serde_json::{Value, json};

use crate::modern::{self, Meta};
use crate::options::Era;
use crate::server::{Core, Outcome};
use crate::sink::Sink;
use crate::{completion, lifecycle, logging, pagination, prompts, resources, skills, tools};

/// What a request handler may use: the session, the sink of this request's answers, and
/// the request's progress token.
#[derive(Debug)]
pub(crate) struct Ctx {
    pub(crate) core: Arc<Core>,
    pub(crate) sink: Sink,
    /// Where requests to the client go: `sink`, unless the front end routes them elsewhere.
    pub(crate) requests_sink: Sink,
    pub(crate) progress_token: Option<Value>,
    /// The request's id.
    pub(crate) request_id: RequestId,
    /// What a modern (2026-07-28) request declared in `_meta`; `None` in a legacy session.
    pub(crate) meta: Option<Meta>,
}

impl Ctx {
    pub(crate) fn new(
        core: Arc<Core>,
        sink: Sink,
        params: &Value,
        request_id: RequestId,
        meta: Option<Meta>,
    ) -> Self {
        let progress_token = params
            .pointer("/_meta/progressToken")
            .filter(|t| t.is_string() || t.is_i64() || t.is_u64())
            .cloned();
        let requests_sink = core
            .frontend
            .server_requests
            .clone()
            .unwrap_or_else(|| sink.clone());
        Self {
            core,
            sink,
            requests_sink,
            progress_token,
            request_id,
            meta,
        }
    }

    /// Whether the client declared the capability at `path`: in this request's `_meta`
    /// when it is modern, else in `initialize`.
    pub(crate) fn client_supports(&self, path: &[&str]) -> bool {
        match &self.meta {
            Some(meta) => self.core.options.ignore_client_capabilities || meta.supports(path),
            None => self.core.client_supports(path),
        }
    }
}

/// Answer one request.
pub(crate) async fn dispatch(ctx: &Ctx, method: &str, params: Value) -> Outcome {
    if ctx.meta.is_none() {
        return legacy(ctx, method, params).await;
    }
    let result = match method {
        "server/discover" => Ok(modern::discover::discover(&ctx.core.options)),
        "subscriptions/listen" => {
            if let Some(ms) = ctx.core.options.slow_listen {
                tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
            }
            return match ctx.core.listeners.open(&ctx.request_id, &params, &ctx.sink) {
                // Open until the client cancels it (or closes its stream).
                Ok(_registration) => std::future::pending().await,
                Err(e) => Outcome::Reply(Err(e)),
            };
        }
        _ => match legacy(ctx, method, params).await {
            Outcome::Reply(result) => result,
            Outcome::Silent => return Outcome::Silent,
        },
    };
    let result = result.map_err(|mut e| {
        // 2026-07-28 retired -32002 (resource not found) for -32602.
        if e.code == -32002 {
            e.code = mcp_types::error_codes::INVALID_PARAMS;
        }
        e
    });
    Outcome::Reply(result.map(|r| modern::finish(&ctx.core.options, r)))
}

/// The methods of the legacy revisions (and of both eras).
async fn legacy(ctx: &Ctx, method: &str, params: Value) -> Outcome {
    let gated = ctx.core.options.no_capabilities && !matches!(method, "initialize" | "ping");
    let result = match method {
        // With no capabilities declared, a strict server knows only the lifecycle methods.
        _ if gated => Err(ErrorObject::method_not_found(method)),
        "initialize" => lifecycle::initialize(&ctx.core, &params),
        "ping" => Ok(json!({})),
        "tools/list" => {
            let extra_tool = ctx.core.state().extra_tool;
            let mut definitions = tools::definitions(extra_tool);
            if ctx.core.options.era != Era::Legacy {
                definitions.extend(modern::tools::definitions());
                if ctx.core.options.invalid_header_tool {
                    definitions.push(modern::tools::invalid_header_tool());
                }
            }
            if ctx.core.options.gate_tools {
                definitions.retain(|t| {
                    t["name"]
                        .as_str()
                        .and_then(tools::capability_needed)
                        .is_none_or(|path| ctx.client_supports(path))
                });
            }
            if ctx.core.options.hide_test_tools {
                definitions.retain(|t| {
                    !t["name"]
                        .as_str()
                        .is_some_and(|n| tools::TEST_TOOLS.contains(&n))
                });
            }
            list(ctx, "tools", definitions, &params)
        }
        "tools/call" => tools::call(ctx, &params).await,
        "resources/list" => list(ctx, "resources", resources::list(), &params),
        "resources/templates/list" => {
            list(ctx, "resourceTemplates", resources::templates(), &params)
        }
        "resources/read" => resources::read(&params),
        "resources/subscribe" => resources::subscribe(&ctx.core, &params, true).inspect(|_| {
            if ctx.core.options.updated_on_subscribe {
                let uri = params.get("uri").cloned().unwrap_or(Value::Null);
                ctx.sink
                    .notification("notifications/resources/updated", &json!({"uri": uri}));
            }
        }),
        "resources/unsubscribe" => resources::subscribe(&ctx.core, &params, false),
        "tasks/get" if ctx.core.options.stuck_tasks => ctx.core.tasks.stuck(&params),
        "tasks/get" => ctx.core.tasks.get(&params),
        "tasks/result" => ctx.core.tasks.result(&params, &ctx.sink).await,
        "tasks/cancel" => ctx.core.tasks.cancel(&params),
        "tasks/list" => list(ctx, "tasks", ctx.core.tasks.list(), &params),
        "skills/list" => list(ctx, "skills", skills::list(), &params),
        "skills/get" => skills::get(&params),
        "prompts/list" => list(ctx, "prompts", prompts::list(), &params),
        "prompts/get" => prompts::get(&params),
        "completion/complete" => completion::complete(&params),
        "logging/setLevel" => logging::parse_set_level(&params).map(|level| {
            ctx.core.state().log_level = Some(level);
            json!({})
        }),
        _ => Err(ErrorObject::method_not_found(method)),
    };
    Outcome::Reply(result)
}

fn list(ctx: &Ctx, key: &str, items: Vec<Value>, params: &Value) -> Result<Value, ErrorObject> {
    let options = &ctx.core.options;
    let fault = (options
        .endless_pages
        .then_some(pagination::CursorFault::Endless))
    .or(options
        .repeat_cursor
        .then_some(pagination::CursorFault::Repeat));
    let (page, next) = match fault {
        Some(fault) => pagination::faulty_page(items, params, options.page_size, fault),
        None => pagination::page(items, params, options.page_size)?,
    };
    let mut result = json!({ key: page });
    if let Some(cursor) = next {
        result["nextCursor"] = json!(cursor);
    }
    Ok(result)
}
