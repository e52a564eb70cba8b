//! `${VAR}`, `${VAR:-default}` and VS Code's `${env:VAR}` in configuration values.
//!
//! The forms are those of Claude Code (`${VAR}`, `${VAR:-default}`: the default is used when
//! the variable is unset or empty, as in the shell) and VS Code (`${env:VAR}`). A `$` that
//! does not start `${` is kept as it is. `${workspaceFolder}` and `${userHome}` look like
//! variables here; [`ServerEntry::resolve`](super::ServerEntry::resolve) answers them. Other
//! VS Code forms (`${input:...}`,
//! `${config:...}`, `${command:...}`) need an editor to answer them and are reported as
//! errors instead of being passed on literally.

/// Why a value could not be expanded.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ExpandError {
    /// `${NAME}` with `NAME` unset and no default.
    Missing(String),
    /// `${input:ID}` (VS Code) that nobody answered.
    MissingInput(String),
    /// `${` without its `}`.
    Unterminated,
    /// `${...}` that is not a variable reference we can answer.
    Unsupported(String),
}

impl ExpandError {
    pub(crate) fn message(&self) -> String {
        match self {
            Self::Missing(name) => format!("environment variable {name} is not set"),
            Self::MissingInput(id) => format!("VS Code input \"{id}\" has no value"),
            Self::Unterminated => "unterminated \"${\": expected \"}\"".to_owned(),
            Self::Unsupported(expr) if expr.starts_with("input:") => {
                format!(
                    "\"${{{expr}}}\": VS Code input variables need the editor to prompt for them; set an environment variable and use ${{env:NAME}} instead"
                )
            }
            Self::Unsupported(expr) => format!(
                "\"${{{expr}}}\" is not a supported variable reference (use ${{NAME}}, ${{NAME:-default}} or ${{env:NAME}})"
            ),
        }
    }
}

/// `value` with every reference replaced using `lookup`.
pub(crate) fn expand(
    value: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, ExpandError> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after.find('}').ok_or(ExpandError::Unterminated)?;
        out.push_str(&substitute(&after[..end], lookup)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A part of a configuration value as [`expand`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    /// Text used as it is.
    Text(&'a str),
    /// A reference: `whole` as written (`${env:TOKEN:-x}`), `name` the variable it names
    /// (`TOKEN`; `workspaceFolder` and `userHome` too; `input:ID` for a VS Code input).
    Reference { whole: &'a str, name: &'a str },
}

/// `value` cut into text and references, in order. An unterminated `${` is text (such a
/// value never expands: [`expand`] reports it).
pub(crate) fn pieces(value: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        let Some(end) = rest[start + 2..].find('}').map(|i| start + 2 + i) else {
            break;
        };
        if start > 0 {
            out.push(Piece::Text(&rest[..start]));
        }
        let body = &rest[start + 2..end];
        // As `substitute` asks the lookup: an input by its whole `input:ID`.
        let name = if body.starts_with("input:") {
            body
        } else {
            let body = body.strip_prefix("env:").unwrap_or(body);
            body.split_once(":-").map_or(body, |(name, _)| name)
        };
        out.push(Piece::Reference {
            whole: &rest[start..=end],
            name,
        });
        rest = &rest[end + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// Whether `value` contains anything [`expand`] would replace.
pub(crate) fn has_references(value: &str) -> bool {
    value.contains("${")
}

fn substitute(expr: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Result<String, ExpandError> {
    // VS Code's inputs are asked of the lookup as `input:ID` (see `inputs.rs`).
    if let Some(id) = expr.strip_prefix("input:") {
        return lookup(expr).ok_or_else(|| ExpandError::MissingInput(id.to_owned()));
    }
    let body = expr.strip_prefix("env:").unwrap_or(expr);
    let (name, default) = match body.split_once(":-") {
        Some((name, default)) => (name, Some(default)),
        None => (body, None),
    };
    if !is_variable_name(name) {
        return Err(ExpandError::Unsupported(expr.to_owned()));
    }
    match (lookup(name), default) {
        (Some(v), Some(d)) if v.is_empty() => Ok(d.to_owned()),
        (Some(v), _) => Ok(v),
        (None, Some(d)) => Ok(d.to_owned()),
        (None, None) => Err(ExpandError::Missing(name.to_owned())),
    }
}

/// Whether `name` is an environment variable's name as configs write them: a letter or `_`,
/// then letters, digits and `_`.
pub fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "HOME" => Some("/home/ann".into()),
            "EMPTY" => Some(String::new()),
            "TOKEN" => Some("sk-123".into()),
            _ => None,
        }
    }

    #[test]
    fn plain_and_env_prefixed_references_expand() {
        assert_eq!(expand("${HOME}/data", &env).unwrap(), "/home/ann/data");
        assert_eq!(
            expand("Bearer ${env:TOKEN}", &env).unwrap(),
            "Bearer sk-123"
        );
        assert_eq!(
            expand("${HOME}${HOME}", &env).unwrap(),
            "/home/ann/home/ann"
        );
        assert_eq!(
            expand("no references, $HOME stays", &env).unwrap(),
            "no references, $HOME stays"
        );
    }

    #[test]
    fn defaults_apply_when_unset_or_empty() {
        assert_eq!(expand("${NOPE:-fallback}", &env).unwrap(), "fallback");
        assert_eq!(expand("${EMPTY:-fallback}", &env).unwrap(), "fallback");
        assert_eq!(expand("${HOME:-fallback}", &env).unwrap(), "/home/ann");
        assert_eq!(expand("${NOPE:-}", &env).unwrap(), "");
        assert_eq!(expand("${env:NOPE:-x}", &env).unwrap(), "x");
        assert_eq!(
            expand("${EMPTY}", &env).unwrap(),
            "",
            "set but empty without a default is empty"
        );
    }

    #[test]
    fn pieces_are_the_text_and_the_references_expand_reads() {
        assert_eq!(
            pieces("Bearer ${env:TOKEN}/${HOME:-/h}${X}"),
            [
                Piece::Text("Bearer "),
                Piece::Reference {
                    whole: "${env:TOKEN}",
                    name: "TOKEN"
                },
                Piece::Text("/"),
                Piece::Reference {
                    whole: "${HOME:-/h}",
                    name: "HOME"
                },
                Piece::Reference {
                    whole: "${X}",
                    name: "X"
                },
            ]
        );
        assert_eq!(pieces("a ${open"), [Piece::Text("a ${open")]);
        assert_eq!(
            pieces("${input:key:-x}"),
            [Piece::Reference {
                whole: "${input:key:-x}",
                name: "input:key:-x"
            }]
        );
        assert_eq!(pieces(""), []);
    }

    #[test]
    fn missing_unterminated_and_unsupported_are_errors() {
        assert_eq!(
            expand("a ${NOPE} b", &env),
            Err(ExpandError::Missing("NOPE".into()))
        );
        assert_eq!(expand("${HOME", &env), Err(ExpandError::Unterminated));
        assert_eq!(
            expand("${input:token}", &env),
            Err(ExpandError::MissingInput("token".into()))
        );
        let answered = |name: &str| (name == "input:token").then(|| "t0k".to_owned());
        assert_eq!(
            expand("Bearer ${input:token}", &answered).unwrap(),
            "Bearer t0k"
        );
        assert_eq!(
            expand("${1abc}", &env),
            Err(ExpandError::Unsupported("1abc".into()))
        );
        assert_eq!(
            expand("${config:editor.x}", &env),
            Err(ExpandError::Unsupported("config:editor.x".into()))
        );
    }
}
