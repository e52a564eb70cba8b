//! What a configuration file would make this machine do, shown to the person who decides
//! whether to let it: the consent view of a file `mcp` found rather than was given (a
//! project's `.mcp.json` is untrusted input; see docs/security.md).
//!
//! Built from the parsed entries, without expanding a variable or reading a file: every
//! command with its arguments, working directory and environment (values that look secret
//! masked), what it inherits of the user's environment; every URL (credentials redacted)
//! with its header names and OAuth settings; every `${VAR}` that would be expanded and
//! every file that would be read. Values that could break a line (control characters,
//! bidi controls, line separators) are quoted with those characters escaped, so each fact
//! stays on its line and a value cannot forge another.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use mcp_client::TransportKind;
use mcp_types::redact_url;

use super::McpConfig;
use super::entry::ServerEntry;
use super::expand::{self, Piece};
use super::oauth::{OAuthGrant, OAuthSettings};
use super::secrets::{self, looks_secret};

/// Everything a configuration would run, send and read, server by server.
///
/// ```
/// use mcp_manager::config::{ConsentView, McpConfig};
/// let config = McpConfig::from_str(
///     r#"{"mcpServers": {"r": {"url": "https://u:pw@h/mcp", "headers": {"X-Key": "${KEY}"}}}}"#,
///     ".mcp.json",
/// )
/// .unwrap();
/// let view = ConsentView::of(&config);
/// assert_eq!(
///     view.lines(),
///     [
///         "server \"r\":",
///         "  connects to: https://***@h/mcp (auto)",
///         "  sends headers: X-Key",
///         "  expands your variables: ${KEY}",
///     ]
/// );
/// assert_eq!(view.variables(), ["KEY"].into());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConsentView {
    servers: Vec<ServerView>,
}

/// One server's facts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ServerView {
    /// `"name"`, quoted.
    name: String,
    enabled: bool,
    facts: Vec<(Fact, String)>,
    /// The variables its values reference, by name.
    variables: BTreeSet<String>,
    /// The VS Code inputs its values reference (`input:ID`), asked when it starts.
    inputs: BTreeSet<String>,
    /// The local files it would read, as written.
    files: BTreeSet<String>,
}

/// What a server would do, in the order shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fact {
    Runs,
    Cwd,
    Env,
    PassesEnv,
    InheritsEnv,
    ConnectsTo,
    Headers,
    OAuth,
    Reads,
    Expands,
    Asks,
}

impl Fact {
    fn label(self) -> &'static str {
        match self {
            Self::Runs => "runs",
            Self::Cwd => "in directory",
            Self::Env => "with environment",
            Self::PassesEnv => "passes through your variables",
            Self::InheritsEnv => "inherits your whole environment",
            Self::ConnectsTo => "connects to",
            Self::Headers => "sends headers",
            Self::OAuth => "authorizes with OAuth",
            Self::Reads => "reads files",
            Self::Expands => "expands your variables",
            Self::Asks => "asks you for",
        }
    }
}

impl ConsentView {
    /// The view of every server of `config` that parsed, disabled ones included (enabling
    /// one is a small edit away; consent covers the whole file). Entries that did not parse
    /// do nothing and are not shown.
    pub fn of(config: &McpConfig) -> Self {
        Self {
            servers: config.servers().values().map(server).collect(),
        }
    }

