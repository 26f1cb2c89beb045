//! `Asynchronous/Messages` and `Synchronous/Messages` interactions.

use serde_json::{Map, Value};

use super::{Body, InteractionMeta};
use crate::generators::Generators;
use crate::matching::MatchingRules;

/// One message: contents, metadata, and the rules that judge them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Message {
    pub contents: Body,
    pub metadata: Map<String, Value>,
    pub matching_rules: MatchingRules,
    pub generators: Generators,
    pub extra: Map<String, Value>,
}

/// A message the provider produces (Pact `Asynchronous/Messages`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MessageInteraction {
    pub meta: InteractionMeta,
    pub message: Message,
}

/// A request message and its response messages (Pact `Synchronous/Messages`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SyncMessageInteraction {
    pub meta: InteractionMeta,
    pub request: Message,
    pub response: Vec<Message>,
}
