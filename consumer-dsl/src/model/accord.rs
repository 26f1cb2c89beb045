//! Accord's extensions to the Pact model: A2A task interactions, MCP tool
//! calls, behavioural expectations, agent-card and MCP-tool expectations.
//!
//! PLACEHOLDER: these types are being designed (issue 2, DSL part). Until
//! then they keep their JSON as written so a round trip loses nothing.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::InteractionMeta;

/// Behavioural expectations any interaction may carry.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Expectations {
    #[serde(flatten)]
    pub raw: Map<String, Value>,
}

/// An `A2A/Task` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct A2aTaskInteraction {
    pub meta: InteractionMeta,
    pub raw: Map<String, Value>,
}

/// An `MCP/ToolCall` interaction.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct McpToolCallInteraction {
    pub meta: InteractionMeta,
    pub raw: Map<String, Value>,
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
