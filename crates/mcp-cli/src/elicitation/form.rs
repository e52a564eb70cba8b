//! A form as `requestedSchema` describes it (the specification's restricted schema,
//! `PrimitiveSchemaDefinition`: strings with an optional `format`, numbers, integers,
//! booleans, single selects as `enum` (with `enumNames`) or titled `oneOf`, multi selects
//! as `array` of `enum` or titled `anyOf`), its fields in the server's order, and the
//! checks every answer passes, typed on a terminal or read from `--answers`.
//! <https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation>

use mcp_types::ElicitFormParams;
use serde_json::{Map, Number, Value};

/// The fields of a form, in the order they are asked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Form {
    pub fields: Vec<Field>,
}

/// One field.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    /// Its key in the answer.
    pub name: String,
    /// `title`, when the schema gives one.
    pub title: Option<String>,
    pub description: Option<String>,
    pub required: bool,
    /// The schema's `default`, when it is a valid answer.
    pub default: Option<Value>,
    pub kind: Kind,
}

/// What a field takes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// A string, with an optional format and length bounds.
    Text {
        format: Option<Format>,
        min_length: Option<u64>,
        max_length: Option<u64>,
    },
    /// A number, or a whole number, with optional bounds.
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
    },
    Boolean,
    /// One of the options (a string).
    Choice(Vec<Choice>),
    /// Any of the options (an array of strings), with optional bounds on how many.
    Choices {
        options: Vec<Choice>,
        min_items: Option<u64>,
        max_items: Option<u64>,
    },
}

/// An option of a select: the value sent, and what a person reads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Choice {
    pub value: String,
    pub title: Option<String>,
}

impl Choice {
    /// What a person reads: the title and the value, or the value alone.
    pub(crate) fn label(&self) -> String {
        match &self.title {
            Some(title) if *title != self.value => format!("{title} ({})", self.value),
            _ => self.value.clone(),
        }
    }
}

/// A string `format` the schema allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Email,
    Uri,
    Date,
    DateTime,
}

impl Format {
    fn parse(name: &str) -> Option<Self> {
        match name {
            "email" => Some(Self::Email),
            "uri" => Some(Self::Uri),
            "date" => Some(Self::Date),
            "date-time" => Some(Self::DateTime),
            _ => None,
        }
    }

    /// How a person should write it.
    pub(crate) fn hint(self) -> &'static str {
        match self {
            Self::Email => "an email address",
            Self::Uri => "a URI, such as https://example.com/",
            Self::Date => "a date, YYYY-MM-DD",
            Self::DateTime => "a date and time, such as 2025-11-25T14:30:00Z",
        }
    }

    fn accepts(self, text: &str) -> bool {
        match self {
            Self::Email => is_email(text),
            Self::Uri => url::Url::parse(text).is_ok(),
            Self::Date => is_date(text),
            Self::DateTime => is_date_time(text),
        }
    }
}

impl Form {
    /// The form `params` asks for, its fields in the server's order.
    pub(crate) fn of(params: &ElicitFormParams) -> Self {
        let required: Vec<&str> = params
            .requested_schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let fields = params
            .fields()
            .into_iter()
            .map(|(name, schema)| Field::of(name, schema, required.contains(&name)))
            .collect();
        Self { fields }
    }
}

impl Field {
    fn of(name: &str, schema: &Value, required: bool) -> Self {
        let text = |key: &str| schema.get(key).and_then(Value::as_str).map(str::to_owned);
        let count = |key: &str| schema.get(key).and_then(Value::as_u64);
        let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
        let kind = match schema.get("type").and_then(Value::as_str) {
            Some("number") => Kind::Number {
                integer: false,
                minimum: bound("minimum"),
                maximum: bound("maximum"),
            },
            Some("integer") => Kind::Number {
                integer: true,
                minimum: bound("minimum"),
                maximum: bound("maximum"),
            },
            Some("boolean") => Kind::Boolean,
            Some("array") => Kind::Choices {
                options: schema.get("items").map(choices).unwrap_or_default(),
                min_items: count("minItems"),
                max_items: count("maxItems"),
            },
            _ => {
                let options = choices(schema);
                if options.is_empty() {
                    Kind::Text {
                        format: text("format").as_deref().and_then(Format::parse),
                        min_length: count("minLength"),
                        max_length: count("maxLength"),
                    }
                } else {
                    Kind::Choice(options)
                }
            }
        };
        let mut field = Self {
            name: name.to_owned(),
            title: text("title"),
            description: text("description"),
            required,
            default: None,
            kind,
        };
        // A default that is not a valid answer is not offered as one.
        field.default = schema.get("default").and_then(|d| field.check(d).ok());
        field
    }

