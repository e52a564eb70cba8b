//! What the host lists: the tools, prompts and resources the manager holds for every
//! connected (or reconnecting) server, filtered by each server's `enabledTools` /
//! `disabledTools`; in a gateway, tools and prompts under their namespaced names.

use mcp_types::{Prompt, Resource, ResourceTemplate, Tool};

use super::{Mode, Upstreams};

impl Upstreams {
    /// Every tool, as the host calls it.
    pub(crate) fn tools(&self) -> Vec<Tool> {
        let gateway = self.mode == Mode::Gateway;
        self.manager
            .tools()
            .into_iter()
            .map(|managed| {
                let mut tool = managed.tool;
                if gateway {
                    tool.name = managed.name;
                }
                tool
            })
            .collect()
    }

    /// The tool the host calls `name`, copied alone (a check made on every call).
    pub(crate) fn tool(&self, name: &str) -> Option<Tool> {
        match &self.mode {
            Mode::Transparent(server) => self.manager.server_tool(server, name),
            Mode::Gateway => self.manager.tool(name).map(|managed| {
                let mut tool = managed.tool;
                tool.name = managed.name;
                tool
            }),
        }
    }

    /// Every prompt, as the host gets it.
    pub(crate) fn prompts(&self) -> Vec<Prompt> {
        let prompts = self.manager.prompts();
        if self.mode != Mode::Gateway {
            return prompts.into_iter().map(|(_, prompt)| prompt).collect();
        }
        let names = super::route::prompt_names(&prompts);
        let mut renamed: Vec<Prompt> = prompts
            .into_iter()
            .map(|(server, mut prompt)| {
                if let Some(name) = names.get(&(server, prompt.name.clone())) {
                    prompt.name = name.clone();
                }
                prompt
            })
            .collect();
        renamed.sort_by(|a, b| a.name.cmp(&b.name));
        renamed
    }

    /// Every resource, under its own URI.
    pub(crate) fn resources(&self) -> Vec<Resource> {
        self.manager
            .resources()
            .into_iter()
            .map(|(_, resource)| resource)
            .collect()
    }

    /// Every resource template of every available server, asked of each now (the manager
    /// does not keep them); a server that fails is left out.
    pub(crate) async fn resource_templates(
        &self,
    ) -> Result<Vec<ResourceTemplate>, mcp_types::ErrorObject> {
        Ok(self
            .templates_by_server()
            .await?
            .into_iter()
            .flat_map(|(_, templates)| templates)
            .collect())
    }

    /// [`resource_templates`](Self::resource_templates) with each server's name.
    pub(crate) async fn templates_by_server(
        &self,
    ) -> Result<Vec<(String, Vec<ResourceTemplate>)>, mcp_types::ErrorObject> {
        let mut out = Vec::new();
        for server in self.available() {
            let Ok(client) = self.client(&server).await else {
                continue;
            };
            if client.server_capabilities().resources.is_none() {
                continue;
            }
            match client.list_all_resource_templates().await {
                Ok(templates) => out.push((server, templates)),
                // One server's answer stands alone as it is when there is only one.
                Err(e) if self.only().is_some() => return Err(self.client_error(&server, &e)),
                Err(e) => {
                    tracing::warn!(target: "mcp::proxy", %server, error = %crate::reply::cause(&e), "could not list resource templates");
                }
            }
        }
        Ok(out)
    }
}
