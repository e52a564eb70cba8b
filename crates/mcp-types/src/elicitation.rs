//! Asking the user through the client: `elicitation/create` in form mode (2025-06-18 and
//! later) and URL mode (2025-11-25) (`client/elicitation`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::tagged::tag_of;
use crate::{ErrorObject, Extra, Meta, error_codes};

/// `elicitation/create` parameters, by `mode`.
///
/// A request without `mode` is form mode: 2025-06-18 servers never send it, and 2025-11-25
/// servers may omit it for forms. An unknown mode is a decoding error (the client answers
/// it with an error rather than guess).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ElicitRequestParams {
    /// `mode: "form"` or no `mode`: collect structured data in the client.
    Form(ElicitFormParams),
    /// `mode: "url"`: send the user to a URL, out of the client's sight.
    Url(ElicitUrlParams),
}

impl ElicitRequestParams {
    /// The message to show the user.
    pub fn message(&self) -> &str {
        match self {
            Self::Form(p) => &p.message,
            Self::Url(p) => &p.message,
        }
    }

    /// The wire name of the mode: `"form"` or `"url"`.
    pub fn mode(&self) -> &'static str {
        match self {
            Self::Form(_) => FormMode::NAME,
            Self::Url(_) => UrlMode::NAME,
        }
    }
}

impl From<ElicitFormParams> for ElicitRequestParams {
    fn from(value: ElicitFormParams) -> Self {
        Self::Form(value)
    }
}

impl From<ElicitUrlParams> for ElicitRequestParams {
    fn from(value: ElicitUrlParams) -> Self {
        Self::Url(value)
    }
}

impl Serialize for ElicitRequestParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Form(p) => p.serialize(serializer),
            Self::Url(p) => p.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for ElicitRequestParams {
    /// Decodes by `mode`. A form's fields are remembered in the order the server wrote them
    /// (see [`ElicitFormParams::fields`]): read from the text itself, as a JSON map here
    /// keeps its keys sorted.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let raw = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        let value: Value = serde_json::from_str(raw.get()).map_err(D::Error::custom)?;
        let Value::Object(object) = &value else {
            return Err(D::Error::custom(format!(
                "elicitation parameters must be an object, got {value}"
            )));
        };
        let params = match tag_of(object, "mode").map_err(D::Error::custom)?.as_deref() {
            None | Some(FormMode::NAME) => {
                serde_json::from_value(value).map(|mut form: ElicitFormParams| {
                    form.field_order = field_order::of(raw.get());
                    Self::Form(form)
                })
            }
            Some(UrlMode::NAME) => serde_json::from_value(value).map(Self::Url),
            Some(other) => {
                return Err(D::Error::custom(format!(
                    "unsupported elicitation mode `{other}`"
                )));
            }
        };
        params.map_err(|e| D::Error::custom(format!("invalid elicitation parameters: {e}")))
    }
}

/// The order of a form's fields in the text it came in.
mod field_order {
    use std::fmt;

    use serde::Deserialize;
    use serde::de::{IgnoredAny, MapAccess, Visitor};

    #[derive(Deserialize)]
    struct Params {
        #[serde(rename = "requestedSchema")]
        requested_schema: Option<Schema>,
    }

    #[derive(Deserialize)]
    struct Schema {
        properties: Option<Keys>,
    }

    /// An object's keys in the order they appear (its values skipped unread).
    struct Keys(Vec<String>);

    impl<'de> Deserialize<'de> for Keys {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct KeysVisitor;
            impl<'de> Visitor<'de> for KeysVisitor {
                type Value = Keys;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                    let mut keys = Vec::new();
                    while let Some(key) = map.next_key::<String>()? {
                        map.next_value::<IgnoredAny>()?;
                        keys.push(key);
                    }
                    Ok(Keys(keys))
                }
            }
            deserializer.deserialize_map(KeysVisitor)
        }
    }

    /// The names of `requestedSchema.properties` in `params_text`, in order; empty when
    /// they cannot be read (the form's map order is used then).
    pub(super) fn of(params_text: &str) -> Vec<String> {
        serde_json::from_str::<Params>(params_text)
            .ok()
            .and_then(|p| p.requested_schema)
            .and_then(|s| s.properties)
            .map(|Keys(keys)| keys)
            .unwrap_or_default()
    }
}

