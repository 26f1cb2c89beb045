//! The interaction enum and what every interaction carries.

use serde_json::{Map, Value};

use super::accord::{A2aTaskInteraction, Expectations, McpToolCallInteraction};
use super::{HttpInteraction, MessageInteraction, ProviderState, SyncMessageInteraction};

/// Attributes shared by every interaction type.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InteractionMeta {
    pub description: String,
    /// V4 `key`: a stable identifier of the interaction within the pact.
    pub key: Option<String>,
    /// V4 `pending`.
    pub pending: bool,
    pub provider_states: Vec<ProviderState>,
    /// V4 `comments` (kept as written).
    pub comments: Option<Value>,
    /// Accord's behavioural expectations: side effects, temporal limits,
    /// principal/tenant, negative case, repeats.
    pub expectations: Expectations,
    /// Attributes this version does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

/// One interaction of a contract, by its V4 `type`.
///
/// Variants differ in size; interactions live in a `Vec` read far more often
/// than moved, so boxing them would cost more than it saves.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Interaction {
    /// `Synchronous/HTTP`
    Http(HttpInteraction),
    /// `Asynchronous/Messages`
    AsyncMessage(MessageInteraction),
    /// `Synchronous/Messages`
    SyncMessage(SyncMessageInteraction),
    /// `A2A/Task` (Accord)
    A2aTask(A2aTaskInteraction),
    /// `MCP/ToolCall` (Accord)
    McpToolCall(McpToolCallInteraction),
}

impl Interaction {
    /// The V4 `type` string.
    pub fn type_name(&self) -> &'static str {
        match self {
            Interaction::Http(_) => "Synchronous/HTTP",
            Interaction::AsyncMessage(_) => "Asynchronous/Messages",
            Interaction::SyncMessage(_) => "Synchronous/Messages",
            Interaction::A2aTask(_) => "A2A/Task",
            Interaction::McpToolCall(_) => "MCP/ToolCall",
        }
    }

    /// The attributes every interaction has.
    pub fn meta(&self) -> &InteractionMeta {
        match self {
            Interaction::Http(i) => &i.meta,
            Interaction::AsyncMessage(i) => &i.meta,
            Interaction::SyncMessage(i) => &i.meta,
            Interaction::A2aTask(i) => &i.meta,
            Interaction::McpToolCall(i) => &i.meta,
        }
    }

    /// Mutable access to the attributes every interaction has.
    pub fn meta_mut(&mut self) -> &mut InteractionMeta {
        match self {
            Interaction::Http(i) => &mut i.meta,
            Interaction::AsyncMessage(i) => &mut i.meta,
            Interaction::SyncMessage(i) => &mut i.meta,
            Interaction::A2aTask(i) => &mut i.meta,
            Interaction::McpToolCall(i) => &mut i.meta,
        }
    }
}
