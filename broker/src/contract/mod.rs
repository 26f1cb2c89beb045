//! Published contract content: read and validated with `accord-dsl`, each
//! interaction given a stable `_id`, and the content sha computed over only
//! what affects verification (so whitespace, key order, interaction order
//! and client metadata such as `pactRust` never change it).
//!
//! Pure: no storage, no HTTP. `publishing.rs` stores what this prepares.

pub mod diff;
pub mod merge;
pub mod pact_view;

use accord_dsl::DslError;
use accord_dsl::canonical::{canonical_json, digest};
use serde_json::{Map, Value, json};

/// The arrays that hold interactions: `interactions` (every version) and
/// V3 message pacts' `messages`.
pub const INTERACTION_KEYS: [&str; 2] = ["interactions", "messages"];

/// Top-level members a client may send back from a pact it fetched from a
/// broker; they are the broker's, not the contract's.
const BROKER_KEYS: [&str; 2] = ["_links", "createdAt"];

/// Top-level members besides consumer, provider and interactions that a
/// verifier reads (Accord's agent-card and MCP-tool expectations).
const VERIFIED_KEYS: [&str; 2] = ["agentCard", "mcpTools"];

/// Metadata members a verifier reads; the rest is client bookkeeping.
const VERIFIED_METADATA: [&str; 2] = ["pactSpecification", "accord"];

/// A contract ready to store.
#[derive(Debug, Clone)]
pub struct PreparedContract {
    /// `consumer.name` inside the content.
    pub consumer: String,
    /// `provider.name` inside the content.
    pub provider: String,
    /// The document as stored and served: as published, each interaction
    /// carrying its `_id`.
    pub document: Value,
    /// sha256 (hex) of what affects verification.
    pub sha: String,
    /// Number of interactions and messages.
    pub interactions_count: i64,
}

/// Why content was refused: the JSON path inside the content and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ContentError {
    pub path: String,
    pub message: String,
}

impl ContentError {
    fn from_dsl(error: &DslError) -> Self {
        let (path, message) = match error {
            DslError::Invalid { path, message, .. } => (path.clone(), message.clone()),
            DslError::Shape { path, source, .. } => (path.clone(), source.to_string()),
            other => ("$".to_owned(), other.to_string()),
        };
        ContentError { path, message }
    }
}

/// Validates a contract document (any Pact version or an Accord contract)
/// and prepares it for storage.
pub fn prepare(mut document: Value) -> Result<PreparedContract, ContentError> {
    if let Value::Object(map) = &mut document {
        for key in BROKER_KEYS {
            map.remove(key);
        }
    }
    let contract = accord_dsl::pact::from_value(&document, "content")
        .map_err(|e| ContentError::from_dsl(&e))?;
    // what a verifier could not run is refused now, not found at replay
    let blocking = accord_dsl::pact::blocking(&contract);
    if let Some(first) = blocking.first() {
        let all: Vec<String> = blocking
            .iter()
            .map(|p| format!("{} at {}: {}", p.code, p.path, p.message))
            .collect();
        return Err(ContentError {
            path: first.path.clone(),
            message: format!("a verifier cannot run this contract: {}", all.join("; ")),
        });
    }
    let interactions_count = assign_ids(&mut document);
    let sha = content_sha(&document);
    Ok(PreparedContract {
        consumer: contract.consumer.name,
        provider: contract.provider.name,
        document,
        sha,
        interactions_count,
    })
}

/// Gives every interaction and message an `_id` (a hash of the interaction
/// without its `_id`); returns how many there are.
fn assign_ids(document: &mut Value) -> i64 {
    let mut count = 0;
    for key in INTERACTION_KEYS {
        if let Some(Value::Array(items)) = document.get_mut(key) {
            for item in items.iter_mut() {
                if let Value::Object(map) = item {
                    map.remove("_id");
                    let id = interaction_id(map);
                    map.insert("_id".into(), Value::String(id));
                }
                count += 1;
            }
        }
    }
    count
}

/// The `_id` of an interaction: the first 40 hex characters of the sha256
/// of its canonical JSON (without `_id`), as long as Pact's SHA-1 ids.
pub fn interaction_id(interaction: &Map<String, Value>) -> String {
    let mut without = interaction.clone();
    without.remove("_id");
    let mut id = digest(&Value::Object(without));
    id.truncate(40);
    id
}

/// The content sha: sha256 over the canonical JSON of consumer and
/// provider names, the interactions and messages (each without `_id`,
/// sorted by canonical JSON), `metadata.pactSpecification`,
/// `metadata.accord` and Accord's `agentCard`/`mcpTools`.
pub fn content_sha(document: &Value) -> String {
    let mut basis = Map::new();
    for side in ["consumer", "provider"] {
        basis.insert(side.into(), json!(document[side]["name"]));
    }
    for key in INTERACTION_KEYS {
        if let Some(Value::Array(items)) = document.get(key) {
            let mut sorted: Vec<Value> = items.iter().map(without_id).collect();
            // by canonical text (one interaction, the usual publication,
            // needs no sort and so no text)
            if sorted.len() > 1 {
                let mut keyed: Vec<(String, Value)> = sorted
                    .into_iter()
                    .map(|v| (canonical_json(&v), v))
                    .collect();
                keyed.sort_by(|a, b| a.0.cmp(&b.0));
                sorted = keyed.into_iter().map(|(_, v)| v).collect();
            }
            basis.insert(key.into(), Value::Array(sorted));
        }
    }
    for key in VERIFIED_KEYS {
        if let Some(v) = document.get(key).filter(|v| !v.is_null()) {
            basis.insert(key.into(), v.clone());
        }
    }
    let mut metadata = Map::new();
    for key in VERIFIED_METADATA {
        if let Some(v) = document.get("metadata").and_then(|m| m.get(key)) {
            metadata.insert(key.into(), v.clone());
        }
    }
    basis.insert("metadata".into(), Value::Object(metadata));
    digest(&Value::Object(basis))
}

/// An interaction without its `_id`.
pub fn without_id(interaction: &Value) -> Value {
    let mut copy = interaction.clone();
    if let Value::Object(map) = &mut copy {
        map.remove("_id");
    }
    copy
}

/// Canonical JSON of an interaction without its `_id`.
pub fn canonical_without_id(interaction: &Value) -> String {
    canonical_json(&without_id(interaction))
}

/// The document without interaction `_id`s, pretty-printed with sorted
/// keys: the form a diff is shown in.
pub fn pretty_for_diff(document: &Value) -> String {
    let mut copy = document.clone();
    for key in INTERACTION_KEYS {
        if let Some(Value::Array(items)) = copy.get_mut(key) {
            for item in items.iter_mut() {
                if let Value::Object(map) = item {
                    map.remove("_id");
                }
            }
        }
    }
    let sorted: Value = serde_json::from_str(&canonical_json(&copy)).unwrap_or(copy);
    serde_json::to_string_pretty(&sorted).unwrap_or_default()
}

#[cfg(test)]
mod tests;
