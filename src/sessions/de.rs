//! Lenient serde pieces for transcript records: a field of an unexpected type reads as
//! absent instead of making the whole line malformed, and strings are borrowed from the
//! line when they have no escapes.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A string field; anything else (number, object, null) reads as `None`.
#[derive(Debug, Default, Clone)]
pub(crate) struct Str<'a>(pub Option<Cow<'a, str>>);

impl<'a> Str<'a> {
    pub(crate) fn get(&self) -> Option<&str> {
        self.0.as_deref()
    }

    pub(crate) fn is(&self, s: &str) -> bool {
        self.get() == Some(s)
    }
}

struct StrVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for StrVisitor<'a> {
    type Value = Str<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Str<'a>, E> {
        Ok(Str(Some(Cow::Borrowed(v))))
    }
    fn visit_str<E>(self, v: &str) -> Result<Str<'a>, E> {
        Ok(Str(Some(Cow::Owned(v.to_owned()))))
    }
    fn visit_string<E>(self, v: String) -> Result<Str<'a>, E> {
        Ok(Str(Some(Cow::Owned(v))))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Str<'a>, E> {
        Ok(Str(None))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Str<'a>, E> {
        Ok(Str(None))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Str<'a>, E> {
        Ok(Str(None))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Str<'a>, E> {
        Ok(Str(None))
    }
    fn visit_unit<E>(self) -> Result<Str<'a>, E> {
        Ok(Str(None))
    }
    fn visit_none<E>(self) -> Result<Str<'a>, E> {
        Ok(Str(None))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Str<'a>, D::Error> {
        Str::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Str<'a>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Str(None))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Str<'a>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Str(None))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Str<'a>, D::Error> {
        d.deserialize_any(StrVisitor(std::marker::PhantomData))
    }
}

/// A boolean field; anything else reads as `false`.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Flag(pub bool);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Flag, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Flag;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Flag, E> {
                Ok(Flag(v))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_str<E>(self, _: &str) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_unit<E>(self) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_none<E>(self) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Flag, D::Error> {
                Flag::deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Flag, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Flag(false))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Flag, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Flag(false))
            }
        }
        d.deserialize_any(V)
    }
}

/// One block of a content array: `{"type": ..., "text": ..., "name": ...}`; other
/// fields (tool inputs, tool results, thinking) are skipped without being kept.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct Block<'a> {
    #[serde(rename = "type", borrow, default)]
    pub kind: Str<'a>,
    #[serde(borrow, default)]
    pub text: Str<'a>,
    #[serde(borrow, default)]
    pub name: Str<'a>,
}

/// A `content` field: a string, an array of blocks, or something else.
#[derive(Debug, Default)]
pub(crate) enum Content<'a> {
    Text(Cow<'a, str>),
    Blocks(Vec<Block<'a>>),
    #[default]
    Other,
}

/// An array element that is not an object reads as an empty block.
struct AnyBlock<'a>(Block<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for AnyBlock<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<AnyBlock<'a>, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = AnyBlock<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a content block")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<AnyBlock<'a>, A::Error> {
                Block::deserialize(de::value::MapAccessDeserializer::new(map)).map(AnyBlock)
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<AnyBlock<'a>, E> {
                Ok(AnyBlock(Block {
                    kind: Str(Some(Cow::Borrowed("text"))),
                    text: Str(Some(Cow::Borrowed(v))),
                    name: Str(None),
                }))
            }
            fn visit_str<E>(self, v: &str) -> Result<AnyBlock<'a>, E> {
                Ok(AnyBlock(Block {
                    kind: Str(Some(Cow::Borrowed("text"))),
                    text: Str(Some(Cow::Owned(v.to_owned()))),
                    name: Str(None),
                }))
            }
            fn visit_bool<E>(self, _: bool) -> Result<AnyBlock<'a>, E> {
                Ok(AnyBlock(Block::default()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<AnyBlock<'a>, E> {
                Ok(AnyBlock(Block::default()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<AnyBlock<'a>, E> {
                Ok(AnyBlock(Block::default()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<AnyBlock<'a>, E> {
                Ok(AnyBlock(Block::default()))
            }
            fn visit_unit<E>(self) -> Result<AnyBlock<'a>, E> {
                Ok(AnyBlock(Block::default()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AnyBlock<'a>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(AnyBlock(Block::default()))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Content<'a>, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Content<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or an array of content blocks")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Owned(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'a>, A::Error> {
                let mut v = Vec::new();
                while let Some(AnyBlock(b)) = seq.next_element()? {
                    v.push(b);
                }
                Ok(Content::Blocks(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content<'a>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Content::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_unit<E>(self) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_none<E>(self) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Content<'a>, D::Error> {
                Content::deserialize(d)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// Joins the parts of a message's content with `\n`, skipping empty parts.
#[derive(Debug, Default)]
pub(crate) struct Text(String);

impl Text {
    pub(crate) fn push(&mut self, part: &str) {
        if part.trim().is_empty() {
            return;
        }
        if !self.0.is_empty() {
            self.0.push('\n');
        }
        self.0.push_str(part);
    }

    pub(crate) fn tool(&mut self, name: Option<&str>) {
        self.push(&format!("[tool: {}]", name.unwrap_or("unknown")));
    }

    pub(crate) fn into_string(self) -> String {
        self.0
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
