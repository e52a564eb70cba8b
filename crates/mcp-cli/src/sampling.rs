//! `sampling/createMessage`: a server asks for an LLM completion.
//!
//! With `--sampling-command CMD`, CMD (split like `--stdio`, no shell) reads the request's
//! params as JSON on stdin and writes a `CreateMessageResult` as JSON on stdout. On a
//! terminal, the user sees the request (messages, system prompt, max tokens, tools) and types
//! the reply, or refuses. The capability is declared only in those two cases.

use std::process::Stdio;

use mcp_types::error_codes::{INTERNAL_ERROR, USER_REJECTED};
use mcp_types::{CreateMessageRequestParams, CreateMessageResult, ErrorObject, Role};
use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use crate::ask;
use crate::commands::stderr_line;

/// Larger replies from the sampling command are refused.
const MAX_REPLY_BYTES: u64 = 16 * 1024 * 1024;

/// How sampling requests are answered.
#[derive(Debug, Clone)]
pub(crate) enum Sampler {
    /// `--sampling-command`: the program and its arguments.
    Command(Vec<String>),
    /// By the user at the terminal.
    Terminal,
}

impl Sampler {
    /// Answer one request (the client's `SamplingHandler`).
    pub(crate) async fn answer(
        self,
        params: CreateMessageRequestParams,
        context: mcp_client::RequestContext,
    ) -> Result<CreateMessageResult, ErrorObject> {
        match self {
            Sampler::Command(words) => run_command(&words, &params).await.map_err(|why| {
                stderr_line(&format!("mcp: --sampling-command: {why}"));
                ErrorObject::new(
                    INTERNAL_ERROR,
                    format!("the sampling command failed: {why}"),
                )
            }),
            Sampler::Terminal => {
                // A person reads and types the reply: no request times out meanwhile.
                let _clock_stopped = context.hold_timeouts();
                tokio::task::spawn_blocking(move || at_terminal(&params))
                    .await
                    .map_err(|e| ErrorObject::new(INTERNAL_ERROR, e.to_string()))?
            }
        }
    }
}

/// Run the command with the params on stdin; killed if the request is given up (the
/// future is dropped) or the client closes.
async fn run_command(
    words: &[String],
    params: &CreateMessageRequestParams,
) -> Result<CreateMessageResult, String> {
    let (program, args) = words.split_first().ok_or("empty command")?;
    let input = serde_json::to_vec(params).map_err(|e| e.to_string())?;
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    // Write and read at once: a command that answers before reading all of its input
    // must not deadlock on a full pipe.
    let write = async move {
        let _ = stdin.write_all(&input).await;
        // Dropping stdin closes it: the command sees the end of the request.
    };
    let read = async move {
        let mut output = Vec::new();
        (&mut stdout)
            .take(MAX_REPLY_BYTES + 1)
            .read_to_end(&mut output)
            .await
            .map(|_| output)
    };
    let ((), output) = tokio::join!(write, read);
    let output = output.map_err(|e| format!("reading its output: {e}"))?;
    let status = child.wait().await.map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("{program} exited with {status}"));
    }
    if output.len() as u64 > MAX_REPLY_BYTES {
        return Err(format!("its output is larger than {MAX_REPLY_BYTES} bytes"));
    }
    serde_json::from_slice(&output)
        .map_err(|e| format!("its output is not a CreateMessageResult: {e}"))
}

fn at_terminal(params: &CreateMessageRequestParams) -> Result<CreateMessageResult, ErrorObject> {
    let _terminal = ask::conversation();
    ask::say(&describe(params));
    let refused = || ErrorObject::new(USER_REJECTED, "the user declined the sampling request");
    let Some(reply) = ask::line("Your reply as the model (an empty line refuses)") else {
        return Err(refused());
    };
    if reply.trim().is_empty() {
        return Err(refused());
    }
    let content = mcp_types::SamplingContent::Text(mcp_types::TextContent::new(reply));
    Ok(
        CreateMessageResult::new(Role::Assistant, content, "human (mcp CLI)")
            .with_stop_reason("endTurn"),
    )
}

/// The request as the user reads it.
fn describe(params: &CreateMessageRequestParams) -> String {
    let mut out = String::from("\nA server asks for a model's reply (sampling):\n");
    if let Some(system) = &params.system_prompt {
        out.push_str(&format!("  system: {system}\n"));
    }
    for message in &params.messages {
        let role = match message.role {
            Role::User => "user",
            Role::Assistant => "assistant",
            _ => "?",
        };
        for block in message.content.blocks() {
            let value = serde_json::to_value(block).unwrap_or(Value::Null);
            let text = match value.get("text").and_then(Value::as_str) {
                Some(text) => text.to_owned(),
                None => format!(
                    "[{} content]",
                    value.get("type").and_then(Value::as_str).unwrap_or("?")
                ),
            };
            out.push_str(&format!("  {role}: {text}\n"));
        }
    }
    out.push_str(&format!("  max tokens: {}\n", params.max_tokens));
    if let Some(tools) = params.tools.as_ref().filter(|t| !t.is_empty()) {
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        out.push_str(&format!("  tools: {}\n", names.join(", ")));
    }
    out
}
