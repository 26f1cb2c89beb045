//! The usual V4 `Synchronous/HTTP` interaction read straight from its
//! text into typed parts: no `Value` tree for the interaction, its request
//! and its response (each attribute's value is still a `Value`), so no
//! hashed map per object. A large contract's readers
//! ([`super::read_parallel`]) spend most of their time building and
//! dropping those maps.
//!
//! It reads what [`super::read_interaction`] reads, through the same
//! functions ([`Fields`] is the attribute lookup both use). Anything
//! outside the usual shape — an attribute it does not name (expectation
//! keys, V1–V3 state keys, unknown ones), a duplicate attribute, a
//! request or response that is not an object, another `type` — and any
//! error at all is `None`: the `Value` reader then answers, with its own
//! error where there is one.

use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::json::{At, Fields};
use super::parts::{request_from_fields, response_from_fields};
use super::read_interaction::read_meta;
use crate::model::{HttpInteraction, Interaction, PactSpec};

/// An attribute as written: absent is `None` (the field's default), any
/// value — `null` included — is `Some`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// `T` read from a JSON object only. A derived struct reader also takes
/// an array (its fields in order), which the `Value` reader refuses.
struct Obj<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Fields<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<T, M::Error> {
                T::deserialize(MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(Fields(PhantomData)).map(Obj)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Http {
    #[serde(rename = "type")]
    _kind: Kind,
    #[serde(default, deserialize_with = "present")]
    description: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    key: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pending: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    comments: Option<Value>,
    #[serde(default, rename = "providerStates", deserialize_with = "present")]
    provider_states: Option<Value>,
    request: Obj<Request>,
    response: Obj<Response>,
}

/// The one `type` read here: any other stops the read at that attribute
/// (a contract of MCP or A2A interactions is not parsed twice over).
#[derive(Deserialize)]
enum Kind {
    #[serde(rename = "Synchronous/HTTP")]
    Http,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    #[serde(default, deserialize_with = "present")]
    method: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    path: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    query: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    headers: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    body: Option<Value>,
    #[serde(default, rename = "matchingRules", deserialize_with = "present")]
    matching_rules: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    generators: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Response {
    #[serde(default, deserialize_with = "present")]
    status: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    headers: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    body: Option<Value>,
    #[serde(default, rename = "matchingRules", deserialize_with = "present")]
    matching_rules: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    generators: Option<Value>,
}

/// The [`Fields`] of a typed object: `field` names its attributes, and it
/// has no others (`deny_unknown_fields`).
macro_rules! typed_fields {
    ($ty:ty { $($key:literal => $field:ident),* $(,)? }) => {
        impl Fields for $ty {
            fn field(&self, key: &str) -> Option<&Value> {
                match key {
                    $($key => self.$field.as_ref(),)*
                    _ => None,
                }
            }

            fn unknown(&self, _known: &[&str]) -> Map<String, Value> {
                Map::new()
            }

            fn has_any(&self, keys: &[&str]) -> bool {
                keys.iter().any(|k| self.field(k).is_some())
            }
        }
    };
}

typed_fields!(Http {
    "description" => description,
    "key" => key,
    "pending" => pending,
    "comments" => comments,
    "providerStates" => provider_states,
});
typed_fields!(Request {
    "method" => method,
    "path" => path,
    "query" => query,
    "headers" => headers,
    "body" => body,
    "matchingRules" => matching_rules,
    "generators" => generators,
});
typed_fields!(Response {
    "status" => status,
    "headers" => headers,
    "body" => body,
    "matchingRules" => matching_rules,
    "generators" => generators,
});

/// The V4 interaction in `text` when it is a `Synchronous/HTTP` one in
/// the usual shape and reads without error; `None` sends it to the
/// `Value` reader.
pub(super) fn http(text: &str, at: At<'_>) -> Option<Interaction> {
    let Obj(typed) = serde_json::from_str::<Obj<Http>>(text).ok()?;
    let meta = read_meta(&typed, at).ok()?;
    let (origin, spec) = (at.origin, PactSpec::V4);
    let request = request_from_fields(
        &typed.request.0,
        spec,
        origin,
        &[at.path, ".request"].concat(),
    );
    let response = response_from_fields(
        &typed.response.0,
        spec,
        origin,
        &[at.path, ".response"].concat(),
    );
    // no attribute but those named: `extra` stays empty
    Some(Interaction::Http(HttpInteraction {
        meta,
        request: request.ok()?,
        response: response.ok()?,
    }))
}

#[cfg(test)]
#[path = "read_typed_tests.rs"]
mod tests;
