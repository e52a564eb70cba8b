//! The `mrtr` tool: a call that needs input from the client through multi round-trip
//! requests (elicitation, sampling, roots), over as many rounds as its `rounds` argument.
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>
//!
//! The server keeps nothing between rounds: what it learned so far travels in the
//! `requestState`, signed so that a changed state (or one presented with other arguments)
//! is refused.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_types::{ErrorObject, error_codes};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::{Meta, missing_capability};

/// The most rounds a call may ask for.
pub(crate) const MAX_ROUNDS: u64 = 10;
/// Prefix of every state this server issues.
const STATE_PREFIX: &str = "mrtr1.";
/// Key of the state's signature. A test server's secret need not be secret: the
/// signature exists so that a client that edits the state is caught.
const STATE_KEY: &[u8] = b"mcp-test-server mrtr state";

/// One kind of input the tool can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Elicitation,
    Sampling,
    Roots,
}

impl Kind {
    fn parse(name: &str) -> Option<Self> {
        match name {
            "elicitation" => Some(Self::Elicitation),
            "sampling" => Some(Self::Sampling),
            "roots" => Some(Self::Roots),
            _ => None,
        }
    }

    fn capability(self) -> &'static str {
        match self {
            Self::Elicitation => "elicitation",
            Self::Sampling => "sampling",
            Self::Roots => "roots",
        }
    }

    fn key(self, round: u64) -> String {
        format!("{}-{round}", self.capability())
    }

    fn request(self, round: u64) -> Value {
        match self {
            Self::Elicitation => json!({
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": format!("Round {round}: what is your name?"),
                    "requestedSchema": {
                        "type": "object",
                        "properties": {"name": {"type": "string", "description": "Your name."}},
                        "required": ["name"],
                    },
                },
            }),
            Self::Sampling => json!({
                "method": "sampling/createMessage",
                "params": {
                    "messages": [{"role": "user", "content": {
                        "type": "text", "text": format!("Round {round}: say something."),
                    }}],
                    "maxTokens": 100,
                },
            }),
            Self::Roots => json!({"method": "roots/list", "params": {}}),
        }
    }

    /// Whether `response` has the shape of this kind's result.
    fn valid(self, response: &Value) -> bool {
        match self {
            Self::Elicitation => response.get("action").is_some_and(Value::is_string),
            Self::Sampling => response.get("content").is_some(),
            Self::Roots => response.get("roots").is_some_and(Value::is_array),
        }
    }
}

/// `tools/call` of `mrtr` at revision 2026-07-28; every `input_required` answer carries
/// `flood` more input requests (`--input-request-flood`).
pub(crate) fn call(
    meta: &Meta,
    params: &Value,
    args: &Map<String, Value>,
    flood: u32,
) -> Result<Value, ErrorObject> {
    let kinds = kinds(args)?;
    let rounds = match args.get("rounds") {
        None | Some(Value::Null) => 1,
        Some(v) => v
            .as_u64()
            .filter(|n| (1..=MAX_ROUNDS).contains(n))
            .ok_or_else(|| invalid(&format!("rounds must be an integer from 1 to {MAX_ROUNDS}")))?,
    };
    let missing: Map<String, Value> = kinds
        .iter()
        .filter(|k| !meta.supports(&[k.capability()]))
        .map(|k| (k.capability().to_owned(), json!({})))
        .collect();
    if !missing.is_empty() {
        let names: Vec<&String> = missing.keys().collect();
        return Err(missing_capability(
            &Value::Object(missing.clone()),
            &format!("the mrtr tool asks the client for {names:?}"),
        ));
    }
    let digest = arguments_digest(args);
    let state = params.get("requestState");
    let responses = params.get("inputResponses");
    let Some(state) = state else {
        if responses.is_some() {
            return Err(invalid(
                "inputResponses without requestState: the retry must echo the requestState \
                 of the input_required result",
            ));
        }
        return Ok(input_required(&kinds, 0, &digest, &[], flood));
    };
    let (round, mut answers) = open_state(state, &digest)?;
    let Some(responses) = responses else {
        return Err(invalid("requestState without inputResponses"));
    };
    let responses = responses
        .as_object()
        .ok_or_else(|| invalid("inputResponses must be an object"))?;
    let mut this_round = Map::new();
    for kind in &kinds {
        let key = kind.key(round);
        match responses.get(&key) {
            // Missing input: ask again (the spec's SHOULD), with the same state.
            None => return Ok(input_required(&kinds, round, &digest, &answers, flood)),
            Some(response) if !kind.valid(response) => {
                return Err(invalid(&format!(
                    "inputResponses[{key:?}] is not a {} result",
                    kind.capability()
                )));
            }
            Some(response) => {
                this_round.insert(key, response.clone());
            }
        }
    }
    answers.push(Value::Object(this_round));
    let next = round + 1;
    if next < rounds {
        return Ok(input_required(&kinds, next, &digest, &answers, flood));
    }
    let summary = json!({"rounds": rounds, "answers": answers});
    Ok(json!({
        "content": [{"type": "text", "text": summary.to_string()}],
        "structuredContent": summary,
    }))
}

