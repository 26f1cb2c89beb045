//! Which live consumers a change affects, judged from their contracts with
//! the checks a verification runs against the newer declaration: a
//! breaking change affects a consumer whose own check finds it at the same
//! place (it reads that field and relies on that value, calls that tool
//! without the new required input, uses that skill); any other change
//! affects the consumers that use what changed.

use accord_dsl::model::{Contract, Interaction};
use serde_json::Value;

use super::declared::{calls, findings, skills_used};
use super::{Change, Class, Kind};
use crate::a2a::card::interface_key;
use crate::a2a::interface;
use crate::a2a::wire::Binding;
use crate::finding::codes;

/// A live consumer version and its contract with the provider.
#[derive(Debug, Clone)]
pub struct Consumer<'a> {
    /// `name version`, as tables and pages show it.
    pub label: String,
    pub contract: &'a Contract,
}

/// Fills each change's `consumers_affected`.
pub fn attribute(kind: Kind, new: &Value, consumers: &[Consumer<'_>], changes: &mut [Change]) {
    if changes.is_empty() {
        return;
    }
    // a consumer's checks are run only on what a breaking change touched
    let touched: Vec<String> = changes
        .iter()
        .filter(|c| c.class == Class::Breaking)
        .map(|c| c.path.clone())
        .collect();
    let relevant = |place: &str| touched.iter().any(|p| same_place(p, place));
    for consumer in consumers {
        let found = judged(kind, new, consumer.contract, &relevant);
        let used = uses(kind, consumer.contract);
        for change in changes.iter_mut() {
            let affected = match change.class {
                Class::Breaking => {
                    found.iter().any(|(code, path)| {
                        *code == consumer_code(change.code) && same_place(path, &change.path)
                    }) || loses_its_interface(change, new, consumer.contract)
                }
                _ => used.iter().any(|u| same_place(u, &change.path)),
            };
            if affected {
                change.consumers_affected.push(consumer.label.clone());
            }
        }
    }
}

/// The code a consumer's own check gives the same change.
fn consumer_code(code: &str) -> &str {
    match code {
        codes::BREAKING_SKILL_REMOVED | codes::BREAKING_SKILL_TAG_REMOVED => codes::SKILL_MISSING,
        other => other,
    }
}

/// A contract that names no interface is replayed on the first the card
/// offers of a binding the verifier speaks (JSON-RPC, HTTP+JSON of A2A
/// 1.x): an interface of those removed breaks its A2A tasks when the
/// newer card offers none of them any more.
fn loses_its_interface(change: &Change, new: &Value, contract: &Contract) -> bool {
    let Some(key) = change
        .path
        .strip_prefix("agentCard.supportedInterfaces[")
        .and_then(|k| k.strip_suffix(']'))
    else {
        return false;
    };
    let spoken = key.split_once(' ').is_some_and(|(binding, version)| {
        Binding::of(binding).is_some() && version.split('.').next() == Some("1")
    });
    let names_none = contract
        .agent_card
        .as_ref()
        .is_none_or(|c| c.interfaces.is_empty());
    let sends_tasks = contract
        .interactions
        .iter()
        .any(|i| matches!(i, Interaction::A2aTask(_)));
    change.code == codes::UNSUPPORTED_PROTOCOL_BINDING
        && spoken
        && names_none
        && sends_tasks
        && interface::spoken(new).is_empty()
}

/// `a` and `b` name the same thing, or one is inside the other.
fn same_place(a: &str, b: &str) -> bool {
    let inside = |x: &str, y: &str| x.strip_prefix(y).is_some_and(|rest| rest.starts_with('.'));
    a == b || inside(a, b) || inside(b, a)
}

/// (code, path) of what the consumer's checks find in `new`.
fn judged(
    kind: Kind,
    new: &Value,
    contract: &Contract,
    relevant: &dyn Fn(&str) -> bool,
) -> Vec<(&'static str, String)> {
    findings(kind, new, contract, relevant)
        .into_iter()
        .map(|f| (f.reason_code, f.path))
        .collect()
}

/// The places of a declaration the consumer uses.
fn uses(kind: Kind, contract: &Contract) -> Vec<String> {
    match kind {
        Kind::McpTools => contract
            .mcp_tools
            .iter()
            .map(|e| e.name.as_str())
            .chain(calls(contract).map(|(t, _)| t))
            .map(|t| format!("mcpTools[{t}]"))
            .collect(),
        Kind::AgentCard => {
            let mut out: Vec<String> = contract
                .agent_card
                .iter()
                .flat_map(|e| e.skills.iter().map(|s| s.id.as_str()))
                .chain(skills_used(contract))
                .map(|s| format!("agentCard.skills[{s}]"))
                .collect();
            if let Some(card) = &contract.agent_card {
                let interfaces = card.interfaces.iter().map(|i| {
                    let key = interface_key(&i.protocol_binding, &i.protocol_version);
                    format!("agentCard.supportedInterfaces[{key}]")
                });
                let extensions = card
                    .extensions
                    .iter()
                    .map(|e| format!("agentCard.extensions[{}]", e.uri));
                out.extend(interfaces.chain(extensions).collect::<Vec<_>>());
            }
            let talks_to_the_card = contract.agent_card.is_some() || !out.is_empty();
            if talks_to_the_card {
                // the card's own fields (capabilities, defaults, description)
                for key in [
                    "capabilities",
                    "defaultInputModes",
                    "defaultOutputModes",
                    "description",
                ] {
                    out.push(format!("agentCard.{key}"));
                }
            }
            out
        }
    }
}
