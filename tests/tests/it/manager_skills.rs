//! Skills across managed servers: listed with their server, loaded and verified.

use crate::manager_support::*;
use mcp_integration_tests::bounded;
use mcp_manager::ManagerError;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_are_listed_across_servers_and_loaded_from_theirs() {
    let manager = manager();
    manager.add_server("a", entry("a", &[])).unwrap();
    manager.add_server("b", entry("b", &[])).unwrap();
    manager
        .add_server("bare", entry("bare", &["--no-capabilities"]))
        .unwrap();
    for (server, result) in bounded(manager.connect_all()).await {
        result.unwrap_or_else(|e| panic!("{server}: {e}"));
    }
    let (skills, problems) = bounded(manager.skills()).await;
    assert!(problems.is_empty(), "{problems:?}");
    let listed: Vec<(&str, &str)> = skills
        .iter()
        .map(|s| (s.server.as_str(), s.entry.name().unwrap()))
        .collect();
    assert_eq!(
        listed,
        [
            ("a", "bad-digest"),
            ("a", "bad-frontmatter"),
            ("a", "greeting"),
            ("b", "bad-digest"),
            ("b", "bad-frontmatter"),
            ("b", "greeting"),
        ]
    );
    let loaded = bounded(manager.load_skill("b", "skill://greeting/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(loaded.files.len(), 2);
    let err = bounded(manager.load_skill("a", "skill://bad-digest/SKILL.md"))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ManagerError::Skill { server, .. } if server == "a"),
        "{err}"
    );
    assert_eq!(err.kind(), "skill_verification");
    let unknown = bounded(manager.load_skill("nope", "skill://greeting/SKILL.md"))
        .await
        .unwrap_err();
    assert!(
        matches!(unknown, ManagerError::UnknownServer(_)),
        "{unknown}"
    );
    manager.shutdown().await;
}
