//! Tools that need nothing from the client.

use std::time::Duration;

use serde_json::{Value, json};

use super::{Args, CallError, CallResult, json_text, text_result};
use crate::dispatch::Ctx;
use crate::logging::{self, LogLevel};
use crate::modern::listen::Change;

/// Upper bound of `large`, so a typo cannot exhaust memory.
const MAX_LARGE_BYTES: u64 = 256 * 1024 * 1024;
/// Upper bound of `slow` and `sleep`, so a typo cannot park a test for days.
const MAX_WAIT_MS: u64 = 10 * 60 * 1000;
/// Upper bound of `slow`'s steps.
const MAX_STEPS: u64 = 10_000;

pub(super) fn add(args: &Args<'_>) -> CallResult {
    let (a, b) = (args.number("a")?, args.number("b")?);
    // Integers stay integers ("5", not "5.0") as long as they fit.
    let sum = match (a.as_i64(), b.as_i64()) {
        (Some(x), Some(y)) if x.checked_add(y).is_some() => json!(x + y),
        _ => json!(a.as_f64().unwrap_or(f64::NAN) + b.as_f64().unwrap_or(f64::NAN)),
    };
    Ok(text_result(&sum.to_string()))
}

fn wait_ms(args: &Args<'_>, name: &str, default: Option<u64>) -> Result<u64, CallError> {
    let ms = match default {
        Some(d) => args.opt_u64(name)?.unwrap_or(d),
        None => args.u64(name)?,
    };
    if ms > MAX_WAIT_MS {
        return Err(CallError::Tool(format!(
            "`{name}` is at most {MAX_WAIT_MS}"
        )));
    }
    Ok(ms)
}

/// Progress notifications go out only when the request carried a progress token: a
/// progress notification without one would be invalid.
pub(super) async fn slow(ctx: &Ctx, args: &Args<'_>) -> CallResult {
    let ms = wait_ms(args, "ms", Some(1000))?;
    let steps = args.opt_u64("steps")?.unwrap_or(5);
    let prefix = args.opt_str("message")?.unwrap_or_default();
    if steps > MAX_STEPS {
        return Err(CallError::Tool(format!("`steps` is at most {MAX_STEPS}")));
    }
    let pause = Duration::from_millis(ms) / u32::try_from(steps.max(1)).unwrap_or(1);
    for step in 1..=steps {
        tokio::time::sleep(pause).await;
        if let Some(token) = &ctx.progress_token {
            ctx.sink.notification(
                "notifications/progress",
                &json!({
                    "progressToken": token,
                    "progress": step,
                    "total": steps,
                    "message": format!("{prefix}step {step} of {steps}"),
                }),
            );
        }
    }
    if steps == 0 {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    Ok(text_result("done"))
}

/// Cancellation needs nothing here: the request's task stops at this await when the
/// client cancels (see `server::run_request`).
pub(super) async fn sleep(args: &Args<'_>) -> CallResult {
    let ms = wait_ms(args, "ms", None)?;
    tokio::time::sleep(Duration::from_millis(ms)).await;
    Ok(text_result("slept"))
}

pub(super) fn fail(args: &Args<'_>) -> CallResult {
    let message = args.opt_str("message")?.unwrap_or("failed");
    Err(CallError::Tool(message.to_owned()))
}

pub(super) fn structured(args: &Args<'_>) -> CallResult {
    let city = args.str("city")?;
    // Deterministic, so tests can assert the value.
    let temperature = 10.0 + (city.chars().count() % 20) as f64 + 0.5;
    let weather = json!({"temperature": temperature, "conditions": "sunny"});
    let mut result = json_text(&weather);
    result["structuredContent"] = weather;
    Ok(result)
}

pub(super) fn bad_structured() -> Value {
    // A string temperature and no conditions: two violations of the declared schema.
    let bad = json!({"temperature": "hot"});
    let mut result = json_text(&bad);
    result["structuredContent"] = bad;
    result
}

pub(super) fn large(args: &Args<'_>) -> CallResult {
    let bytes = args.u64("bytes")?;
    if bytes > MAX_LARGE_BYTES {
        return Err(CallError::Tool(format!(
            "`bytes` is at most {MAX_LARGE_BYTES}"
        )));
    }
    // `bytes` fits in usize: it is below MAX_LARGE_BYTES.
    Ok(text_result(&"x".repeat(bytes as usize)))
}

pub(super) fn log(ctx: &Ctx, args: &Args<'_>) -> CallResult {
    let level_name = args.str("level")?;
    let level = LogLevel::parse(level_name)
        .ok_or_else(|| CallError::Tool(format!("unknown log level {level_name:?}")))?;
    let message = args.str("message")?;
    let send = match &ctx.meta {
        // 2026-07-28: only a request that set `io.modelcontextprotocol/logLevel` gets logs.
        Some(meta) => meta.log_level.is_some_and(|min| level >= min),
        None => ctx.core.state().log_level.is_none_or(|min| level >= min),
    };
    if send {
        ctx.sink.notification(
            "notifications/message",
            &logging::message_params(level, message, args.opt_str("logger")?),
        );
    }
    Ok(text_result("logged"))
}

pub(super) fn change_tools(ctx: &Ctx) -> Value {
    ctx.core.state().extra_tool = true;
    if ctx.meta.is_some() {
        ctx.core.listeners.notify(Change::ToolsList);
    } else {
        ctx.sink
            .notification("notifications/tools/list_changed", &json!({}));
    }
    text_result("tools changed: extra_tool added")
}

pub(super) fn has_extra_tool(ctx: &Ctx) -> bool {
    ctx.core.state().extra_tool
}

pub(super) fn touch(ctx: &Ctx, args: &Args<'_>) -> CallResult {
    let uri = args.str("uri")?;
    if ctx.meta.is_some() {
        return Ok(match ctx.core.listeners.notify(Change::Updated(uri)) {
            0 => text_result(&format!("not subscribed: {uri}")),
            _ => text_result("updated"),
        });
    }
    let subscribed = ctx.core.state().subscriptions.contains(uri);
    if !subscribed {
        return Ok(text_result(&format!("not subscribed: {uri}")));
    }
    ctx.sink
        .notification("notifications/resources/updated", &json!({"uri": uri}));
    Ok(text_result("updated"))
}

pub(super) fn cancellations(ctx: &Ctx) -> Value {
    let list = ctx.core.state().cancellations.clone();
    json_text(&Value::Array(list))
}

pub(super) fn server_log(ctx: &Ctx) -> Value {
    let methods = ctx.core.state().methods.clone();
    json_text(&json!(methods))
}

pub(super) fn http_log(ctx: &Ctx) -> CallResult {
    match &ctx.core.frontend.request_log {
        Some(log) => Ok(json_text(&log.to_json())),
        None => Err(CallError::Tool(
            "no HTTP request log: the server is not serving HTTP".to_owned(),
        )),
    }
}

pub(super) fn crash(args: &Args<'_>) -> CallResult {
    let code = args.opt_i64("code")?.unwrap_or(1);
    let code = i32::try_from(code).map_err(|_| CallError::Tool("`code` must fit in i32".into()))?;
    eprintln!("mcp-test-server: crashing with exit code {code}, as asked");
    std::process::exit(code)
}
