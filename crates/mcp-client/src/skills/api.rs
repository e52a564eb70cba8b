//! The skill methods of [`Client`]: `skills/list`, `skills/get`, and loading a skill.

use crate::Error;
use mcp_jsonrpc::RequestOptions;
use mcp_types::skills::SKILLS_EXTENSION;
use mcp_types::{
    GetSkillRequestParams, GetSkillResult, ListSkillsResult, PaginatedRequestParams,
    ReadResourceResult, SkillEntry, SkillResource, methods,
};
use serde_json::Value;

use super::{LoadedSkill, SkillError, SkillFile, frontmatter, verify};
use crate::Client;

/// The most pages `list_all_skills` follows.
const MAX_SKILL_PAGES: usize = 1_000;

impl Client {
    /// Whether the server declared the skills extension
    /// (`capabilities.extensions["io.modelcontextprotocol/skills"]`).
    pub fn supports_skills(&self) -> bool {
        self.server_capabilities()
            .extra
            .get("extensions")
            .and_then(|e| e.get(SKILLS_EXTENSION))
            .is_some_and(|v| !v.is_null())
    }

    fn require_skills(&self, method: &str) -> Result<(), Error> {
        if self.supports_skills() {
            Ok(())
        } else {
            Err(Error::CapabilityNotSupported {
                method: method.to_owned(),
                capability: "extensions.io.modelcontextprotocol/skills",
            })
        }
    }

    /// One page of `skills/list`. Reads no skill file.
    pub async fn list_skills(&self, cursor: Option<String>) -> Result<ListSkillsResult, Error> {
        self.require_skills(methods::SKILLS_LIST)?;
        match cursor {
            Some(c) => {
                let params = PaginatedRequestParams::default().with_cursor(c);
                self.request(methods::SKILLS_LIST, &params, RequestOptions::new())
                    .await
            }
            None => {
                self.request(
                    methods::SKILLS_LIST,
                    &Value::Object(Default::default()),
                    RequestOptions::new(),
                )
                .await
            }
        }
    }

    /// Every skill, following `nextCursor` (at most 1000 pages). Reads no skill file.
    pub async fn list_all_skills(&self) -> Result<Vec<SkillEntry>, Error> {
        let mut skills = Vec::new();
        let mut cursor = None;
        for _ in 0..MAX_SKILL_PAGES {
            let page = self.list_skills(cursor.take()).await?;
            skills.extend(page.skills);
            match page.next_cursor {
                Some(next) if !next.is_empty() => cursor = Some(next),
                _ => return Ok(skills),
            }
        }
        Err(Error::Protocol(format!(
            "server kept paginating skills/list past {MAX_SKILL_PAGES} pages"
        )))
    }

    /// `skills/get`: the entry of the skill whose manifest is at `uri`. Reads no skill file.
    pub async fn get_skill(&self, uri: &str) -> Result<SkillEntry, Error> {
        self.require_skills(methods::SKILLS_GET)?;
        let result: GetSkillResult = self
            .request(
                methods::SKILLS_GET,
                &GetSkillRequestParams::new(uri),
                RequestOptions::new(),
            )
            .await?;
        Ok(result.skill)
    }

    /// Load the skill `entry` describes: read SKILL.md and verify it (size, digest,
    /// frontmatter equal to the entry's), then read and verify every other file. Returns
    /// nothing unless everything checked out.
    pub async fn load_skill(&self, entry: &SkillEntry) -> Result<LoadedSkill, SkillError> {
        let files = verify::files(entry)?;
        let manifest =
            files
                .iter()
                .find(|f| f.uri == entry.uri)
                .ok_or_else(|| SkillError::InvalidEntry {
                    uri: entry.uri.clone(),
                    reason: "its files do not include the manifest".to_owned(),
                })?;
        let manifest_file = self.read_verified(entry, manifest).await?;
        let text =
            std::str::from_utf8(&manifest_file.bytes).map_err(|_| SkillError::BadFrontmatter {
                uri: entry.uri.clone(),
                reason: "SKILL.md is not UTF-8".to_owned(),
            })?;
        let parsed = frontmatter::parse(text).map_err(|reason| SkillError::BadFrontmatter {
            uri: entry.uri.clone(),
            reason,
        })?;
        let fields = frontmatter::differing_fields(&parsed.frontmatter, &entry.frontmatter);
        if !fields.is_empty() {
            return Err(SkillError::FrontmatterMismatch {
                uri: entry.uri.clone(),
                fields,
            });
        }
        let mut loaded = vec![manifest_file];
        for file in files.iter().filter(|f| f.uri != entry.uri) {
            loaded.push(self.read_verified(entry, file).await?);
        }
        Ok(LoadedSkill {
            entry: entry.clone(),
            frontmatter: parsed.frontmatter,
            instructions: parsed.body,
            files: loaded,
        })
    }

    /// Read one file and check it against its entry.
    async fn read_verified(
        &self,
        entry: &SkillEntry,
        file: &SkillResource,
    ) -> Result<SkillFile, SkillError> {
        let result: ReadResourceResult = self.read_resource(&file.uri).await?;
        let contents = match result.contents.as_slice() {
            [only] => only,
            many => many.iter().find(|c| c.uri() == file.uri).ok_or_else(|| {
                SkillError::MissingContent {
                    uri: file.uri.clone(),
                }
            })?,
        };
        let bytes = verify::bytes_of(file, contents)?;
        verify::check(file, &bytes)?;
        Ok(SkillFile {
            uri: file.uri.clone(),
            path: file
                .uri
                .strip_prefix(entry.base_uri())
                .unwrap_or(&file.uri)
                .to_owned(),
            mime_type: contents.mime_type().map(str::to_owned),
            bytes,
        })
    }
}
