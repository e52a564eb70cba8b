//! Which server a request of the host goes to: by a tool's or a prompt's name (namespaced
//! in a gateway), or by a resource's URI (the server that lists it, else the server one of
//! whose templates it fits).

use std::collections::BTreeMap;

use mcp_manager::naming::assign_names;
use mcp_types::{ErrorObject, Prompt, error_codes};

use super::{Mode, Upstreams};

/// The namespaced name of each (server, prompt): `mcp__<server>__<prompt>`, by the same
/// rules as tool names.
pub(super) fn prompt_names(prompts: &[(String, Prompt)]) -> BTreeMap<(String, String), String> {
    assign_names(
        prompts
            .iter()
            .map(|(server, prompt)| (server.as_str(), prompt.name.as_str())),
    )
}

impl Upstreams {
    /// The (server, tool name) a host's tool name stands for.
    pub(crate) fn tool_target(&self, name: &str) -> Result<(String, String), ErrorObject> {
        match &self.mode {
            Mode::Transparent(server) => Ok((server.clone(), name.to_owned())),
            // Without copying the tool list: this runs on every call.
            Mode::Gateway => self
                .manager
                .find_tool(name)
                .ok_or_else(|| unknown("tool", name)),
        }
    }

    /// The (server, prompt name) a host's prompt name stands for.
    pub(crate) fn prompt_target(&self, name: &str) -> Result<(String, String), ErrorObject> {
        match &self.mode {
            Mode::Transparent(server) => Ok((server.clone(), name.to_owned())),
            Mode::Gateway => prompt_names(&self.manager.prompts())
                .into_iter()
                .find(|(_, assigned)| assigned == name)
                .map(|(pair, _)| pair)
                .ok_or_else(|| unknown("prompt", name)),
        }
    }

    /// The server a resource URI belongs to: the one listing it, else the one with the
    /// longest template prefix it starts with (the part before the first `{`).
    pub(crate) async fn resource_target(&self, uri: &str) -> Result<String, ErrorObject> {
        if let Mode::Transparent(server) = &self.mode {
            return Ok(server.clone());
        }
        if let Some((server, _)) = self
            .manager
            .resources()
            .into_iter()
            .find(|(_, resource)| resource.uri == uri)
        {
            return Ok(server);
        }
        let templates = self.templates_by_server().await?;
        templates
            .iter()
            .flat_map(|(server, list)| list.iter().map(move |t| (server, t)))
            .filter_map(|(server, template)| {
                let prefix = template.uri_template.split('{').next().unwrap_or_default();
                (!prefix.is_empty() && uri.starts_with(prefix)).then_some((prefix.len(), server))
            })
            .max_by_key(|(len, _)| *len)
            .map(|(_, server)| server.clone())
            .ok_or_else(|| {
                ErrorObject::new(
                    error_codes::RESOURCE_NOT_FOUND,
                    format!("Resource not found: no server offers {uri}"),
                )
            })
    }
}

/// -32602 naming what the host asked for.
fn unknown(what: &str, name: &str) -> ErrorObject {
    ErrorObject::new(
        error_codes::INVALID_PARAMS,
        format!("Unknown {what}: {name}"),
    )
}
