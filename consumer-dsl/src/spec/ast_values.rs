//! The small value forms of the spec that accept more than one spelling
//! (`given: [reset, {state: {params}}]`, `repeat: 2`, `records: +1`, …) and
//! the per-kind key check of interactions.

use std::fmt;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::ast::{
    A2aSpec, CancelSpec, CommonSpec, ErrorSpec, ExtensionSpec, FollowUpSpec, HttpRequestSpec,
    HttpResponseSpec, HttpSpec, InteractionSpec, Kind, McpExpectSpec, McpSpec, MessageBodySpec,
    MessageSpec, ProbeSpec, PushSpec, RepeatSpec, ResponseName, SchemaSpec, SendSpec, SkillSpec,
    StepSpec, WithinSpec,
};
use super::template::Template;
use crate::model::accord::{A2aOperation, Credential, TaskState};

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

/// One value or a list of them.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany<T> {
    Many(Vec<T>),
    One(T),
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

/// The two spellings of a skill.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum SkillForm {
    Id(String),
    Full(SkillFull),
}

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

impl From<SkillForm> for SkillSpec {
    fn from(f: SkillForm) -> Self {
        match f {
            SkillForm::Id(id) => SkillSpec {
                id,
                ..SkillSpec::default()
            },
            SkillForm::Full(s) => SkillSpec {
                id: s.id,
                input_modes: s.input_modes,
                output_modes: s.output_modes,
                tags: s.tags,
            },
        }
    }
}

/// The two spellings of an extension.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum ExtensionForm {
    Uri(String),
    Full { uri: String, required: Option<bool> },
}

impl From<ExtensionForm> for ExtensionSpec {
    fn from(f: ExtensionForm) -> Self {
        match f {
            ExtensionForm::Uri(uri) => ExtensionSpec {
                uri,
                required: None,
            },
            ExtensionForm::Full { uri, required } => ExtensionSpec { uri, required },
        }
    }
}

/// The two spellings of a probe.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum ProbeForm {
    Name(String),
    Full(ProbeFull),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProbeFull {
    principal: String,
    #[serde(default)]
    operations: Vec<A2aOperation>,
    unknown: Option<Map<String, Value>>,
}

impl From<ProbeForm> for ProbeSpec {
    fn from(f: ProbeForm) -> Self {
        match f {
            ProbeForm::Name(principal) => ProbeSpec {
                principal,
                ..ProbeSpec::default()
            },
            ProbeForm::Full(p) => ProbeSpec {
                principal: p.principal,
                operations: p.operations,
                unknown: p.unknown,
            },
        }
    }
}

/// The two spellings of `repeat`.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum RepeatForm {
    Times(u32),
    Full(RepeatFull),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RepeatFull {
    times: u32,
    #[serde(default)]
    side_effects: Option<Judge>,
    #[serde(default)]
    each_matches: Option<bool>,
}

#[derive(Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Judge {
    Total,
    Each,
}

impl From<RepeatForm> for RepeatSpec {
    fn from(f: RepeatForm) -> Self {
        match f {
            RepeatForm::Times(times) => RepeatSpec {
                times,
                each: false,
                each_matches: true,
            },
            RepeatForm::Full(r) => RepeatSpec {
                times: r.times,
                each: r.side_effects == Some(Judge::Each),
                each_matches: r.each_matches.unwrap_or(true),
            },
        }
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

/// `expect:` is a list of steps (A2A) or a map (MCP).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExpectField {
    Steps(Vec<StepSpec>),
    Mcp(McpExpectSpec),
}

impl<'de> Deserialize<'de> for ExpectField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ExpectField;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of steps (a2a) or a map of result expectations (mcp)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ExpectField, A::Error> {
                Vec::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(ExpectField::Steps)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ExpectField, A::Error> {
                McpExpectSpec::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(ExpectField::Mcp)
            }
        }
        d.deserialize_any(V)
    }
}

/// Every key an interaction may have; [`InteractionSpec`] checks that the
/// keys present belong to the kind.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawInteraction {
    http: Option<String>,
    a2a: Option<String>,
    mcp: Option<String>,
    message: Option<String>,
    sync_message: Option<String>,
    key: Option<String>,
    #[serde(default)]
    pending: bool,
    comments: Option<Value>,
    #[serde(default)]
    given: Vec<StateSpec>,
    #[serde(rename = "as")]
    principal: Option<String>,
    credential: Option<Credential>,
    probe_as: Option<OneOrMany<ProbeSpec>>,
    #[serde(default)]
    side_effects: IndexMap<String, CounterSpec>,
    within: Option<WithinSpec>,
    #[serde(default)]
    negative: bool,
    repeat: Option<RepeatSpec>,
    retryable: Option<bool>,
    request: Option<HttpRequestSpec>,
    response: Option<HttpResponseSpec>,
    skill: Option<String>,
    send: Option<SendSpec>,
    returns: Option<ResponseName>,
    expect: Option<ExpectField>,
    terminal: Option<StateName>,
    error: Option<ErrorSpec>,
    cancel: Option<CancelSpec>,
    push: Option<PushSpec>,
    #[serde(default)]
    follow_ups: Vec<FollowUpSpec>,
    tool: Option<String>,
    arguments: Option<Template>,
    contents: Option<Template>,
    metadata: Option<Template>,
    content_type: Option<String>,
    #[serde(default)]
    responses: Vec<MessageBodySpec>,
}

