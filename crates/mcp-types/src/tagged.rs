//! Helpers for enums tagged by a string member (`type`, `mode`) that keep unknown variants.
//!
//! serde's derived internally tagged enums cannot fall back to a raw value for an unknown
//! tag, and a newer peer must never make a whole result fail to parse, so the content enums
//! are decoded by hand with [`TaggedEnum`]: straight from the input when the tag comes
//! first, through a `serde_json::Value` map only when it does not or the tag is unknown.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

/// Serialize `inner` (a struct) and add `tag_key: tag` to its members.
pub(crate) fn to_tagged_value<T: Serialize>(
    tag_key: &str,
    tag: &str,
    inner: &T,
) -> Result<Value, serde_json::Error> {
    let mut object = match serde_json::to_value(inner)? {
        Value::Object(object) => object,
        // Every tagged variant is a struct; anything else is a bug in this crate.
        other => {
            return Err(serde::ser::Error::custom(format!(
                "tagged variant `{tag}` did not serialize to an object: {other}"
            )));
        }
    };
    // Inserted last so the tag wins over a `type` someone put in `extra` by hand.
    object.insert(tag_key.to_owned(), Value::String(tag.to_owned()));
    Ok(Value::Object(object))
}

/// Read the string tag of an object without consuming it. `Ok(None)` when absent.
pub(crate) fn tag_of(object: &Map<String, Value>, tag_key: &str) -> Result<Option<String>, String> {
    match object.get(tag_key) {
        None => Ok(None),
        Some(Value::String(tag)) => Ok(Some(tag.clone())),
        Some(other) => Err(format!("`{tag_key}` must be a string, got {other}")),
    }
}

/// An enum tagged by a string member whose unknown tags are kept as the raw object.
///
/// [`deserialize_tagged`] decodes it in one pass when the tag is the object's first member
/// (what every SDK writes): the tag is read, then the variant's struct is decoded straight
/// from the rest of the same map, with no `serde_json::Value` tree in between. Otherwise
/// (tag later in the object, or an unknown tag) the members are collected into a map first,
/// as they must be to find the tag. Works with any deserializer, not only serde_json's.
pub(crate) trait TaggedEnum: Sized {
    /// What one value is called in error messages ("content block").
    const WHAT: &'static str;
    /// The tag member's name.
    const TAG_KEY: &'static str;
    /// Whether `tag` names a variant this library decodes (anything else is kept raw).
    fn is_known(tag: &str) -> bool;
    /// Decode the known variant `tag` from the object's other members. The tag member is
    /// already consumed; a duplicate of it must not be left in the variant's `extra`.
    fn decode_known<'de, D: Deserializer<'de>>(tag: &str, body: D) -> Result<Self, D::Error>;
    /// Keep an object with an unknown tag exactly as sent (tag included).
    fn unknown(object: Map<String, Value>) -> Self;
}

/// A tagged enum's variant body: a struct whose unknown members are kept in `extra`.
pub(crate) trait TaggedBody {
    /// The members this library does not model.
    fn extra_mut(&mut self) -> &mut Map<String, Value>;
}

/// Implements [`TaggedBody`] for structs with an `extra` field.
macro_rules! tagged_bodies {
    ($($ty:ty),* $(,)?) => {
        $(impl crate::tagged::TaggedBody for $ty {
            fn extra_mut(&mut self) -> &mut serde_json::Map<String, serde_json::Value> {
                &mut self.extra
            }
        })*
    };
}
pub(crate) use tagged_bodies;

/// Decode one variant's body. A repeated tag member must not land in `extra`: the first
/// occurrence, already read, wins.
pub(crate) fn decode_body<'de, B, D>(body: D, tag_key: &str) -> Result<B, D::Error>
where
    B: TaggedBody + de::Deserialize<'de>,
    D: Deserializer<'de>,
{
    let mut decoded = B::deserialize(body)?;
    decoded.extra_mut().remove(tag_key);
    Ok(decoded)
}

/// `Deserialize::deserialize` for a [`TaggedEnum`].
pub(crate) fn deserialize_tagged<'de, T: TaggedEnum, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    deserializer.deserialize_map(TaggedVisitor(PhantomData))
}

struct TaggedVisitor<T>(PhantomData<T>);

impl<'de, T: TaggedEnum> Visitor<'de> for TaggedVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {} (which must be an object)", T::WHAT)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let first_key = map.next_key_seed(KeySeed {
            tag_key: T::TAG_KEY,
        })?;
        let mut object = Map::new();
        match first_key {
            None => return Err(no_tag::<T, A::Error>()),
            Some(Key::Tag) => {
                let tag = map.next_value_seed(TagSeed {
                    tag_key: T::TAG_KEY,
                })?;
                if T::is_known(&tag) {
                    // The fast path: the rest of this very map is the variant's body.
                    return T::decode_known(&tag, MapAccessDeserializer::new(map));
                }
                object.insert(T::TAG_KEY.to_owned(), Value::String(tag.into_owned()));
            }
            Some(Key::Other(key)) => {
                let value = map.next_value()?;
                object.insert(key, value);
            }
        }
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            object.insert(key, value);
        }
        from_object(object)
    }
}

/// The slow path: the whole object is in hand; find the tag in it.
fn from_object<T: TaggedEnum, E: de::Error>(mut object: Map<String, Value>) -> Result<T, E> {
    let tag = match object.get(T::TAG_KEY) {
        None => return Err(no_tag::<T, E>()),
        Some(Value::String(tag)) => tag,
        Some(other) => {
            return Err(E::custom(format!(
                "`{}` must be a string, got {other}",
                T::TAG_KEY
            )));
        }
    };
    if !T::is_known(tag) {
        return Ok(T::unknown(object));
    }
    let Some(Value::String(tag)) = object.remove(T::TAG_KEY) else {
        unreachable!("the tag was just read as a string");
    };
    T::decode_known(&tag, Value::Object(object))
        .map_err(|e| E::custom(format!("invalid {}: {e}", T::WHAT)))
}

fn no_tag<T: TaggedEnum, E: de::Error>() -> E {
    E::custom(format!("{} has no `{}`", T::WHAT, T::TAG_KEY))
}

/// A member name, told apart from the tag without allocating for the tag.
enum Key {
    Tag,
    Other(String),
}

struct KeySeed {
    tag_key: &'static str,
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        Ok(if key == self.tag_key {
            Key::Tag
        } else {
            Key::Other(key.to_owned())
        })
    }

    fn visit_string<E: de::Error>(self, key: String) -> Result<Key, E> {
        Ok(if key == self.tag_key {
            Key::Tag
        } else {
            Key::Other(key)
        })
    }
}

/// The tag's value: borrowed from the input when the deserializer allows it.
struct TagSeed {
    tag_key: &'static str,
}

impl<'de> DeserializeSeed<'de> for TagSeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for TagSeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` to be a string", self.tag_key)
    }

    fn visit_borrowed_str<E: de::Error>(self, tag: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(tag))
    }

    fn visit_str<E: de::Error>(self, tag: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(tag.to_owned()))
    }

    fn visit_string<E: de::Error>(self, tag: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(tag))
    }
}
