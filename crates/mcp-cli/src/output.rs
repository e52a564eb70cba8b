//! Rendering results as readable text (the default) or as JSON (`--json`).

use std::fmt::Write as _;

use mcp_types::{
    CallToolResult, ContentBlock, GetPromptResult, Prompt, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, Tool,
};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// What a command produced: both renderings, so `--json` and `shell` pick one.
#[derive(Debug)]
pub(crate) struct Outcome {
    /// The `--json` document.
    pub json: Json,
    /// The readable text (ends with a newline unless empty).
    pub text: String,
}

impl Outcome {
    /// One server's answer.
    pub(crate) fn server(server: &str, result: Box<RawValue>, text: String) -> Self {
        Self {
            json: Json::Server(Entry::result(server, result)),
            text,
        }
    }

    /// One server's answer, with more than its result.
    pub(crate) fn entry(entry: Entry, text: String) -> Self {
        Self {
            json: Json::Server(entry),
            text,
        }
    }

    /// Several servers' answers.
    pub(crate) fn servers(entries: Vec<Entry>, text: String) -> Self {
        Self {
            json: Json::Servers(entries),
            text,
        }
    }

    /// Nothing to say (`sleep`, `help` in the shell).
    pub(crate) fn empty() -> Self {
        Self {
            json: Json::Empty,
            text: String::new(),
        }
    }
}

/// A command's `--json` document; every command's has one of these shapes (see
/// docs/cli-json.md):
/// - one server: `{"server": NAME, "result": RESULT}`, or `{"server": NAME, "error": ERROR}`;
/// - several servers: `{"servers": [{"server": NAME, "result": RESULT} | {"server": NAME,
///   "error": ERROR}, ...]}`.
///
/// RESULT is the server's `result` as it came (members in its order, numbers as it spelled
/// them) for a request, and an object of the server's items as they came for a listing.
/// In the shell, each line's document also starts with `"ok"`.
#[derive(Debug)]
pub(crate) enum Json {
    Server(Entry),
    Servers(Vec<Entry>),
    Empty,
}

/// One server's part of a document.
#[derive(Debug, Serialize)]
pub(crate) struct Entry {
    server: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
    /// `ping`: the round trip.
    #[serde(rename = "elapsedMs", skip_serializing_if = "Option::is_none")]
    elapsed_ms: Option<u64>,
    /// `ping`: the request sent (`ping`, or `server/discover` at 2026-07-28).
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<&'static str>,
}

impl Entry {
    pub(crate) fn result(server: &str, result: Box<RawValue>) -> Self {
        Self {
            server: server.to_owned(),
            result: Some(result),
            error: None,
            elapsed_ms: None,
            method: None,
        }
    }

    pub(crate) fn error(server: &str, error: &crate::error::CliError) -> Self {
        Self {
            server: server.to_owned(),
            result: None,
            error: Some(error.to_json()),
            elapsed_ms: None,
            method: None,
        }
    }

    pub(crate) fn with_elapsed_ms(mut self, ms: u64) -> Self {
        self.elapsed_ms = Some(ms);
        self
    }

    pub(crate) fn with_method(mut self, method: &'static str) -> Self {
        self.method = Some(method);
        self
    }
}

impl Json {
    /// The document as one line; `ok` (the shell's) goes first when given.
    pub(crate) fn render(&self, ok: Option<bool>) -> String {
        #[derive(Serialize)]
        struct Document<'a> {
            #[serde(skip_serializing_if = "Option::is_none")]
            ok: Option<bool>,
            #[serde(flatten)]
            entry: Option<&'a Entry>,
            #[serde(skip_serializing_if = "Option::is_none")]
            servers: Option<&'a [Entry]>,
        }
        let document = Document {
            ok,
            entry: match self {
                Self::Server(entry) => Some(entry),
                _ => None,
            },
            servers: match self {
                Self::Servers(entries) => Some(entries),
                _ => None,
            },
        };
        // Strings, raw JSON and finite numbers: serializing cannot fail.
        serde_json::to_string(&document).unwrap_or_default()
    }
}

