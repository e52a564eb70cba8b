//! JSON-RPC and MCP error codes.

/// Invalid JSON was received.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON sent is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist or is not available.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters.
pub const INVALID_PARAMS: i64 = -32602;
/// Internal JSON-RPC error.
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP (up to 2025-11-25): the requested resource does not exist.
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// MCP 2025-11-25: the server needs the user to complete a URL-mode elicitation first.
pub const URL_ELICITATION_REQUIRED: i64 = -32042;
/// MCP sampling: the user rejected the request.
pub const USER_REJECTED: i64 = -1;
/// MCP 2026-07-28: the HTTP headers do not match the body, or a required one is missing
/// (`HeaderMismatch`, HTTP 400).
pub const HEADER_MISMATCH: i64 = -32020;
/// MCP 2026-07-28: the request needs a client capability it did not declare in `_meta`
/// (`MissingRequiredClientCapability`).
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
/// MCP 2026-07-28: the server does not speak the requested revision; `data.supported`
/// lists those it does (`UnsupportedProtocolVersion`, HTTP 400).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// Whether `code` is one of the errors only a modern (2026-07-28) server sends: the sign
/// that a server speaks the modern protocol, even when it refuses a request.
pub fn is_modern_error(code: i64) -> bool {
    matches!(
        code,
        HEADER_MISMATCH | MISSING_REQUIRED_CLIENT_CAPABILITY | UNSUPPORTED_PROTOCOL_VERSION
    )
}
