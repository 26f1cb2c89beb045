//! Accord's extensions to the Pact model: A2A task interactions, MCP tool
//! calls, behavioural expectations, agent-card and MCP-tool expectations.
//!
//! PLACEHOLDER: these types are being designed (issue 2, DSL part). Until
//! then they keep their JSON as written so a round trip loses nothing.
//!
//! Interface with the Pact reader/writer (`crate::pact`), which stays fixed:
//! - [`Expectations`] is (de)serialised with serde from/to the interaction
//!   attributes named in [`Expectations::JSON_KEYS`] (top-level keys of the
//!   interaction object, as DESIGN.md shows them);
//! - the A2A/MCP bodies ([`A2aTask`], [`McpToolCall`]) are (de)serialised
//!   with serde from/to the interaction object minus `type`, the common
//!   attributes (description, key, pending, providerStates, comments) and the
//!   expectation keys;
//! - [`AgentCardExpectations`] is the top-level `agentCard`,
//!   [`McpToolExpectation`] each entry of the top-level `mcpTools`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::InteractionMeta;

/// Behavioural expectations any interaction may carry.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Expectations {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_effects: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temporal: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<Value>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub negative: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<Value>,
}

impl Expectations {
    /// The interaction attributes that hold expectations.
    pub const JSON_KEYS: &'static [&'static str] =
        &["sideEffects", "temporal", "auth", "negative", "repeat"];
}

/// The A2A-specific part of an `A2A/Task` interaction.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct A2aTask {
    #[serde(flatten)]
    pub raw: Map<String, Value>,
}

/// An `A2A/Task` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct A2aTaskInteraction {
    pub meta: InteractionMeta,
    pub task: A2aTask,
}

/// The MCP-specific part of an `MCP/ToolCall` interaction.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct McpToolCall {
    #[serde(flatten)]
    pub raw: Map<String, Value>,
}

/// An `MCP/ToolCall` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct McpToolCallInteraction {
    pub meta: InteractionMeta,
    pub call: McpToolCall,
}

/// What the consumer relies on in the provider's Agent Card.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AgentCardExpectations {
    #[serde(flatten)]
    pub raw: Map<String, Value>,
}

/// One MCP tool the consumer depends on.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct McpToolExpectation {
    #[serde(flatten)]
    pub raw: Map<String, Value>,
}