/// The `mode` member of a form-mode request: always the string `"form"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct FormMode;

impl FormMode {
    /// The wire value.
    pub const NAME: &'static str = "form";
}

/// The `mode` member of a URL-mode request: always the string `"url"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct UrlMode;

impl UrlMode {
    /// The wire value.
    pub const NAME: &'static str = "url";
}

macro_rules! fixed_string_serde {
    ($ty:ty) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(<$ty>::NAME)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                if text == <$ty>::NAME {
                    Ok(Self)
                } else {
                    Err(serde::de::Error::invalid_value(
                        serde::de::Unexpected::Str(&text),
                        &<$ty>::NAME,
                    ))
                }
            }
        }
    };
}

fixed_string_serde!(FormMode);
fixed_string_serde!(UrlMode);

/// Form-mode elicitation: a message and a flat JSON Schema of primitive fields.
/// Never used for sensitive data (that is what URL mode is for).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitFormParams {
    /// `"form"` when the sender wrote it; `None` when it was omitted (2025-06-18 style).
    /// Kept so a request is written back exactly as it came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<FormMode>,
    /// What is being asked and why.
    pub message: String,
    /// Restricted JSON Schema (a flat object of string, number, boolean and enum fields),
    /// kept as sent.
    pub requested_schema: Value,
    /// Task augmentation request (experimental, 2025-11-25), kept raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<Value>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
    /// The names of `requestedSchema.properties` in the order the sender wrote them.
    #[serde(skip)]
    field_order: Vec<String>,
}

impl ElicitFormParams {
    /// Ask `message` with a form described by `requested_schema`; writes `mode: "form"`.
    pub fn new(message: impl Into<String>, requested_schema: Value) -> Self {
        let field_order = requested_schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        Self {
            mode: Some(FormMode),
            message: message.into(),
            requested_schema,
            task: None,
            meta: None,
            extra: Extra::new(),
            field_order,
        }
    }

    /// The form's fields, `requestedSchema.properties`, in the order the server wrote them
    /// (the order a person is asked in), each with its schema. Params decoded as
    /// [`ElicitRequestParams`] (as a client receives them) know that order; a `Value` does
    /// not, so fields it does not account for follow in its (sorted) order.
    pub fn fields(&self) -> Vec<(&str, &Value)> {
        let Some(properties) = self
            .requested_schema
            .get("properties")
            .and_then(Value::as_object)
        else {
            return Vec::new();
        };
        let mut fields: Vec<(&str, &Value)> = self
            .field_order
            .iter()
            .filter_map(|name| properties.get_key_value(name))
            .map(|(name, schema)| (name.as_str(), schema))
            .collect();
        for (name, schema) in properties {
            if !self.field_order.contains(name) {
                fields.push((name.as_str(), schema));
            }
        }
        fields
    }

    /// Leave `mode` out, as 2025-06-18 servers do.
    #[must_use]
    pub fn without_mode(mut self) -> Self {
        self.mode = None;
        self
    }
}

