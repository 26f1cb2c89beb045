//! `onConflict: merge`, the legacy PATCH and `accord publish` of several
//! files of one pair: two documents become one.
//!
//! Interactions: the new ones are added to the stored ones. Two
//! interactions are "the same" when their description and provider states
//! are equal; the same interaction with different content is a conflict.
//!
//! Everything else at the top level (`agentCard`, `mcpTools`, `metadata`,
//! any key this version does not know) is what the consumer relies on as
//! a whole, so neither side may lose it, whatever the order: objects are
//! merged key by key, lists are joined (entries that name themselves —
//! `id`, `uri`, `name` with `profile`, `path` — are merged by that name,
//! others kept once each), equal values are kept, and two different
//! values at one place are a conflict naming its JSON path. Only the
//! tools' own notes in `metadata` (other than `pactSpecification` and
//! `accord`) are not expectations: there the new document's value wins.

use accord_dsl::canonical::canonical_json;
use serde_json::{Map, Value, json};

use super::{INTERACTION_KEYS, canonical_without_id, without_id};

/// Why two documents cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeConflict {
    /// An interaction of the new content differs from the stored one with
    /// the same description and provider states.
    #[error(
        "the interaction {description:?}{states} differs from the one already published with the same description and provider states"
    )]
    Interaction {
        description: String,
        /// ` given …` or empty.
        states: String,
    },
    /// A contract-level expectation has two different values.
    #[error("{path} is {stored} in one contract and {incoming} in the other")]
    Expectation {
        /// JSON path of the place (`$.agentCard.capabilities.streaming`).
        path: String,
        stored: String,
        incoming: String,
    },
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

/// `stored` and `incoming` as one document: the stored interactions,
/// then the new ones; every other top-level member merged (see the module).
pub fn merge(stored: &Value, incoming: &Value) -> Result<Value, MergeConflict> {
    let (Value::Object(old), Value::Object(new)) = (stored, incoming) else {
        return Ok(incoming.clone());
    };
    let mut merged = Map::new();
    for (key, value) in old {
        if !new.contains_key(key) {
            merged.insert(key.clone(), value.clone());
        }
    }
    for (key, value) in new {
        let joined = match old.get(key) {
            None => value.clone(),
            Some(existing) if INTERACTION_KEYS.contains(&key.as_str()) => {
                merge_interactions(existing, value)?
            }
            Some(existing) => join(&format!("$.{key}"), existing, value)?,
        };
        merged.insert(key.clone(), joined);
    }
    Ok(Value::Object(merged))
}

