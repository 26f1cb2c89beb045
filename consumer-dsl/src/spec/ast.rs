//! The spec document as written: the shape `yaml_serde` reads, with every
//! key spelled as in the file (snake_case). Unknown keys are refused with
//! the allowed ones listed; values are checked as far as they can be
//! without context, so errors carry the file position.
//!
//! The builder ([`crate::builder`]) constructs these same types, so both
//! front ends share one lowering ([`super::lower`]).

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;

pub use super::ast_fields::{FieldSpec, TypeName};
use super::ast_forms::OneOrMany;
use super::ast_values::{CounterSpec, Principals, StateName, StateSpec};
use super::template::Template;
use crate::model::accord::{A2aOperation, Credential, Negative};

/// A whole spec file.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecDocument {
    pub consumer: String,
    pub provider: String,
    #[serde(default)]
    pub protocols: Protocols,
    #[serde(default)]
    pub principals: Principals,
    #[serde(default)]
    pub agent_card: Option<AgentCardSpec>,
    #[serde(default)]
    pub mcp_tools: Vec<McpToolSpec>,
    #[serde(default)]
    pub interactions: Vec<InteractionSpec>,
}

/// Pinned protocol versions.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Protocols {
    pub a2a: Option<String>,
    pub mcp: Option<String>,
    pub json_schema: Option<String>,
}

/// `agent_card:` — what the consumer relies on in the Agent Card.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentCardSpec {
    #[serde(default)]
    pub skills: Vec<SkillSpec>,
    #[serde(default)]
    pub input_modes: Vec<String>,
    #[serde(default)]
    pub output_modes: Vec<String>,
    #[serde(default)]
    pub capabilities: Option<CapabilitiesSpec>,
    #[serde(default)]
    pub interfaces: Vec<InterfaceSpec>,
    #[serde(default)]
    pub extensions: Vec<ExtensionSpec>,
    #[serde(default)]
    pub security_schemes: Vec<String>,
    /// The card must be signed by a key the consumer trusts.
    #[serde(default)]
    pub signed: bool,
}

/// A skill: its id, or the id with modes and tags.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(from = "super::ast_forms::SkillForm")]
pub struct SkillSpec {
    pub id: String,
    pub input_modes: Vec<String>,
    pub output_modes: Vec<String>,
    pub tags: Vec<String>,
}

/// `capabilities:` of the card.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapabilitiesSpec {
    pub streaming: Option<bool>,
    pub push_notifications: Option<bool>,
    pub extended_agent_card: Option<bool>,
}

/// An interface: `{ binding: JSONRPC, version: "1.0" }`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterfaceSpec {
    pub binding: String,
    #[serde(default = "a2a_version")]
    pub version: String,
}

fn a2a_version() -> String {
    "1.0".into()
}

/// An extension: its URI, or `{ uri, required }`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(from = "super::ast_forms::ExtensionForm")]
pub struct ExtensionSpec {
    pub uri: String,
    pub required: Option<bool>,
}

/// `mcp_tools:` entry.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpToolSpec {
    pub name: String,
    /// The tool's display name, as the server lists it.
    pub title: Option<String>,
    /// The tool's description, as the server lists it.
    pub description: Option<String>,
    pub profile: Option<String>,
    /// Arguments always sent: name → JSON type (`any` for no type), or
    /// `{ type, enum: [values sent] }`.
    #[serde(default)]
    pub arguments: IndexMap<String, FieldSpec>,
    /// Arguments sometimes sent.
    #[serde(default)]
    pub optional_arguments: IndexMap<String, FieldSpec>,
    /// `structuredContent` fields read: path (`plan_id`, `items[*].title`) →
    /// type, or `{ type, enum: [values switched on] }`.
    #[serde(default)]
    pub reads: IndexMap<String, FieldSpec>,
    #[serde(default)]
    pub annotations: Option<AnnotationsSpec>,
    /// The tool commits only with a granted approval.
    #[serde(default)]
    pub approval: Option<ToolApprovalSpec>,
}

/// Tool annotations relied on.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnnotationsSpec {
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
}

/// One interaction; exactly one of `http`, `a2a`, `mcp`, `message`,
/// `sync_message` names its kind and description.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(try_from = "super::ast_interaction_keys::CheckedInteraction")]
pub struct InteractionSpec {
    pub kind: Kind,
    pub common: CommonSpec,
    pub http: HttpSpec,
    pub a2a: A2aSpec,
    pub mcp: McpSpec,
    pub message: MessageSpec,
}

/// The interaction kind and its description.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Kind {
    #[default]
    Unset,
    Http(String),
    A2a(String),
    Mcp(String),
    Message(String),
    SyncMessage(String),
}

/// Keys every interaction may have.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CommonSpec {
    pub key: Option<String>,
    pub pending: bool,
    pub comments: Option<Value>,
    pub given: Vec<StateSpec>,
    pub principal: Option<String>,
    pub credential: Option<Credential>,
    pub probe_as: Vec<ProbeSpec>,
    pub side_effects: IndexMap<String, CounterSpec>,
    pub within: Option<WithinSpec>,
    pub negative: Negative,
    pub repeat: Option<RepeatSpec>,
    pub retryable: Option<bool>,
    pub approval: Option<ApprovalSpec>,
}

