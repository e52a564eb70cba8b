//! Skills (SEP-2640) end to end over stdio: listing reads no file, loading verifies every
//! file (size, sha256 digest, frontmatter) and stops at the first that fails.

use mcp_client::{Client, Error, SkillError};
use mcp_integration_tests::{bounded, connect};
use mcp_types::error_codes;
use serde_json::json;

/// How many `resources/read` the server received so far (its `server_log` tool).
async fn reads(client: &Client) -> usize {
    let log = bounded(client.call_tool("server_log", None)).await.unwrap();
    let methods: Vec<String> = serde_json::from_str(&log.text()).unwrap();
    methods.iter().filter(|m| *m == "resources/read").count()
}

#[tokio::test]
async fn listing_and_getting_read_no_file() {
    let client = connect(&[]).await;
    assert!(client.supports_skills());
    let skills = bounded(client.list_all_skills()).await.unwrap();
    let names: Vec<_> = skills.iter().filter_map(|s| s.name()).collect();
    assert_eq!(names, ["greeting", "bad-digest", "bad-frontmatter"]);
    let got = bounded(client.get_skill("skill://greeting/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(got, skills[0]);
    let unknown = bounded(client.get_skill("skill://nope/SKILL.md"))
        .await
        .unwrap_err();
    assert_eq!(
        unknown.rpc().map(|e| e.code),
        Some(error_codes::INVALID_PARAMS)
    );
    assert_eq!(reads(&client).await, 0, "nothing is prefetched");
    client.close().await;
}

#[tokio::test]
async fn a_sound_skill_loads_with_every_file_verified() {
    let client = connect(&["--page-size", "1"]).await;
    let skills = bounded(client.list_all_skills()).await.unwrap();
    assert_eq!(skills.len(), 3, "pages followed");
    let skill = bounded(client.load_skill(&skills[0])).await.unwrap();
    assert_eq!(skill.name(), Some("greeting"));
    assert_eq!(
        serde_json::Value::Object(skill.frontmatter.clone()),
        json!({"name": "greeting", "description": "Greets people by name", "metadata": {"version": "1"}})
    );
    assert!(
        skill.instructions.contains("# Greeting"),
        "{}",
        skill.instructions
    );
    let paths: Vec<_> = skill.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["SKILL.md", "references/STYLE.md"]);
    assert_eq!(
        skill.files[1].bytes,
        b"Warm, short, no exclamation marks.\n"
    );
    assert_eq!(reads(&client).await, 2);
    client.close().await;
}

#[tokio::test]
async fn a_manifest_that_does_not_match_its_digest_is_rejected() {
    let client = connect(&[]).await;
    let entry = bounded(client.get_skill("skill://bad-digest/SKILL.md"))
        .await
        .unwrap();
    let err = bounded(client.load_skill(&entry)).await.unwrap_err();
    assert!(
        matches!(&err, SkillError::DigestMismatch { uri, .. } if uri == "skill://bad-digest/SKILL.md"),
        "{err}"
    );
    assert_eq!(reads(&client).await, 1, "the other file is never read");
    client.close().await;
}

#[tokio::test]
async fn a_manifest_whose_frontmatter_differs_is_rejected() {
    let client = connect(&[]).await;
    let entry = bounded(client.get_skill("skill://bad-frontmatter/SKILL.md"))
        .await
        .unwrap();
    let err = bounded(client.load_skill(&entry)).await.unwrap_err();
    assert!(
        matches!(&err, SkillError::FrontmatterMismatch { fields, .. } if fields == &["description"]),
        "{err}"
    );
    assert_eq!(reads(&client).await, 1);
    client.close().await;
}

#[tokio::test]
async fn a_server_without_the_extension_is_not_asked() {
    let client = connect(&["--no-capabilities"]).await;
    assert!(!client.supports_skills());
    let err = bounded(client.list_all_skills()).await.unwrap_err();
    assert!(matches!(err, Error::CapabilityNotSupported { .. }), "{err}");
    client.close().await;
}
