//! Step-up on 403 `insufficient_scope`, bounded across requests: against
//! `mcp-test-server --oauth --oauth-step-up-tool add --oauth-step-up-never` (a resource
//! that refuses the tool even with the scope it names), the client authorizes again once,
//! then every later call fails at once with a typed error instead of authorizing again on
//! every request. A new login allows one more try.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_client::Error;
use mcp_client::oauth::{
    AuthError, AuthorizationResponse, AuthorizationVisitor, HeadlessVisitor, HttpClient,
    HttpClientOptions, OAuthConfig, OAuthProvider,
};
use mcp_integration_tests::{HttpServer, bounded, options};
use mcp_jsonrpc::BoxFuture;
use serde_json::json;
use url::Url;

/// The real headless visitor, counting the authorizations it runs.
struct Counting {
    inner: HeadlessVisitor,
    visits: AtomicUsize,
}

impl AuthorizationVisitor for Counting {
    fn redirect_uri(&self) -> &Url {
        self.inner.redirect_uri()
    }

    fn visit<'a>(
        &'a self,
        authorization_url: &'a Url,
    ) -> BoxFuture<'a, Result<AuthorizationResponse, AuthError>> {
        self.visits.fetch_add(1, Ordering::SeqCst);
        self.inner.visit(authorization_url)
    }
}

async fn provider(server: &HttpServer) -> (Arc<OAuthProvider>, Arc<Counting>) {
    let http = HttpClient::new_async(&HttpClientOptions::new())
        .await
        .unwrap();
    let visitor = Arc::new(Counting {
        inner: HeadlessVisitor::new(http.clone()),
        visits: AtomicUsize::new(0),
    });
    let provider = OAuthProvider::new(server.url.parse().unwrap(), OAuthConfig::new(), http)
        .unwrap()
        .with_visitor(Arc::clone(&visitor) as Arc<dyn AuthorizationVisitor>);
    (Arc::new(provider), visitor)
}

fn is_step_up_refusal(error: &Error) -> bool {
    // Why is the OAuth client's own error, the cause: the chain says it.
    let why = mcp_types::error_chain(error).to_string();
    matches!(
        error.http_error(),
        Some(mcp_http::Error::Authorization {
            login_required: false,
            ..
        })
    ) && why.contains("insufficient_scope")
        && why.contains("mcp:admin")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_refusing_every_step_up_gets_one_re_authorization_not_one_per_request() {
    let server = HttpServer::http(&[
        "--oauth",
        "--oauth-step-up-tool",
        "add",
        "--oauth-step-up-never",
    ])
    .await;
    let (provider, visitor) = provider(&server).await;
    let client = server
        .connect(options().with_auth_hook(Arc::clone(&provider) as _))
        .await;
    // The connection itself needed the first authorization.
    assert_eq!(visitor.visits.load(Ordering::SeqCst), 1);
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "hi"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "hi");

    // The first call steps up once (asking for mcp:admin too); the resource still
    // refuses, and the provider does not ask for the same scopes again.
    let add = json!({"a": 1, "b": 2});
    let first = bounded(client.call_tool("add", Some(add.clone())))
        .await
        .unwrap_err();
    assert!(is_step_up_refusal(&first), "{first:?}");
    assert_eq!(visitor.visits.load(Ordering::SeqCst), 2);

    // Later calls: the same typed error, with no authorization at all.
    for _ in 0..3 {
        let again = bounded(client.call_tool("add", Some(add.clone())))
            .await
            .unwrap_err();
        assert!(is_step_up_refusal(&again), "{again:?}");
    }
    assert_eq!(visitor.visits.load(Ordering::SeqCst), 2);
    // The step-up token still works where its scopes suffice.
    let echo = bounded(client.call_tool("echo", Some(json!({"text": "still"}))))
        .await
        .unwrap();
    assert_eq!(echo.text(), "still");

    // A new login starts afresh: one more step-up, then refused again.
    bounded(provider.login()).await.unwrap();
    assert_eq!(visitor.visits.load(Ordering::SeqCst), 3);
    let after_login = bounded(client.call_tool("add", Some(add.clone())))
        .await
        .unwrap_err();
    assert!(is_step_up_refusal(&after_login), "{after_login:?}");
    assert_eq!(visitor.visits.load(Ordering::SeqCst), 4);
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_up_the_resource_accepts_still_works() {
    let server = HttpServer::http(&["--oauth", "--oauth-step-up-tool", "add"]).await;
    let (provider, visitor) = provider(&server).await;
    let client = server
        .connect(options().with_auth_hook(Arc::clone(&provider) as _))
        .await;
    for _ in 0..2 {
        let sum = bounded(client.call_tool("add", Some(json!({"a": 1, "b": 2}))))
            .await
            .unwrap();
        assert_eq!(sum.text(), "3");
    }
    // The first authorization, then one step-up; the second call needed none.
    assert_eq!(visitor.visits.load(Ordering::SeqCst), 2);
    client.close().await;
}
