//! The YAML frontmatter of a SKILL.md: the block between a leading `---` line and the next
//! `---` line, parsed as YAML into the JSON shape the skill entry carries.

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// A SKILL.md split into its frontmatter (as JSON) and the body that follows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Parsed {
    pub(crate) frontmatter: Map<String, Value>,
    pub(crate) body: String,
}

/// Split and parse `text`. Errors say what is wrong, for [`super::SkillError::BadFrontmatter`].
pub(crate) fn parse(text: &str) -> Result<Parsed, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    match lines.next() {
        Some(first) if first.trim_end() == "---" => {}
        _ => return Err("SKILL.md does not begin with a `---` line".to_owned()),
    }
    let mut yaml = String::new();
    let mut closed = false;
    for line in lines.by_ref() {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        yaml.push_str(line);
    }
    if !closed {
        return Err("the frontmatter has no closing `---` line".to_owned());
    }
    let body: String = lines.collect();
    let docs = YamlLoader::load_from_str(&yaml).map_err(|e| format!("invalid YAML: {e}"))?;
    let frontmatter = match docs.into_iter().next() {
        Some(doc) => match to_json(doc)? {
            Value::Object(map) => map,
            _ => return Err("the frontmatter is not a mapping".to_owned()),
        },
        None => Map::new(),
    };
    Ok(Parsed { frontmatter, body })
}

/// YAML to JSON: mappings with string keys, sequences, strings, numbers, booleans, null.
fn to_json(yaml: Yaml) -> Result<Value, String> {
    Ok(match yaml {
        Yaml::Null => Value::Null,
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Integer(i) => Value::Number(i.into()),
        Yaml::Real(text) => text
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("unsupported number {text}"))?,
        Yaml::String(s) => Value::String(s),
        Yaml::Array(items) => {
            Value::Array(items.into_iter().map(to_json).collect::<Result<_, _>>()?)
        }
        Yaml::Hash(hash) => {
            let mut map = Map::new();
            for (key, value) in hash {
                let key = match key {
                    Yaml::String(s) => s,
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    other => return Err(format!("unsupported mapping key {other:?}")),
                };
                map.insert(key, to_json(value)?);
            }
            Value::Object(map)
        }
        Yaml::Alias(_) => return Err("YAML aliases are not supported".to_owned()),
        Yaml::BadValue => return Err("invalid YAML value".to_owned()),
    })
}

/// The top-level fields whose values differ between two frontmatters, sorted.
pub(crate) fn differing_fields(a: &Map<String, Value>, b: &Map<String, Value>) -> Vec<String> {
    let mut fields: Vec<String> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect();
    fields.sort();
    fields.dedup();
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frontmatter_and_body_are_split_and_parsed() {
        let parsed = parse(
            "---\nname: pdf-processing\ndescription: \"Extract: PDFs\"\nmetadata:\n  version: 1\n  tags: [a, b]\n---\n\n# Body\n",
        )
        .unwrap();
        assert_eq!(
            Value::Object(parsed.frontmatter),
            json!({"name": "pdf-processing", "description": "Extract: PDFs", "metadata": {"version": 1, "tags": ["a", "b"]}})
        );
        assert_eq!(parsed.body, "\n# Body\n");
    }

    #[test]
    fn missing_or_broken_frontmatter_is_an_error() {
        assert!(parse("# no frontmatter\n").is_err());
        assert!(parse("---\nname: x\n").is_err());
        assert!(parse("---\n- a list\n---\n").is_err());
        assert!(parse("---\nname: [unclosed\n---\n").is_err());
        assert_eq!(parse("---\n---\nbody").unwrap().frontmatter, Map::new());
    }

    #[test]
    fn differing_fields_are_named() {
        let a = json!({"name": "x", "description": "one"});
        let b = json!({"name": "x", "description": "two", "license": "MIT"});
        let (Value::Object(a), Value::Object(b)) = (a, b) else {
            unreachable!()
        };
        assert_eq!(differing_fields(&a, &b), ["description", "license"]);
        assert!(differing_fields(&a, &a).is_empty());
    }
}