    /// What a person reads as the field's name.
    pub(crate) fn label(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }

    /// `value` if it is a valid answer to this field, else why not.
    pub(crate) fn check(&self, value: &Value) -> Result<Value, String> {
        match (&self.kind, value) {
            (Kind::Text { .. }, Value::String(text)) => self.parse(text),
            (Kind::Number { .. }, Value::Number(_)) => self.parse(&value.to_string()),
            (Kind::Boolean, Value::Bool(_)) => Ok(value.clone()),
            (Kind::Choice(options), Value::String(text)) => {
                if options.iter().any(|o| o.value == *text) {
                    Ok(value.clone())
                } else {
                    Err(format!("not one of: {}", values(options)))
                }
            }
            (
                Kind::Choices {
                    options,
                    min_items,
                    max_items,
                },
                Value::Array(items),
            ) => {
                for item in items {
                    if !item
                        .as_str()
                        .is_some_and(|i| options.iter().any(|o| o.value == i))
                    {
                        return Err(format!("{item} is not one of: {}", values(options)));
                    }
                }
                check_count(items.len(), *min_items, *max_items)?;
                Ok(value.clone())
            }
            (kind, _) => Err(format!("expected {}", kind.expected())),
        }
    }

    /// The answer typed as `text` for a text, number or boolean field, or why it does not
    /// fit.
    pub(crate) fn parse(&self, text: &str) -> Result<Value, String> {
        match &self.kind {
            Kind::Text {
                format,
                min_length,
                max_length,
            } => {
                let length = text.chars().count() as u64;
                if let Some(min) = min_length.filter(|min| length < *min) {
                    return Err(format!("at least {min} characters"));
                }
                if let Some(max) = max_length.filter(|max| length > *max) {
                    return Err(format!("at most {max} characters"));
                }
                if let Some(format) = format.filter(|f| !f.accepts(text)) {
                    return Err(format!("expected {}", format.hint()));
                }
                Ok(Value::String(text.to_owned()))
            }
            Kind::Number {
                integer,
                minimum,
                maximum,
            } => {
                let number = serde_json::from_str::<Number>(text.trim())
                    .ok()
                    .filter(|n| !integer || n.is_i64() || n.is_u64())
                    .ok_or_else(|| format!("expected {}", self.kind.expected()))?;
                let value = number.as_f64().unwrap_or(0.0);
                if let Some(min) = minimum.filter(|min| value < *min) {
                    return Err(format!("at least {min}"));
                }
                if let Some(max) = maximum.filter(|max| value > *max) {
                    return Err(format!("at most {max}"));
                }
                Ok(Value::Number(number))
            }
            Kind::Boolean => match text.trim().to_lowercase().as_str() {
                "y" | "yes" | "true" => Ok(Value::Bool(true)),
                "n" | "no" | "false" => Ok(Value::Bool(false)),
                _ => Err("expected yes or no".into()),
            },
            Kind::Choice(options) => self
                .check(&Value::String(text.to_owned()))
                .map_err(|_| format!("not one of: {}", values(options))),
            Kind::Choices { .. } => Err("choose from the list".into()),
        }
    }
}

impl Kind {
    /// What a valid answer is, in a few words.
    pub(crate) fn expected(&self) -> String {
        match self {
            Self::Text {
                format: Some(f), ..
            } => f.hint().to_owned(),
            Self::Text { .. } => "text".to_owned(),
            Self::Number { integer: true, .. } => "a whole number".to_owned(),
            Self::Number { .. } => "a number".to_owned(),
            Self::Boolean => "true or false".to_owned(),
            Self::Choice(options) => format!("one of: {}", values(options)),
            Self::Choices { options, .. } => format!("a list of: {}", values(options)),
        }
    }
}

