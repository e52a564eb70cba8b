//! The `mcp` binary's behaviour, one module per topic, each run against the bundled demo
//! server (`mcp-test-server`) over real pipes or HTTP on 127.0.0.1.

mod arguments;
mod child_env;
mod client_features;
mod edit;
mod errors;
mod headers;
mod help;
mod interaction;
mod json_output;
mod local_files;
mod oauth;
mod pty;
mod requests;
mod resources;
mod shell;
mod signals;
mod support;
mod terminal_escapes;
mod trust;
