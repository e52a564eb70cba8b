//! Content blocks carried by tool results, prompt messages and sampling messages
//! (`server/tools#tool-result`, schema "Content").

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::tagged::{TaggedEnum, decode_body, deserialize_tagged, tagged_bodies, to_tagged_value};
use crate::{Extra, Icon, Meta, ResourceContents};

/// Who a message or piece of data is from or for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Role {
    /// The human side of the conversation.
    User,
    /// The model side of the conversation.
    Assistant,
}

/// Hints on how a client should use or show an object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Annotations {
    /// Who the data is meant for; may list both roles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 (optional) to 1 (effectively required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// ISO 8601 time of last modification (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Annotations {
    /// No annotations.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set the audience.
    #[must_use]
    pub fn with_audience(mut self, audience: Vec<Role>) -> Self {
        self.audience = Some(audience);
        self
    }

    /// Set the priority.
    #[must_use]
    pub fn with_priority(mut self, priority: f64) -> Self {
        self.priority = Some(priority);
        self
    }

    /// Set the last-modified time.
    #[must_use]
    pub fn with_last_modified(mut self, last_modified: impl Into<String>) -> Self {
        self.last_modified = Some(last_modified.into());
        self
    }
}

/// `{"type":"text"}` content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl TextContent {
    /// Text content.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            annotations: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }
}

/// `{"type":"image"}` content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImageContent {
    /// Base64-encoded image bytes.
    pub data: String,
    /// MIME type of the image.
    pub mime_type: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ImageContent {
    /// Image content from base64 `data`.
    pub fn new(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }
}

/// `{"type":"audio"}` content (2025-03-26 and later).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AudioContent {
    /// Base64-encoded audio bytes.
    pub data: String,
    /// MIME type of the audio.
    pub mime_type: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl AudioContent {
    /// Audio content from base64 `data`.
    pub fn new(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }
}

/// `{"type":"resource_link"}` content: a pointer to a resource the client may read
/// (2025-06-18 and later). Not guaranteed to appear in `resources/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resource is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Size in bytes before encoding, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Icons for a user interface (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ResourceLink {
    /// A link to `uri` called `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            icons: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Set the MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }
}

/// `{"type":"resource"}` content: a resource's contents embedded in the message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EmbeddedResource {
    /// The contents, text or blob.
    pub resource: ResourceContents,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Reserved metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this library does not know, kept for a faithful round trip.
    #[serde(flatten)]
    pub extra: Extra,
}

impl EmbeddedResource {
    /// Embed `resource`.
    pub fn new(resource: ResourceContents) -> Self {
        Self {
            resource,
            annotations: None,
            meta: None,
            extra: Extra::new(),
        }
    }

    /// Set the annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }
}

/// One block of content in a tool result or prompt message, tagged by `type`.
///
/// A block whose `type` this library does not know is kept as [`ContentBlock::Unknown`]
/// (and written back unchanged), so content types added by a later revision never make a
/// whole result fail to parse. A block of a known type with a malformed body is an error.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ContentBlock {
    /// `text`.
    Text(TextContent),
    /// `image`.
    Image(ImageContent),
    /// `audio` (2025-03-26 and later).
    Audio(AudioContent),
    /// `resource_link` (2025-06-18 and later).
    ResourceLink(ResourceLink),
    /// `resource`: an embedded resource.
    Resource(EmbeddedResource),
    /// Any other `type`, kept as sent (the whole object, `type` included).
    Unknown(Value),
}

