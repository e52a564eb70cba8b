//! The `.mcp.json` / JSONC reader and `${VAR}` expansion: no panic on any text; a text that
//! is strict JSON is never reported as a syntax error (blanking comments and trailing
//! commas must leave strict JSON alone); every entry that loads resolves or fails with an
//! error, whatever the variables hold.

use mcp_manager::config::{ConfigError, McpConfig};

/// Variables for expansion: some set (one to a value with `${` in it, which must not be
/// expanded again), the rest unset.
fn env(name: &str) -> Option<String> {
    match name.len() % 3 {
        0 => Some(format!("v-{name}")),
        1 => Some("${HOME}".to_owned()),
        _ => None,
    }
}

/// Run the checks on one input.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let strict = serde_json::from_str::<serde_json::Value>(text).is_ok();
    match McpConfig::from_str(text, "fuzz.json") {
        Ok(config) => {
            for entry in config.servers().values() {
                if let Ok(resolved) = entry.resolve(&env) {
                    // Expansion happens once: a value that came from a variable is kept.
                    drop(resolved);
                }
            }
            for (_, error) in config.errors() {
                let _ = error.to_string();
            }
        }
        Err(ConfigError::Syntax { message, .. }) if strict => {
            panic!("strict JSON reported as invalid: {message}")
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}
