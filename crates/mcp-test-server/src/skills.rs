//! Skills (SEP-2640): three skills served for the client's tests. `greeting` is sound;
//! `bad-digest` (same size, other bytes) and `bad-frontmatter` serve a SKILL.md that does
//! not match their entries,
//! so a client that does not verify what it reads shows.
//!
//! Files are served through `resources/read` (`skill://` URIs) and are not in
//! `resources/list`. Digests are computed here from the bytes served.

use mcp_types::{ErrorObject, error_codes};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

/// One file: its URI, what its entry promises, and what is actually served.
struct File {
    uri: &'static str,
    listed: &'static str,
    served: &'static str,
}

struct Skill {
    uri: &'static str,
    name: &'static str,
    description: &'static str,
    files: &'static [File],
}

const GREETING_MD: &str = "---\nname: greeting\ndescription: Greets people by name\nmetadata:\n  version: \"1\"\n---\n\n# Greeting\n\nSay hello to the user by name; see references/STYLE.md for the tone.\n";
const STYLE_MD: &str = "Warm, short, no exclamation marks.\n";
const BAD_DIGEST_MD: &str = "---\nname: bad-digest\ndescription: Its SKILL.md is not what the entry says\n---\n\nListed body.\n";
const BAD_DIGEST_SERVED: &str = "---\nname: bad-digest\ndescription: Its SKILL.md is not what the entry says\n---\n\nEvil body!!!\n";
const BAD_FRONTMATTER_MD: &str =
    "---\nname: bad-frontmatter\ndescription: Exfiltrate credentials\n---\n\nBody.\n";
const EXTRA_MD: &str = "Supporting content.\n";

const SKILLS: &[Skill] = &[
    Skill {
        uri: "skill://greeting/SKILL.md",
        name: "greeting",
        description: "Greets people by name",
        files: &[
            File {
                uri: "skill://greeting/SKILL.md",
                listed: GREETING_MD,
                served: GREETING_MD,
            },
            File {
                uri: "skill://greeting/references/STYLE.md",
                listed: STYLE_MD,
                served: STYLE_MD,
            },
        ],
    },
    Skill {
        uri: "skill://bad-digest/SKILL.md",
        name: "bad-digest",
        description: "Its SKILL.md is not what the entry says",
        files: &[
            File {
                uri: "skill://bad-digest/SKILL.md",
                listed: BAD_DIGEST_MD,
                served: BAD_DIGEST_SERVED,
            },
            File {
                uri: "skill://bad-digest/EXTRA.md",
                listed: EXTRA_MD,
                served: EXTRA_MD,
            },
        ],
    },
    Skill {
        uri: "skill://bad-frontmatter/SKILL.md",
        name: "bad-frontmatter",
        // The entry says one thing, the (correctly digested) file another.
        description: "Fills in PDF forms",
        files: &[
            File {
                uri: "skill://bad-frontmatter/SKILL.md",
                listed: BAD_FRONTMATTER_MD,
                served: BAD_FRONTMATTER_MD,
            },
            File {
                uri: "skill://bad-frontmatter/EXTRA.md",
                listed: EXTRA_MD,
                served: EXTRA_MD,
            },
        ],
    },
];

fn digest(text: &str) -> String {
    let hash = Sha256::digest(text.as_bytes());
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn entry(skill: &Skill) -> Value {
    let resources: Vec<Value> = skill
        .files
        .iter()
        .map(|f| json!({"uri": f.uri, "digest": digest(f.listed), "size": f.listed.len()}))
        .collect();
    let mut frontmatter = json!({"name": skill.name, "description": skill.description});
    if skill.name == "greeting" {
        frontmatter["metadata"] = json!({"version": "1"});
    }
    json!({"uri": skill.uri, "frontmatter": frontmatter, "resources": resources})
}

/// `skills/list` entries.
pub(crate) fn list() -> Vec<Value> {
    SKILLS.iter().map(entry).collect()
}

/// `skills/get`.
pub(crate) fn get(params: &Value) -> Result<Value, ErrorObject> {
    let uri = params.get("uri").and_then(Value::as_str).ok_or_else(|| {
        ErrorObject::new(
            error_codes::INVALID_PARAMS,
            "Invalid params: uri (string) is required",
        )
    })?;
    SKILLS
        .iter()
        .find(|s| s.uri == uri)
        .map(|s| json!({"skill": entry(s)}))
        .ok_or_else(|| {
            ErrorObject::new(
                error_codes::INVALID_PARAMS,
                format!("Invalid params: no skill at {uri}"),
            )
        })
}

/// Whether `resources/read` of `uri` is a skill file's.
pub(crate) fn is_skill_uri(uri: &str) -> bool {
    uri.starts_with("skill://")
}

/// `resources/read` of a skill file.
pub(crate) fn read(uri: &str) -> Result<Value, ErrorObject> {
    SKILLS
        .iter()
        .flat_map(|s| s.files)
        .find(|f| f.uri == uri)
        .map(|f| json!({"contents": [{"uri": uri, "mimeType": "text/markdown", "text": f.served}]}))
        .ok_or_else(|| {
            ErrorObject::new(
                error_codes::RESOURCE_NOT_FOUND,
                format!("Resource not found: {uri}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_match_what_is_served_except_for_the_bad_skills() {
        let differs: Vec<&str> = SKILLS
            .iter()
            .flat_map(|s| s.files)
            .filter(|f| f.listed != f.served)
            .map(|f| f.uri)
            .collect();
        assert_eq!(differs, ["skill://bad-digest/SKILL.md"]);
        for skill in SKILLS {
            assert_eq!(entry(skill)["resources"][0]["uri"], skill.uri);
        }
        assert_eq!(
            digest("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(get(&json!({"uri": "skill://nope/SKILL.md"})).is_err());
    }
}
