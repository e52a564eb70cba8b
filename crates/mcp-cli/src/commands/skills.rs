//! Skills (SEP-2640): `skills [SERVER]` and `skill SERVER URI [--save DIR]`.
//!
//! Listing reads no skill file. `skill` loads one: every file is read and verified (size,
//! sha256 digest, SKILL.md frontmatter equal to the entry's) before anything is printed or
//! saved, so a tampered skill prints nothing but the error.

use std::fmt::Write as _;
use std::path::Path;

use mcp_client::{LoadedSkill, SkillError};
use mcp_types::SkillEntry;
use serde_json::{Value, json};

use super::{Context, Report};
use crate::error::{CliError, EXIT_FAILURE, one_line};
use crate::output::{self, Entry, Outcome};
use crate::servers::Connection;

/// The skills of one connection (none when it does not declare the extension).
async fn fetch(connection: &Connection) -> Result<Vec<SkillEntry>, CliError> {
    if !connection.client.supports_skills() {
        return Ok(Vec::new());
    }
    connection
        .client
        .list_all_skills()
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(&connection.client)))
}

/// `NAME  URI  DESCRIPTION` rows.
fn table(skills: &[SkillEntry], indent: &str) -> String {
    let width = skills
        .iter()
        .map(|s| one_line(s.name().unwrap_or("?")).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for skill in skills {
        let line = format!(
            "{:<width$}  {}  {}",
            one_line(skill.name().unwrap_or("?")),
            one_line(&skill.uri),
            one_line(skill.description().unwrap_or_default())
        );
        let _ = writeln!(out, "{indent}{}", line.trim_end());
    }
    out
}

/// `skills SERVER`.
pub(crate) async fn one(connection: &Connection) -> Result<Report, CliError> {
    let skills = fetch(connection).await?;
    let json = output::raw(&json!({"skills": output::json(&skills)}));
    let text = output::or_none(table(&skills, ""), "", "skills");
    Ok(Outcome::server(&connection.name, json, text).into())
}

/// `skills`: every enabled server's skills, grouped by server; a server that fails is
/// reported (exit 1) without hiding the others.
pub(crate) async fn all(ctx: &Context) -> Report {
    let mut names = Vec::new();
    let mut problems = Vec::new();
    for name in ctx.servers.names() {
        match ctx.servers.entry(&name) {
            Ok(_) => names.push(name),
            Err(CliError::Disabled { .. }) => {}
            Err(e) => problems.push(e),
        }
    }
    let mut text = String::new();
    let mut entries: Vec<Entry> = problems
        .iter()
        .map(|e| Entry::error(e.server().unwrap_or_default(), e))
        .collect();
    let connections = ctx.servers.connect_all(&names).await;
    for (name, connection) in names.iter().zip(connections) {
        let result = match connection {
            Ok(connection) => fetch(&connection).await,
            Err(e) => Err(e),
        };
        match result {
            Ok(skills) => {
                let _ = writeln!(text, "{name}:");
                text.push_str(&output::or_none(table(&skills, "  "), "  ", "skills"));
                let json = output::raw(&json!({"skills": output::json(&skills)}));
                entries.push(Entry::result(name, json));
            }
            Err(e) => {
                entries.push(Entry::error(name, &e));
                problems.push(e);
            }
        }
    }
    let exit = if problems.is_empty() { 0 } else { EXIT_FAILURE };
    Report {
        outcome: Outcome::servers(entries, text),
        problems,
        exit,
    }
}

/// `skill SERVER URI [--save DIR [--overwrite]]`: load (verify) the skill, print SKILL.md
/// and the file list, or save every file under `DIR/<name>/` (see `skill_save.rs`).
pub(crate) async fn skill(
    connection: &Connection,
    uri: &str,
    save: Option<&Path>,
    overwrite: bool,
) -> Result<Report, CliError> {
    let client = &connection.client;
    let skill_error = |e: SkillError| match e {
        SkillError::Client(e) => CliError::client(&connection.name, e, Some(client)),
        other => CliError::Skill {
            server: connection.name.clone(),
            cause: Box::new(other),
        },
    };
    let entry = client
        .get_skill(uri)
        .await
        .map_err(|e| CliError::client(&connection.name, e, Some(client)))?;
    let skill = client.load_skill(&entry).await.map_err(skill_error)?;
    let files: Vec<Value> = skill
        .files
        .iter()
        .map(|f| json!({"path": f.path, "uri": f.uri, "size": f.bytes.len(), "mimeType": f.mime_type}))
        .collect();
    let mut json = json!({
        "skill": output::json(&skill.entry),
        "instructions": skill.instructions,
        "files": files,
    });
    let text = match save {
        Some(dir) => {
            let saved = crate::skill_save::save(&skill, dir, overwrite)?;
            json["savedTo"] = json!(saved.display().to_string());
            format!(
                "saved {} files of skill {} to {}\n",
                skill.files.len(),
                one_line(skill.name().unwrap_or("?")),
                saved.display()
            )
        }
        None => describe(&skill),
    };
    Ok(Outcome::server(&connection.name, output::raw(&json), text).into())
}

/// SKILL.md as served, then the other files (printed through `print_text`, which shows
/// control characters rather than obeying them, as all server text).
fn describe(skill: &LoadedSkill) -> String {
    let mut out = String::new();
    if let Some(manifest) = skill.files.first() {
        out.push_str(&String::from_utf8_lossy(&manifest.bytes));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    if skill.files.len() > 1 {
        out.push_str("\nfiles:\n");
        for file in &skill.files[1..] {
            let _ = writeln!(
                out,
                "  {}  {} bytes",
                one_line(&file.path),
                file.bytes.len()
            );
        }
    }
    out
}
