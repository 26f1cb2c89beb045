//! Small value forms of the spec: task state names, principals, provider
//! states (`given: [reset, {state: {params}}]`), counter changes
//! (`records: +1`) and schema references.

use std::fmt;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::ast::SchemaSpec;
use crate::model::accord::TaskState;

/// A task state written as `WORKING`, `working` or `TASK_STATE_WORKING`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct StateName(pub TaskState);

impl TryFrom<String> for StateName {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
            .map(StateName)
            .map_err(|e: crate::model::accord::UnknownTaskState| e.to_string())
    }
}

/// `principals:` — name → tenant.
pub type Principals = IndexMap<String, PrincipalSpec>;

/// A principal of the spec.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrincipalSpec {
    pub tenant: Option<String>,
}

/// A provider state: `name`, or `{ name: { param: value } }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StateSpec {
    pub name: String,
    pub params: Map<String, Value>,
}

impl<'de> Deserialize<'de> for StateSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StateSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a state name, or a map { state name: { param: value } }")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StateSpec, E> {
                Ok(StateSpec {
                    name: v.to_string(),
                    params: Map::new(),
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StateSpec, A::Error> {
                let Some((name, params)) =
                    map.next_entry::<String, Option<Map<String, Value>>>()?
                else {
                    return Err(de::Error::custom(
                        "a state map needs one entry: { state name: { params } }",
                    ));
                };
                if map.next_key::<String>()?.is_some() {
                    return Err(de::Error::custom(
                        "a state map has exactly one entry; write several states as several list items",
                    ));
                }
                Ok(StateSpec {
                    name,
                    params: params.unwrap_or_default(),
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// An expected counter change: `+1`, `0`, `-2`, `">=1"`, `"<=3"`, `"1..3"`
/// or `{ min, max }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterSpec {
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl CounterSpec {
    fn exact(n: i64) -> Self {
        CounterSpec {
            min: Some(n),
            max: Some(n),
        }
    }

    fn parse(s: &str) -> Result<Self, String> {
        let t = s.trim();
        let int = |x: &str| {
            x.trim().trim_start_matches('+').parse::<i64>().map_err(|_| format!("`{s}` is not a counter change; write +1, 0, -1, \">=1\", \"<=3\", \"1..3\" or {{min, max}}"))
        };
        if let Some(r) = t.strip_prefix(">=") {
            return Ok(CounterSpec {
                min: Some(int(r)?),
                max: None,
            });
        }
        if let Some(r) = t.strip_prefix("<=") {
            return Ok(CounterSpec {
                min: None,
                max: Some(int(r)?),
            });
        }
        if let Some((lo, hi)) = t.split_once("..") {
            return Ok(CounterSpec {
                min: Some(int(lo)?),
                max: Some(int(hi)?),
            });
        }
        int(t).map(CounterSpec::exact)
    }
}

impl<'de> Deserialize<'de> for CounterSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CounterSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a counter change: +1, 0, -1, \">=1\", \"<=3\", \"1..3\" or {min, max}")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<CounterSpec, E> {
                Ok(CounterSpec::exact(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<CounterSpec, E> {
                i64::try_from(v)
                    .map(CounterSpec::exact)
                    .map_err(|_| E::custom("counter change too large"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<CounterSpec, E> {
                CounterSpec::parse(v).map_err(E::custom)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<CounterSpec, A::Error> {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Range {
                    min: Option<i64>,
                    max: Option<i64>,
                }
                let r = Range::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(CounterSpec {
                    min: r.min,
                    max: r.max,
                })
            }
        }
        d.deserialize_any(V)
    }
}

impl TryFrom<Value> for SchemaSpec {
    type Error = &'static str;
    fn try_from(v: Value) -> Result<Self, Self::Error> {
        match v {
            Value::String(s) => Ok(SchemaSpec::File(s)),
            v @ (Value::Object(_) | Value::Bool(_)) => Ok(SchemaSpec::Inline(v)),
            _ => Err("a schema is a file path (string) or an inline JSON Schema (object)"),
        }
    }
}
