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
