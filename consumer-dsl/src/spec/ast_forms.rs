//! Values that accept a short and a full spelling (`skills: [id]` or
//! `[{id, output_modes}]`, `repeat: 2` or `{times, side_effects}`), and
//! one-or-many lists. Hand-written visitors, so a mistake inside the full
//! form is reported precisely instead of "did not match any variant".

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::ast::{ExtensionSpec, ProbeSpec, ProgressSpec, RepeatSpec, SkillSpec};
use crate::model::accord::A2aOperation;

/// A scalar short form `S` or a map full form `F`.
pub(crate) enum Form<S, F> {
    Short(S),
    Full(F),
}

impl<'de, S: Deserialize<'de>, F: Deserialize<'de>> Deserialize<'de> for Form<S, F> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<S, F>(PhantomData<(S, F)>);
        impl<'de, S: Deserialize<'de>, F: Deserialize<'de>> Visitor<'de> for V<S, F> {
            type Value = Form<S, F>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a short value or a map")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                S::deserialize(v.into_deserializer()).map(Form::Short)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                S::deserialize(v.into_deserializer()).map(Form::Short)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                S::deserialize(v.into_deserializer()).map(Form::Short)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                S::deserialize(v.into_deserializer()).map(Form::Short)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                F::deserialize(MapAccessDeserializer::new(map)).map(Form::Full)
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// One value or a list of them.
#[derive(Debug, Clone, PartialEq)]
pub enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

impl<T> OneOrMany<T> {
    /// The values as a list.
    pub fn into_vec(self) -> Vec<T> {
        match self {
            OneOrMany::One(t) => vec![t],
            OneOrMany::Many(v) => v,
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = OneOrMany<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value or a list of values")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                Vec::deserialize(SeqAccessDeserializer::new(seq)).map(OneOrMany::Many)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(OneOrMany::One)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(OneOrMany::One)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(OneOrMany::One)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(OneOrMany::One)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(OneOrMany::One)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(OneOrMany::One)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                T::deserialize(().into_deserializer()).map(OneOrMany::One)
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// The full form of a skill.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SkillFull {
    id: String,
    #[serde(default)]
    input_modes: Vec<String>,
    #[serde(default)]
    output_modes: Vec<String>,
    #[serde(default)]
    tags: Vec<String>,
}

/// `skills:` entry: an id or the full form.
pub(crate) type SkillForm = Form<String, SkillFull>;

impl From<SkillForm> for SkillSpec {
    fn from(f: SkillForm) -> Self {
        match f {
            Form::Short(id) => SkillSpec {
                id,
                ..SkillSpec::default()
            },
            Form::Full(s) => SkillSpec {
                id: s.id,
                input_modes: s.input_modes,
                output_modes: s.output_modes,
                tags: s.tags,
            },
        }
    }
}

/// The full form of a progress notification.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProgressFull {
    progress: serde_json::Number,
    total: Option<serde_json::Number>,
    message: Option<String>,
}

/// `progress:` entry: the number or the full form.
pub(crate) type ProgressForm = Form<serde_json::Number, ProgressFull>;

impl From<ProgressForm> for ProgressSpec {
    fn from(f: ProgressForm) -> Self {
        match f {
            Form::Short(progress) => ProgressSpec {
                progress,
                total: None,
                message: None,
            },
            Form::Full(p) => ProgressSpec {
                progress: p.progress,
                total: p.total,
                message: p.message,
            },
        }
    }
}

/// The full form of an extension.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExtensionFull {
    uri: String,
    required: Option<bool>,
}

/// `extensions:` entry: a URI or the full form.
pub(crate) type ExtensionForm = Form<String, ExtensionFull>;

impl From<ExtensionForm> for ExtensionSpec {
    fn from(f: ExtensionForm) -> Self {
        match f {
            Form::Short(uri) => ExtensionSpec {
                uri,
                required: None,
            },
            Form::Full(e) => ExtensionSpec {
                uri: e.uri,
                required: e.required,
            },
        }
    }
}

/// The full form of a probe.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProbeFull {
    principal: String,
    #[serde(default)]
    operations: Vec<A2aOperation>,
    unknown: Option<Map<String, Value>>,
    #[serde(default)]
    after: Option<super::ast_values::StateName>,
}

/// `probe_as:` entry: a principal or the full form.
pub(crate) type ProbeForm = Form<String, ProbeFull>;

impl From<ProbeForm> for ProbeSpec {
    fn from(f: ProbeForm) -> Self {
        match f {
            Form::Short(principal) => ProbeSpec {
                principal,
                ..ProbeSpec::default()
            },
            Form::Full(p) => ProbeSpec {
                principal: p.principal,
                operations: p.operations,
                unknown: p.unknown,
                after: p.after.map(|s| s.0),
            },
        }
    }
}

/// The full form of `repeat`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RepeatFull {
    times: u32,
    #[serde(default)]
    side_effects: Option<Judge>,
    #[serde(default)]
    each_matches: Option<bool>,
    #[serde(default)]
    key: Option<String>,
    #[serde(default)]
    same_fields: Vec<String>,
}

#[derive(Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Judge {
    Total,
    Each,
}

/// `repeat:` — a count or the full form.
pub(crate) type RepeatForm = Form<u32, RepeatFull>;

impl From<RepeatForm> for RepeatSpec {
    fn from(f: RepeatForm) -> Self {
        match f {
            Form::Short(times) => RepeatSpec {
                times,
                each: false,
                each_matches: true,
                key: None,
                same_fields: Vec::new(),
            },
            Form::Full(r) => RepeatSpec {
                times: r.times,
                each: r.side_effects == Some(Judge::Each),
                each_matches: r.each_matches.unwrap_or(true),
                key: r.key,
                same_fields: r.same_fields,
            },
        }
    }
}
