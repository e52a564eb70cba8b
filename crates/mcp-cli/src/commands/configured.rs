//! `list` and `get NAME`: the configured servers and where each comes from (the project's
//! files, the user's, a `--config` file), read and shown without connecting, expanding or
//! starting anything, so they need no consent; secrets masked (see [`crate::mask`]).

use std::fmt::Write as _;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::cli::GlobalArgs;
use crate::error::CliError;
use crate::mask;
use crate::output::{self, Entry, Outcome};
use crate::scopes::{Merged, Origin};

/// `list`.
pub(crate) fn list(global: &GlobalArgs) -> ExitCode {
    let merged = match crate::servers::configured(global, None) {
        Ok(merged) => merged,
        Err(e) => return super::print_error(global.json, &e),
    };
    for warning in &merged.warnings {
        super::stderr_line(&format!("mcp: {warning}"));
    }
    let outcome = listing(&merged);
    if global.json {
        super::stdout_line(&outcome.json.render(None));
    } else {
        super::print_text(&outcome.text);
    }
    ExitCode::SUCCESS
}

fn origin_json(origin: &Origin) -> Value {
    json!({
        "scope": origin.scope.as_str(),
        "file": origin.path.display().to_string(),
        "client": origin.client,
    })
}

/// The table and the `{"servers": [...]}` document of every configured server.
fn listing(merged: &Merged) -> Outcome {
    if merged.entries.is_empty() && merged.broken.is_empty() {
        let text = "(no servers configured: mcp uses its bundled demo server; add one with `mcp add NAME -- CMD` or `mcp add NAME URL`)\n";
        return Outcome::servers(Vec::new(), text.to_owned());
    }
    let mut rows = Vec::new();
    let mut entries = Vec::new();
    for (name, (entry, origin)) in &merged.entries {
        let transport = entry
            .config
            .transport_kind()
            .map(mcp_client::TransportKind::as_str)
            .unwrap_or("-");
        let state = if entry.enabled { "" } else { "  (disabled)" };
        rows.push([
            name.clone(),
            origin.scope.as_str().to_owned(),
            transport.to_owned(),
            format!("{}{state}", mask::target(entry)),
            origin.path.display().to_string(),
        ]);
        let mut result = origin_json(origin);
        result["transport"] = json!(transport);
        result["enabled"] = json!(entry.enabled);
        match &entry.config.url {
            Some(url) => result["url"] = json!(mcp_types::redact_url(url)),
            None => {
                result["command"] = json!(entry.config.command);
                result["args"] = json!(mask::args(&entry.config.args));
            }
        }
        let shadows: Vec<Value> = merged
            .shadowed
            .iter()
            .filter(|(n, _, _)| n == name)
            .map(|(_, hidden, _)| origin_json(hidden))
            .collect();
        if !shadows.is_empty() {
            result["shadows"] = json!(shadows);
        }
        entries.push(Entry::result(name, output::raw(&result)));
    }
    for (name, error, origin) in &merged.broken {
        let error = CliError::Config(std::sync::Arc::clone(error));
        rows.push([
            name.clone(),
            origin.scope.as_str().to_owned(),
            "-".to_owned(),
            format!("error: {}", error.one_line()),
            origin.path.display().to_string(),
        ]);
        entries.push(Entry::error(name, &error));
    }
    rows.sort();
    let mut text = table(&rows);
    for (name, hidden, winner) in &merged.shadowed {
        let _ = writeln!(
            text,
            "\"{name}\" in {} is shadowed by {}",
            hidden.path.display(),
            winner.path.display()
        );
    }
    Outcome::servers(entries, text)
}

fn table(rows: &[[String; 5]]) -> String {
    let headings = ["NAME", "SCOPE", "TRANSPORT", "COMMAND OR URL", "FILE"];
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([headings[i].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..5).map(width).collect();
    let mut text = String::new();
    let mut line = |cells: [&str; 5]| {
        let mut out = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                out.push_str(cell);
            } else {
                let _ = write!(out, "{cell:<w$}  ", w = widths[i]);
            }
        }
        let _ = writeln!(text, "{}", out.trim_end());
    };
    line(headings);
    for row in rows {
        line([&row[0], &row[1], &row[2], &row[3], &row[4]]);
    }
    text
}

/// `get NAME`.
pub(crate) fn get(global: &GlobalArgs, name: &str) -> ExitCode {
    let result = crate::servers::configured(global, None).and_then(|merged| one(&merged, name));
    match result {
        Ok(outcome) => {
            if global.json {
                super::stdout_line(&outcome.json.render(None));
            } else {
                super::print_text(&outcome.text);
            }
            ExitCode::SUCCESS
        }
        Err(e) => super::print_error(global.json, &e),
    }
}

fn one(merged: &Merged, name: &str) -> Result<Outcome, CliError> {
    if let Some((_, error, _)) = merged.broken.iter().find(|(n, _, _)| n == name) {
        return Err(CliError::Config(std::sync::Arc::clone(error)));
    }
    let Some((entry, origin)) = merged.entries.get(name) else {
        let names = merged.entries.keys().map(String::as_str);
        return Err(CliError::UnknownServer {
            name: name.to_owned(),
            suggestion: crate::suggest::did_you_mean(name, names),
            known: if merged.files.is_empty() {
                "no server is configured".to_owned()
            } else {
                format!("configured in {}", merged.source_name())
            },
        });
    };
    let shown = mask::entry(entry);
    let mut result = origin_json(origin);
    result["entry"] = shown.clone();
    let mut text = format!(
        "{name} ({}: {})\n",
        origin.scope.as_str(),
        origin.path.display()
    );
    for line in output::pretty(&shown).lines() {
        let _ = writeln!(text, "  {line}");
    }
    for (_, hidden, _) in merged.shadowed.iter().filter(|(n, _, _)| n == name) {
        let _ = writeln!(
            text,
            "(also in {}, shadowed by this one)",
            hidden.path.display()
        );
    }
    Ok(Outcome::server(name, output::raw(&result), text))
}
