//! `form`: a form with every field type of the specification's elicitation schema, its
//! fields deliberately out of alphabetical order, written on the wire exactly as below (a
//! JSON map would sort them), so a client can be checked to ask them in the schema's order.

use mcp_types::{RawValue, V2025_11_25};
use serde_json::{Value, json};

use super::{Args, CallError, CallResult, json_text};
use crate::dispatch::Ctx;

/// `requestedSchema`: a string with a title, length bounds and a default; strings with
/// each `format`; an integer with bounds; a number with a default; a boolean; single
/// selects untitled (`enum`), titled (`oneOf`) and legacy-titled (`enumNames`); multi
/// selects untitled (`items.enum`) and titled (`items.anyOf`) with item bounds.
pub(crate) const EVERY_FIELD: &str = r##"{"type":"object","properties":{"name":{"type":"string","title":"Your name","description":"What to call you.","minLength":2,"default":"Ann"},"email":{"type":"string","format":"email","description":"Where to write."},"age":{"type":"integer","minimum":0,"maximum":150},"score":{"type":"number","default":2.5},"subscribe":{"type":"boolean","title":"Subscribe","default":true},"size":{"type":"string","enum":["s","m","l"],"default":"m"},"colour":{"type":"string","title":"Colour","oneOf":[{"const":"#f00","title":"Red"},{"const":"#00f","title":"Blue"}]},"legacy":{"type":"string","enum":["a","b"],"enumNames":["Option A","Option B"]},"fish":{"type":"array","title":"Fish","items":{"type":"string","enum":["fish-1","fish-2","fish-3"]},"minItems":1,"maxItems":2},"toppings":{"type":"array","items":{"anyOf":[{"const":"ham","title":"Ham"},{"const":"egg","title":"Egg"}]},"default":["egg"]},"born":{"type":"string","format":"date"},"meeting":{"type":"string","format":"date-time"},"site":{"type":"string","format":"uri"}},"required":["name","email","fish"]}"##;

pub(super) async fn form(ctx: &Ctx, args: &Args<'_>) -> CallResult {
    let message = args.opt_str("message")?.unwrap_or("Tell us about you.");
    super::client::require(ctx, &["elicitation"], "elicitation")?;
    // `mode` exists from 2025-11-25 on; older clients would not expect it.
    let mode = if ctx.core.state().protocol_version.as_deref() == Some(V2025_11_25) {
        r#""mode":"form","#
    } else {
        ""
    };
    let text = format!(
        r#"{{{mode}"message":{},"requestedSchema":{EVERY_FIELD}}}"#,
        Value::String(message.to_owned())
    );
    let params = RawValue::from_string(text)
        .map_err(|e| CallError::Tool(format!("the form does not encode: {e}")))?;
    let method = "elicitation/create";
    let mut outstanding = ctx
        .core
        .client_requests
        .send_raw(&ctx.requests_sink, method, &params);
    match outstanding.answer().await {
        Ok(result) => Ok(json_text(&json!({
            "action": result.get("action").cloned().unwrap_or(Value::Null),
            "content": result.get("content").cloned().unwrap_or(Value::Null),
        }))),
        Err(e) => Err(CallError::Tool(format!("{method} failed: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_form_is_valid_json_and_out_of_alphabetical_order() {
        let schema: serde_json::Value = serde_json::from_str(super::EVERY_FIELD).unwrap();
        assert_eq!(schema["properties"].as_object().unwrap().len(), 13);
        let at = |key: &str| super::EVERY_FIELD.find(&format!("\"{key}\":")).unwrap();
        assert!(at("name") < at("email") && at("email") < at("age"));
    }
}
