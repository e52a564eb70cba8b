//! The checks a skill's entry and files must pass before any content is handed out.

use base64::Engine as _;
use mcp_types::skills::{MAX_SKILL_RESOURCES, MAX_SKILL_TOTAL_SIZE};
use mcp_types::{ResourceContents, SkillEntry, SkillResource, SkillResources};
use sha2::{Digest as _, Sha256};

use super::SkillError;

/// The entry's files, once the entry obeys the rules: a list (not `"dynamic"`) that holds
/// the manifest, every file once and under the skill's directory, well-formed digests,
/// within 512 files and 16 MiB.
pub(crate) fn files(entry: &SkillEntry) -> Result<&[SkillResource], SkillError> {
    let invalid = |reason: String| SkillError::InvalidEntry {
        uri: entry.uri.clone(),
        reason,
    };
    let files = match &entry.resources {
        SkillResources::Files(files) => files.as_slice(),
        SkillResources::Marker(marker) => {
            return Err(SkillError::Unverifiable {
                uri: entry.uri.clone(),
                marker: marker.clone(),
            });
        }
        _ => return Err(invalid("unknown resources shape".to_owned())),
    };
    if !entry.uri.starts_with("skill://") {
        return Err(invalid("the uri is not a skill:// URI".to_owned()));
    }
    if files.len() > MAX_SKILL_RESOURCES {
        return Err(invalid(format!(
            "{} files, more than {MAX_SKILL_RESOURCES}",
            files.len()
        )));
    }
    let total = files
        .iter()
        .try_fold(0_u64, |sum, f| sum.checked_add(f.size))
        .unwrap_or(u64::MAX);
    if total > MAX_SKILL_TOTAL_SIZE {
        return Err(invalid(format!(
            "{total} bytes in all, more than {MAX_SKILL_TOTAL_SIZE}"
        )));
    }
    if !files.iter().any(|f| f.uri == entry.uri) {
        return Err(invalid("its files do not include the manifest".to_owned()));
    }
    let base = entry.base_uri();
    for (i, file) in files.iter().enumerate() {
        if files[..i].iter().any(|f| f.uri == file.uri) {
            return Err(invalid(format!("{} is listed twice", file.uri)));
        }
        let inside = file
            .uri
            .strip_prefix(base)
            .is_some_and(|rest| !rest.is_empty() && rest.split('/').all(is_plain_segment));
        if !inside {
            return Err(invalid(format!("{} is not inside {base}", file.uri)));
        }
        if !is_sha256_digest(&file.digest) {
            return Err(invalid(format!(
                "{}: digest {:?} is not sha256:<64 lowercase hex digits>",
                file.uri, file.digest
            )));
        }
    }
    Ok(files)
}

/// A path segment that names a file or directory: not empty, `.`, `..`, nor with a
/// backslash (so a saved copy cannot land outside its directory).
fn is_plain_segment(segment: &str) -> bool {
    !matches!(segment, "" | "." | "..") && !segment.contains('\\')
}

fn is_sha256_digest(digest: &str) -> bool {
    digest.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// `sha256:<hex>` of `bytes`.
pub(crate) fn digest_of(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in hash {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// The bytes of one `resources/read` content (text as UTF-8, blob decoded).
pub(crate) fn bytes_of(
    file: &SkillResource,
    contents: &ResourceContents,
) -> Result<Vec<u8>, SkillError> {
    match contents {
        ResourceContents::Text(text) => Ok(text.text.as_bytes().to_vec()),
        ResourceContents::Blob(blob) => base64::engine::general_purpose::STANDARD
            .decode(blob.blob.as_bytes())
            .map_err(|e| SkillError::BadContent {
                uri: file.uri.clone(),
                reason: format!("the blob is not valid base64: {e}"),
            }),
        _ => Err(SkillError::BadContent {
            uri: file.uri.clone(),
            reason: "unknown contents shape".to_owned(),
        }),
    }
}

/// Check `bytes` against the file's size, then its digest.
pub(crate) fn check(file: &SkillResource, bytes: &[u8]) -> Result<(), SkillError> {
    let actual = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if actual != file.size {
        return Err(SkillError::SizeMismatch {
            uri: file.uri.clone(),
            expected: file.size,
            actual,
        });
    }
    let digest = digest_of(bytes);
    if digest != file.digest {
        return Err(SkillError::DigestMismatch {
            uri: file.uri.clone(),
            expected: file.digest.clone(),
            actual: digest,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(resources: serde_json::Value) -> SkillEntry {
        serde_json::from_value(json!({
            "uri": "skill://pdf/SKILL.md",
            "frontmatter": {"name": "pdf", "description": "d"},
            "resources": resources,
        }))
        .unwrap()
    }

    fn file(uri: &str, content: &[u8]) -> serde_json::Value {
        json!({"uri": uri, "digest": digest_of(content), "size": content.len()})
    }

    #[test]
    fn the_digest_is_sha256_hex() {
        assert_eq!(
            digest_of(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_good_entry_passes_and_bad_ones_are_refused() {
        let good = entry(json!([
            file("skill://pdf/SKILL.md", b"x"),
            file("skill://pdf/ref/A.md", b"y")
        ]));
        assert_eq!(files(&good).unwrap().len(), 2);
        for bad in [
            json!([file("skill://pdf/ref/A.md", b"y")]),
            json!([
                file("skill://pdf/SKILL.md", b"x"),
                file("skill://other/A.md", b"y")
            ]),
            json!([
                file("skill://pdf/SKILL.md", b"x"),
                file("skill://pdf/../A.md", b"y")
            ]),
            json!([
                file("skill://pdf/SKILL.md", b"x"),
                file("skill://pdf/SKILL.md", b"x")
            ]),
            json!([{"uri": "skill://pdf/SKILL.md", "digest": "md5:00", "size": 1}]),
            json!([{"uri": "skill://pdf/SKILL.md", "digest": digest_of(b"x"), "size": MAX_SKILL_TOTAL_SIZE + 1}]),
        ] {
            assert!(
                matches!(
                    files(&entry(bad.clone())),
                    Err(SkillError::InvalidEntry { .. })
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            files(&entry(json!("dynamic"))),
            Err(SkillError::Unverifiable { .. })
        ));
    }

    #[test]
    fn size_is_checked_before_the_digest() {
        let f = SkillResource::new("skill://pdf/SKILL.md", digest_of(b"abc"), 3);
        assert!(check(&f, b"abc").is_ok());
        assert!(matches!(
            check(&f, b"abcd"),
            Err(SkillError::SizeMismatch { actual: 4, .. })
        ));
        assert!(matches!(
            check(&f, b"abd"),
            Err(SkillError::DigestMismatch { .. })
        ));
    }
}