    /// Whether the configuration would do nothing at all (it has no server that parsed).
    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// The view as lines to show before asking: `server "NAME":`, then one indented
    /// `fact: value` line each.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for server in &self.servers {
            lines.push(format!("{}:", server.heading()));
            for (fact, value) in &server.facts {
                lines.push(match value.as_str() {
                    "" => format!("  {}", fact.label()),
                    value => format!("  {}: {value}", fact.label()),
                });
            }
        }
        lines
    }

    /// The view as one paragraph (for a refusal where nobody can be asked): `server
    /// "NAME" fact value; fact value`, servers separated by `". "`.
    pub fn paragraph(&self) -> String {
        let mut text = String::new();
        for (i, server) in self.servers.iter().enumerate() {
            if i > 0 {
                text.push_str(". ");
            }
            text.push_str(&server.heading());
            for (j, (fact, value)) in server.facts.iter().enumerate() {
                text.push_str(if j == 0 { " " } else { "; " });
                text.push_str(fact.label());
                if !value.is_empty() {
                    let _ = write!(text, " {value}");
                }
            }
        }
        text
    }

    /// Every environment variable the configuration's values reference (`${NAME}`), by
    /// name: what expanding it reads of the user's environment (`userHome` stands for
    /// `HOME` or `USERPROFILE`, `workspaceFolder` for the file's folder).
    pub fn variables(&self) -> BTreeSet<&str> {
        self.servers
            .iter()
            .flat_map(|s| s.variables.iter().map(String::as_str))
            .collect()
    }

    /// Every VS Code input the configuration's values reference, as the variable lookup is
    /// asked for it (`input:ID`): what a program asks the user when the server starts.
    pub fn inputs(&self) -> BTreeSet<&str> {
        self.servers
            .iter()
            .flat_map(|s| s.inputs.iter().map(String::as_str))
            .collect()
    }

    /// Every local file the configuration would read (`envFile`, OAuth `privateKeyFile`
    /// and `assertionFile`), as written.
    pub fn files(&self) -> BTreeSet<&str> {
        self.servers
            .iter()
            .flat_map(|s| s.files.iter().map(String::as_str))
            .collect()
    }
}

impl ServerView {
    fn heading(&self) -> String {
        let disabled = if self.enabled { "" } else { " (disabled)" };
        format!("server {}{disabled}", self.name)
    }

    fn fact(&mut self, fact: Fact, value: String) {
        self.facts.push((fact, value));
    }

    /// Note the references in `value`.
    fn reads_variables(&mut self, value: &str) {
        for piece in expand::pieces(value) {
            match piece {
                Piece::Reference { name, .. } if name.starts_with("input:") => {
                    self.inputs.insert(name.to_owned());
                }
                Piece::Reference { name, .. } => {
                    self.variables.insert(name.to_owned());
                }
                Piece::Text(_) => {}
            }
        }
    }
}

/// The view of one entry.
fn server(entry: &ServerEntry) -> ServerView {
    let mut view = ServerView {
        name: quoted(&entry.name),
        enabled: entry.enabled,
        facts: Vec::new(),
        variables: BTreeSet::new(),
        inputs: BTreeSet::new(),
        files: BTreeSet::new(),
    };
    let config = &entry.config;
    // Every value `ServerEntry::resolve` expands, whichever transport uses it.
    let expanded = config
        .command
        .iter()
        .chain(&config.args)
        .chain(config.env.values())
        .chain(&config.url)
        .chain(config.headers.values())
        .map(String::as_str)
        .chain(config.cwd.as_deref().and_then(|p| p.to_str()));
    for value in expanded.collect::<Vec<_>>() {
        view.reads_variables(value);
    }
    // Read when the server starts, relative to the workspace: its variables join `env`.
    if let Some(env_file) = &entry.env_file {
        view.reads_variables(env_file);
        view.files.insert(env_file.clone());
    }
    match config.transport_kind() {
        Ok(TransportKind::Stdio) => local(&mut view, config),
        Ok(kind) => remote(&mut view, config, kind, entry.oauth.as_ref()),
        // Not parsed without a transport; shown whole if it ever is.
        Err(_) => {
            local(&mut view, config);
            remote(&mut view, config, TransportKind::Auto, entry.oauth.as_ref());
        }
    }
    if !view.files.is_empty() {
        let files = view.files.iter().map(|f| word(f)).collect::<Vec<_>>();
        view.fact(Fact::Reads, files.join(", "));
    }
    if !view.variables.is_empty() {
        let names = view.variables.iter().map(|v| format!("${{{}}}", word(v)));
        view.fact(Fact::Expands, names.collect::<Vec<_>>().join(", "));
    }
    if !view.inputs.is_empty() {
        let inputs = view.inputs.iter().map(|i| format!("${{{}}}", word(i)));
        view.fact(Fact::Asks, inputs.collect::<Vec<_>>().join(", "));
    }
    view
}

/// What a local (stdio) server runs, and with what of the user's environment.
fn local(view: &mut ServerView, config: &mcp_client::ServerConfig) {
    if let Some(command) = &config.command {
        let words = std::iter::once(command).chain(&config.args);
        let line = words.map(|w| word(w)).collect::<Vec<_>>().join(" ");
        view.fact(Fact::Runs, line);
    }
    if let Some(cwd) = &config.cwd {
        view.fact(Fact::Cwd, word(&cwd.to_string_lossy()));
    }
    if !config.env.is_empty() {
        let env = config
            .env
            .iter()
            .map(|(name, value)| format!("{}={}", word(name), env_value(name, value)));
        view.fact(Fact::Env, env.collect::<Vec<_>>().join(", "));
    }
    if !config.env_vars.is_empty() {
        let names = config.env_vars.iter().map(|n| word(n));
        view.fact(Fact::PassesEnv, names.collect::<Vec<_>>().join(", "));
    }
    if config.inherit_env {
        view.fact(Fact::InheritsEnv, String::new());
    }
}