/// A list of content blocks, starting with room for one. serde's `Vec` starts at four when
/// the input does not say how many (JSON never does): 1.2 KB for these 300-byte blocks, past
/// the allocator's per-thread cache, for results that nearly always hold one block.
pub(crate) fn deserialize_blocks<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<ContentBlock>, D::Error> {
    struct BlocksVisitor;

    impl<'de> serde::de::Visitor<'de> for BlocksVisitor {
        type Value = Vec<ContentBlock>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an array of content blocks")
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut blocks = Vec::with_capacity(seq.size_hint().unwrap_or(1).clamp(1, 64));
            while let Some(block) = seq.next_element()? {
                blocks.push(block);
            }
            Ok(blocks)
        }
    }

    deserializer.deserialize_seq(BlocksVisitor)
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(TextContent::new(text))
    }

    /// The text, if this is a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(t) => Some(&t.text),
            _ => None,
        }
    }

    /// The `type` tag of this block.
    pub fn kind(&self) -> &str {
        match self {
            Self::Text(_) => "text",
            Self::Image(_) => "image",
            Self::Audio(_) => "audio",
            Self::ResourceLink(_) => "resource_link",
            Self::Resource(_) => "resource",
            Self::Unknown(v) => v.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }
}

impl From<TextContent> for ContentBlock {
    fn from(value: TextContent) -> Self {
        Self::Text(value)
    }
}

impl From<ImageContent> for ContentBlock {
    fn from(value: ImageContent) -> Self {
        Self::Image(value)
    }
}

impl From<AudioContent> for ContentBlock {
    fn from(value: AudioContent) -> Self {
        Self::Audio(value)
    }
}

impl From<ResourceLink> for ContentBlock {
    fn from(value: ResourceLink) -> Self {
        Self::ResourceLink(value)
    }
}

impl From<EmbeddedResource> for ContentBlock {
    fn from(value: EmbeddedResource) -> Self {
        Self::Resource(value)
    }
}

impl Serialize for ContentBlock {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let value = match self {
            Self::Text(c) => to_tagged_value("type", "text", c),
            Self::Image(c) => to_tagged_value("type", "image", c),
            Self::Audio(c) => to_tagged_value("type", "audio", c),
            Self::ResourceLink(c) => to_tagged_value("type", "resource_link", c),
            Self::Resource(c) => to_tagged_value("type", "resource", c),
            Self::Unknown(v) => return v.serialize(serializer),
        };
        value
            .map_err(serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_tagged(deserializer)
    }
}

impl TaggedEnum for ContentBlock {
    const WHAT: &'static str = "content block";
    const TAG_KEY: &'static str = "type";

    fn is_known(tag: &str) -> bool {
        matches!(
            tag,
            "text" | "image" | "audio" | "resource_link" | "resource"
        )
    }

    fn decode_known<'de, D: Deserializer<'de>>(tag: &str, body: D) -> Result<Self, D::Error> {
        Ok(match tag {
            "text" => Self::Text(decode_body(body, Self::TAG_KEY)?),
            "image" => Self::Image(decode_body(body, Self::TAG_KEY)?),
            "audio" => Self::Audio(decode_body(body, Self::TAG_KEY)?),
            "resource_link" => Self::ResourceLink(decode_body(body, Self::TAG_KEY)?),
            _ => Self::Resource(decode_body(body, Self::TAG_KEY)?),
        })
    }

    fn unknown(object: serde_json::Map<String, Value>) -> Self {
        Self::Unknown(Value::Object(object))
    }
}