/// The stored interactions it does not repeat in front of the new ones.
fn merge_interactions(stored: &Value, incoming: &Value) -> Result<Value, MergeConflict> {
    let (Some(old), Some(new)) = (stored.as_array(), incoming.as_array()) else {
        return Ok(incoming.clone());
    };
    let mut out: Vec<Value> = Vec::with_capacity(old.len() + new.len());
    for existing in old {
        let id = identity(existing);
        match new.iter().find(|n| identity(n) == id) {
            Some(n) if canonical_without_id(n) != canonical_without_id(existing) => {
                return Err(MergeConflict::Interaction {
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
        let id = identity(n);
        if !old.iter().any(|o| identity(o) == id) {
            out.push(without_id(n));
        }
    }
    Ok(Value::Array(out))
}

/// Members of `metadata` that are expectations; the others are notes of
/// the tools that wrote the file.
const METADATA_EXPECTATIONS: [&str; 2] = ["pactSpecification", "accord"];

/// One value of `a` and `b` at `path`, or the conflict.
fn join(path: &str, a: &Value, b: &Value) -> Result<Value, MergeConflict> {
    if canonical_json(a) == canonical_json(b) {
        return Ok(a.clone());
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut out = x.clone();
            for (key, value) in y {
                let here = format!("{path}.{key}");
                let joined = match x.get(key) {
                    None => value.clone(),
                    Some(_)
                        if path == "$.metadata"
                            && !METADATA_EXPECTATIONS.contains(&key.as_str()) =>
                    {
                        value.clone()
                    }
                    Some(existing) => join(&here, existing, value)?,
                };
                out.insert(key.clone(), joined);
            }
            Ok(Value::Object(out))
        }
        (Value::Array(x), Value::Array(y)) => join_lists(path, x, y).map(Value::Array),
        _ => Err(MergeConflict::Expectation {
            path: path.to_owned(),
            stored: brief(a),
            incoming: brief(b),
        }),
    }
}

/// Both lists' entries: an entry that names itself is merged with the
/// entry of the same name, any other is kept once.
fn join_lists(path: &str, x: &[Value], y: &[Value]) -> Result<Vec<Value>, MergeConflict> {
    let mut out: Vec<Value> = x.to_vec();
    for entry in y {
        let name = entry_name(entry);
        let same = out.iter().position(|o| match &name {
            Some(n) => entry_name(o).as_ref() == Some(n),
            None => canonical_json(o) == canonical_json(entry),
        });
        match same {
            Some(i) => {
                let here = format!("{path}[{}]", name.as_deref().unwrap_or("?"));
                out[i] = join(&here, &out[i], entry)?;
            }
            None => out.push(entry.clone()),
        }
    }
    Ok(out)
}

/// What a list entry is called by: `id`, `uri`, `name` (with `profile`,
/// for MCP tools listed under several profiles) or `path`.
fn entry_name(entry: &Value) -> Option<String> {
    let text = |k: &str| entry.get(k).and_then(Value::as_str);
    if let Some(id) = text("id").or_else(|| text("uri")) {
        return Some(format!("{id:?}"));
    }
    if let Some(name) = text("name") {
        return Some(match text("profile") {
            Some(profile) => format!("{name:?} profile {profile:?}"),
            None => format!("{name:?}"),
        });
    }
    text("path").map(|p| format!("{p:?}"))
}

/// A value as a conflict quotes it: at most 80 characters of its JSON.
fn brief(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
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
        assert!(
            matches!(&err, MergeConflict::Interaction { description, .. } if description == "a")
        );
        assert!(err.to_string().contains("given \"s\""));
    }

    #[test]
    fn the_same_description_in_another_state_is_another_interaction() {
        let old = json!({"description": "a", "providerState": "s", "response": {"status": 200}});
        let new = json!({"description": "a", "providerState": "t", "response": {"status": 404}});
        let merged = merge(&doc(json!([old])), &doc(json!([new]))).expect("merges");
        assert_eq!(merged["interactions"].as_array().map(Vec::len), Some(2));
    }

    fn contract(card: Value, tools: Value) -> Value {
        json!({
            "consumer": {"name": "c"}, "provider": {"name": "p"},
            "interactions": [{"description": card.to_string(), "response": {"status": 200}}],
            "agentCard": card, "mcpTools": tools,
            "metadata": {"pactSpecification": {"version": "4.0"}, "pactRust": {"version": "1"}}
        })
    }

    #[test]
    fn contract_level_expectations_are_kept_whatever_the_order() {
        let with_card = contract(json!({"skills": [{"id": "plan"}]}), json!([]));
        let mut without = contract(Value::Null, json!([]));
        if let Value::Object(m) = &mut without {
            m.remove("agentCard");
            m.remove("mcpTools");
        }
        for (a, b) in [(&with_card, &without), (&without, &with_card)] {
            let merged = merge(a, b).expect("merges");
            assert_eq!(merged["agentCard"], json!({"skills": [{"id": "plan"}]}));
            assert_eq!(merged["interactions"].as_array().map(Vec::len), Some(2));
        }
    }

    #[test]
    fn agreeing_expectations_are_joined_by_name_and_profile() {
        let a = contract(
            json!({"skills": [{"id": "plan", "outputModes": ["application/json"]}], "capabilities": {"streaming": true}}),
            json!([{"name": "search", "profile": "alice"}]),
        );
        let b = contract(
            json!({"skills": [{"id": "plan", "inputModes": ["text/plain"]}, {"id": "cancel"}], "capabilities": {"pushNotifications": true}}),
            json!([{"name": "search", "profile": "bob"}, {"name": "search", "profile": "alice", "arguments": [{"name": "q"}]}]),
        );
        let one = merge(&a, &b).expect("merges");
        let other = merge(&b, &a).expect("merges");
        for merged in [&one, &other] {
            let skills = merged["agentCard"]["skills"].as_array().expect("skills");
            assert_eq!(skills.len(), 2);
            let plan = skills.iter().find(|s| s["id"] == "plan").expect("plan");
            assert_eq!(plan["outputModes"], json!(["application/json"]));
            assert_eq!(plan["inputModes"], json!(["text/plain"]));
            assert_eq!(
                merged["agentCard"]["capabilities"],
                json!({"streaming": true, "pushNotifications": true})
            );
            let tools = merged["mcpTools"].as_array().expect("tools");
            assert_eq!(tools.len(), 2, "{tools:?}");
            let alice = tools
                .iter()
                .find(|t| t["profile"] == "alice")
                .expect("alice");
            assert_eq!(alice["arguments"], json!([{"name": "q"}]));
        }
    }

    #[test]
    fn disagreeing_expectations_are_refused_with_their_path() {
        let a = contract(json!({"capabilities": {"streaming": true}}), json!([]));
        let b = contract(json!({"capabilities": {"streaming": false}}), json!([]));
        let err = merge(&a, &b).expect_err("conflicts");
        assert_eq!(
            err,
            MergeConflict::Expectation {
                path: "$.agentCard.capabilities.streaming".into(),
                stored: "true".into(),
                incoming: "false".into(),
            }
        );
        let a = contract(
            Value::Null,
            json!([{"name": "t", "profile": "x", "title": "A"}]),
        );
        let b = contract(
            Value::Null,
            json!([{"name": "t", "profile": "x", "title": "B"}]),
        );
        let err = merge(&a, &b).expect_err("conflicts").to_string();
        assert!(
            err.contains("$.mcpTools[\"t\" profile \"x\"].title"),
            "{err}"
        );
    }

    #[test]
    fn the_writing_tools_notes_are_not_expectations_but_versions_are() {
        let a = contract(Value::Null, json!([]));
        let mut b = a.clone();
        b["metadata"]["pactRust"]["version"] = json!("2");
        let merged = merge(&a, &b).expect("notes never conflict");
        assert_eq!(merged["metadata"]["pactRust"]["version"], "2");
        b["metadata"]["pactSpecification"]["version"] = json!("3.0.0");
        let err = merge(&a, &b).expect_err("two specifications");
        assert!(
            err.to_string()
                .contains("$.metadata.pactSpecification.version"),
            "{err}"
        );
    }
}
