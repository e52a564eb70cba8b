//! The host's handshake, whatever the servers speak: legacy `initialize`
//! (`basic/lifecycle`), or 2026-07-28 `server/discover`. The first host to finish it
//! starts the upstream servers; a transparent proxy then answers with its server's own
//! description, and fails the handshake with that server's error when it could not
//! connect (for a server that needs a login: the command that fixes it).

use std::sync::Arc;

use mcp_types::{
    DiscoverResult, Era, Implementation, InitializeRequestParams, InitializeResult,
    LATEST_PROTOCOL_VERSION, META_SERVER_INFO, RawValue, is_supported_version,
};

use super::Host;
use super::modern::{ModernMeta, supported_versions};
use crate::reply::{self, Answer};
use crate::upstream::Upstreams;

impl Host {
    /// `initialize`: the revision (the host's when the proxy speaks it, else the newest
    /// legacy one), then the servers' description.
    pub(super) async fn initialize(self: &Arc<Self>, params: Option<&RawValue>) -> Answer {
        let params: InitializeRequestParams = reply::params(params)?;
        let version = if is_supported_version(&params.protocol_version) {
            params.protocol_version.clone()
        } else {
            LATEST_PROTOCOL_VERSION.to_owned()
        };
        self.set_handshake(Era::Legacy, params.capabilities.clone());
        let upstreams = self
            .core
            .start(&params.capabilities, &params.client_info)
            .await;
        let mut result = self.description(&upstreams)?;
        result.protocol_version = version;
        reply::encode(&result)
    }

    /// `server/discover`: the revisions the proxy speaks, and the servers' description.
    pub(super) async fn discover(self: &Arc<Self>, meta: Option<ModernMeta>) -> Answer {
        let capabilities = meta.map(|m| m.capabilities).unwrap_or_default();
        let upstreams = self.start_modern(&capabilities).await;
        let description = self.description(&upstreams)?;
        let mut result = DiscoverResult::new(supported_versions(), description.capabilities);
        result.instructions = description.instructions;
        let mut meta = mcp_types::Meta::new();
        meta.insert(
            META_SERVER_INFO.to_owned(),
            serde_json::to_value(&description.server_info).unwrap_or_default(),
        );
        result.meta = Some(meta);
        reply::encode(&result)
    }

    /// A 2026-07-28 host (it has no handshake of its own): the servers, started with
    /// what its first request declared.
    pub(super) async fn start_modern(
        self: &Arc<Self>,
        capabilities: &mcp_types::ClientCapabilities,
    ) -> Arc<Upstreams> {
        if self.era().is_none() {
            self.set_handshake(Era::Modern, capabilities.clone());
            // Nothing to wait for: the servers' questions ride in its results.
            self.initialized.send_replace(true);
        }
        let info = Implementation::new("mcp-proxy-host", env!("CARGO_PKG_VERSION"));
        self.core.start(capabilities, &info).await
    }

    /// What the host is told: the one server's description (or why it is not there), or
    /// the gateway's, whose instructions name the servers that could not connect and why
    /// (a server that needs a login: the command that fixes it).
    fn description(
        &self,
        upstreams: &Upstreams,
    ) -> Result<InitializeResult, mcp_types::ErrorObject> {
        if let Some(server) = upstreams.only() {
            if upstreams.manager().client(server).is_none()
                && let Some(error) = self.core.failure(server)
            {
                return Err(error);
            }
            return Ok(upstreams.describe(&self.core.options.server_info));
        }
        let mut result = upstreams.describe(&self.core.options.server_info);
        let available = upstreams.available();
        let mut failures = self.core.failures();
        failures.retain(|(server, _)| !available.contains(server));
        if !failures.is_empty() {
            let lines: Vec<String> = failures
                .iter()
                .map(|(server, error)| format!("- {server}: {}", error.message))
                .collect();
            let missing = format!("Servers not available:\n{}", lines.join("\n"));
            result.instructions = Some(match result.instructions.take() {
                Some(text) => format!("{text}\n\n{missing}"),
                None => missing,
            });
        }
        Ok(result)
    }
}
