//! The contract document: one consumer, one provider, their interactions.

use serde_json::{Map, Value};

use super::Interaction;
use super::accord::{AgentCardExpectations, McpToolExpectation};

/// A consumer or a provider.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pacticipant {
    pub name: String,
    pub extra: Map<String, Value>,
}

/// `metadata.accord`: the Accord format version and pinned protocol versions.
#[derive(Debug, Clone, PartialEq)]
pub struct AccordMetadata {
    /// Version of the Accord contract format.
    pub format_version: String,
    /// A2A protocol version the contract was written against (`1.0`).
    pub a2a: Option<String>,
    /// MCP protocol version (`2026-07-28` or `2025-11-25`).
    pub mcp: Option<String>,
    /// JSON Schema dialect of embedded schemas (`2020-12`).
    pub json_schema: String,
    pub extra: Map<String, Value>,
}

impl Default for AccordMetadata {
    fn default() -> Self {
        AccordMetadata {
            format_version: "1.0".into(),
            a2a: None,
            mcp: None,
            json_schema: "2020-12".into(),
            extra: Map::new(),
        }
    }
}

/// A contract: a Pact V4 pact with Accord's extensions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Contract {
    pub consumer: Pacticipant,
    pub provider: Pacticipant,
    pub interactions: Vec<Interaction>,
    /// `metadata.accord`; `None` for a plain Pact file.
    pub accord: Option<AccordMetadata>,
    /// The rest of `metadata` (e.g. `pactRust`), without `pactSpecification` and `accord`.
    pub metadata: Map<String, Value>,
    /// Agent-card expectations (`agentCard`), if the consumer relies on an A2A agent.
    pub agent_card: Option<AgentCardExpectations>,
    /// MCP tool expectations (`mcpTools`).
    pub mcp_tools: Vec<McpToolExpectation>,
    /// Top-level attributes this version does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}
