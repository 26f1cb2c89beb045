//! Is a body an Agent Card, or a `tools/list` result? Each refusal names
//! the JSON path; what passes is reduced to what is stored (the card as
//! sent, the tool list as `{"tools": […]}`) with the digest a verification
//! records for the same content.

use accord_verifier::a2a::card::{card_digest, card_problems};
use accord_verifier::codes;
use accord_verifier::mcp::listing::digest_of;
use serde_json::{Value, json};

use crate::api::body::kind;
use crate::error::{BrokerError, FieldError};

/// `a2a/agent-card`: the kind a verification records for a card.
pub const CARD: &str = "a2a/agent-card";
/// `mcp/tools/list`: the kind a verification records for a tool list.
pub const TOOLS: &str = "mcp/tools/list";
/// At most this many tools in one listing.
pub const MAX_TOOLS: usize = 10_000;
/// A profile name is at most this many bytes.
pub const MAX_PROFILE: usize = 128;

/// A declaration ready to store.
#[derive(Debug, Clone)]
pub struct Checked {
    pub digest: String,
    pub entries: i64,
    pub content: Value,
}

fn refuse(errors: Vec<FieldError>) -> Result<Checked, BrokerError> {
    let first = &errors[0];
    Err(BrokerError::BadRequest {
        detail: format!("{}: {}", first.field, first.message),
        errors,
    })
}

/// A test of a JSON value's shape.
type Is = fn(&Value) -> bool;

fn must_be(path: &str, v: Option<&Value>, want: &str, ok: Is) -> Option<FieldError> {
    match v {
        None => Some(FieldError::new(path, format!("is required ({want})"))),
        Some(v) if !ok(v) => Some(FieldError::new(
            path,
            format!("must be {want}, not {}", kind(v)),
        )),
        Some(_) => None,
    }
}

fn strings(v: &Value) -> bool {
    v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
}

/// An Agent Card: an object with the fields A2A requires, of their types,
/// skills with string ids, no two skills with one id.
pub fn agent_card(body: Value) -> Result<Checked, BrokerError> {
    let Some(card) = body.as_object() else {
        return refuse(vec![FieldError::new(
            "$",
            format!("must be an Agent Card (a JSON object), not {}", kind(&body)),
        )]);
    };
    let fields: [(&str, &str, Is); 7] = [
        ("name", "a string", Value::is_string),
        ("description", "a string", Value::is_string),
        ("version", "a string", Value::is_string),
        ("capabilities", "an object", Value::is_object),
        ("defaultInputModes", "an array of strings", strings),
        ("defaultOutputModes", "an array of strings", strings),
        ("skills", "an array of skills", Value::is_array),
    ];
    let mut errors: Vec<FieldError> = fields
        .iter()
        .filter_map(|(key, want, ok)| must_be(&format!("$.{key}"), card.get(*key), want, *ok))
        .collect();
    if card.get("url").is_none() {
        errors.extend(must_be(
            "$.supportedInterfaces",
            card.get("supportedInterfaces"),
            "an array of interfaces",
            Value::is_array,
        ));
    }
    for (i, skill) in body["skills"].as_array().into_iter().flatten().enumerate() {
        errors.extend(must_be(
            &format!("$.skills[{i}].id"),
            skill.get("id"),
            "a string",
            Value::is_string,
        ));
    }
    let duplicate = card_problems(&body)
        .into_iter()
        .find(|f| f.reason_code == codes::DUPLICATE_SKILL_ID);
    if let Some(f) = duplicate.filter(|_| errors.is_empty()) {
        errors.push(FieldError::new("$.skills", f.detail));
    }
    if !errors.is_empty() {
        return refuse(errors);
    }
    let entries = body["skills"].as_array().map_or(0, Vec::len);
    Ok(Checked {
        digest: card_digest(&body),
        entries: i64::try_from(entries).unwrap_or(i64::MAX),
        content: body,
    })
}

