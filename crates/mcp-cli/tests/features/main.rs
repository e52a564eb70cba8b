//! The `mcp` binary's behaviour, one module per topic, each run against the bundled demo
//! server (`mcp-test-server`) over real pipes or HTTP on 127.0.0.1.

mod arguments;
mod child_env;
mod client_features;
mod config_files;
mod edit;
mod empty_lists;
mod errors;
mod headers;
mod help;
mod hints;
mod interaction;
mod json_output;
mod left_out_tools;
mod local_files;
mod oauth;
mod oauth_headless;
mod oauth_issuer;
mod oauth_journeys;
mod oauth_support;
mod ping;
mod proxy;
mod proxy_login;
mod proxy_rules;
mod pty;
mod requests;
mod resources;
mod shell;
mod signals;
mod support;
mod terminal_escapes;
mod third_party;
mod timeouts;
mod trust;
