//! The layering rule of `docs/architecture.md`, checked over `cargo metadata`.
//!
//! Every ranked crate may depend (normal or build dependency) only on crates of a strictly
//! lower layer, so the three transports, which share layer 3, never depend on each other.
//! Dev-dependencies are ignored: a test of a low crate may drive a higher one.
//! Workspace crates outside the table (xtask, the demo server, benches) are unranked; the
//! ranked libraries (layers 0-5) must not depend on them, so test and demo code never leaks
//! into the libraries. Some unranked crates have their own short allow-list.

use std::collections::BTreeSet;
use std::fmt;

use crate::metadata::Metadata;

/// Layer of each ranked workspace crate; lower layers know nothing of higher ones.
const LAYERS: &[(&str, u8)] = &[
    ("mcp-types", 0),
    ("mcp-jsonrpc", 1),
    // The HTTP client pieces both HTTP transports share.
    ("mcp-http", 2),
    ("mcp-transport-stdio", 3),
    ("mcp-transport-http", 3),
    ("mcp-transport-sse", 3),
    // OAuth sits beside the transports, on mcp-http, so they never depend on it and it
    // never depends on them.
    ("mcp-auth", 3),
    ("mcp-client", 4),
    ("mcp-manager", 5),
    // The downstream server side: hosts served over stdio or HTTP, forwarded to the
    // manager's servers.
    ("mcp-proxy", 6),
    ("mcp-cli", 7),
];

/// Highest layer that is a library; the layer above it (the CLI) is an application.
const TOP_LIBRARY_LAYER: u8 = 6;

/// Unranked crates whose workspace dependencies are restricted to a fixed list.
const ALLOWED_FOR_UNRANKED: &[(&str, &[&str])] = &[
    // The demo/test server speaks the protocol from the bare types, so it cannot hide a bug in
    // the client stack it is used to test.
    ("mcp-test-server", &["mcp-types"]),
];

/// The layer of a workspace crate, `None` when it is unranked.
pub fn layer_of(name: &str) -> Option<u8> {
    LAYERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, layer)| layer)
}

/// One forbidden dependency edge between two workspace crates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The depending crate.
    pub from: String,
    /// The depended-on crate.
    pub to: String,
    /// Which rule the edge breaks.
    pub rule: Rule,
}

/// The rule a [`Violation`] breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// A ranked crate depends on a crate at its own layer or above.
    NotBelow {
        /// Layer of the depending crate.
        from: u8,
        /// Layer of the depended-on crate.
        to: u8,
    },
    /// A ranked library crate depends on an unranked workspace crate.
    UnrankedFromLibrary {
        /// Layer of the depending crate.
        from: u8,
    },
    /// An unranked crate with an allow-list depends on a workspace crate outside it.
    NotAllowed {
        /// The crates it may depend on.
        allowed: &'static [&'static str],
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { from, to, rule } = self;
        write!(f, "layering violation: {from} -> {to} ")?;
        match rule {
            Rule::NotBelow { from: l, to: t } if l == t => write!(
                f,
                "(layer {l} may only depend on layers below {l}; {to} is also at layer {t})"
            ),
            Rule::NotBelow { from: l, to: t } => write!(
                f,
                "(layer {l} may only depend on layers below {l}; {to} is at layer {t})"
            ),
            Rule::UnrankedFromLibrary { from: l } => write!(
                f,
                "(library crate at layer {l} may not depend on the unranked workspace crate {to})"
            ),
            Rule::NotAllowed { allowed } => write!(
                f,
                "({from} may only depend on these workspace crates: {})",
                allowed.join(", ")
            ),
        }
    }
}

/// Every forbidden edge between workspace members, sorted by (from, to); empty when the
/// graph is clean.
pub fn check(metadata: &Metadata) -> Vec<Violation> {
    let members: BTreeSet<&str> = metadata.members().map(|p| p.name.as_str()).collect();
    let mut violations = Vec::new();
    for package in metadata.members() {
        let from = package.name.as_str();
        // A crate may list the same dependency twice (normal + build, or per target).
        let deps: BTreeSet<&str> = package
            .dependencies
            .iter()
            .filter(|d| !d.is_dev() && members.contains(d.name.as_str()))
            .map(|d| d.name.as_str())
            .collect();
        for to in deps {
            if let Some(rule) = broken_rule(from, to) {
                violations.push(Violation {
                    from: from.to_owned(),
                    to: to.to_owned(),
                    rule,
                });
            }
        }
    }
    violations.sort_by(|a, b| (&a.from, &a.to).cmp(&(&b.from, &b.to)));
    violations
}

