//! Compatibility classification: every change between two declarations of
//! a provider (two Agent Cards, or two MCP `tools/list` results), with its
//! code and class, and — given the live consumers' contracts — which of
//! them each change affects. Pure (no I/O, no broker): the CLI's offline
//! `accord diff` and the broker's `…/declarations/diff` call the same code.
//!
//! It lives in the verifier because it reuses the verifier's own
//! direction-aware checks: a tool list is compared with `mcp::diff`
//! (`mcp::surface`'s rules: inputs may only widen, outputs only narrow), and
//! a consumer is judged with the very checks a verification runs
//! (`check_tool`, `check_card`), so a diff never disagrees with a replay.
//!
//! | change | code | class |
//! | --- | --- | --- |
//! | optional output field added | COMPATIBLE_OPTIONAL_OUTPUT_ADDED | compatible |
//! | required input added | BREAKING_REQUIRED_INPUT_ADDED | breaking |
//! | enum value removed (input, or a required output) | BREAKING_ENUM_REMOVAL | breaking |
//! | output enum value added | CONDITIONAL_ENUM_ADDED | conditional |
//! | output type widened / a type changed | CONDITIONAL_TYPE_WIDENED / BREAKING_TYPE_CHANGED | conditional / breaking |
//! | field removed (argument accepted, required output) | BREAKING_FIELD_REMOVED | breaking |
//! | skill removed or renamed | BREAKING_SKILL_REMOVED | breaking |
//! | tool removed | TOOL_MISSING | breaking |
//! | capability false→true / true→false | FEATURE_CAPABILITY_ADDED / CAPABILITY_MISSING | conditional / breaking |
//! | a default mode no longer listed | CONTENT_MODE_CONFLICT | breaking |
//! | tool annotations changed | RISK_ANNOTATION_CHANGED | conditional (approval again) |
//! | tool title or description changed | TOOL_DESCRIPTION_CHANGED | warning |
//! | card or skill description changed | DESCRIPTION_CHANGED | warning |
//! | a skill's tag removed / added | BREAKING_SKILL_TAG_REMOVED / SKILL_TAG_ADDED | breaking / warning |
//! | an interface (binding, version) removed / added | UNSUPPORTED_PROTOCOL_BINDING / COMPATIBLE_INTERFACE_ADDED | breaking / compatible |
//! | an interface's URL changed | INTERFACE_URL_CHANGED | warning |
//! | an extension removed / now required | CAPABILITY_MISSING / REQUIRED_EXTENSION_UNSUPPORTED | breaking |
//! | an optional extension added, a required one made optional, params changed | COMPATIBLE_EXTENSION_CHANGED | compatible |
//! | (two versions of a consumer's contract) an expected error changed | BREAKING_ERROR_CODE_CHANGED | breaking |
//!
//! No declaration carries error codes (an Agent Card does not list them,
//! nor does an MCP tool), so BREAKING_ERROR_CODE_CHANGED is not a change
//! between two declarations: `error_code_changes` finds it between two
//! versions of one interaction of a consumer's contract, for the broker's
//! contract diff page.

mod card;
mod consumers;
mod declared;
mod errors;
mod interfaces;
mod profiles;
mod tools;

use accord_dsl::model::Contract;
use serde::Serialize;
use serde_json::Value;

use crate::finding::codes;

pub use card::diff_cards;
pub use consumers::{Consumer, attribute};
pub use declared::static_check;
pub use errors::error_code_changes;
pub use profiles::static_check_tools;
pub use tools::diff_tool_lists;

/// How a change lands on a consumer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// A consumer relying on what changed stops working.
    Breaking,
    /// Works, unless the consumer relies on something the change touches
    /// (reads strictly, switches on values, needs approval again).
    Conditional,
    /// Nothing a consumer relies on changed.
    Compatible,
    /// Not a contract change (a description): a model may choose differently.
    Warning,
}

