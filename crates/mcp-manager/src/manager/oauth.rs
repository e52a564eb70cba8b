//! OAuth 2.1 for remote servers (feature `oauth`): one `OAuthProvider` per server, kept
//! across reconnects (its refresh and login state live there), tokens in the store the
//! application chose (by default a private file store in the platform config directory),
//! and no browser unless the application gave a visitor.

use mcp_types::sync::lock;
use std::sync::{Arc, Mutex, OnceLock};

use mcp_client::ServerConfig;
use mcp_client::oauth::{
    Assertion, AuthState, AuthorizationVisitor, DpopMode, FileTokenStore, Grant, MemoryTokenStore,
    OAuthConfig, OAuthProvider, Secret, TokenStore,
};
use mcp_http::{HttpClient, HttpClientOptions};

use super::slot::Slot;
use super::{Inner, McpManager};
use crate::ManagerError;
use crate::config::{OAuthGrant, OAuthSettings};

/// What the application decides about OAuth (see the `with_token_store` and
/// `with_authorization_visitor` methods of [`ManagerOptions`](crate::ManagerOptions)).
#[derive(Clone, Default)]
pub(crate) struct OAuthSetup {
    /// `None`: [`FileTokenStore::in_config_dir`], else memory.
    pub(crate) store: Option<Arc<dyn TokenStore>>,
    /// `None`: no authorization that needs a person runs while connecting.
    pub(crate) visitor: Option<Arc<dyn AuthorizationVisitor>>,
    /// `false`: no OAuth provider is installed at all.
    pub(crate) disabled: bool,
}

/// The provider of one server, with the URL it was made for (a changed URL makes a new one).
#[derive(Default)]
pub(crate) struct SlotOAuth {
    provider: Mutex<Option<(String, Arc<OAuthProvider>)>>,
}

/// The default store, made once per process.
fn default_store() -> Arc<dyn TokenStore> {
    static STORE: OnceLock<Arc<dyn TokenStore>> = OnceLock::new();
    Arc::clone(STORE.get_or_init(|| match FileTokenStore::in_config_dir() {
        Ok(store) => Arc::new(store),
        Err(e) => {
            tracing::warn!(target: "mcp::manager", error = %mcp_types::error_chain(&e), "no token directory: OAuth tokens are kept in memory only");
            Arc::new(MemoryTokenStore::new())
        }
    }))
}

/// Whether the configured headers already authenticate (then OAuth stays out of the way).
fn has_authorization_header(config: &ServerConfig) -> bool {
    config
        .headers
        .keys()
        .any(|name| name.eq_ignore_ascii_case("authorization"))
}

/// The library's configuration for these (expanded) settings.
pub(crate) fn oauth_config(settings: Option<&OAuthSettings>) -> OAuthConfig {
    let mut config = OAuthConfig::new();
    let Some(s) = settings else {
        return config;
    };
    config.client_id.clone_from(&s.client_id);
    config.client_secret = s.client_secret.clone().map(Secret::from);
    config.scopes.clone_from(&s.scopes);
    config.callback_port = s.callback_port;
    config.client_metadata_url = s
        .client_metadata_url
        .as_deref()
        .and_then(|u| u.parse().ok());
    config.auth_server_metadata_url = s
        .auth_server_metadata_url
        .as_deref()
        .and_then(|u| u.parse().ok());
    config.grant = match s.grant {
        OAuthGrant::ClientCredentials => Grant::ClientCredentials,
        OAuthGrant::JwtBearer => Grant::JwtBearer,
        _ => Grant::AuthorizationCode,
    };
    config.private_key_file.clone_from(&s.private_key_file);
    config.assertion = s.assertion_file.clone().map(Assertion::File);
    if s.dpop {
        config.dpop = DpopMode::IfSupported;
    }
    config
}

impl Inner {
    /// The server's provider, made on first use (`None` for a server OAuth does not apply
    /// to: stdio, explicit credentials, an `Authorization` header, OAuth disabled).
    pub(crate) async fn oauth_provider(
        &self,
        slot: &Slot,
        config: &ServerConfig,
    ) -> Result<Option<Arc<OAuthProvider>>, ManagerError> {
        let setup = &self.options.oauth;
        let remote = slot.is_remote();
        if setup.disabled
            || !remote
            || slot.credentials().is_some()
            || has_authorization_header(config)
        {
            return Ok(None);
        }
        let Some(url) = config.url.clone() else {
            return Ok(None);
        };
        if let Some((for_url, provider)) = &*lock(&slot.oauth.provider)
            && *for_url == url
        {
            return Ok(Some(Arc::clone(provider)));
        }
        let settings = slot
            .entry
            .resolve_oauth(&*self.options.env)
            .map_err(|source| ManagerError::Config {
                server: slot.name.clone(),
                source: Box::new(source),
            })?;
        let oauth_error = |source| ManagerError::OAuth {
            server: slot.name.clone(),
            source,
        };
        // A URL that does not parse is the transport's to report, with its own hints.
        let Ok(parsed) = url.parse() else {
            return Ok(None);
        };
        let http = HttpClient::new_async(&HttpClientOptions::new())
            .await
            .map_err(|e| ManagerError::client(&slot.name, e.into()))?;
        let store = setup.store.clone().unwrap_or_else(default_store);
        let mut provider = OAuthProvider::new(parsed, oauth_config(settings.as_ref()), http)
            .map_err(oauth_error)?
            .with_store(store);
        if let Some(visitor) = &setup.visitor {
            provider = provider.with_visitor(Arc::clone(visitor));
        }
        let provider = Arc::new(provider);
        *lock(&slot.oauth.provider) = Some((url, Arc::clone(&provider)));
        Ok(Some(provider))
    }

