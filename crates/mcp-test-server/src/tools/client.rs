//! Tools that ask the client something: sampling, elicitation, roots.
//!
//! Each checks the capability the client declared first (unless
//! `--ignore-client-capabilities`): a well-behaved server never sends a request the client
//! said it cannot answer.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_types::{ErrorObject, V2025_11_25};
use serde_json::{Value, json};

use super::{Args, CallError, CallResult, json_text, text_result};
use crate::dispatch::Ctx;

/// How long `cancel_own_request` keeps listening for a reply after cancelling.
const AFTER_CANCEL_WAIT: Duration = Duration::from_millis(300);

pub(super) fn require(ctx: &Ctx, path: &[&str], what: &str) -> Result<(), CallError> {
    if ctx.client_supports(path) {
        Ok(())
    } else {
        Err(CallError::Tool(format!(
            "the client did not declare the {what} capability"
        )))
    }
}

async fn ask(ctx: &Ctx, method: &str, params: &Value) -> Result<Value, ErrorObject> {
    let mut outstanding = ctx
        .core
        .client_requests
        .send(&ctx.requests_sink, method, params);
    outstanding.answer().await
}

fn client_failed(method: &str, error: &ErrorObject) -> CallError {
    CallError::Tool(format!("{method} failed: {error}"))
}

fn sampling_params(prompt: &str) -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
        "maxTokens": 100,
    })
}

/// The text of a `CreateMessageResult`: its content is one block, or (2025-11-25, sampling
/// with tools) an array of blocks.
fn sampled_text(result: &Value) -> String {
    let content = &result["content"];
    let blocks: Vec<&Value> = match content {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    blocks
        .iter()
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("")
}

pub(super) async fn sample(ctx: &Ctx, args: &Args<'_>) -> CallResult {
    let prompt = args.str("prompt")?;
    require(ctx, &["sampling"], "sampling")?;
    let method = "sampling/createMessage";
    match ask(ctx, method, &sampling_params(prompt)).await {
        Ok(result) => Ok(text_result(&sampled_text(&result))),
        Err(e) => Err(client_failed(method, &e)),
    }
}

pub(super) async fn elicit(ctx: &Ctx, args: &Args<'_>) -> CallResult {
    let message = args.opt_str("message")?.unwrap_or("What is your name?");
    require(ctx, &["elicitation"], "elicitation")?;
    let mut params = json!({
        "message": message,
        "requestedSchema": {
            "type": "object",
            "properties": {"name": {"type": "string", "description": "Your name."}},
            "required": ["name"],
        },
    });
    // `mode` exists from 2025-11-25 on; older clients would not expect it.
    if ctx.core.state().protocol_version.as_deref() == Some(V2025_11_25) {
        params["mode"] = json!("form");
    }
    let method = "elicitation/create";
    match ask(ctx, method, &params).await {
        Ok(result) => Ok(json_text(&json!({
            "action": result.get("action").cloned().unwrap_or(Value::Null),
            "content": result.get("content").cloned().unwrap_or(Value::Null),
        }))),
        Err(e) => Err(client_failed(method, &e)),
    }
}

pub(super) async fn elicit_url(ctx: &Ctx, args: &Args<'_>) -> CallResult {
    static NEXT_ELICITATION: AtomicU64 = AtomicU64::new(1);
    let url = args.str("url")?;
    let message = args
        .opt_str("message")?
        .unwrap_or("Please open this link to continue.");
    require(ctx, &["elicitation", "url"], "elicitation.url")?;
    let elicitation_id = format!(
        "elicitation-{}",
        NEXT_ELICITATION.fetch_add(1, Ordering::Relaxed)
    );
    let params = json!({
        "mode": "url",
        "elicitationId": elicitation_id,
        "url": url,
        "message": message,
    });
    let method = "elicitation/create";
    let result = ask(ctx, method, &params)
        .await
        .map_err(|e| client_failed(method, &e))?;
    let action = result.get("action").cloned().unwrap_or(Value::Null);
    if action == "accept" {
        // The out-of-band step "completes" at once here; tell the client, as the spec allows.
        ctx.sink.notification(
            "notifications/elicitation/complete",
            &json!({"elicitationId": elicitation_id}),
        );
    }
    Ok(json_text(
        &json!({"action": action, "elicitationId": elicitation_id}),
    ))
}

pub(super) async fn roots(ctx: &Ctx) -> CallResult {
    require(ctx, &["roots"], "roots")?;
    let method = "roots/list";
    let result = ask(ctx, method, &json!({}))
        .await
        .map_err(|e| client_failed(method, &e))?;
    Ok(json_text(result.get("roots").unwrap_or(&Value::Null)))
}

/// Send a sampling request, cancel it after `delay_ms`, and report whether the client
/// answered the cancelled request anyway (it must not).
pub(super) async fn cancel_own_request(ctx: &Ctx, args: &Args<'_>) -> CallResult {
    let delay = Duration::from_millis(args.u64("delay_ms")?.min(60_000));
    require(ctx, &["sampling"], "sampling")?;
    let mut outstanding = ctx.core.client_requests.send(
        &ctx.requests_sink,
        "sampling/createMessage",
        &sampling_params("This request will be cancelled."),
    );
    if let Ok(answer) = tokio::time::timeout(delay, outstanding.answer()).await {
        // The client was quicker than the delay: nothing left to cancel.
        return Ok(json_text(&json!({
            "reply_received": true,
            "cancelled": false,
            "error": answer.err().map(|e| e.to_string()),
        })));
    }
    outstanding.cancel();
    let id = outstanding.id().clone();
    // On the stream that carried the request, so the client sees them in order.
    ctx.requests_sink.notification(
        "notifications/cancelled",
        &json!({"requestId": id, "reason": "cancelled by the cancel_own_request tool"}),
    );
    tokio::time::sleep(AFTER_CANCEL_WAIT).await;
    let replied = ctx.core.client_requests.replied_after_cancel(&id);
    Ok(json_text(
        &json!({"reply_received": replied, "cancelled": true}),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampled_text_reads_one_block_or_many() {
        assert_eq!(
            sampled_text(&json!({"role": "assistant", "content": {"type": "text", "text": "hi"}})),
            "hi"
        );
        assert_eq!(
            sampled_text(
                &json!({"content": [{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]})
            ),
            "ab"
        );
    }
}