/// The options of a select schema: `enum` (titled by `enumNames`, the legacy form), or
/// `oneOf`/`anyOf` of `{const, title}`.
fn choices(schema: &Value) -> Vec<Choice> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let names = schema.get("enumNames").and_then(Value::as_array);
        return values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                Some(Choice {
                    value: v.as_str()?.to_owned(),
                    title: names
                        .and_then(|n| n.get(i))
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                })
            })
            .collect();
    }
    ["oneOf", "anyOf"]
        .iter()
        .filter_map(|key| schema.get(key).and_then(Value::as_array))
        .flatten()
        .filter_map(|option| {
            Some(Choice {
                value: option.get("const")?.as_str()?.to_owned(),
                title: option
                    .get("title")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })
        })
        .collect()
}

fn values(options: &[Choice]) -> String {
    options
        .iter()
        .map(|o| o.value.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// How many options a multi select needs.
pub(crate) fn check_count(n: usize, min: Option<u64>, max: Option<u64>) -> Result<(), String> {
    let n = n as u64;
    if let Some(min) = min.filter(|min| n < *min) {
        return Err(format!("choose at least {min}"));
    }
    if let Some(max) = max.filter(|max| n > *max) {
        return Err(format!("choose at most {max}"));
    }
    Ok(())
}

/// `local@domain.tld`, without spaces: the shape a person means, not RFC 5322.
fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.split('.').count() >= 2
        && domain.split('.').all(|part| !part.is_empty())
        && !text.chars().any(char::is_whitespace)
}

/// `YYYY-MM-DD` naming a day that exists.
fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let [year, month, day] = parts.as_slice() else {
        return false;
    };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(year, 4) && digits(month, 2) && digits(day, 2)) {
        return false;
    }
    let (year, month, day): (u32, u32, u32) = match (year.parse(), month.parse(), day.parse()) {
        (Ok(y), Ok(m), Ok(d)) => (y, m, d),
        _ => return false,
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
fn is_date_time(text: &str) -> bool {
    let Some((date, time)) = text.split_once(['T', 't']) else {
        return false;
    };
    if !is_date(date) {
        return false;
    }
    let (clock, zone) = if let Some(clock) = time.strip_suffix(['Z', 'z']) {
        (clock, None)
    } else {
        match time.rfind(['+', '-']) {
            Some(i) => (&time[..i], Some(&time[i + 1..])),
            None => return false,
        }
    };
    let hh_mm = |s: &str, max_h: u32| {
        let mut parts = s.split(':');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(h), Some(m), None) => {
                h.len() == 2
                    && m.len() == 2
                    && h.parse::<u32>().is_ok_and(|h| h <= max_h)
                    && m.parse::<u32>().is_ok_and(|m| m <= 59)
            }
            _ => false,
        }
    };
    if zone.is_some_and(|z| !hh_mm(z, 23)) {
        return false;
    }
    let (whole, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let Some((hours_minutes, seconds)) = whole.rsplit_once(':') else {
        return false;
    };
    hh_mm(hours_minutes, 23)
        && seconds.len() == 2
        && seconds.parse::<u32>().is_ok_and(|s| s <= 60)
        && !fraction.is_empty()
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

/// An accepted form's content: the answers by field name.
pub(crate) type Answers = Map<String, Value>;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every field type of the specification's schema, in an order that is not sorted.
    pub(crate) const EVERY_FIELD: &str = r##"{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{
        "name":{"type":"string","title":"Your name","minLength":2,"default":"Ann"},
        "email":{"type":"string","format":"email"},
        "age":{"type":"integer","minimum":0,"maximum":150},
        "score":{"type":"number","default":2.5},
        "subscribe":{"type":"boolean","default":true},
        "size":{"type":"string","enum":["s","m","l"],"default":"m"},
        "colour":{"type":"string","oneOf":[{"const":"#f00","title":"Red"},{"const":"#00f","title":"Blue"}]},
        "legacy":{"type":"string","enum":["a","b"],"enumNames":["Option A","Option B"]},
        "fish":{"type":"array","items":{"type":"string","enum":["fish-1","fish-2","fish-3"]},"minItems":1,"maxItems":2},
        "toppings":{"type":"array","items":{"anyOf":[{"const":"ham","title":"Ham"},{"const":"egg","title":"Egg"}]},"default":["egg"]},
        "born":{"type":"string","format":"date"},
        "meeting":{"type":"string","format":"date-time"},
        "site":{"type":"string","format":"uri"}
    },"required":["name","email","fish"]}}"##;

    fn every_field() -> Form {
        let params: mcp_types::ElicitRequestParams = serde_json::from_str(EVERY_FIELD).unwrap();
        let mcp_types::ElicitRequestParams::Form(form) = params else {
            panic!("a form")
        };
        Form::of(&form)
    }

    #[test]
    fn every_field_type_is_read_in_the_schemas_order() {
        let form = every_field();
        let names: Vec<&str> = form.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "name",
                "email",
                "age",
                "score",
                "subscribe",
                "size",
                "colour",
                "legacy",
                "fish",
                "toppings",
                "born",
                "meeting",
                "site"
            ]
        );
        let field = |name: &str| form.fields.iter().find(|f| f.name == name).unwrap();
        assert_eq!(field("name").label(), "Your name");
        assert!(field("name").required && !field("age").required);
        assert_eq!(field("name").default, Some(json!("Ann")));
        assert_eq!(field("score").default, Some(json!(2.5)));
        assert_eq!(field("toppings").default, Some(json!(["egg"])));
        let Kind::Choice(colours) = &field("colour").kind else {
            panic!("a titled single select")
        };
        assert_eq!(colours[0].label(), "Red (#f00)");
        let Kind::Choice(legacy) = &field("legacy").kind else {
            panic!("a legacy titled enum")
        };
        assert_eq!(legacy[1].label(), "Option B (b)");
        assert!(matches!(
            &field("fish").kind,
            Kind::Choices {
                max_items: Some(2),
                ..
            }
        ));
        assert!(
            matches!(&field("toppings").kind, Kind::Choices { options, .. } if options.len() == 2)
        );
        assert_eq!(
            field("meeting").kind,
            Kind::Text {
                format: Some(Format::DateTime),
                min_length: None,
                max_length: None
            }
        );
    }

    #[test]
    fn answers_are_checked_against_their_field() {
        let form = every_field();
        let field = |name: &str| form.fields.iter().find(|f| f.name == name).unwrap();
        assert_eq!(field("age").parse("42"), Ok(json!(42)));
        assert!(field("age").parse("4.2").is_err());
        assert!(field("age").parse("151").is_err());
        assert_eq!(field("score").parse("1e2"), Ok(json!(100.0)));
        assert!(field("name").parse("A").is_err(), "too short");
        assert_eq!(
            field("email").parse("ann@example.com"),
            Ok(json!("ann@example.com"))
        );
        for bad in ["ann", "ann@", "@x.y", "ann@example", "a b@x.y"] {
            assert!(field("email").parse(bad).is_err(), "{bad}");
        }
        assert!(field("born").parse("2024-02-29").is_ok());
        for bad in ["2023-02-29", "2024-13-01", "24-01-01", "2024-1-1"] {
            assert!(field("born").parse(bad).is_err(), "{bad}");
        }
        for good in ["2025-11-25T14:30:00Z", "2025-11-25T14:30:00.5+02:00"] {
            assert!(field("meeting").parse(good).is_ok(), "{good}");
        }
        for bad in ["2025-11-25", "2025-11-25T25:00:00Z", "2025-11-25T14:30Z"] {
            assert!(field("meeting").parse(bad).is_err(), "{bad}");
        }
        assert!(field("site").parse("https://example.com/").is_ok());
        assert!(field("site").parse("not a uri").is_err());
        assert_eq!(field("subscribe").parse("no"), Ok(json!(false)));
        assert!(field("size").check(&json!("xl")).is_err());
        assert!(
            field("colour").check(&json!("Red")).is_err(),
            "the value, not its title"
        );
        assert!(field("colour").check(&json!("#f00")).is_ok());
        assert!(field("fish").check(&json!(["fish-1", "fish-3"])).is_ok());
        assert!(
            field("fish").check(&json!("fish-1, fish-2")).is_err(),
            "an array, not a string"
        );
        assert!(field("fish").check(&json!([])).is_err(), "at least one");
        assert!(
            field("fish")
                .check(&json!(["fish-1", "fish-2", "fish-3"]))
                .is_err(),
            "at most two"
        );
        assert!(field("fish").check(&json!(["trout"])).is_err());
        assert!(field("subscribe").check(&json!("yes")).is_err());
    }

    #[test]
    fn a_default_that_is_no_valid_answer_is_not_offered() {
        let params = ElicitFormParams::new(
            "m",
            json!({"properties": {"n": {"type": "integer", "default": "seven"}}}),
        );
        assert_eq!(Form::of(&params).fields[0].default, None);
    }
}