/// A `tools/list` result with its pages followed: an object whose `tools`
/// is an array of objects with a string `name` and an object `inputSchema`,
/// and no `nextCursor` left to follow.
pub fn tool_list(body: Value) -> Result<Checked, BrokerError> {
    if !body.is_object() {
        return refuse(vec![FieldError::new(
            "$",
            format!(
                "must be a tools/list result (a JSON object with `tools`), not {}",
                kind(&body)
            ),
        )]);
    }
    if body.get("nextCursor").is_some_and(|c| !c.is_null()) {
        return refuse(vec![FieldError::new(
            "$.nextCursor",
            "the listing has more pages: follow them and send every tool in one `tools`",
        )]);
    }
    let Some(tools) = body.get("tools").and_then(Value::as_array) else {
        return refuse(vec![
            must_be(
                "$.tools",
                body.get("tools"),
                "an array of tools",
                Value::is_array,
            )
            .unwrap_or_else(|| FieldError::new("$.tools", "must be an array of tools")),
        ]);
    };
    if tools.len() > MAX_TOOLS {
        return refuse(vec![FieldError::new(
            "$.tools",
            format!("at most {MAX_TOOLS} tools"),
        )]);
    }
    let mut errors = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        if !tool.is_object() {
            errors.push(FieldError::new(
                format!("$.tools[{i}]"),
                format!("must be a tool (an object), not {}", kind(tool)),
            ));
            continue;
        }
        errors.extend(must_be(
            &format!("$.tools[{i}].name"),
            tool.get("name"),
            "a string",
            Value::is_string,
        ));
        errors.extend(must_be(
            &format!("$.tools[{i}].inputSchema"),
            tool.get("inputSchema"),
            "a JSON Schema object",
            Value::is_object,
        ));
    }
    if !errors.is_empty() {
        return refuse(errors);
    }
    Ok(Checked {
        digest: digest_of(tools),
        entries: i64::try_from(tools.len()).unwrap_or(i64::MAX),
        content: json!({ "tools": tools }),
    })
}

/// A profile name: 1 to [`MAX_PROFILE`] bytes, no control characters.
pub fn profile(name: &str) -> Result<&str, BrokerError> {
    let problem = if name.trim().is_empty() {
        Some("must not be empty".to_owned())
    } else if name.len() > MAX_PROFILE {
        Some(format!("must be at most {MAX_PROFILE} bytes"))
    } else if name.chars().any(char::is_control) {
        Some("must not contain control characters".to_owned())
    } else {
        None
    };
    match problem {
        Some(message) => Err(BrokerError::bad_field("profile", message)),
        None => Ok(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Value {
        json!({
            "name": "p", "description": "d", "version": "1", "capabilities": {},
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "supportedInterfaces": [], "skills": [{"id": "a"}, {"id": "b"}]
        })
    }

    fn refused_at(result: Result<Checked, BrokerError>) -> Vec<String> {
        let body = result.expect_err("refused").body();
        body["errors"]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }

    #[test]
    fn a_card_gets_the_digest_a_verification_records() {
        let checked = agent_card(card()).expect("a card");
        assert_eq!(checked.digest, card_digest(&card()));
        assert_eq!(checked.entries, 2);
    }

    #[test]
    fn not_a_card_is_refused_at_its_path() {
        assert_eq!(refused_at(agent_card(json!([1]))), ["$"]);
        let mut c = card();
        c["skills"] = json!([{"id": 7}]);
        c["capabilities"] = json!("all");
        assert_eq!(
            refused_at(agent_card(c)),
            ["$.capabilities", "$.skills[0].id"]
        );
        let mut twice = card();
        twice["skills"] = json!([{"id": "a"}, {"id": "a"}]);
        assert_eq!(refused_at(agent_card(twice)), ["$.skills"]);
    }

    #[test]
    fn a_tool_list_is_digested_as_the_verifier_does_whatever_the_order() {
        let a = json!({"name": "a", "inputSchema": {"type": "object"}});
        let b = json!({"inputSchema": {"type": "object"}, "name": "b"});
        let one = tool_list(json!({"tools": [a.clone(), b.clone()]})).expect("tools");
        let other = tool_list(json!({"tools": [b, a.clone()], "_meta": {}})).expect("tools");
        assert_eq!(one.digest, other.digest);
        assert_eq!(
            one.digest,
            digest_of(&[
                a.clone(),
                json!({"name": "b", "inputSchema": {"type": "object"}})
            ])
        );
        assert_eq!(
            refused_at(tool_list(json!({"tools": [a, {"name": 1}]}))),
            ["$.tools[1].name", "$.tools[1].inputSchema"]
        );
        assert_eq!(
            refused_at(tool_list(json!({"tools": [], "nextCursor": "p2"}))),
            ["$.nextCursor"]
        );
        assert_eq!(refused_at(tool_list(json!({"tool": []}))), ["$.tools"]);
    }

    #[test]
    fn a_profile_is_short_printable_and_not_empty() {
        assert!(profile("alice").is_ok());
        assert!(profile(" ").is_err());
        assert!(profile(&"x".repeat(MAX_PROFILE + 1)).is_err());
        assert!(profile("a\u{7}b").is_err());
    }
}
