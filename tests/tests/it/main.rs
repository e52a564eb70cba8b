//! Behaviour tests across crates: the real client, transports and manager against the real
//! test server, over real pipes and real sockets on 127.0.0.1.
//!
//! One test binary for the whole directory: each module was once its own file under `tests/`,
//! and every file there is linked into a binary of its own, which costs link time and disk
//! (about 50 MB each in a debug build). nextest still runs every test in its own process.

mod close_tasks;
mod detect_transport;
mod driver_behaviour;
mod era_probe_auth;
mod eras;
mod error_chains;
mod fuzz_corpora;
mod http_client;
mod http_faults;
mod input_request_bounds;
mod invalid_tool_headers;
mod listen;
mod manager_connect;
mod manager_http;
mod manager_modern;
mod manager_notification_flood;
mod manager_notifications;
mod manager_oauth;
mod manager_oauth_journeys;
mod manager_reconnect;
mod manager_skills;
mod manager_support;
mod manager_tasks;
mod manager_timeouts;
mod network_faults;
mod oauth_cimd;
mod oauth_step_up;
mod pagination_bounds;
mod proxy_auth;
mod proxy_http;
mod proxy_stdio;
mod proxy_support;
mod session_driver;
mod skills;
mod sse_call_mcp;
mod sse_client;
mod sse_manager_reconnect;
mod sse_transport;
mod stdio_failures;
mod stdio_features;
mod stdio_lifecycle;
mod stdio_processes;
mod stdio_stderr_tail;
mod tasks;
