//! Tools: the catalogue, the call router and the shape of a tool's answer.
//!
//! A tool that cannot do its job answers with `isError: true` (the model can read that);
//! only an unknown tool or malformed `tools/call` params are protocol errors (-32602).

mod catalog;
mod client;
mod form;
mod local;
mod task;

use mcp_types::{ErrorObject, error_codes};
use serde_json::{Map, Value, json};

use crate::dispatch::Ctx;

pub(crate) use catalog::{TEST_TOOLS, capability_needed, definitions};
pub(crate) use task::definitions as task_definitions;

/// Why a tool call did not produce a normal result.
#[derive(Debug)]
pub(crate) enum CallError {
    /// A tool execution error, answered as a result with `isError: true`.
    Tool(String),
    /// A protocol error, answered as a JSON-RPC error.
    Protocol(ErrorObject),
}

pub(crate) type CallResult = Result<Value, CallError>;

/// `tools/call`.
pub(crate) async fn call(ctx: &Ctx, params: &Value) -> Result<Value, ErrorObject> {
    let name = params.get("name").and_then(Value::as_str).ok_or_else(|| {
        ErrorObject::new(
            error_codes::INVALID_PARAMS,
            "Invalid params: name (string) is required",
        )
    })?;
    let empty = Map::new();
    let args = match params.get("arguments") {
        None | Some(Value::Null) => Args(&empty),
        Some(Value::Object(map)) => Args(map),
        Some(_) => {
            return Err(ErrorObject::new(
                error_codes::INVALID_PARAMS,
                "Invalid params: arguments must be an object",
            ));
        }
    };
    if let Some(answer) = task::route(ctx, name, args.0, params).await {
        return answer;
    }
    if let Some(answer) = modern_tool(ctx, name, args.0, params) {
        return answer;
    }
    let outcome = match name {
        "echo" => args.str("text").map(text_result),
        "add" => local::add(&args),
        "slow" => local::slow(ctx, &args).await,
        "sleep" => local::sleep(&args).await,
        "fail" => local::fail(&args),
        "structured" => local::structured(&args),
        "bad_structured" => Ok(local::bad_structured()),
        "large" => local::large(&args),
        "sample" => client::sample(ctx, &args).await,
        "elicit" => client::elicit(ctx, &args).await,
        "elicit_url" => client::elicit_url(ctx, &args).await,
        "form" => form::form(ctx, &args).await,
        "roots" => client::roots(ctx).await,
        "log" => local::log(ctx, &args),
        "change_tools" => Ok(local::change_tools(ctx)),
        "touch" => local::touch(ctx, &args),
        "cancellations" => Ok(local::cancellations(ctx)),
        "server_log" => Ok(local::server_log(ctx)),
        "http_log" => local::http_log(ctx),
        "cancel_own_request" => client::cancel_own_request(ctx, &args).await,
        "crash" => local::crash(&args),
        "child_pid" => match &ctx.core.child {
            Some(child) => Ok(text_result(&child.pid().to_string())),
            None => Err(CallError::Tool(
                "no child process: start the server with --spawn-child".to_owned(),
            )),
        },
        "extra_tool" if local::has_extra_tool(ctx) => Ok(text_result("extra")),
        _ => Err(CallError::Protocol(ErrorObject::new(
            error_codes::INVALID_PARAMS,
            format!("Unknown tool: {name}"),
        ))),
    };
    match outcome {
        Ok(result) => Ok(result),
        Err(CallError::Tool(message)) => Ok(tool_error(&message)),
        Err(CallError::Protocol(error)) => Err(error),
    }
}

/// The tools of revision 2026-07-28, and the legacy tools that cannot work there (they
/// send requests to the client, which 2026-07-28 replaced by multi round-trip input).
fn modern_tool(
    ctx: &Ctx,
    name: &str,
    args: &Map<String, Value>,
    params: &Value,
) -> Option<Result<Value, ErrorObject>> {
    if ctx.core.options.era == crate::options::Era::Legacy {
        return None;
    }
    let needs_modern = || {
        Ok(tool_error(&format!(
            "{name} needs revision 2026-07-28; this session speaks a legacy revision"
        )))
    };
    match (name, &ctx.meta) {
        ("mrtr", Some(meta)) => {
            let flood = ctx.core.options.input_request_flood.unwrap_or(0);
            Some(crate::modern::mrtr::call(meta, params, args, flood))
        }
        ("mrtr", None) => Some(needs_modern()),
        ("header_params", _) => Some(Ok(crate::modern::tools::header_params(args))),
        ("bad_header", _) if ctx.core.options.invalid_header_tool => {
            Some(Ok(crate::modern::tools::bad_header()))
        }
        ("schema_features", _) => Some(Ok(crate::modern::tools::schema_features(args))),
        ("sample" | "elicit" | "elicit_url" | "form" | "roots" | "cancel_own_request", Some(_)) => {
            Some(Ok(tool_error(&format!(
                "{name} sends a request to the client, which revision 2026-07-28 does not \
                 allow: call the mrtr tool instead"
            ))))
        }
        _ => None,
    }
}

/// A result with one text block.
pub(crate) fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

/// A result with one text block holding `value` as JSON.
pub(crate) fn json_text(value: &Value) -> Value {
    text_result(&value.to_string())
}

/// A tool execution error.
fn tool_error(message: &str) -> Value {
    json!({"content": [{"type": "text", "text": message}], "isError": true})
}

/// A tool's `arguments`, with typed getters whose failures are tool errors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Args<'a>(&'a Map<String, Value>);

impl<'a> Args<'a> {
    fn wrong(name: &str, kind: &str) -> CallError {
        CallError::Tool(format!("argument `{name}` must be {kind}"))
    }

    /// A required string.
    pub(crate) fn str(&self, name: &str) -> Result<&'a str, CallError> {
        self.opt_str(name)?
            .ok_or_else(|| Self::wrong(name, "a string"))
    }

    /// An optional string.
    pub(crate) fn opt_str(&self, name: &str) -> Result<Option<&'a str>, CallError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(Self::wrong(name, "a string")),
        }
    }

    /// An optional non-negative integer.
    pub(crate) fn opt_u64(&self, name: &str) -> Result<Option<u64>, CallError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| Self::wrong(name, "a non-negative integer")),
        }
    }

    /// A required non-negative integer.
    pub(crate) fn u64(&self, name: &str) -> Result<u64, CallError> {
        self.opt_u64(name)?
            .ok_or_else(|| Self::wrong(name, "a non-negative integer"))
    }

    /// A required number.
    pub(crate) fn number(&self, name: &str) -> Result<&'a serde_json::Number, CallError> {
        match self.0.get(name) {
            Some(Value::Number(n)) => Ok(n),
            _ => Err(Self::wrong(name, "a number")),
        }
    }

    /// An optional integer (any sign).
    pub(crate) fn opt_i64(&self, name: &str) -> Result<Option<i64>, CallError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_i64()
                .map(Some)
                .ok_or_else(|| Self::wrong(name, "an integer")),
        }
    }
}