/// Any of our result types as a JSON value.
pub(crate) fn json<T: Serialize>(value: &T) -> Value {
    // Our protocol types always serialize (string keys, no non-finite floats from JSON).
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// Any of our result types as JSON text, for what the client composed rather than received.
pub(crate) fn raw<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| null())
}

/// `null`.
pub(crate) fn null() -> Box<RawValue> {
    Box::<RawValue>::default()
}

/// A server's result as it came.
pub(crate) fn received(result: &mcp_types::RawResult) -> Box<RawValue> {
    RawValue::from_string(result.get().to_owned()).unwrap_or_else(|_| null())
}

/// `{"KEY": ITEM}` of an item as the server sent it.
pub(crate) fn listing_one(key: &str, item: &RawValue) -> Box<RawValue> {
    let text = format!("{{{}:{}}}", Value::from(key), item.get());
    RawValue::from_string(text).unwrap_or_else(|_| null())
}

/// `{"KEY": [ITEM, ...]}` of items as the server sent them.
pub(crate) fn listing(members: &[(&str, &[Box<RawValue>])]) -> Box<RawValue> {
    let mut out = String::from("{");
    for (i, (key, items)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Value::from(*key).to_string());
        out.push(':');
        out.push_str(raw(items).get());
    }
    out.push('}');
    RawValue::from_string(out).unwrap_or_else(|_| null())
}

/// A tool result: text plainly, other content summarised, structured content as pretty JSON
/// when there is no text.
pub(crate) fn call_result(result: &CallToolResult) -> String {
    let mut out = String::new();
    for block in &result.content {
        push_line(&mut out, &content_block(block));
    }
    let has_text = result.content.iter().any(|b| b.as_text().is_some());
    if let (Some(structured), false) = (&result.structured_content, has_text) {
        push_line(&mut out, &pretty(structured));
    }
    out
}

/// One content block: text as it is, anything else as a one-line summary.
pub(crate) fn content_block(block: &ContentBlock) -> String {
    match block {
        ContentBlock::Text(t) => t.text.clone(),
        ContentBlock::Image(i) => format!(
            "[image {}, {} bytes]",
            i.mime_type,
            base64_decoded_len(&i.data)
        ),
        ContentBlock::Audio(a) => format!(
            "[audio {}, {} bytes]",
            a.mime_type,
            base64_decoded_len(&a.data)
        ),
        ContentBlock::ResourceLink(link) => format!("[resource_link {}]", link.uri),
        ContentBlock::Resource(embedded) => resource_contents(&embedded.resource, true),
        ContentBlock::Unknown(value) => format!("[{} content] {value}", block.kind()),
        _ => format!("[{} content]", block.kind()),
    }
}

fn resource_contents(contents: &ResourceContents, label: bool) -> String {
    match contents {
        ResourceContents::Text(t) if label => format!("[resource {}]\n{}", t.uri, t.text),
        ResourceContents::Text(t) => t.text.clone(),
        ResourceContents::Blob(b) => format!(
            "[resource {} {}, {} bytes]",
            b.uri,
            b.mime_type.as_deref().unwrap_or("application/octet-stream"),
            base64_decoded_len(&b.blob)
        ),
        other => format!("[resource {}]", other.uri()),
    }
}

/// `resources/read`: text contents as they are, blobs summarised; several contents are
/// labelled with their URIs.
pub(crate) fn read_result(result: &ReadResourceResult) -> String {
    let label = result.contents.len() > 1;
    let mut out = String::new();
    for contents in &result.contents {
        push_line(&mut out, &resource_contents(contents, label));
    }
    out
}

/// `text`, or `(no WHAT)` when a list came back empty: an empty list prints something, so
/// an empty answer is not mistaken for a command that printed nothing.
pub(crate) fn or_none(text: String, indent: &str, what: &str) -> String {
    if text.is_empty() {
        format!("{indent}(no {what})\n")
    } else {
        text
    }
}

