//! `onConflict: merge` and the legacy PATCH: the interactions of a new
//! publication are added to the stored ones. Two interactions are "the
//! same" when their description and provider states are equal; the same
//! interaction with different content is a conflict.

use accord_dsl::canonical::canonical_json;
use serde_json::{Value, json};

use super::{INTERACTION_KEYS, canonical_without_id, without_id};

/// An interaction of the new content that differs from the stored one
/// with the same description and provider states.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the interaction {description:?}{states} differs from the one already published with the same description and provider states"
)]
pub struct MergeConflict {
    pub description: String,
    /// ` given …` or empty.
    pub states: String,
}

/// What identifies an interaction for merging: description and provider
/// states (V3/V4 `providerStates`, or V1/V2 `providerState`).
fn identity(interaction: &Value) -> String {
    let states = interaction
        .get("providerStates")
        .or_else(|| interaction.get("providerState"))
        .cloned()
        .unwrap_or(Value::Null);
    canonical_json(&json!([interaction.get("description"), states]))
}

fn describe_states(interaction: &Value) -> String {
    let states = interaction
        .get("providerStates")
        .or_else(|| interaction.get("providerState"));
    match states {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => format!(" given {s:?}"),
        Some(Value::Array(list)) if list.is_empty() => String::new(),
        Some(Value::Array(list)) => {
            let names: Vec<String> = list
                .iter()
                .map(|s| {
                    s.get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("?")
                        .to_owned()
                })
                .collect();
            format!(" given {}", names.join(", "))
        }
        Some(other) => format!(" given {other}"),
    }
}

/// `incoming` with the stored interactions it does not repeat added in
/// front of its own; the rest of the document is `incoming`'s.
pub fn merge(stored: &Value, incoming: &Value) -> Result<Value, MergeConflict> {
    let mut merged = incoming.clone();
    for key in INTERACTION_KEYS {
        let old = stored.get(key).and_then(Value::as_array);
        let new = incoming.get(key).and_then(Value::as_array);
        let (Some(old), new) = (old, new) else {
            continue;
        };
        let new = new.cloned().unwrap_or_default();
        let mut out: Vec<Value> = Vec::with_capacity(old.len() + new.len());
        for existing in old {
            let id = identity(existing);
            match new.iter().find(|n| identity(n) == id) {
                Some(n) if canonical_without_id(n) != canonical_without_id(existing) => {
                    return Err(MergeConflict {
                        description: n
                            .get("description")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned(),
                        states: describe_states(n),
                    });
                }
                _ => out.push(without_id(existing)),
            }
        }
        for n in new {
            let id = identity(&n);
            if !old.iter().any(|o| identity(o) == id) {
                out.push(without_id(&n));
            }
        }
        if let Value::Object(map) = &mut merged {
            map.insert(key.into(), Value::Array(out));
        }
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(interactions: Value) -> Value {
        json!({"consumer": {"name": "c"}, "provider": {"name": "p"}, "interactions": interactions})
    }

    #[test]
    fn new_interactions_are_added_after_the_stored_ones() {
        let a = json!({"description": "a", "response": {"status": 200}});
        let b = json!({"description": "b", "response": {"status": 200}});
        let merged = merge(&doc(json!([a.clone()])), &doc(json!([b.clone()]))).expect("merges");
        assert_eq!(merged["interactions"], json!([a, b]));
    }

    #[test]
    fn the_same_interaction_twice_is_kept_once() {
        let a = json!({"description": "a", "_id": "x", "response": {"status": 200}});
        let merged =
            merge(&doc(json!([a.clone()])), &doc(json!([without_id(&a)]))).expect("merges");
        assert_eq!(merged["interactions"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn the_same_description_and_state_with_other_content_conflicts() {
        let old = json!({"description": "a", "providerState": "s", "response": {"status": 200}});
        let new = json!({"description": "a", "providerState": "s", "response": {"status": 404}});
        let err = merge(&doc(json!([old])), &doc(json!([new]))).expect_err("conflicts");
        assert_eq!(err.description, "a");
        assert!(err.to_string().contains("given \"s\""));
    }

    #[test]
    fn the_same_description_in_another_state_is_another_interaction() {
        let old = json!({"description": "a", "providerState": "s", "response": {"status": 200}});
        let new = json!({"description": "a", "providerState": "t", "response": {"status": 404}});
        let merged = merge(&doc(json!([old])), &doc(json!([new]))).expect("merges");
        assert_eq!(merged["interactions"].as_array().map(Vec::len), Some(2));
    }
}