/// Where a remote server is, what goes there, and how it authorizes.
fn remote(
    view: &mut ServerView,
    config: &mcp_client::ServerConfig,
    kind: TransportKind,
    oauth: Option<&OAuthSettings>,
) {
    if let Some(url) = &config.url {
        let shown = format!("{} ({})", word(&redact_url(url)), kind.as_str());
        view.fact(Fact::ConnectsTo, shown);
    }
    if !config.headers.is_empty() {
        let names = config.headers.keys().map(|n| word(n));
        view.fact(Fact::Headers, names.collect::<Vec<_>>().join(", "));
    }
    if let Some(oauth) = oauth {
        let summary = oauth_summary(view, oauth);
        view.fact(Fact::OAuth, summary);
    }
}

/// The `oauth` object in a few words; notes its files and variables in `view`.
fn oauth_summary(view: &mut ServerView, oauth: &OAuthSettings) -> String {
    let mut parts = vec![format!("grant {}", oauth.grant.as_str())];
    if let Some(id) = &oauth.client_id {
        view.reads_variables(id);
        parts.push(format!("client id {}", word(id)));
    }
    if let Some(secret) = &oauth.client_secret {
        view.reads_variables(secret);
        parts.push(format!("client secret {}", masked(secret)));
    }
    for (what, url) in [
        ("metadata", &oauth.auth_server_metadata_url),
        ("client metadata", &oauth.client_metadata_url),
    ] {
        if let Some(url) = url {
            view.reads_variables(url);
            parts.push(format!("{what} {}", word(&redact_url(url))));
        }
    }
    if !oauth.scopes.is_empty() {
        let scopes = oauth.scopes.iter().map(|s| word(s));
        parts.push(format!("scopes {}", scopes.collect::<Vec<_>>().join(" ")));
    }
    if let Some(port) = oauth.callback_port {
        parts.push(format!("callback port {port}"));
    }
    if oauth.dpop {
        parts.push("DPoP".to_owned());
    }
    for file in [&oauth.private_key_file, &oauth.assertion_file]
        .into_iter()
        .flatten()
    {
        let file = file.to_string_lossy();
        view.reads_variables(&file);
        view.files.insert(file.into_owned());
    }
    if oauth.grant == OAuthGrant::JwtBearer {
        parts.push("sends the assertion file's token".to_owned());
    }
    parts.join(", ")
}

/// An environment value as shown: masked when it looks secret.
fn env_value(name: &str, value: &str) -> String {
    if looks_secret(name, value) {
        masked(value)
    } else {
        word(value)
    }
}

/// `value` masked by the shared rule ([`secrets::masked`]), quoted as a word.
fn masked(value: &str) -> String {
    match secrets::masked(value).as_str() {
        "" => "''".to_owned(),
        shown => word(shown),
    }
}