/// A tool list: name, then its title or the first line of its description.
pub(crate) fn tools(tools: &[Tool], indent: &str) -> String {
    let rows = tools.iter().map(|t| {
        let summary = summary(t.title.as_deref(), t.description.as_deref());
        // A tool that can only run as a task (long-running; `mcp call` follows it).
        let summary = match t.task_support() {
            "required" => format!("[task] {summary}"),
            _ => summary,
        };
        (t.name.clone(), summary)
    });
    table(rows, indent)
}

/// The tools the client left out of a listing (an invalid `x-mcp-header`), each with why:
/// nothing when there are none. Names and reasons quote the server, so each is shown as
/// the terminal-safe formatter shows it, on one line.
pub(crate) fn left_out_tools(tools: &[mcp_client::LeftOutTool], indent: &str) -> String {
    if tools.is_empty() {
        return String::new();
    }
    let shown = |text: &str| crate::error::one_line(&crate::terminal::for_terminal(text));
    let rows = tools.iter().map(|t| (shown(&t.name), shown(&t.reason)));
    let mut out = format!("{indent}left out (invalid x-mcp-header, not callable):\n");
    out.push_str(&table(rows, &format!("{indent}  ")));
    out
}

/// One tool in full: title and description, then each argument (type, required, default,
/// description), the output schema and the annotations.
pub(crate) fn tool_detail(tool: &Tool) -> String {
    let mut out = String::new();
    match tool.title.as_deref() {
        Some(title) => {
            let _ = writeln!(out, "{} ({title})", tool.name);
        }
        None => {
            let _ = writeln!(out, "{}", tool.name);
        }
    }
    if let Some(description) = tool.description.as_deref().filter(|d| !d.trim().is_empty()) {
        for line in description.trim_end().lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    let schema = &tool.input_schema;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let properties = schema.get("properties").and_then(Value::as_object);
    out.push_str("\narguments:\n");
    match properties.filter(|p| !p.is_empty()) {
        None => out.push_str("  (none)\n"),
        Some(properties) => {
            let rows = properties.iter().map(|(name, property)| {
                let mut facts = vec![schema_type(property)];
                if required.contains(&name.as_str()) {
                    facts.push("required".into());
                }
                if let Some(default) = property.get("default") {
                    facts.push(format!("default {default}"));
                }
                if let Some(values) = property.get("enum").and_then(Value::as_array) {
                    let values: Vec<String> = values.iter().map(Value::to_string).collect();
                    facts.push(format!("one of {}", values.join(", ")));
                }
                let description = property
                    .get("description")
                    .and_then(Value::as_str)
                    .map(|d| format!("  {}", d.lines().next().unwrap_or_default()))
                    .unwrap_or_default();
                (name.clone(), format!("{}{description}", facts.join(", ")))
            });
            out.push_str(&table(rows, "  "));
        }
    }
    if let Some(output_schema) = &tool.output_schema {
        out.push_str("\noutput schema:\n");
        for line in pretty(output_schema).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    if let Some(annotations) = &tool.annotations {
        let value = json(annotations);
        if let Some(map) = value.as_object().filter(|m| !m.is_empty()) {
            out.push_str("\nannotations:\n");
            let rows = map.iter().map(|(k, v)| (k.clone(), v.to_string()));
            out.push_str(&table(rows, "  "));
        }
    }
    out
}

/// A property's JSON schema type: `string`, `integer | null`, `array of string`, or `any`.
fn schema_type(property: &Value) -> String {
    let base = match property.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" | "),
        _ if property.get("enum").is_some() => "enum".into(),
        _ => "any".into(),
    };
    match property
        .get("items")
        .and_then(|i| i.get("type"))
        .and_then(Value::as_str)
    {
        Some(item) if base == "array" => format!("array of {item}"),
        _ => base,
    }
}

/// Resources and resource templates.
pub(crate) fn resources(resources: &[Resource], templates: &[ResourceTemplate]) -> String {
    let mut out = table(
        resources.iter().map(|r| {
            let mime = r
                .mime_type
                .as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default();
            (
                r.uri.clone(),
                format!(
                    "{}{mime}",
                    summary(
                        r.title.as_deref().or(Some(&r.name)),
                        r.description.as_deref()
                    )
                ),
            )
        }),
        "",
    );
    if !templates.is_empty() {
        out.push_str("templates:\n");
        out.push_str(&template_table(templates, "  "));
    }
    out
}

