//! What a host is answered: results encoded, and upstream failures turned into JSON-RPC
//! errors that say what happened (an upstream server's own error is passed on as it is).

use mcp_client::Error as ClientError;
use mcp_manager::ManagerError;
use mcp_types::{ErrorObject, RawValue, error_codes};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What one answer to a host is.
pub(crate) type Answer = Result<Box<RawValue>, ErrorObject>;

/// `value` as a result.
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> Answer {
    mcp_types::to_raw(value).map_err(|e| internal(format!("cannot encode the result: {e}")))
}

/// The request's params as `T` (absent params as `{}`); -32602 when they do not decode.
pub(crate) fn params<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    serde_json::from_str(params.map_or("{}", RawValue::get))
        .map_err(|e| ErrorObject::new(error_codes::INVALID_PARAMS, format!("Invalid params: {e}")))
}

/// -32603 with `message`.
pub(crate) fn internal(message: impl Into<String>) -> ErrorObject {
    ErrorObject::new(error_codes::INTERNAL_ERROR, message)
}

/// -32602 with `message`.
pub(crate) fn invalid_params(message: impl Into<String>) -> ErrorObject {
    ErrorObject::new(
        error_codes::INVALID_PARAMS,
        format!("Invalid params: {}", message.into()),
    )
}

/// The command a person runs to log in to a server, by the server's name.
pub type LoginHint = std::sync::Arc<dyn Fn(&str) -> String + Send + Sync>;

/// The default: `mcp login NAME`.
pub(crate) fn default_login_hint() -> LoginHint {
    std::sync::Arc::new(|server: &str| format!("mcp login {server}"))
}

/// A failure of server `server` as the host sees it: the server's own JSON-RPC error as it
/// sent it; a server that needs a login, with the one command that fixes it (`login`);
/// anything else as -32603 naming the server and the whole cause.
pub(crate) fn from_manager(server: &str, error: &ManagerError, login: &LoginHint) -> ErrorObject {
    if let ManagerError::Client { source, .. } = error {
        return from_client(server, source, login);
    }
    let awaits_login = matches!(
        error,
        ManagerError::NotConnected {
            status: "needs_authorization",
            ..
        }
    );
    if error.needs_login() || awaits_login {
        return internal(login_message(server, login));
    }
    internal(format!("MCP server \"{server}\": {}", cause(error)))
}

/// [`from_manager`] for an error of the server's client.
pub(crate) fn from_client(server: &str, error: &ClientError, login: &LoginHint) -> ErrorObject {
    if let Some(rpc) = error.rpc() {
        return rpc.clone();
    }
    if error.login_required().unwrap_or(false) || error.http_status() == Some(401) {
        return internal(login_message(server, login));
    }
    internal(format!("MCP server \"{server}\": {}", cause(error)))
}

/// `error` and its causes as a host or a log may see them: every URL in them redacted
/// (a connect error quotes the server's URL, which may carry a password or a key).
pub(crate) fn cause(error: &dyn std::error::Error) -> String {
    mcp_types::redact_urls_in(&mcp_types::error_chain(error).to_string()).into_owned()
}

/// What to tell a person whose server needs a login (the one error a host gets for a
/// server whose OAuth tokens are missing or refused).
pub(crate) fn login_message(server: &str, login: &LoginHint) -> String {
    // Redacted here too: a library host's hint may quote a URL as it was configured.
    let command = login(server);
    format!(
        "MCP server \"{server}\" needs you to log in: run `{}` in a terminal, then restart \
         the proxy",
        mcp_types::redact_urls_in(&command)
    )
}

/// -32601 for `method`.
pub(crate) fn method_not_found(method: &str) -> ErrorObject {
    ErrorObject::method_not_found(method)
}
