//! The per-kind key check of interactions: every key an interaction may
//! have is read, then the keys present must belong to its kind.

use std::fmt;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::ast::{
    A2aSpec, ApprovalSpec, CancelSpec, CommonSpec, ErrorSpec, FollowUpSpec, HttpRequestSpec,
    HttpResponseSpec, HttpSpec, InteractionSpec, Kind, McpExpectSpec, McpSpec, MessageBodySpec,
    MessageSpec, ProbeSpec, PushSpec, RepeatSpec, ResponseName, SendSpec, StepSpec, WithinSpec,
};
use super::ast_forms::OneOrMany;
use super::ast_interaction_keys::CheckedInteraction;
use super::ast_values::{CounterSpec, StateName, StateSpec};
use super::template::Template;
use crate::model::accord::Credential;

/// `expect:` is a list of steps (A2A) or a map (MCP).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExpectField {
    Steps(Vec<StepSpec>),
    Mcp(Box<McpExpectSpec>),
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
                    .map(|m| ExpectField::Mcp(Box::new(m)))
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
    negative: crate::model::accord::Negative,
    repeat: Option<RepeatSpec>,
    retryable: Option<bool>,
    approval: Option<ApprovalSpec>,
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
    delegation: Option<super::ast::DelegationSpec>,
    tool: Option<String>,
    arguments: Option<Template>,
    #[serde(default)]
    progress: Vec<super::ast::ProgressSpec>,
    #[serde(default)]
    logs: Vec<super::ast::LogSpec>,
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
    "delegation",
];
const MCP_KEYS: &[&str] = &["tool", "arguments", "expect", "error", "progress", "logs"];
const MESSAGE_KEYS: &[&str] = &["contents", "metadata", "content_type"];
const SYNC_KEYS: &[&str] = &["contents", "metadata", "content_type", "responses"];
pub(super) const COMMON_KEYS: &[&str] = &[
    "key",
    "pending",
    "comments",
    "given",
    "as",
    "credential",
    "probe_as",
    "side_effects",
    "within",
    "negative",
    "repeat",
    "retryable",
    "approval",
];
/// The kinds, each with the keys that belong to it alone.
pub(super) const KINDS: &[(&str, &[&str])] = &[
    ("http", HTTP_KEYS),
    ("a2a", A2A_KEYS),
    ("mcp", MCP_KEYS),
    ("message", MESSAGE_KEYS),
    ("sync_message", SYNC_KEYS),
];

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
            ("delegation", self.delegation.is_some()),
            ("tool", self.tool.is_some()),
            ("arguments", self.arguments.is_some()),
            ("progress", !self.progress.is_empty()),
            ("logs", !self.logs.is_empty()),
            ("contents", self.contents.is_some()),
            ("metadata", self.metadata.is_some()),
            ("content_type", self.content_type.is_some()),
            ("responses", !self.responses.is_empty()),
        ];
        flags.iter().filter(|(_, p)| *p).map(|(k, _)| *k).collect()
    }
}

impl TryFrom<CheckedInteraction> for InteractionSpec {
    type Error = String;

    fn try_from(CheckedInteraction(r): CheckedInteraction) -> Result<Self, String> {
        let (kind, name, allowed) = r.kind()?;
        if let Some(bad) = r
            .present_kind_keys()
            .into_iter()
            .find(|k| !allowed.contains(k))
        {
            return Err(format!(
                "`{bad}` does not belong to an {name} interaction; its keys are {}, and {}",
                allowed.join(", "),
                COMMON_KEYS.join(", ")
            ));
        }
        let (steps, mcp_expect) = match r.expect {
            Some(ExpectField::Steps(s)) if name == "a2a" => (s, None),
            Some(ExpectField::Mcp(m)) if name == "mcp" => (Vec::new(), Some(*m)),
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
            approval: r.approval,
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
                delegation: r.delegation,
            },
            mcp: McpSpec {
                tool: r.tool,
                arguments: r.arguments,
                expect: mcp_expect,
                error: if is_mcp { r.error } else { None },
                progress: r.progress,
                logs: r.logs,
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