impl Class {
    /// The word shown in tables and pages.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Breaking => "breaking",
            Class::Conditional => "conditional",
            Class::Compatible => "compatible",
            Class::Warning => "warning",
        }
    }
}

/// The class of a change's code.
pub fn class_of(code: &str) -> Class {
    match code {
        codes::COMPATIBLE_OPTIONAL_OUTPUT_ADDED
        | codes::COMPATIBLE_INTERFACE_ADDED
        | codes::COMPATIBLE_EXTENSION_CHANGED => Class::Compatible,
        codes::CONDITIONAL_ENUM_ADDED
        | codes::CONDITIONAL_TYPE_WIDENED
        | codes::FEATURE_CAPABILITY_ADDED
        | codes::RISK_ANNOTATION_CHANGED => Class::Conditional,
        codes::TOOL_DESCRIPTION_CHANGED
        | codes::DESCRIPTION_CHANGED
        | codes::SKILL_TAG_ADDED
        | codes::INTERFACE_URL_CHANGED => Class::Warning,
        _ => Class::Breaking,
    }
}

/// One change between two declarations: the one finding shape of the
/// CLI's table, the broker's API and the pages.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub code: &'static str,
    pub class: Class,
    /// Where: `mcpTools[lookup].result.status`, `agentCard.skills[plan]`, …
    pub path: String,
    /// A sentence saying what changed.
    pub detail: String,
    /// The live consumer versions it affects (`name version`): for a
    /// breaking change, those it breaks; for another, those that use what
    /// changed.
    pub consumers_affected: Vec<String>,
    /// Where the code is explained.
    pub reference: String,
    /// The value before and after, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
}

impl Change {
    /// A change with its class and reference from its code.
    pub fn new(code: &'static str, path: impl Into<String>, detail: impl Into<String>) -> Change {
        Change {
            code,
            class: class_of(code),
            path: path.into(),
            detail: detail.into(),
            consumers_affected: Vec::new(),
            reference: format!("docs/provider-setup.md#compatibility-classification ({code})"),
            before: None,
            after: None,
        }
    }

    /// With the values before and after.
    pub fn values(mut self, before: Option<Value>, after: Option<Value>) -> Change {
        self.before = before;
        self.after = after;
        self
    }

    /// Breaking for at least one live consumer.
    pub fn breaks_a_consumer(&self) -> bool {
        self.class == Class::Breaking && !self.consumers_affected.is_empty()
    }
}

/// What a declaration is: an Agent Card or a tool list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    AgentCard,
    McpTools,
}

impl Kind {
    /// Guessed from the content: an object with `tools` is a tool list.
    pub fn of(value: &Value) -> Kind {
        if value.get("tools").is_some_and(Value::is_array) && value.get("skills").is_none() {
            Kind::McpTools
        } else {
            Kind::AgentCard
        }
    }
}

/// Every change from `old` to `new` (both of `kind`), each with the
/// consumers it affects among `consumers`, in a stable order (class, path).
pub fn classify(kind: Kind, old: &Value, new: &Value, consumers: &[Consumer<'_>]) -> Vec<Change> {
    let mut changes = match kind {
        Kind::AgentCard => diff_cards(old, new),
        Kind::McpTools => diff_tool_lists(old, new),
    };
    attribute(kind, new, consumers, &mut changes);
    changes.sort_by(|a, b| (a.class, &a.path, a.code).cmp(&(b.class, &b.path, b.code)));
    changes
}

/// The contracts of `consumers`, for callers holding them by label.
pub fn consumers_of<'a>(contracts: &'a [(String, Contract)]) -> Vec<Consumer<'a>> {
    contracts
        .iter()
        .map(|(label, contract)| Consumer {
            label: label.clone(),
            contract,
        })
        .collect()
}

#[cfg(test)]
mod card_tests;
#[cfg(test)]
mod static_tests;
#[cfg(test)]
mod tests;
