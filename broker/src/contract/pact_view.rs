//! The Pact view of a stored contract: the document served to every client
//! that does not announce itself as Accord's (`audience.rs`). Pact's
//! verifier refuses a whole pact over one interaction type it does not
//! know (`Failed to load pact … incorrect type attribute "A2A/Task"`), so
//! the view keeps only what Pact replays as Accord would:
//!
//! - interactions of the types Pact knows (`Synchronous/HTTP`,
//!   `Asynchronous/Messages`, `Synchronous/Messages`, V1–V3 ones without a
//!   `type`, V3 `messages`), each as stored (its `_id` too, so Pact's test
//!   results name the stored interaction), without Accord's expectation
//!   attributes (`sideEffects`, `temporal`, `auth`, …), which Pact ignores;
//! - not `A2A/Task`, `MCP/ToolCall` (or any type Pact does not know), nor
//!   an interaction whose `auth` makes Accord send another credential than
//!   the one written in the request (a principal's token, none, an expired
//!   or an invalid one): Pact would send a different request;
//! - not the top-level `agentCard` and `mcpTools` (Pact tolerates them, but
//!   nothing in Pact checks them).
//!
//! What the view leaves out, or keeps without checking, is the contract's
//! [`AccordOnly`] parts: a verification published through the Pact view
//! does not cover them. Pure: the stored document is never changed, and
//! the view has the stored content's sha.

use std::fmt;

use accord_dsl::model::accord::Expectations;
use serde_json::{Map, Value};

use super::INTERACTION_KEYS;

/// The V4 interaction types Pact clients read.
pub const PACT_TYPES: [&str; 3] = [
    "Synchronous/HTTP",
    "Asynchronous/Messages",
    "Synchronous/Messages",
];

/// Top-level members only Accord's verifier reads.
const ACCORD_DECLARATIONS: [&str; 2] = ["agentCard", "mcpTools"];

/// The most parts [`describe`] names before it counts the rest.
const NAMED: usize = 10;

/// A part of a contract that only Accord's verifier checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccordOnly {
    /// An interaction the Pact view leaves out.
    Interaction {
        kind: String,
        description: String,
        /// Kept out for its `auth` (a Pact-typed interaction).
        credential: bool,
    },
    /// Accord's expectation attributes of an interaction the view keeps:
    /// Pact replays the interaction but checks none of them.
    Expectations {
        description: String,
        keys: Vec<String>,
    },
    /// `agentCard` or `mcpTools`.
    Declaration(&'static str),
}

impl fmt::Display for AccordOnly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccordOnly::Interaction {
                kind,
                description,
                credential: false,
            } => write!(f, "{kind} '{description}'"),
            AccordOnly::Interaction {
                kind, description, ..
            } => write!(f, "{kind} '{description}' (sent with Accord's credential)"),
            AccordOnly::Expectations { description, keys } => {
                write!(f, "{} of '{description}'", keys.join(", "))
            }
            AccordOnly::Declaration(key) => f.write_str(key),
        }
    }
}

/// A contract as Pact clients are served it.
#[derive(Debug, Clone, PartialEq)]
pub struct PactView {
    pub document: Value,
    /// What the view leaves out or does not check; empty when the view is
    /// the whole contract (every plain Pact file).
    pub accord_only: Vec<AccordOnly>,
}

/// The Pact view of a stored document.
pub fn pact_view(mut document: Value) -> PactView {
    let mut accord_only = Vec::new();
    for key in INTERACTION_KEYS {
        if let Some(Value::Array(items)) = document.get_mut(key) {
            items.retain_mut(|item| keep(item, &mut accord_only));
        }
    }
    if let Value::Object(map) = &mut document {
        for key in ACCORD_DECLARATIONS {
            if map.remove(key).is_some_and(|v| !v.is_null()) {
                accord_only.push(AccordOnly::Declaration(key));
            }
        }
    }
    PactView {
        document,
        accord_only,
    }
}

/// The Accord-only parts of a stored document.
pub fn accord_only(document: &Value) -> Vec<AccordOnly> {
    // the view of a copy: one set of rules, and this runs only for the
    // few contents a verification through the Pact view left unfinished
    pact_view(document.clone()).accord_only
}

/// The Accord-only parts of a stored content (its JSON text).
pub fn accord_only_of_stored(content: &str) -> Result<Vec<AccordOnly>, serde_json::Error> {
    Ok(pact_view(serde_json::from_str(content)?).accord_only)
}

/// `A, B, 3 more`: the parts named in one line.
pub fn describe(parts: &[AccordOnly]) -> String {
    let mut names: Vec<String> = parts.iter().take(NAMED).map(|p| p.to_string()).collect();
    if parts.len() > NAMED {
        names.push(format!("{} more", parts.len() - NAMED));
    }
    names.join(", ")
}

/// Whether the view keeps `item`; what it leaves out or strips is noted.
fn keep(item: &mut Value, accord_only: &mut Vec<AccordOnly>) -> bool {
    let Value::Object(map) = item else {
        return true;
    };
    let description = map
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let kind = map.get("type").and_then(Value::as_str);
    if let Some(kind) = kind.filter(|k| !PACT_TYPES.contains(k)) {
        accord_only.push(AccordOnly::Interaction {
            kind: kind.to_owned(),
            description,
            credential: false,
        });
        return false;
    }
    if presents_a_credential(map) {
        accord_only.push(AccordOnly::Interaction {
            kind: kind.unwrap_or("Synchronous/HTTP").to_owned(),
            description,
            credential: true,
        });
        return false;
    }
    let keys: Vec<String> = Expectations::JSON_KEYS
        .iter()
        .filter(|k| map.remove(**k).is_some_and(|v| !v.is_null()))
        .map(|k| (*k).to_owned())
        .collect();
    if !keys.is_empty() {
        accord_only.push(AccordOnly::Expectations { description, keys });
    }
    true
}

/// Does Accord send this interaction with a credential of its own: a
/// principal's token, or a credential other than a valid one (none,
/// expired, invalid)? A tenant alone is sent as written.
fn presents_a_credential(map: &Map<String, Value>) -> bool {
    let Some(auth) = map.get("auth").and_then(Value::as_object) else {
        return false;
    };
    let principal = auth.get("principal").is_some_and(|p| !p.is_null());
    let credential = auth
        .get("credential")
        .and_then(Value::as_str)
        .is_some_and(|c| c != "valid");
    principal || credential
}

#[cfg(test)]
#[path = "pact_view_tests.rs"]
mod tests;
