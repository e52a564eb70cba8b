//! [`CredentialProvider`] as the HTTP transports' auth-error hook.

use mcp_http::AuthHook;
use mcp_jsonrpc::BoxFuture;

use super::CredentialProvider;

impl AuthHook for CredentialProvider {
    fn on_auth_error<'a>(
        &'a self,
        status: u16,
        _www_authenticate: Option<&'a str>,
    ) -> BoxFuture<'a, Option<Vec<(String, String)>>> {
        tracing::debug!(target: "mcp::manager::auth", status, "server refused the credentials; refreshing");
        Box::pin(self.refresh_after_auth_error())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::auth::Token;

    #[tokio::test]
    async fn the_hook_refreshes() {
        let provider: Arc<dyn AuthHook> =
            Arc::new(CredentialProvider::refreshable(Arc::new(|| {
                Box::pin(async { Ok(Token::bearer("new")) })
            })));
        let headers = provider
            .on_auth_error(401, Some("Bearer error=\"invalid_token\""))
            .await;
        assert_eq!(
            headers.unwrap(),
            [("Authorization".to_owned(), "Bearer new".to_owned())]
        );
    }
}
