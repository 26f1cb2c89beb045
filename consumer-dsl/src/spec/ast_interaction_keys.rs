//! The unknown-key check of an interaction. An interaction's map is read
//! through [`CheckedInteraction`], which looks at each key before the
//! derived reader does: an unknown key is refused with the keys valid for
//! the interaction's kind (not every key of every kind) and the closest
//! one ("did you mean `side_effects`?"). The error is raised while the key
//! is read, so it carries the key's line and column.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};

use super::ast_interaction::{COMMON_KEYS, KINDS, RawInteraction};

/// A [`RawInteraction`] whose keys were checked one by one.
pub(crate) struct CheckedInteraction(pub(crate) RawInteraction);

impl<'de> Deserialize<'de> for CheckedInteraction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(InteractionVisitor)
    }
}

struct InteractionVisitor;

impl<'de> Visitor<'de> for InteractionVisitor {
    type Value = CheckedInteraction;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "an interaction: a map starting with http:, a2a:, mcp:, message: or sync_message:",
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<CheckedInteraction, A::Error> {
        let checked = CheckedKeys { map, kind: None };
        RawInteraction::deserialize(de::value::MapAccessDeserializer::new(checked))
            .map(CheckedInteraction)
    }
}

/// Hands each key to the derived reader after checking it; remembers the
/// kind once its key (`a2a:`, …) has been read.
struct CheckedKeys<A> {
    map: A,
    kind: Option<usize>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for CheckedKeys<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let kind = &mut self.kind;
        self.map.next_key_seed(KeySeed { seed, kind })
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

struct KeySeed<'k, S> {
    seed: S,
    kind: &'k mut Option<usize>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for KeySeed<'_, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<S::Value, E> {
        if let Some(i) = KINDS.iter().position(|(name, _)| *name == key) {
            self.kind.get_or_insert(i);
        } else if !is_known(key) {
            return Err(E::custom(unknown_key(key, *self.kind)));
        }
        self.seed.deserialize(key.into_deserializer())
    }
}

fn is_known(key: &str) -> bool {
    COMMON_KEYS.contains(&key) || KINDS.iter().any(|(_, keys)| keys.contains(&key))
}

/// "unknown field `x` (did you mean `y`?); an a2a interaction's keys are …":
/// the keys of the kind when it is known, the kinds and the common keys
/// when the unknown key comes before the kind's.
fn unknown_key(key: &str, kind: Option<usize>) -> String {
    let common = COMMON_KEYS.join(", ");
    let (valid, place): (Vec<&str>, String) = match kind.and_then(|i| KINDS.get(i)) {
        Some((name, keys)) => (
            keys.iter().chain(COMMON_KEYS).copied().collect(),
            format!(
                "{} interaction's keys are {}, and {common}",
                article(name),
                keys.join(", ")
            ),
        ),
        None => {
            let all = KINDS
                .iter()
                .flat_map(|(name, keys)| std::iter::once(*name).chain(keys.iter().copied()))
                .chain(COMMON_KEYS.iter().copied())
                .collect();
            let kinds: Vec<&str> = KINDS.iter().map(|(name, _)| *name).collect();
            (
                all,
                format!(
                    "an interaction starts with one of {}; its other keys depend on the kind, and {common}",
                    kinds.join(", ")
                ),
            )
        }
    };
    let hint = crate::suggest::closest(key, &valid)
        .map_or_else(String::new, |k| format!(" (did you mean `{k}`?)"));
    format!("unknown field `{key}`{hint}; {place}")
}

fn article(kind: &str) -> String {
    match kind {
        "http" | "a2a" | "mcp" => format!("an {kind}"),
        _ => format!("a {kind}"),
    }
}
