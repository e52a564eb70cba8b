//! One incoming message in, at most one reply out, written straight into the caller's
//! buffer (no reply object is built: a 1 MB text is written once).

use std::borrow::Cow;
use std::io::{self, Write};

use mcp_types::RawValue;
use serde::Deserialize;

/// The session id the HTTP server hands out (sessions are not checked: one tool, no state).
pub const SESSION_ID: &str = "mcp-bench-session";

const TOOLS: &str = r#"{"tools":[{"name":"echo","description":"Echo `text`, or reply with `size` bytes of text.","inputSchema":{"type":"object","properties":{"text":{"type":"string"},"size":{"type":"integer","minimum":0}},"required":["text"]}}]}"#;

/// The same listing at 2026-07-28, where every result says what it is.
const TOOLS_MODERN: &str = r#"{"resultType":"complete","tools":[{"name":"echo","description":"Echo `text`, or reply with `size` bytes of text.","inputSchema":{"type":"object","properties":{"text":{"type":"string"},"size":{"type":"integer","minimum":0}},"required":["text"]}}]}"#;

/// `server/discover` (2026-07-28).
const DISCOVER: &str = r#"{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-bench-server","version":"0.1.0"}}}"#;

/// Which revisions the server speaks (`mcp-bench-server [--modern]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Revision {
    /// `initialize`, then 2025-11-25 (or what the client offers): the default.
    #[default]
    Legacy,
    /// 2026-07-28 only: `server/discover`, `resultType` on every result, no `initialize`
    /// (answered -32022). The request's `_meta` is not checked: this server must cost as
    /// little as possible, and mcp-test-server checks the protocol.
    Modern,
}

/// The filler for sized replies: written in chunks, never allocated whole.
const FILLER: [u8; 8192] = [b'x'; 8192];

#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    arguments: Option<EchoArgs<'a>>,
}

#[derive(Deserialize)]
struct EchoArgs<'a> {
    #[serde(borrow)]
    text: Cow<'a, str>,
    #[serde(default)]
    size: Option<usize>,
}

#[derive(Deserialize)]
struct InitializeParams<'a> {
    #[serde(rename = "protocolVersion", borrow)]
    protocol_version: Cow<'a, str>,
}

/// What [`handle_message`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replied {
    /// Nothing: the message was a notification or a response.
    Nothing,
    /// A reply.
    Reply,
    /// The reply to `initialize` (over HTTP it carries the session id).
    Initialize,
}

