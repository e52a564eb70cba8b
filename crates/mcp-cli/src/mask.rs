//! A configured server as `mcp get` and `mcp list` show it: everything a person needs to
//! recognise it, no secret. Environment and header values are masked (a `${VAR}`
//! reference is shown, being no secret itself), URLs lose their credentials
//! ([`mcp_types::redact_url`]), arguments that follow or name a secret-looking flag
//! (`--token X`, `--api-key=X`) are masked, and so are OAuth secrets.

use mcp_manager::config::ServerEntry;
use mcp_manager::config::secrets::{is_secret_name, masked};
use serde_json::{Map, Value};

/// The arguments with secrets masked: the value after a secret-named flag, and the value of
/// a secret-named `--flag=value` or `KEY=value`.
pub(crate) fn args(args: &[String]) -> Vec<String> {
    let mut shown = Vec::with_capacity(args.len());
    let mut after_secret_flag = false;
    for arg in args {
        if after_secret_flag {
            after_secret_flag = false;
            shown.push(masked(arg));
            continue;
        }
        match arg.split_once('=') {
            Some((name, value)) if is_secret_name(name) => {
                shown.push(format!("{name}={}", masked(value)));
            }
            Some(_) => shown.push(arg.clone()),
            None => {
                after_secret_flag = arg.starts_with('-') && is_secret_name(arg);
                shown.push(arg.clone());
            }
        }
    }
    shown
}

/// The command line of a stdio server, its secrets masked, quoted as a shell would.
pub(crate) fn command_line(entry: &ServerEntry) -> String {
    let mut words = Vec::from_iter(entry.config.command.clone());
    words.extend(args(&entry.config.args));
    shell_words::join(words)
}

/// Where a server is: its masked command line, or its URL without credentials.
pub(crate) fn target(entry: &ServerEntry) -> String {
    match &entry.config.url {
        Some(url) => mcp_types::redact_url(url),
        None => command_line(entry),
    }
}

/// The whole entry as JSON, each secret masked.
pub(crate) fn entry(entry: &ServerEntry) -> Value {
    let mut value =
        serde_json::to_value(&entry.config).unwrap_or_else(|_| Value::Object(Map::new()));
    let Value::Object(map) = &mut value else {
        return value;
    };
    if let Some(Value::Array(items)) = map.get_mut("args") {
        let strings: Vec<String> = items
            .iter()
            .map(|a| a.as_str().unwrap_or_default().to_owned())
            .collect();
        *items = args(&strings).into_iter().map(Value::String).collect();
    }
    for key in ["env", "headers"] {
        if let Some(Value::Object(values)) = map.get_mut(key) {
            for value in values.values_mut() {
                *value = Value::String(masked(value.as_str().unwrap_or_default()));
            }
        }
    }
    if let Some(Value::String(url)) = map.get_mut("url") {
        *url = mcp_types::redact_url(url);
    }
    if let Some(auth) = &entry.auth {
        let mut auth = auth.raw().clone();
        mask_secret_members(&mut auth);
        map.insert("oauth".into(), auth);
    }
    if let Some(env_file) = &entry.env_file {
        map.insert("envFile".into(), Value::String(env_file.clone()));
    }
    if !entry.enabled {
        map.insert("enabled".into(), Value::Bool(false));
    }
    mask_secret_members(map.entry("extra").or_insert(Value::Null));
    map.remove("extra");
    value
}

/// Mask the string members with secret-looking names, recursively.
fn mask_secret_members(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (name, member) in map.iter_mut() {
                match member {
                    Value::String(text) if is_secret_name(name) => *text = masked(text),
                    other => mask_secret_members(other),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(mask_secret_members),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> ServerEntry {
        let config = mcp_manager::config::McpConfig::from_str(text, "t").unwrap();
        config.servers().values().next().unwrap().clone()
    }

    #[test]
    fn secrets_are_masked_and_references_shown() {
        let stdio = config(
            r#"{"mcpServers": {"s": {"command": "srv", "args": ["--token", "sk-1", "--api-key=sk-2", "--name", "n", "KEY=v"],
                "env": {"A": "sk-3", "B": "${B_TOKEN}"}}}}"#,
        );
        let shown = entry(&stdio).to_string();
        for secret in ["sk-1", "sk-2", "sk-3"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(
            shown.contains("${B_TOKEN}") && shown.contains("\"n\""),
            "{shown}"
        );
        assert_eq!(
            command_line(&stdio),
            "srv --token '***' '--api-key=***' --name n 'KEY=***'"
        );
        let remote = config(
            r#"{"mcpServers": {"r": {"url": "https://u:pw@h/mcp?key=k", "headers": {"Authorization": "Bearer ${T}", "X-Key": "raw"},
                "oauth": {"clientId": "id", "clientSecret": "cs"}}}}"#,
        );
        let shown = entry(&remote).to_string();
        for secret in ["pw", "=k", "raw", "\"cs\""] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        assert!(
            shown.contains("Bearer ${T}") && shown.contains("\"id\""),
            "{shown}"
        );
        assert!(!target(&remote).contains("pw"));
    }
}