const HTTP_KEYS: &[&str] = &["request", "response"];
const A2A_KEYS: &[&str] = &[
    "skill",
    "send",
    "returns",
    "expect",
    "terminal",
    "error",
    "cancel",
    "push",
    "follow_ups",
];
const MCP_KEYS: &[&str] = &["tool", "arguments", "expect", "error"];
const MESSAGE_KEYS: &[&str] = &["contents", "metadata", "content_type"];
const SYNC_KEYS: &[&str] = &["contents", "metadata", "content_type", "responses"];
const COMMON_KEYS: &str = "key, pending, comments, given, as, credential, probe_as, side_effects, within, negative, repeat, retryable";

impl RawInteraction {
    fn kind(&self) -> Result<(Kind, &'static str, &'static [&'static str]), String> {
        let kinds = [
            (&self.http, "http"),
            (&self.a2a, "a2a"),
            (&self.mcp, "mcp"),
            (&self.message, "message"),
            (&self.sync_message, "sync_message"),
        ];
        let mut present = kinds
            .iter()
            .filter_map(|(v, n)| v.as_ref().map(|d| (d.clone(), *n)));
        let Some((desc, name)) = present.next() else {
            return Err("an interaction starts with one of http:, a2a:, mcp:, message:, sync_message: and its description".into());
        };
        if let Some((_, other)) = present.next() {
            return Err(format!(
                "an interaction has one kind, found both `{name}` and `{other}`"
            ));
        }
        Ok(match name {
            "http" => (Kind::Http(desc), name, HTTP_KEYS),
            "a2a" => (Kind::A2a(desc), name, A2A_KEYS),
            "mcp" => (Kind::Mcp(desc), name, MCP_KEYS),
            "message" => (Kind::Message(desc), name, MESSAGE_KEYS),
            _ => (Kind::SyncMessage(desc), name, SYNC_KEYS),
        })
    }

    fn present_kind_keys(&self) -> Vec<&'static str> {
        let flags = [
            ("request", self.request.is_some()),
            ("response", self.response.is_some()),
            ("skill", self.skill.is_some()),
            ("send", self.send.is_some()),
            ("returns", self.returns.is_some()),
            ("expect", self.expect.is_some()),
            ("terminal", self.terminal.is_some()),
            ("error", self.error.is_some()),
            ("cancel", self.cancel.is_some()),
            ("push", self.push.is_some()),
            ("follow_ups", !self.follow_ups.is_empty()),
            ("tool", self.tool.is_some()),
            ("arguments", self.arguments.is_some()),
            ("contents", self.contents.is_some()),
            ("metadata", self.metadata.is_some()),
            ("content_type", self.content_type.is_some()),
            ("responses", !self.responses.is_empty()),
        ];
        flags.iter().filter(|(_, p)| *p).map(|(k, _)| *k).collect()
    }
}

impl TryFrom<RawInteraction> for InteractionSpec {
    type Error = String;

    fn try_from(r: RawInteraction) -> Result<Self, String> {
        let (kind, name, allowed) = r.kind()?;
        if let Some(bad) = r
            .present_kind_keys()
            .into_iter()
            .find(|k| !allowed.contains(k))
        {
            return Err(format!(
                "`{bad}` does not belong to an {name} interaction; its keys are {}, and {COMMON_KEYS}",
                allowed.join(", ")
            ));
        }
        let (steps, mcp_expect) = match r.expect {
            Some(ExpectField::Steps(s)) if name == "a2a" => (s, None),
            Some(ExpectField::Mcp(m)) if name == "mcp" => (Vec::new(), Some(m)),
            Some(_) if name == "a2a" => {
                return Err(
                    "`expect` of an a2a interaction is a list of steps (- state: …, - artifact: …)"
                        .into(),
                );
            }
            Some(_) => return Err(
                "`expect` of an mcp interaction is a map (is_error, structured, text, content, …)"
                    .into(),
            ),
            None => (Vec::new(), None),
        };
        let common = CommonSpec {
            key: r.key,
            pending: r.pending,
            comments: r.comments,
            given: r.given,
            principal: r.principal,
            credential: r.credential,
            probe_as: r.probe_as.map(OneOrMany::into_vec).unwrap_or_default(),
            side_effects: r.side_effects,
            within: r.within,
            negative: r.negative,
            repeat: r.repeat,
            retryable: r.retryable,
        };
        let is_mcp = name == "mcp";
        Ok(InteractionSpec {
            kind,
            common,
            http: HttpSpec {
                request: r.request,
                response: r.response,
            },
            a2a: A2aSpec {
                skill: r.skill,
                send: r.send,
                returns: r.returns,
                expect: steps,
                terminal: r.terminal,
                error: if is_mcp { None } else { r.error.clone() },
                cancel: r.cancel,
                push: r.push,
                follow_ups: r.follow_ups,
            },
            mcp: McpSpec {
                tool: r.tool,
                arguments: r.arguments,
                expect: mcp_expect,
                error: if is_mcp { r.error } else { None },
            },
            message: MessageSpec {
                contents: r.contents,
                metadata: r.metadata,
                content_type: r.content_type,
                responses: r.responses,
            },
        })
    }
}