/// Handle one JSON-RPC message; write its reply (one JSON object, no newline) to `out`.
pub fn handle_message(
    message: &[u8],
    revision: Revision,
    out: &mut impl Write,
) -> io::Result<Replied> {
    let Ok(incoming) = serde_json::from_slice::<Incoming<'_>>(message) else {
        out.write_all(
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        )?;
        return Ok(Replied::Reply);
    };
    let (Some(id), Some(method)) = (incoming.id, incoming.method) else {
        return Ok(Replied::Nothing); // a notification, or a response to a request we never send
    };
    let params = incoming.params.map_or("{}", RawValue::get);
    let modern = revision == Revision::Modern;
    match &*method {
        "server/discover" if modern => {
            result_start(out, id)?;
            out.write_all(DISCOVER.as_bytes())?;
            out.write_all(b"}")?;
        }
        "initialize" if modern => {
            out.write_all(br#"{"jsonrpc":"2.0","id":"#)?;
            out.write_all(id.get().as_bytes())?;
            out.write_all(
                br#","error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}"#,
            )?;
        }
        "initialize" => {
            let version = serde_json::from_str::<InitializeParams<'_>>(params)
                .map_or(Cow::Borrowed("2025-06-18"), |p| p.protocol_version);
            result_start(out, id)?;
            out.write_all(br#"{"protocolVersion":"#)?;
            serde_json::to_writer(&mut *out, &*version)?;
            out.write_all(
                br#","capabilities":{"tools":{}},"serverInfo":{"name":"mcp-bench-server","version":"0.1.0"}}}"#,
            )?;
            return Ok(Replied::Initialize);
        }
        "ping" => {
            result_start(out, id)?;
            out.write_all(b"{}}")?;
        }
        "tools/list" => {
            result_start(out, id)?;
            out.write_all(if modern { TOOLS_MODERN } else { TOOLS }.as_bytes())?;
            out.write_all(b"}")?;
        }
        "tools/call" => match serde_json::from_str::<CallParams<'_>>(params) {
            Ok(CallParams {
                name,
                arguments: Some(args),
            }) if name == "echo" => {
                result_start(out, id)?;
                if modern {
                    out.write_all(
                        br#"{"resultType":"complete","content":[{"type":"text","text":"#,
                    )?;
                } else {
                    out.write_all(br#"{"content":[{"type":"text","text":"#)?;
                }
                match args.size {
                    Some(size) => {
                        out.write_all(b"\"")?;
                        let mut left = size;
                        while left > 0 {
                            let chunk = left.min(FILLER.len());
                            out.write_all(&FILLER[..chunk])?;
                            left -= chunk;
                        }
                        out.write_all(b"\"")?;
                    }
                    None => serde_json::to_writer(&mut *out, &*args.text)?,
                }
                out.write_all(b"}]}}")?;
            }
            _ => error(out, id, -32602, "unknown tool or missing arguments")?,
        },
        _ => error(out, id, -32601, "Method not found")?,
    }
    Ok(Replied::Reply)
}

fn result_start(out: &mut impl Write, id: &RawValue) -> io::Result<()> {
    out.write_all(br#"{"jsonrpc":"2.0","id":"#)?;
    out.write_all(id.get().as_bytes())?;
    out.write_all(br#","result":"#)
}

fn error(out: &mut impl Write, id: &RawValue, code: i32, message: &str) -> io::Result<()> {
    out.write_all(br#"{"jsonrpc":"2.0","id":"#)?;
    out.write_all(id.get().as_bytes())?;
    write!(out, r#","error":{{"code":{code},"message":"{message}"}}}}"#)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn reply(message: &str) -> Option<Value> {
        reply_at(Revision::Legacy, message)
    }

    fn reply_at(revision: Revision, message: &str) -> Option<Value> {
        let mut out = Vec::new();
        let replied = handle_message(message.as_bytes(), revision, &mut out).unwrap();
        (replied != Replied::Nothing).then(|| serde_json::from_slice(&out).expect("valid JSON"))
    }

    #[test]
    fn answers_the_handshake_and_lists_echo() {
        let init = reply(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        )
        .unwrap();
        assert_eq!(init["id"], 0);
        assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
        assert!(reply(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_none());
        let list = reply(r#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#).unwrap();
        assert_eq!(list["id"], "a");
        assert_eq!(list["result"]["tools"][0]["name"], "echo");
        let ping = reply(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#).unwrap();
        assert_eq!(ping["result"], serde_json::json!({}));
    }

    #[test]
    fn echoes_text_escaped_or_sized() {
        let echo = reply(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a\"b\n"}}}"#,
        )
        .unwrap();
        assert_eq!(echo["result"]["content"][0]["text"], "a\"b\n");
        let sized = reply(
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello","size":20000}}}"#,
        )
        .unwrap();
        assert_eq!(
            sized["result"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .len(),
            20000
        );
    }

    #[test]
    fn modern_discovers_and_marks_every_result() {
        let modern = |m: &str| reply_at(Revision::Modern, m).unwrap();
        let discover = modern(r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}"#);
        assert_eq!(discover["result"]["supportedVersions"][0], "2026-07-28");
        let init = modern(r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}"#);
        assert_eq!(init["error"]["code"], -32022);
        let list = modern(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#);
        assert_eq!(list["result"]["resultType"], "complete");
        assert_eq!(list["result"]["tools"][0]["name"], "echo");
        let echo = modern(
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
        );
        assert_eq!(echo["result"]["resultType"], "complete");
        assert_eq!(echo["result"]["content"][0]["text"], "hi");
        let legacy = reply(r#"{"jsonrpc":"2.0","id":5,"method":"server/discover"}"#).unwrap();
        assert_eq!(legacy["error"]["code"], -32601);
    }

    #[test]
    fn errors_for_unknown_things() {
        let unknown = reply(r#"{"jsonrpc":"2.0","id":5,"method":"nope"}"#).unwrap();
        assert_eq!(unknown["error"]["code"], -32601);
        let tool = reply(
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"other","arguments":{"text":"x"}}}"#,
        )
        .unwrap();
        assert_eq!(tool["error"]["code"], -32602);
        let garbage = reply("{not json").unwrap();
        assert_eq!(garbage["error"]["code"], -32700);
    }
}
