//! Properties: members this library does not model survive a round trip, whatever they
//! are called and hold, and content blocks of unknown types come back byte-for-byte equal
//! as JSON values.

use mcp_types::{CallToolResult, ContentBlock, InitializeResult, Tool};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

/// Small JSON values: scalars, and arrays/objects of them.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        "[a-zA-Z0-9 ]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Unknown members: names prefixed so they never collide with a schema member.
fn unknown_members() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map("x[A-Za-z0-9_]{1,10}", json_value(), 0..5)
        .prop_map(|m| m.into_iter().collect())
}

fn with_members(mut base: Value, members: &Map<String, Value>) -> Value {
    let object = base.as_object_mut().expect("object");
    for (k, v) in members {
        object.insert(k.clone(), v.clone());
    }
    base
}

fn assert_round_trip<T: DeserializeOwned + Serialize>(value: &Value) -> Result<(), TestCaseError> {
    let decoded: T = serde_json::from_value(value.clone())
        .map_err(|e| TestCaseError::fail(format!("decode {value}: {e}")))?;
    let encoded = serde_json::to_value(&decoded).expect("encode");
    prop_assert_eq!(&encoded, value);
    Ok(())
}

proptest! {
    #[test]
    fn unknown_members_survive_in_tools(members in unknown_members(), meta in unknown_members()) {
        let tool = with_members(
            json!({ "name": "t", "inputSchema": { "type": "object" }, "_meta": meta }),
            &members,
        );
        assert_round_trip::<Tool>(&tool)?;
    }

    #[test]
    fn unknown_members_survive_in_tool_results(
        members in unknown_members(),
        block_members in unknown_members(),
        structured in unknown_members(),
    ) {
        // `structuredContent` is an object by the schema (a `null` there reads as absent).
        let block = with_members(json!({ "type": "text", "text": "x" }), &block_members);
        let result = with_members(
            json!({ "content": [block], "structuredContent": structured, "isError": true }),
            &members,
        );
        assert_round_trip::<CallToolResult>(&result)?;
    }

    #[test]
    fn unknown_members_survive_in_initialize_results(
        top in unknown_members(),
        caps in unknown_members(),
        info in unknown_members(),
    ) {
        let result = with_members(
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": with_members(json!({ "tools": {} }), &caps),
                "serverInfo": with_members(json!({ "name": "s", "version": "1" }), &info),
            }),
            &top,
        );
        assert_round_trip::<InitializeResult>(&result)?;
    }

    #[test]
    fn unknown_content_types_are_kept_verbatim(kind in "[a-z_]{1,12}", members in unknown_members()) {
        prop_assume!(!["text", "image", "audio", "resource_link", "resource"].contains(&kind.as_str()));
        let block = with_members(json!({ "type": kind }), &members);
        let decoded: ContentBlock = serde_json::from_value(block.clone()).unwrap();
        prop_assert!(matches!(decoded, ContentBlock::Unknown(_)));
        prop_assert_eq!(decoded.kind(), kind.as_str());
        prop_assert_eq!(serde_json::to_value(&decoded).unwrap(), block);
    }
}
