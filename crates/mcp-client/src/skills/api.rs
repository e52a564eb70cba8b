//! The skill methods of [`Client`]: `skills/list`, `skills/get`, and loading a skill.

use crate::Error;
use mcp_jsonrpc::RequestOptions;
use mcp_types::skills::SKILLS_EXTENSION;
use mcp_types::{
    GetSkillRequestParams, GetSkillResult, ListSkillsResult, ReadResourceResult, SkillEntry,
    SkillResource, methods,
};

use super::{LoadedSkill, SkillError, SkillFile, frontmatter, verify};
use crate::Client;

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
        self.paged(methods::SKILLS_LIST, cursor).await
    }

    /// Every skill, following `nextCursor` within the bounds of every `list_all_*` call
    /// ([`ClientOptions::with_max_listing_bytes`](crate::ClientOptions::with_max_listing_bytes),
    /// 10,000 pages, no cursor twice; past them [`Error::PaginationAborted`]). Reads no
    /// skill file.
    pub async fn list_all_skills(&self) -> Result<Vec<SkillEntry>, Error> {
        self.require_skills(methods::SKILLS_LIST)?;
        self.all_pages(methods::SKILLS_LIST, |page: ListSkillsResult| {
            // Some servers end a listing with an empty cursor rather than none.
            let next = page.next_cursor.filter(|c| !c.is_empty());
            (page.skills, next)
        })
        .await
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
