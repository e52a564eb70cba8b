//! `envFile`: environment variables for a stdio server from a `.env` file (VS Code's and
//! Cursor's member), read when the server is started, never before (a project's file is
//! consented to first), through the bounded reader. Variables the entry's `env` sets win.
//!
//! The dotenv subset every such file uses: `KEY=VALUE` lines, `#` comments and blank lines,
//! an optional `export ` prefix, values in double quotes (with `\n`, `\"` and `\\`
//! escapes), single quotes (literal) or bare (trimmed, a ` #` starting a comment).

use std::collections::BTreeMap;
use std::path::Path;

/// The largest env file read.
pub const MAX_ENV_FILE_BYTES: u64 = 1024 * 1024;

/// The variables of the env file at `path`, or what is wrong with it (without its values:
/// they are secrets).
pub(super) fn read(path: &Path) -> Result<BTreeMap<String, String>, String> {
    let text = mcp_types::local_file::read_text_bounded(path, MAX_ENV_FILE_BYTES)
        .map_err(|e| mcp_types::error_chain(&e).to_string())?;
    parse(&text)
}

/// The variables of a dotenv text.
pub(super) fn parse(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut variables = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let at = || format!("line {}", i + 1);
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("{}: expected KEY=VALUE", at()))?;
        let key = key.trim();
        if !super::expand::is_variable_name(key) {
            return Err(format!("{}: {key:?} is not a variable name", at()));
        }
        variables.insert(
            key.to_owned(),
            value_of(value.trim()).map_err(|why| format!("{}: {why}", at()))?,
        );
    }
    Ok(variables)
}

fn value_of(raw: &str) -> Result<String, &'static str> {
    if let Some(rest) = raw.strip_prefix('"') {
        let mut value = String::new();
        let mut chars = rest.chars();
        while let Some(c) = chars.next() {
            match c {
                '"' => return Ok(value),
                '\\' => match chars.next() {
                    Some('n') => value.push('\n'),
                    Some(other) => value.push(other),
                    None => break,
                },
                c => value.push(c),
            }
        }
        return Err("a double quote is not closed");
    }
    if let Some(rest) = raw.strip_prefix('\'') {
        return rest
            .find('\'')
            .map(|end| rest[..end].to_owned())
            .ok_or("a single quote is not closed");
    }
    let bare = raw.split(" #").next().unwrap_or_default();
    Ok(bare.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dotenv_forms_are_read() {
        let vars = parse(
            "# a comment\n\nAPI_KEY=abc123\nexport REGION = eu # where\nQUOTED=\"a \\\"b\\\"\\nc\"\nLITERAL='$x \\n'\nEMPTY=\n",
        )
        .unwrap();
        assert_eq!(vars["API_KEY"], "abc123");
        assert_eq!(vars["REGION"], "eu");
        assert_eq!(vars["QUOTED"], "a \"b\"\nc");
        assert_eq!(vars["LITERAL"], "$x \\n");
        assert_eq!(vars["EMPTY"], "");
        assert_eq!(parse("NOPE").unwrap_err(), "line 1: expected KEY=VALUE");
        assert!(parse("1X=y").unwrap_err().contains("not a variable name"));
        assert!(parse("A=\"open").unwrap_err().contains("not closed"));
        // Values never appear in errors.
        assert!(!parse("A=secret\nB").unwrap_err().contains("secret"));
    }
}
