//! The `delegation:` block of an `a2a:` interaction as written: what the
//! consumer allows the agent to do downstream on its behalf. Every map of
//! the block refuses an unknown key with the keys it has and the closest
//! one ("did you mean `forbidden`?"), at the key's line and column.

use std::fmt;
use std::marker::PhantomData;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};

/// `delegation:` — the record, in the spec's snake_case.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DelegationFields {
    /// The policy's name (`DRAFT_ONLY`, …), carried to the agent.
    pub mode: Option<String>,
    pub tools: Option<Checked<ToolsFields>>,
    pub agents: Option<Checked<AgentsFields>>,
    pub budget: Option<Checked<BudgetFields>>,
    pub max_depth: Option<u32>,
    pub max_fan_out: Option<u32>,
    pub deadline_ms: Option<u64>,
    pub trace: Option<TraceName>,
    pub credential: Option<CredentialName>,
}

/// `delegation.tools`: `allowed` (the only tools the agent may call) and
/// `forbidden`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolsFields {
    pub allowed: Option<Vec<String>>,
    #[serde(default)]
    pub forbidden: Vec<String>,
}

/// `delegation.agents`: `forbidden` (dependency names or Agent Card URLs).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentsFields {
    #[serde(default)]
    pub forbidden: Vec<String>,
}

/// `delegation.budget`: `tool_calls`, `cost_units` and each tool's cost.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetFields {
    pub tool_calls: Option<u32>,
    pub cost_units: Option<u64>,
    #[serde(default)]
    pub costs: IndexMap<String, u64>,
}

/// `trace: propagate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceName {
    Propagate,
}

/// `credential: not_forwarded`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CredentialName {
    NotForwarded,
}

/// The keys of a map of the block, for the unknown-key check.
pub trait KnownKeys {
    /// What the map is, in the error ("`delegation.tools`").
    const WHAT: &'static str;
    const KEYS: &'static [&'static str];
}

impl KnownKeys for DelegationFields {
    const WHAT: &'static str = "`delegation`";
    const KEYS: &'static [&'static str] = &[
        "mode",
        "tools",
        "agents",
        "budget",
        "max_depth",
        "max_fan_out",
        "deadline_ms",
        "trace",
        "credential",
    ];
}

impl KnownKeys for ToolsFields {
    const WHAT: &'static str = "`delegation.tools`";
    const KEYS: &'static [&'static str] = &["allowed", "forbidden"];
}

impl KnownKeys for AgentsFields {
    const WHAT: &'static str = "`delegation.agents`";
    const KEYS: &'static [&'static str] = &["forbidden"];
}

impl KnownKeys for BudgetFields {
    const WHAT: &'static str = "`delegation.budget`";
    const KEYS: &'static [&'static str] = &["tool_calls", "cost_units", "costs"];
}

/// A map whose keys were checked one by one before the derived reader saw
/// them (the derived one would name no close key).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Checked<T>(pub T);

/// `delegation:` as read from a spec.
pub type DelegationSpec = Checked<DelegationFields>;

impl<'de, T: Deserialize<'de> + KnownKeys> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(MapVisitor(PhantomData))
    }
}

struct MapVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + KnownKeys> Visitor<'de> for MapVisitor<T> {
    type Value = Checked<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} as a map of {}", T::WHAT, T::KEYS.join(", "))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Checked<T>, A::Error> {
        let checked = CheckedKeys::<A, T> {
            map,
            keys: PhantomData,
        };
        T::deserialize(de::value::MapAccessDeserializer::new(checked)).map(Checked)
    }
}

struct CheckedKeys<A, T> {
    map: A,
    keys: PhantomData<T>,
}

impl<'de, A: MapAccess<'de>, T: KnownKeys> MapAccess<'de> for CheckedKeys<A, T> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.map.next_key_seed(KeySeed::<K, T> {
            seed,
            keys: PhantomData,
        })
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

struct KeySeed<S, T> {
    seed: S,
    keys: PhantomData<T>,
}

impl<'de, S: DeserializeSeed<'de>, T: KnownKeys> DeserializeSeed<'de> for KeySeed<S, T> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de, S: DeserializeSeed<'de>, T: KnownKeys> Visitor<'de> for KeySeed<S, T> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<S::Value, E> {
        if !T::KEYS.contains(&key) {
            let hint = crate::suggest::closest(key, T::KEYS)
                .map_or_else(String::new, |k| format!(" (did you mean `{k}`?)"));
            return Err(E::custom(format!(
                "unknown field `{key}`{hint}; {}'s keys are {}",
                T::WHAT,
                T::KEYS.join(", ")
            )));
        }
        self.seed.deserialize(key.into_deserializer())
    }
}
