//! The auth-error hook shared by the HTTP transports and the manager's credential providers.

use mcp_jsonrpc::BoxFuture;

/// Called when the server answers 401 or 403.
///
/// When the hook returns headers (typically a refreshed `Authorization`), the transport
/// retries the failed request once with them and keeps sending them from then on. `None`
/// means "nothing better to offer": the HTTP error propagates.
///
/// ```
/// use mcp_jsonrpc::BoxFuture;
/// use mcp_http::AuthHook;
///
/// struct Refresh;
/// impl AuthHook for Refresh {
///     fn on_auth_error<'a>(
///         &'a self,
///         _status: u16,
///         _www_authenticate: Option<&'a str>,
///     ) -> BoxFuture<'a, Option<Vec<(String, String)>>> {
///         Box::pin(async { Some(vec![("Authorization".into(), "Bearer fresh".into())]) })
///     }
/// }
/// ```
pub trait AuthHook: Send + Sync + 'static {
    /// The server refused a request with `status` (401 or 403) and, when present, this
    /// `WWW-Authenticate` challenge. Return headers to retry with, or `None`.
    fn on_auth_error<'a>(
        &'a self,
        status: u16,
        www_authenticate: Option<&'a str>,
    ) -> BoxFuture<'a, Option<Vec<(String, String)>>>;
}
