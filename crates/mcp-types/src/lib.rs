//! JSON-RPC 2.0 envelopes and Model Context Protocol schema types.
//!
//! Pure data: no I/O, no runtime. Revision 2025-11-25 is modelled in full, with the fields
//! older revisions (2024-11-05, 2025-03-26, 2025-06-18) use; see [`SUPPORTED_PROTOCOL_VERSIONS`].
//!
//! ```
//! use mcp_types::{Message, RequestId};
//!
//! let line = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
//! match Message::from_slice(line).unwrap() {
//!     Message::Response(r) => assert_eq!(r.id, RequestId::Number(1)),
//!     other => panic!("unexpected {other:?}"),
//! }
//! ```

pub mod error_codes;
mod id;
mod jsonrpc;
mod meta;
pub mod notifications;
mod version;

pub use id::{MAX_SAFE_INTEGER, RequestId};
pub use jsonrpc::{
    ErrorObject, ErrorResponse, Frame, JSONRPC_VERSION, Message, MessageError, Notification,
    Request, Response, empty_object, encode_error_response, encode_notification, encode_request,
    encode_response, to_raw,
};
pub use meta::{Extra, Meta};
pub use notifications::{CancelledNotificationParams, ProgressNotificationParams, ProgressToken};
pub use serde_json::value::RawValue;
pub use version::{
    LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, V2024_11_05, V2025_03_26, V2025_06_18,
    V2025_11_25, allows_batches, is_supported_version,
};