/// `approval:` — `{ granted, counter }`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApprovalSpec {
    pub granted: bool,
    pub counter: Option<String>,
}

/// `mcp_tools[].approval:` — `{ counter }`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolApprovalSpec {
    pub counter: String,
}

/// `probe_as:` entry: a principal name, or `{ principal, operations, unknown, after }`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(from = "super::ast_forms::ProbeForm")]
pub struct ProbeSpec {
    pub principal: String,
    pub operations: Vec<A2aOperation>,
    pub unknown: Option<serde_json::Map<String, Value>>,
    /// A2A: probe once the task reached this state.
    pub after: Option<crate::model::accord::TaskState>,
}

/// `within:` — temporal limits.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WithinSpec {
    pub acknowledge_ms: Option<u64>,
    pub first_progress_ms: Option<u64>,
    pub completion_ms: Option<u64>,
    pub cancellation_effect_ms: Option<u64>,
    #[serde(default)]
    pub no_side_effects_after_cancel_ack: bool,
}

/// `repeat:` — a count, or `{ times, side_effects: total|each,
/// each_matches, key, same_fields }`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(from = "super::ast_forms::RepeatForm")]
pub struct RepeatSpec {
    pub times: u32,
    pub each: bool,
    pub each_matches: bool,
    pub key: Option<String>,
    pub same_fields: Vec<String>,
}

/// Keys of an `http:` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HttpSpec {
    pub request: Option<HttpRequestSpec>,
    pub response: Option<HttpResponseSpec>,
}

/// `request:` of an HTTP interaction.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpRequestSpec {
    pub method: String,
    pub path: Template,
    #[serde(default)]
    pub query: IndexMap<String, OneOrMany<Template>>,
    #[serde(default)]
    pub headers: IndexMap<String, Template>,
    pub body: Option<Template>,
    pub content_type: Option<String>,
}

/// `response:` of an HTTP interaction.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpResponseSpec {
    pub status: Template,
    #[serde(default)]
    pub headers: IndexMap<String, Template>,
    pub body: Option<Template>,
    pub content_type: Option<String>,
}

/// Keys of an `a2a:` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct A2aSpec {
    pub skill: Option<String>,
    pub send: Option<SendSpec>,
    pub returns: Option<ResponseName>,
    pub expect: Vec<StepSpec>,
    pub terminal: Option<StateName>,
    pub error: Option<ErrorSpec>,
    pub cancel: Option<CancelSpec>,
    pub push: Option<PushSpec>,
    pub follow_ups: Vec<FollowUpSpec>,
    /// What the agent may do downstream on the consumer's behalf.
    pub delegation: Option<DelegationSpec>,
}

pub use super::ast_a2a::{
    ArtifactSpec, CancelSpec, ErrorSpec, FollowUpExpectSpec, FollowUpSpec, PartSpec, PushSpec,
    ResponseName, SchemaSpec, SendSpec, StepSpec,
};
pub use super::ast_delegation::{
    AgentsFields, BudgetFields, Checked, CredentialName, DelegationFields, DelegationSpec,
    KnownKeys, ToolsFields, TraceName,
};

/// Keys of an `mcp:` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct McpSpec {
    pub tool: Option<String>,
    pub arguments: Option<Template>,
    pub expect: Option<McpExpectSpec>,
    pub error: Option<ErrorSpec>,
    /// The progress notifications relied on before the answer.
    pub progress: Vec<ProgressSpec>,
    /// The log messages relied on during the call.
    pub logs: Vec<LogSpec>,
}

/// A `logs:` entry: `{ level, logger, data }`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSpec {
    pub level: String,
    pub logger: Option<String>,
    pub data: serde_json::Value,
}

/// A `progress:` entry: the `progress` number, or `{ progress, total, message }`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(from = "super::ast_forms::ProgressForm")]
pub struct ProgressSpec {
    pub progress: serde_json::Number,
    pub total: Option<serde_json::Number>,
    pub message: Option<String>,
}

/// `expect:` of an MCP call.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpExpectSpec {
    #[serde(default)]
    pub is_error: bool,
    pub structured: Option<Template>,
    pub text: Option<Template>,
    pub content: Option<Vec<Template>>,
    #[serde(default)]
    pub content_matches_structured: bool,
    pub retryable: Option<bool>,
    /// The consumer's own JSON Schema of `structured`: inline or a file.
    pub schema: Option<SchemaSpec>,
}

/// Keys of `message:` and `sync_message:` interactions (for the latter,
/// `contents`/`metadata` are the request).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MessageSpec {
    pub contents: Option<Template>,
    pub metadata: Option<Template>,
    pub content_type: Option<String>,
    pub responses: Vec<MessageBodySpec>,
}

/// A message of a `sync_message:` interaction.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MessageBodySpec {
    pub contents: Template,
    pub metadata: Option<Template>,
    pub content_type: Option<String>,
}

impl Default for Template {
    fn default() -> Self {
        Template::Literal(Value::Null)
    }
}