tagged_bodies!(
    TextContent,
    ImageContent,
    AudioContent,
    ResourceLink,
    EmbeddedResource
);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_content_type_survives_unchanged() {
        let raw = json!({ "type": "hologram", "frames": [1, 2], "_meta": { "a": true } });
        let block: ContentBlock = serde_json::from_value(raw.clone()).unwrap();
        assert_eq!(block.kind(), "hologram");
        assert!(matches!(block, ContentBlock::Unknown(_)));
        assert_eq!(serde_json::to_value(&block).unwrap(), raw);
    }

    #[test]
    fn unknown_members_survive_in_a_known_block() {
        let raw = json!({ "type": "text", "text": "hi", "future": { "x": 1 } });
        let block: ContentBlock = serde_json::from_value(raw.clone()).unwrap();
        let ContentBlock::Text(text) = &block else {
            panic!("expected text, got {block:?}");
        };
        assert_eq!(text.extra["future"], json!({ "x": 1 }));
        assert_eq!(serde_json::to_value(&block).unwrap(), raw);
    }

    #[test]
    fn malformed_known_block_is_an_error_that_names_the_problem() {
        let err = serde_json::from_value::<ContentBlock>(json!({ "type": "text" })).unwrap_err();
        assert!(err.to_string().contains("text"), "{err}");
        let err = serde_json::from_value::<ContentBlock>(json!({ "text": "x" })).unwrap_err();
        assert!(err.to_string().contains("no `type`"), "{err}");
        let err = serde_json::from_value::<ContentBlock>(json!("text")).unwrap_err();
        assert!(err.to_string().contains("must be an object"), "{err}");
    }

    #[test]
    fn tag_first_or_later_decodes_the_same_from_text() {
        // Tag first takes the single-pass path, tag later the collected-map path.
        let first = r#"{"type":"text","text":"hi","future":1,"_meta":{"k":"v"}}"#;
        let later = r#"{"text":"hi","future":1,"_meta":{"k":"v"},"type":"text"}"#;
        let a: ContentBlock = serde_json::from_str(first).unwrap();
        let b: ContentBlock = serde_json::from_str(later).unwrap();
        assert_eq!(a, b);
        let ContentBlock::Text(text) = &a else {
            panic!("expected text, got {a:?}");
        };
        assert_eq!(text.text, "hi");
        assert_eq!(text.extra.get("future"), Some(&json!(1)));
        assert!(!text.extra.contains_key("type"), "{text:?}");
        assert_eq!(text.meta.as_ref().unwrap()["k"], json!("v"));
    }

    #[test]
    fn unknown_type_first_in_text_is_kept_whole() {
        let raw = r#"{"type":"hologram","frames":[1,2],"_meta":{"a":true}}"#;
        let block: ContentBlock = serde_json::from_str(raw).unwrap();
        assert_eq!(block.kind(), "hologram");
        assert_eq!(
            serde_json::to_value(&block).unwrap(),
            serde_json::from_str::<Value>(raw).unwrap()
        );
    }

    #[test]
    fn repeated_type_member_never_lands_in_extra() {
        let block: ContentBlock =
            serde_json::from_str(r#"{"type":"text","text":"hi","type":"text"}"#).unwrap();
        let ContentBlock::Text(text) = &block else {
            panic!("expected text, got {block:?}");
        };
        assert!(text.extra.is_empty(), "{text:?}");
    }

    #[test]
    fn bad_tags_and_bodies_from_text_are_errors() {
        for (raw, needle) in [
            (r#"{"type":5,"text":"x"}"#, "`type` to be a string"),
            (r#"{"text":"x","type":5}"#, "`type` must be a string"),
            (r#"{"type":"text"}"#, "missing field `text`"),
            (r#"{"type":"image","data":"AA=="}"#, "mimeType"),
            (r#"{"type":"text","text":7}"#, "invalid type"),
            ("{}", "no `type`"),
            (r#"{"text":"x"}"#, "no `type`"),
            ("[]", "must be an object"),
        ] {
            let err = serde_json::from_str::<ContentBlock>(raw).unwrap_err();
            assert!(err.to_string().contains(needle), "{raw}: {err}");
        }
    }

    #[test]
    fn decodes_through_serdes_buffered_content_too() {
        // An untagged enum buffers its input and replays it through serde's own
        // deserializer: the tagged decoding must not depend on serde_json's.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Block(ContentBlock),
        }
        let Either::Block(block) =
            serde_json::from_str(r#"{"type":"text","text":"hi","x":[1]}"#).unwrap();
        let ContentBlock::Text(text) = &block else {
            panic!("expected text, got {block:?}");
        };
        assert_eq!(text.text, "hi");
        assert_eq!(text.extra.get("x"), Some(&json!([1])));
    }

    #[test]
    fn built_blocks_serialize_with_their_tag() {
        let block = ContentBlock::from(
            ImageContent::new("AA==", "image/png")
                .with_annotations(Annotations::new().with_audience(vec![Role::Assistant])),
        );
        assert_eq!(
            serde_json::to_value(&block).unwrap(),
            json!({ "type": "image", "data": "AA==", "mimeType": "image/png",
                    "annotations": { "audience": ["assistant"] } })
        );
    }
}