/// URL-mode elicitation (2025-11-25): the user completes an interaction at `url`, out of
/// band. Also the element type of the `-32042` error's `elicitations`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitUrlParams {
    /// Always `"url"`; written on output, tolerated when missing on input.
    #[serde(default)]
    pub mode: UrlMode,
    /// Why the interaction is needed.
    pub message: String,
    /// Where to send the user (show its host and ask for consent first).
    pub url: String,
    /// Opaque id, unique within the server; `notifications/elicitation/complete` names it.
    pub elicitation_id: String,
    /// Task augmentation request (experimental, 2025-11-25), kept raw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<Value>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ElicitUrlParams {
    /// Send the user to `url` for `message`, identified by `elicitation_id`.
    pub fn new(
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<String>,
    ) -> Self {
        Self {
            mode: UrlMode,
            message: message.into(),
            url: url.into(),
            elicitation_id: elicitation_id.into(),
            task: None,
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// What the user did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ElicitAction {
    /// Submitted the form / consented to open the URL.
    Accept,
    /// Explicitly refused.
    Decline,
    /// Dismissed without choosing.
    Cancel,
}

/// `elicitation/create` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The submitted form values, only for an accepted form (values are strings, numbers,
    /// booleans or arrays of strings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Map<String, Value>>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ElicitResult {
    /// A result with `action` and no content.
    pub fn new(action: ElicitAction) -> Self {
        Self {
            action,
            content: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// The user submitted the form with `content`.
    pub fn accept(content: Map<String, Value>) -> Self {
        Self::new(ElicitAction::Accept).with_content(content)
    }

    /// The user consented (URL mode: no content).
    pub fn accept_without_content() -> Self {
        Self::new(ElicitAction::Accept)
    }

    /// The user declined.
    pub fn decline() -> Self {
        Self::new(ElicitAction::Decline)
    }

    /// The user dismissed the request.
    pub fn cancel() -> Self {
        Self::new(ElicitAction::Cancel)
    }

    /// Set the content.
    #[must_use]
    pub fn with_content(mut self, content: Map<String, Value>) -> Self {
        self.content = Some(content);
        self
    }
}

/// `notifications/elicitation/complete` parameters (2025-11-25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ElicitationCompleteNotificationParams {
    /// The finished elicitation. Unknown or already completed ids must be ignored.
    pub elicitation_id: String,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ElicitationCompleteNotificationParams {
    /// `elicitation_id` is complete.
    pub fn new(elicitation_id: impl Into<String>) -> Self {
        Self {
            elicitation_id: elicitation_id.into(),
            meta: None,
            extra: Extra::new(),
        }
    }
}

/// The `data` of a `-32042` URL elicitation required error (2025-11-25): the URL
/// elicitations to complete before the request can be retried.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct UrlElicitationRequiredData {
    /// The required elicitations, all URL mode.
    pub elicitations: Vec<ElicitUrlParams>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl UrlElicitationRequiredData {
    /// Data listing `elicitations`.
    pub fn new(elicitations: Vec<ElicitUrlParams>) -> Self {
        Self {
            elicitations,
            extra: Extra::new(),
        }
    }

    /// Decode the data of `error` if it is a `-32042` error: `Ok(None)` for any other code,
    /// an error when the code matches but the data is missing or malformed.
    pub fn from_error(error: &ErrorObject) -> Result<Option<Self>, serde_json::Error> {
        if error.code != error_codes::URL_ELICITATION_REQUIRED {
            return Ok(None);
        }
        let data = error.data.clone().unwrap_or(Value::Null);
        serde_json::from_value(data).map(Some)
    }

    /// The JSON-RPC error object carrying this data, with `message`.
    pub fn into_error(self, message: impl Into<String>) -> Result<ErrorObject, serde_json::Error> {
        Ok(
            ErrorObject::new(error_codes::URL_ELICITATION_REQUIRED, message)
                .with_data(serde_json::to_value(self)?),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(form: &ElicitFormParams) -> Vec<&str> {
        form.fields().into_iter().map(|(name, _)| name).collect()
    }

    #[test]
    fn a_forms_fields_come_in_the_order_the_server_wrote_them() {
        let text = r#"{"message":"m","requestedSchema":{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"number"},"mid":{"type":"boolean"}},"required":["zeta"]}}"#;
        let ElicitRequestParams::Form(form) = serde_json::from_str(text).unwrap() else {
            panic!("a form")
        };
        assert_eq!(names(&form), ["zeta", "alpha", "mid"]);
        assert_eq!(form.fields()[1].1["type"], "number");
        // A `Value` keeps no order: fields then come sorted.
        let value: Value = serde_json::from_str(text).unwrap();
        let ElicitRequestParams::Form(sorted) = serde_json::from_value(value).unwrap() else {
            panic!("a form")
        };
        assert_eq!(names(&sorted), ["alpha", "mid", "zeta"]);
        // Written back and read again, a form is equal to itself.
        let again: ElicitRequestParams =
            serde_json::from_str(&serde_json::to_string(&form).unwrap()).unwrap();
        assert_eq!(again, ElicitRequestParams::Form(sorted));
        let built =
            ElicitFormParams::new("m", serde_json::json!({"properties": {"b": {}, "a": {}}}));
        assert_eq!(names(&built), ["a", "b"]);
        assert!(
            ElicitFormParams::new("m", serde_json::json!({}))
                .fields()
                .is_empty()
        );
    }
}
