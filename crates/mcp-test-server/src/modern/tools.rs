//! The tools only a server that speaks 2026-07-28 lists: `mrtr` (multi round-trip input),
//! `header_params` (`x-mcp-header` parameters) and `schema_features` (JSON Schema 2020-12
//! keywords a client must keep verbatim).

use serde_json::{Map, Value, json};

use crate::tools::{json_text, text_result};

/// The modern tools, in listing order.
pub(crate) fn definitions() -> Vec<Value> {
    vec![
        json!({
            "name": "mrtr",
            "description": "Asks the client for input through multi round-trip requests \
                (revision 2026-07-28): each round requests every kind in `kinds`; after \
                `rounds` rounds, returns the answers as JSON.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "kinds": {
                        "type": "array",
                        "items": {"enum": ["elicitation", "sampling", "roots"]},
                        "description": "What to ask for each round (default: elicitation).",
                    },
                    "rounds": {
                        "type": "integer", "minimum": 1, "maximum": super::mrtr::MAX_ROUNDS,
                        "description": "How many rounds of questions (default 1).",
                    },
                },
            },
        }),
        json!({
            "name": "header_params",
            "description": "Echoes its arguments; over HTTP, the parameters marked \
                x-mcp-header must be mirrored in Mcp-Param-* headers.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "region": {"type": "string", "x-mcp-header": "Region",
                        "description": "Mirrored in Mcp-Param-Region."},
                    "priority": {"type": "integer", "x-mcp-header": "Priority",
                        "description": "Mirrored in Mcp-Param-Priority."},
                    "dry_run": {"type": "boolean", "x-mcp-header": "Dry-Run",
                        "description": "Mirrored in Mcp-Param-Dry-Run."},
                    "target": {
                        "type": "object",
                        "properties": {
                            "zone": {"type": "string", "x-mcp-header": "Zone",
                                "description": "Mirrored in Mcp-Param-Zone."},
                        },
                    },
                    "query": {"type": "string", "description": "Not mirrored."},
                },
                "required": ["region", "query"],
            },
        }),
        json!({
            "name": "schema_features",
            "description": "Takes an input described with JSON Schema 2020-12 references, \
                anchors, composition and conditionals; returns how many fields it got.",
            "inputSchema": schema_features_input(),
            "outputSchema": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": {"count": {"type": "integer", "minimum": 0}},
                "type": "object",
                "properties": {"fields": {"$ref": "#/$defs/count"}},
                "required": ["fields"],
            },
        }),
    ]
}

/// `--invalid-header-tool`: a tool a client must leave out, as its `x-mcp-header` sits on a
/// number; the property's name carries a terminal escape sequence, which the client's
/// reason quotes.
pub(crate) fn invalid_header_tool() -> Value {
    json!({
        "name": "bad_header",
        "description": "Runs without the headers its schema asks for.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "zone\u{1b}[2J": {"type": "number", "x-mcp-header": "Zone"},
            },
        },
    })
}

/// `bad_header`: it ran.
pub(crate) fn bad_header() -> Value {
    text_result("bad_header ran without its headers")
}

fn schema_features_input() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "address": {
                "$anchor": "addr",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                "required": ["city"],
            },
            "kind": {"enum": ["personal", "business"]},
        },
        "type": "object",
        "properties": {
            "kind": {"$ref": "#/$defs/kind"},
            "home": {"$ref": "#/$defs/address"},
            "work": {"$ref": "#addr"},
            "contact": {"oneOf": [
                {"type": "string", "format": "email"},
                {"type": "integer", "minimum": 0},
            ]},
        },
        "allOf": [{"required": ["kind"]}],
        "if": {"properties": {"kind": {"const": "business"}}},
        "then": {"required": ["work"]},
        "else": {"required": ["home"]},
    })
}

/// `header_params`: the arguments, back as JSON.
pub(crate) fn header_params(args: &Map<String, Value>) -> Value {
    json_text(&Value::Object(args.clone()))
}

/// `schema_features`: how many top-level fields arrived.
pub(crate) fn schema_features(args: &Map<String, Value>) -> Value {
    let mut result = text_result(&format!("{} fields", args.len()));
    result["structuredContent"] = json!({"fields": args.len()});
    result
}
