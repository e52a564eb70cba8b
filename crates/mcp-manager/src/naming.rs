//! Stable namespaced tool names: `mcp__<server>__<tool>`.
//!
//! Model APIs accept tool names matching `^[a-zA-Z0-9_-]{1,64}$`, and an agent's prompt
//! cache breaks when names change between runs, so names are sanitized, bounded and made
//! unique deterministically: they depend only on the set of (server, tool) pairs, never on
//! which server connected first.

use std::collections::{BTreeMap, BTreeSet};

/// The longest name model APIs accept.
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// Hex digits of the hash appended to a truncated name.
const HASH_LEN: usize = 8;

/// `s` with every character outside `[A-Za-z0-9_-]` replaced by `_`.
pub fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The name for `tool` of `server` before collisions are resolved: sanitized, and when
/// longer than 64 characters cut to 55 plus `_` and a hash of the original pair, so two
/// long names that share a prefix stay apart.
pub fn base_name(server: &str, tool: &str) -> String {
    let full = format!("mcp__{}__{}", sanitize(server), sanitize(tool));
    if full.len() <= MAX_TOOL_NAME_LEN {
        return full;
    }
    let hash = fnv1a(&[server.as_bytes(), b"\0", tool.as_bytes()]);
    let keep = MAX_TOOL_NAME_LEN - HASH_LEN - 1;
    // Sanitized names are ASCII: any byte index is a character boundary.
    format!(
        "{}_{:0width$x}",
        &full[..keep],
        hash >> 32,
        width = HASH_LEN
    )
}

/// Names for every (server, tool) pair, unique and independent of input order.
///
/// Pairs are taken in (server, tool) order; the first pair with a given base name keeps it,
/// later ones get `_2`, `_3`, ... (cut to fit 64 characters), skipping any name another
/// pair has as its own base name.
pub fn assign_names<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> BTreeMap<(String, String), String> {
    let sorted: BTreeSet<(&str, &str)> = pairs.into_iter().collect();
    let bases: Vec<((&str, &str), String)> = sorted
        .iter()
        .map(|&(s, t)| ((s, t), base_name(s, t)))
        .collect();
    let reserved: BTreeSet<&str> = bases.iter().map(|(_, b)| b.as_str()).collect();
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut out = BTreeMap::new();
    for ((server, tool), base) in &bases {
        let name = if used.contains(base) {
            (2u64..)
                .map(|n| with_suffix(base, n))
                .find(|c| !used.contains(c) && !reserved.contains(c.as_str()))
                .expect("an unused suffix exists")
        } else {
            base.clone()
        };
        used.insert(name.clone());
        out.insert(((*server).to_owned(), (*tool).to_owned()), name);
    }
    out
}

fn with_suffix(base: &str, n: u64) -> String {
    let suffix = format!("_{n}");
    let keep = base.len().min(MAX_TOOL_NAME_LEN - suffix.len());
    format!("{}{suffix}", &base[..keep])
}

/// FNV-1a, 64 bit: tiny, and unlike `DefaultHasher` the same in every Rust release.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in parts.iter().flat_map(|p| p.iter()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid(name: &str) -> bool {
        !name.is_empty()
            && name.len() <= MAX_TOOL_NAME_LEN
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    }

    #[test]
    fn plain_names_are_namespaced() {
        assert_eq!(base_name("files", "read_file"), "mcp__files__read_file");
        assert_eq!(base_name("my-srv", "a-b"), "mcp__my-srv__a-b");
    }

    #[test]
    fn other_characters_become_underscores() {
        assert_eq!(
            base_name("my server.v2", "ns/tool:run é"),
            "mcp__my_server_v2__ns_tool_run__"
        );
        assert!(valid(&base_name("ü🦀", "a b")));
    }

    #[test]
    fn long_names_are_cut_to_64_with_a_stable_hash() {
        let tool_a = format!("{}_alpha", "x".repeat(80));
        let tool_b = format!("{}_beta", "x".repeat(80));
        let a = base_name("server", &tool_a);
        let b = base_name("server", &tool_b);
        assert_eq!(a.len(), MAX_TOOL_NAME_LEN);
        assert!(valid(&a) && valid(&b));
        assert_ne!(a, b, "same prefix, different tools");
        assert_eq!(a, base_name("server", &tool_a), "stable");
        assert!(a.starts_with("mcp__server__xxxx"));
        // The hash is pinned: names must not change between releases.
        assert_eq!(
            &a[55..],
            format!(
                "_{:08x}",
                fnv1a(&[b"server", b"\0", tool_a.as_bytes()]) >> 32
            )
        );
    }

    #[test]
    fn collisions_get_numbered_suffixes_in_sorted_order() {
        // "a.b" and "a_b" both sanitize to "a_b".
        let names = assign_names([("s", "a_b"), ("s", "a.b"), ("s", "a b")]);
        assert_eq!(names[&("s".into(), "a b".into())], "mcp__s__a_b");
        assert_eq!(names[&("s".into(), "a.b".into())], "mcp__s__a_b_2");
        assert_eq!(names[&("s".into(), "a_b".into())], "mcp__s__a_b_3");
    }

    #[test]
    fn suffixes_never_take_another_tools_own_name() {
        let names = assign_names([("s", "t.x"), ("s", "t_x"), ("s", "t_x_2")]);
        let values: BTreeSet<_> = names.values().cloned().collect();
        assert_eq!(values.len(), 3);
        assert_eq!(names[&("s".into(), "t_x_2".into())], "mcp__s__t_x_2");
        assert_eq!(names[&("s".into(), "t_x".into())], "mcp__s__t_x_3");
    }

    #[test]
    fn server_names_collide_too_and_order_does_not_matter() {
        let forward = assign_names([("a.b", "t"), ("a_b", "t"), ("c", "t")]);
        let backward = assign_names([("c", "t"), ("a_b", "t"), ("a.b", "t")]);
        assert_eq!(forward, backward);
        assert_eq!(forward[&("a.b".into(), "t".into())], "mcp__a_b__t");
        assert_eq!(forward[&("a_b".into(), "t".into())], "mcp__a_b__t_2");
    }

    #[test]
    fn suffixed_long_names_stay_within_64() {
        let long = "y".repeat(100);
        let t1 = format!("{long}.");
        let t2 = format!("{long}_");
        // Different originals: different hashes, no collision at all.
        let names = assign_names([("s", t1.as_str()), ("s", t2.as_str())]);
        assert!(names.values().all(|n| valid(n)));
        assert_ne!(
            names[&("s".into(), t1.clone())],
            names[&("s".into(), t2.clone())]
        );
        assert_eq!(with_suffix(&"z".repeat(64), 12).len(), 64);
        assert!(with_suffix(&"z".repeat(64), 12).ends_with("_12"));
    }
}
