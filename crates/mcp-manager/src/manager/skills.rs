//! Skills (SEP-2640) across servers: listed like tools, with the server they come from;
//! loaded (and verified) from the server that offers them.

use mcp_client::LoadedSkill;

use super::McpManager;
use crate::{ManagedSkill, ManagerError, ServerStatus};

impl McpManager {
    /// Every skill of every connected server that declares the skills extension, sorted by
    /// server then URI, asked now (`skills/list`; no skill file is read). A server whose
    /// listing fails is reported beside the others, which are still listed.
    pub async fn skills(&self) -> (Vec<ManagedSkill>, Vec<ManagerError>) {
        let mut skills = Vec::new();
        let mut problems = Vec::new();
        for (server, status) in self.statuses() {
            if status != ServerStatus::Connected {
                continue;
            }
            let Some(client) = self.client(&server) else {
                continue;
            };
            if !client.supports_skills() {
                continue;
            }
            match client.list_all_skills().await {
                Ok(entries) => skills.extend(entries.into_iter().map(|entry| ManagedSkill {
                    server: server.clone(),
                    entry,
                })),
                Err(source) => problems.push(ManagerError::client(&server, source)),
            }
        }
        skills.sort_by(|a, b| (&a.server, &a.entry.uri).cmp(&(&b.server, &b.entry.uri)));
        (skills, problems)
    }

    /// Load the skill at `uri` from `server`: its entry (`skills/get`), then every file,
    /// verified against it (see [`mcp_client::Client::load_skill`]).
    pub async fn load_skill(&self, server: &str, uri: &str) -> Result<LoadedSkill, ManagerError> {
        let client = {
            let slot = self.slot(server)?;
            let state = slot.lock();
            match (&state.status, &state.client) {
                (ServerStatus::Connected, Some(client)) => client.clone(),
                _ => return Err(slot.not_connected(&state)),
            }
        };
        let entry = client
            .get_skill(uri)
            .await
            .map_err(|e| ManagerError::client(server, e))?;
        client
            .load_skill(&entry)
            .await
            .map_err(|source| ManagerError::Skill {
                server: server.to_owned(),
                source: Box::new(source),
            })
    }
}