fn kinds(args: &Map<String, Value>) -> Result<Vec<Kind>, ErrorObject> {
    let Some(list) = args.get("kinds").filter(|v| !v.is_null()) else {
        return Ok(vec![Kind::Elicitation]);
    };
    let list = list
        .as_array()
        .filter(|l| !l.is_empty())
        .ok_or_else(|| invalid("kinds must be a non-empty array"))?;
    let mut kinds = Vec::new();
    for item in list {
        let kind = item.as_str().and_then(Kind::parse).ok_or_else(|| {
            invalid("kinds items must be \"elicitation\", \"sampling\" or \"roots\"")
        })?;
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    Ok(kinds)
}

fn input_required(
    kinds: &[Kind],
    round: u64,
    digest: &str,
    answers: &[Value],
    flood: u32,
) -> Value {
    let flooded = (0..flood).map(|i| (format!("flood-{i}"), Kind::Roots.request(round)));
    let requests: Map<String, Value> = kinds
        .iter()
        .map(|k| (k.key(round), k.request(round)))
        .chain(flooded)
        .collect();
    json!({
        "resultType": "input_required",
        "inputRequests": requests,
        "requestState": seal(&json!({"round": round, "args": digest, "answers": answers})),
    })
}

/// `mrtr1.<payload>.<signature>`, both base64url.
fn seal(payload: &Value) -> String {
    let payload = URL_SAFE_NO_PAD.encode(payload.to_string());
    let signature = URL_SAFE_NO_PAD.encode(sign(&payload));
    format!("{STATE_PREFIX}{payload}.{signature}")
}

fn sign(payload: &str) -> Vec<u8> {
    let mut hash = Sha256::new();
    hash.update(STATE_KEY);
    hash.update(payload.as_bytes());
    hash.finalize().to_vec()
}

/// The round a state expects answers for and the answers so far; -32602 for a state we
/// did not issue, one that was changed, or one issued for other arguments.
fn open_state(state: &Value, digest: &str) -> Result<(u64, Vec<Value>), ErrorObject> {
    let refused = || invalid("requestState was not issued by this server or was modified");
    let text = state.as_str().ok_or_else(refused)?;
    let (payload, signature) = text
        .strip_prefix(STATE_PREFIX)
        .and_then(|rest| rest.split_once('.'))
        .ok_or_else(refused)?;
    if URL_SAFE_NO_PAD.encode(sign(payload)) != signature {
        return Err(refused());
    }
    let payload: Value = URL_SAFE_NO_PAD
        .decode(payload)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or_else(refused)?;
    if payload["args"] != digest {
        return Err(invalid(
            "requestState belongs to a call with other arguments",
        ));
    }
    let round = payload["round"].as_u64().ok_or_else(refused)?;
    let answers = payload["answers"].as_array().cloned().ok_or_else(refused)?;
    Ok((round, answers))
}

/// The arguments, hashed: a state is only good for the call that received it.
fn arguments_digest(args: &Map<String, Value>) -> String {
    // serde_json's map is ordered by key, so equal arguments serialize equally.
    let mut hash = Sha256::new();
    hash.update(Value::Object(args.clone()).to_string().as_bytes());
    URL_SAFE_NO_PAD.encode(hash.finalize())
}

fn invalid(what: &str) -> ErrorObject {
    ErrorObject::new(
        error_codes::INVALID_PARAMS,
        format!("Invalid params: {what}"),
    )
}