    async fn provider_for(&self, slot: &Slot) -> Result<Arc<OAuthProvider>, ManagerError> {
        let config =
            slot.entry
                .resolve(&*self.options.env)
                .map_err(|source| ManagerError::Config {
                    server: slot.name.clone(),
                    source: Box::new(source),
                })?;
        self.oauth_provider(slot, &config).await?.ok_or_else(|| {
            ManagerError::OAuth {
                server: slot.name.clone(),
                source: mcp_client::oauth::AuthError::Discovery(
                    "OAuth does not apply to this server (a local server, explicit credentials or an Authorization header)".to_owned(),
                ),
            }
        })
    }
}

impl McpManager {
    /// Log in to a remote server now: discovery, registration and the authorization with
    /// `visitor` (for example a `LoopbackVisitor` that opens the browser), else the one in
    /// the options. The tokens go to the token store. The server is not connected by this:
    /// call [`connect_server`](Self::connect_server) or
    /// [`reconnect_server`](Self::reconnect_server) next.
    pub async fn login(
        &self,
        name: &str,
        visitor: Option<Arc<dyn AuthorizationVisitor>>,
    ) -> Result<(), ManagerError> {
        let slot = self.slot(name)?;
        let provider = self.inner.provider_for(&slot).await?;
        provider
            .login_with(visitor.as_deref())
            .await
            .map_err(|source| ManagerError::OAuth {
                server: name.to_owned(),
                source,
            })
    }

    /// Forget a remote server's tokens (in the store too). Its registered client is kept.
    pub async fn logout(&self, name: &str) -> Result<(), ManagerError> {
        let slot = self.slot(name)?;
        let provider = self.inner.provider_for(&slot).await?;
        provider
            .logout()
            .await
            .map_err(|source| ManagerError::OAuth {
                server: name.to_owned(),
                source,
            })
    }

    /// The auth hook the manager gives `name`'s connections (its OAuth provider), for an
    /// application that connects a [`Client`](mcp_client::Client) of its own to the same
    /// server; `None` when OAuth does not apply to it.
    pub async fn oauth_hook(
        &self,
        name: &str,
    ) -> Result<Option<Arc<dyn mcp_http::AuthHook>>, ManagerError> {
        let slot = self.slot(name)?;
        let config = slot
            .entry
            .resolve(&*self.inner.options.env)
            .map_err(|source| ManagerError::Config {
                server: slot.name.clone(),
                source: Box::new(source),
            })?;
        let provider = self.inner.oauth_provider(&slot, &config).await?;
        Ok(provider.map(|p| p as Arc<dyn mcp_http::AuthHook>))
    }

    /// The `oauth` settings of `name` as configured (unexpanded), if any.
    pub fn oauth_settings(&self, name: &str) -> Option<OAuthSettings> {
        self.slot(name).ok()?.entry.oauth.clone()
    }

    /// Where a server's authorization stands (from the token store until it connects);
    /// `None` when OAuth does not apply to it (a local server, explicit credentials, an
    /// `Authorization` header) or it cannot be set up.
    pub async fn auth_state(&self, name: &str) -> Option<AuthState> {
        let slot = self.slot(name).ok()?;
        match self.inner.provider_for(&slot).await {
            Ok(provider) => Some(provider.state()),
            Err(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_jwt_bearer_grant_and_dpop_reach_the_library_config() {
        let settings = OAuthSettings {
            grant: OAuthGrant::JwtBearer,
            client_id: Some("w".to_owned()),
            assertion_file: Some("/var/run/token".into()),
            dpop: true,
            ..OAuthSettings::default()
        };
        let config = oauth_config(Some(&settings));
        assert_eq!(config.grant, Grant::JwtBearer);
        assert_eq!(
            config.assertion,
            Some(Assertion::File("/var/run/token".into()))
        );
        assert_eq!(config.dpop, DpopMode::IfSupported);
        assert_eq!(oauth_config(None).dpop, DpopMode::Off);
    }
}