/// A value as shown: as it is when plain; in single quotes when it has spaces or shell
/// characters; in double quotes with escapes when it has characters that could break the
/// line or reorder it (controls, bidi controls, line separators).
fn word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=@%+,${}*~?&#!".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else if text.chars().any(breaks_lines) {
        quoted(text)
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// `text` in double quotes, `"` and `\` escaped, and every character that could break the
/// line or reorder it written `\u{XXXX}`.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if breaks_lines(c) => {
                let _ = write!(out, "\\u{{{:04X}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Control characters (newlines, escapes, C1), bidi controls and the Unicode line and
/// paragraph separators.
fn breaks_lines(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(text: &str) -> ConsentView {
        ConsentView::of(&McpConfig::from_str(text, "t.json").unwrap())
    }

    #[test]
    fn a_local_server_shows_what_runs_where_and_with_which_environment() {
        let view = view(
            r#"{"mcpServers": {"local": {
                "command": "node", "args": ["server.js", "a b", "it's"], "cwd": "${HOME}/work",
                "env": {"NODE_OPTIONS": "--require ./x.js", "LD_PRELOAD": "/tmp/x.so",
                        "GITHUB_TOKEN": "ghp_literal", "API": "sk-abc", "FROM": "${GH_TOKEN}",
                        "MY_KEY": "Bearer ${K}"},
                "envVars": ["AWS_PROFILE"], "inheritEnv": true, "enabled": false}}}"#,
        );
        assert_eq!(
            view.lines(),
            [
                "server \"local\" (disabled):",
                "  runs: node server.js 'a b' 'it'\\''s'",
                "  in directory: ${HOME}/work",
                "  with environment: API=***, FROM=${GH_TOKEN}, GITHUB_TOKEN=***, LD_PRELOAD=/tmp/x.so, MY_KEY='Bearer ${K}', NODE_OPTIONS='--require ./x.js'",
                "  passes through your variables: AWS_PROFILE",
                "  inherits your whole environment",
                "  expands your variables: ${GH_TOKEN}, ${HOME}, ${K}",
            ]
        );
        assert_eq!(view.variables(), ["GH_TOKEN", "HOME", "K"].into());
        assert!(!view.paragraph().contains("ghp_literal"));
    }

    #[test]
    fn a_remote_server_shows_its_redacted_url_headers_oauth_and_files() {
        let view = view(
            r#"{"mcpServers": {"r": {
                "type": "http", "url": "https://${USER}:${PW}@h/mcp?key=abc",
                "headers": {"X-Leak": "${GITHUB_TOKEN}", "Authorization": "Bearer literal"},
                "oauth": {"clientId": "id", "clientSecret": "shh", "grant": "jwt_bearer",
                          "assertionFile": "${HOME}/token.jwt", "privateKeyFile": "/k.pem",
                          "authServerMetadataUrl": "https://as/.well-known?x=1"}}}}"#,
        );
        let lines = view.lines();
        assert_eq!(lines[1], "  connects to: https://***@h/mcp?key=*** (http)");
        assert_eq!(lines[2], "  sends headers: Authorization, X-Leak");
        assert_eq!(
            lines[3],
            "  authorizes with OAuth: grant jwt_bearer, client id id, client secret ***, metadata https://as/.well-known?x=***, sends the assertion file's token"
        );
        assert_eq!(lines[4], "  reads files: ${HOME}/token.jwt, /k.pem");
        assert_eq!(
            lines[5],
            "  expands your variables: ${GITHUB_TOKEN}, ${HOME}, ${PW}, ${USER}"
        );
        let text = view.paragraph();
        for secret in ["shh", "abc", "literal"] {
            assert!(!text.contains(secret), "{text}");
        }
        assert_eq!(view.files(), ["${HOME}/token.jwt", "/k.pem"].into());
    }

    #[test]
    fn a_value_cannot_break_its_line() {
        let view = view(
            "{\"mcpServers\": {\"x\\nserver \\\"fake\\\":\": {\"command\": \"a\\u001b[2J\\u202e\", \"args\": [\"\\r\\n  runs: rm\"]}}}",
        );
        let lines = view.lines();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0], "server \"x\\u{000A}server \\\"fake\\\":\":");
        assert_eq!(
            lines[1],
            "  runs: \"a\\u{001B}[2J\\u{202E}\" \"\\u{000D}\\u{000A}  runs: rm\""
        );
        assert!(!view.paragraph().chars().any(breaks_lines));
    }

    #[test]
    fn an_env_file_is_a_file_read_and_an_input_is_asked_for() {
        let view = view(
            r#"{"servers": {"v": {"command": "x", "envFile": "${workspaceFolder}/.env",
                "env": {"TOKEN": "${input:token}"}}}}"#,
        );
        assert_eq!(
            view.lines()[1..],
            [
                "  runs: x",
                "  with environment: TOKEN=${input:token}",
                "  reads files: ${workspaceFolder}/.env",
                "  expands your variables: ${workspaceFolder}",
                "  asks you for: ${input:token}",
            ]
        );
        assert_eq!(view.inputs(), ["input:token"].into());
    }

    #[test]
    fn the_paragraph_names_every_server_and_fact() {
        let view = view(r#"{"mcpServers": {"a": {"command": "x"}, "b": {"url": "http://h/mcp"}}}"#);
        assert_eq!(
            view.paragraph(),
            "server \"a\" runs x. server \"b\" connects to http://h/mcp (auto)"
        );
        assert!(ConsentView::default().is_empty());
    }
}