/// The rule a non-dev edge `from -> to` between two workspace crates breaks, if any.
fn broken_rule(from: &str, to: &str) -> Option<Rule> {
    match (layer_of(from), layer_of(to)) {
        (Some(f), Some(t)) if t >= f => Some(Rule::NotBelow { from: f, to: t }),
        (Some(_), Some(_)) => None,
        (Some(f), None) if f <= TOP_LIBRARY_LAYER => Some(Rule::UnrankedFromLibrary { from: f }),
        (Some(_), None) => None,
        (None, _) => ALLOWED_FOR_UNRANKED
            .iter()
            .find(|(name, _)| *name == from)
            .filter(|(_, allowed)| !allowed.contains(&to))
            .map(|&(_, allowed)| Rule::NotAllowed { allowed }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate's dependencies: (name, kind), kind `None` for a normal dependency.
    type Deps = Vec<(&'static str, Option<&'static str>)>;
    /// Workspace crates with their dependencies.
    type Graph = Vec<(&'static str, Deps)>;

    /// Synthetic `cargo metadata --no-deps` JSON for `crates`.
    fn metadata(crates: &Graph) -> Metadata {
        let packages: Vec<_> = crates
            .iter()
            .map(|(name, deps)| {
                let deps: Vec<_> = deps
                    .iter()
                    .map(|(dep, kind)| {
                        serde_json::json!({
                            "name": dep, "kind": kind, "req": "*",
                            "source": null, "optional": false, "uses_default_features": true,
                            "features": [], "target": null, "path": format!("/ws/crates/{dep}")
                        })
                    })
                    .collect();
                serde_json::json!({
                    "name": name, "version": "0.1.0",
                    "id": format!("path+file:///ws/crates/{name}#0.1.0"),
                    "manifest_path": format!("/ws/crates/{name}/Cargo.toml"),
                    "dependencies": deps,
                    "targets": [{"kind": ["lib"], "crate_types": ["lib"], "name": name}],
                    "features": {}
                })
            })
            .collect();
        let members: Vec<_> = crates
            .iter()
            .map(|(name, _)| format!("path+file:///ws/crates/{name}#0.1.0"))
            .collect();
        let json = serde_json::json!({
            "packages": packages, "workspace_members": members,
            "resolve": null, "target_directory": "/ws/target", "version": 1,
            "workspace_root": "/ws"
        });
        Metadata::from_json(&json.to_string()).expect("synthetic metadata parses")
    }

    const NORMAL: Option<&str> = None;
    const DEV: Option<&str> = Some("dev");
    const BUILD: Option<&str> = Some("build");

    /// The intended graph, third-party dependencies included (they are not workspace members
    /// and must be ignored).
    fn clean() -> Graph {
        vec![
            ("mcp-types", vec![("serde", NORMAL), ("proptest", DEV)]),
            (
                "mcp-jsonrpc",
                vec![("mcp-types", NORMAL), ("tokio", NORMAL)],
            ),
            (
                "mcp-transport-stdio",
                vec![("mcp-jsonrpc", NORMAL), ("mcp-types", NORMAL)],
            ),
            ("mcp-http", vec![("mcp-jsonrpc", NORMAL), ("hyper", NORMAL)]),
            (
                "mcp-transport-http",
                vec![("mcp-jsonrpc", NORMAL), ("mcp-http", NORMAL)],
            ),
            (
                "mcp-transport-sse",
                vec![("mcp-jsonrpc", NORMAL), ("mcp-http", NORMAL)],
            ),
            (
                "mcp-client",
                vec![
                    ("mcp-transport-stdio", NORMAL),
                    ("mcp-transport-http", NORMAL),
                    ("mcp-transport-sse", NORMAL),
                    ("mcp-test-server", DEV),
                ],
            ),
            ("mcp-manager", vec![("mcp-client", NORMAL)]),
            ("mcp-proxy", vec![("mcp-manager", NORMAL)]),
            (
                "mcp-cli",
                vec![
                    ("mcp-proxy", NORMAL),
                    ("mcp-manager", NORMAL),
                    ("mcp-test-server", NORMAL),
                ],
            ),
            ("mcp-test-server", vec![("mcp-types", NORMAL)]),
            ("xtask", vec![("serde_json", NORMAL)]),
        ]
    }

    fn check_graph(graph: &Graph) -> Vec<Violation> {
        check(&metadata(graph))
    }

    fn with_edge(from: &str, to: &'static str, kind: Option<&'static str>) -> Vec<Violation> {
        let mut graph = clean();
        let deps = &mut graph
            .iter_mut()
            .find(|(n, _)| *n == from)
            .expect("crate in graph")
            .1;
        deps.push((to, kind));
        check_graph(&graph)
    }

    fn messages(violations: &[Violation]) -> Vec<String> {
        violations.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn clean_graph_passes() {
        assert_eq!(check_graph(&clean()), vec![]);
    }

    #[test]
    fn upward_edge_fails_and_names_the_edge() {
        let violations = with_edge("mcp-jsonrpc", "mcp-client", NORMAL);
        assert_eq!(
            messages(&violations),
            [
                "layering violation: mcp-jsonrpc -> mcp-client (layer 1 may only depend on layers \
              below 1; mcp-client is at layer 4)"
            ]
        );
    }

    #[test]
    fn upward_build_dependency_fails() {
        let violations = with_edge("mcp-types", "mcp-jsonrpc", BUILD);
        assert_eq!(violations.len(), 1);
        assert_eq!(
            (violations[0].from.as_str(), violations[0].to.as_str()),
            ("mcp-types", "mcp-jsonrpc")
        );
    }

    #[test]
    fn sideways_transport_edge_fails() {
        let violations = with_edge("mcp-transport-http", "mcp-transport-sse", NORMAL);
        assert_eq!(
            violations,
            [Violation {
                from: "mcp-transport-http".into(),
                to: "mcp-transport-sse".into(),
                rule: Rule::NotBelow { from: 3, to: 3 },
            }]
        );
        assert!(
            violations[0]
                .to_string()
                .contains("mcp-transport-http -> mcp-transport-sse")
        );
    }

    #[test]
    fn upward_dev_dependency_is_allowed() {
        assert_eq!(with_edge("mcp-types", "mcp-client", DEV), vec![]);
        assert_eq!(with_edge("mcp-transport-stdio", "mcp-manager", DEV), vec![]);
    }

    #[test]
    fn ranked_library_depending_on_test_server_fails() {
        let violations = with_edge("mcp-client", "mcp-test-server", NORMAL);
        assert_eq!(
            messages(&violations),
            [
                "layering violation: mcp-client -> mcp-test-server (library crate at layer 4 may \
              not depend on the unranked workspace crate mcp-test-server)"
            ]
        );
    }

    #[test]
    fn ranked_library_depending_on_xtask_fails() {
        let violations = with_edge("mcp-types", "xtask", BUILD);
        assert_eq!(violations[0].rule, Rule::UnrankedFromLibrary { from: 0 });
    }

    #[test]
    fn test_server_may_depend_on_types_only() {
        let violations = with_edge("mcp-test-server", "mcp-jsonrpc", NORMAL);
        assert_eq!(
            messages(&violations),
            [
                "layering violation: mcp-test-server -> mcp-jsonrpc (mcp-test-server may only \
              depend on these workspace crates: mcp-types)"
            ]
        );
    }

    #[test]
    fn every_violation_is_reported_in_order() {
        let mut graph = clean();
        graph[0].1.push(("mcp-manager", NORMAL)); // mcp-types
        graph[2].1.push(("mcp-transport-http", NORMAL)); // mcp-transport-stdio, sideways
        graph[1].1.push(("mcp-transport-http", NORMAL)); // mcp-jsonrpc
        let edges: Vec<_> = check_graph(&graph)
            .into_iter()
            .map(|v| (v.from, v.to))
            .collect();
        assert_eq!(
            edges,
            [
                ("mcp-jsonrpc".to_owned(), "mcp-transport-http".to_owned()),
                (
                    "mcp-transport-stdio".to_owned(),
                    "mcp-transport-http".to_owned()
                ),
                ("mcp-types".to_owned(), "mcp-manager".to_owned()),
            ]
        );
    }

    #[test]
    fn mcp_http_sits_between_the_core_and_the_transports() {
        let violations = with_edge("mcp-http", "mcp-transport-http", NORMAL);
        assert_eq!(
            messages(&violations),
            [
                "layering violation: mcp-http -> mcp-transport-http (layer 2 may only depend on \
              layers below 2; mcp-transport-http is at layer 3)"
            ]
        );
        let violations = with_edge("mcp-jsonrpc", "mcp-http", NORMAL);
        assert_eq!(violations[0].rule, Rule::NotBelow { from: 1, to: 2 });
    }

    #[test]
    fn the_proxy_sits_between_the_manager_and_the_cli() {
        assert_eq!(with_edge("mcp-proxy", "mcp-client", NORMAL), vec![]);
        let violations = with_edge("mcp-manager", "mcp-proxy", NORMAL);
        assert_eq!(violations[0].rule, Rule::NotBelow { from: 5, to: 6 });
        let violations = with_edge("mcp-proxy", "mcp-cli", NORMAL);
        assert_eq!(violations[0].rule, Rule::NotBelow { from: 6, to: 7 });
        let violations = with_edge("mcp-proxy", "mcp-test-server", NORMAL);
        assert_eq!(violations[0].rule, Rule::UnrankedFromLibrary { from: 6 });
    }

    #[test]
    fn cli_is_the_top_and_may_use_everything() {
        assert_eq!(with_edge("mcp-cli", "mcp-types", NORMAL), vec![]);
        assert_eq!(with_edge("mcp-cli", "xtask", NORMAL), vec![]);
    }
}