/// Resource templates alone.
pub(crate) fn templates(templates: &[ResourceTemplate]) -> String {
    template_table(templates, "")
}

fn template_table(templates: &[ResourceTemplate], indent: &str) -> String {
    table(
        templates.iter().map(|t| {
            (
                t.uri_template.clone(),
                summary(
                    t.title.as_deref().or(Some(&t.name)),
                    t.description.as_deref(),
                ),
            )
        }),
        indent,
    )
}

/// Prompts with their arguments (`*` = required).
pub(crate) fn prompts(prompts: &[Prompt]) -> String {
    table(
        prompts.iter().map(|p| {
            let args = p
                .arguments
                .iter()
                .flatten()
                .map(|a| {
                    if a.is_required() {
                        format!("{}*", a.name)
                    } else {
                        a.name.clone()
                    }
                })
                .collect::<Vec<_>>();
            let args = if args.is_empty() {
                String::new()
            } else {
                format!(" (arguments: {})", args.join(", "))
            };
            (
                p.name.clone(),
                format!(
                    "{}{args}",
                    summary(p.title.as_deref(), p.description.as_deref())
                ),
            )
        }),
        "",
    )
}

/// A prompt's messages, each prefixed with its role.
pub(crate) fn prompt_result(result: &GetPromptResult) -> String {
    let mut out = String::new();
    for message in &result.messages {
        let role = json(&message.role);
        let role = role.as_str().unwrap_or("?");
        push_line(
            &mut out,
            &format!("[{role}] {}", content_block(&message.content)),
        );
    }
    out
}

/// Pretty JSON.
pub(crate) fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

fn summary(title: Option<&str>, description: Option<&str>) -> String {
    let first_line = |s: &str| s.lines().next().unwrap_or_default().trim().to_owned();
    match (title, description) {
        (_, Some(d)) if !d.trim().is_empty() => first_line(d),
        (Some(t), _) => first_line(t),
        _ => String::new(),
    }
}

fn table(rows: impl Iterator<Item = (String, String)>, indent: &str) -> String {
    let rows: Vec<_> = rows.collect();
    let width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (key, value) in rows {
        let line = if value.is_empty() {
            key
        } else {
            format!("{key:<width$}  {value}")
        };
        let _ = writeln!(out, "{indent}{}", line.trim_end());
    }
    out
}

fn push_line(out: &mut String, text: &str) {
    out.push_str(text);
    if !text.ends_with('\n') {
        out.push('\n');
    }
}

/// The size of base64 `data` once decoded, without decoding it.
pub(crate) fn base64_decoded_len(data: &str) -> usize {
    let significant = data
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
        .count();
    significant * 3 / 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_types::{ImageContent, ResourceLink};

    #[test]
    fn content_is_printed_plainly_or_summarised() {
        assert_eq!(content_block(&ContentBlock::text("hi")), "hi");
        // 8 base64 chars with one '=' of padding: 5 bytes.
        let image = ContentBlock::Image(ImageContent::new("aGVsbG8=", "image/png"));
        assert_eq!(content_block(&image), "[image image/png, 5 bytes]");
        let link = ContentBlock::ResourceLink(ResourceLink::new("test://x", "x"));
        assert_eq!(content_block(&link), "[resource_link test://x]");
    }

    #[test]
    fn structured_content_shows_only_without_text() {
        let only_structured =
            CallToolResult::new(vec![]).with_structured_content(serde_json::json!({"t": 1}));
        assert_eq!(call_result(&only_structured), "{\n  \"t\": 1\n}\n");
        let both = CallToolResult::success_text("sunny")
            .with_structured_content(serde_json::json!({"t": 1}));
        assert_eq!(call_result(&both), "sunny\n");
    }

    #[test]
    fn base64_lengths() {
        assert_eq!(base64_decoded_len(""), 0);
        assert_eq!(base64_decoded_len("aGk="), 2);
        assert_eq!(base64_decoded_len("aGVsbG8h"), 6);
    }
}
