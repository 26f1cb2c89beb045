//! The delegation record a send carries (`message.metadata.delegation`):
//! judged whole, its counts read as numbers whatever their JSON form.

use accord_dsl::matching::{Mismatch, match_json};
use accord_dsl::model::accord::{DELEGATION_METADATA_KEY, SendRequest, integral_numbers};
use serde_json::Value;

/// The send with its delegation record's integral doubles as integers,
/// when it has any: a protobuf client (the a2a-sdk) sends `maxDepth: 0`
/// as `0.0`, the same count.
pub(super) fn counts_as_doubles(actual: &Value) -> Option<Value> {
    fn has_double(v: &Value) -> bool {
        match v {
            Value::Number(n) => n.is_f64(),
            Value::Array(items) => items.iter().any(has_double),
            Value::Object(map) => map.values().any(has_double),
            _ => false,
        }
    }
    let record = actual["message"]["metadata"].get(DELEGATION_METADATA_KEY)?;
    if !has_double(record) {
        return None;
    }
    let mut copy = actual.clone();
    if let Some(r) = copy
        .pointer_mut("/message/metadata")
        .and_then(|m| m.get_mut(DELEGATION_METADATA_KEY))
    {
        integral_numbers(r);
    }
    Some(copy)
}

/// The delegation record (`message.metadata.delegation`) is the consumer's
/// word on what the agent may do: it must be sent exactly as the contract
/// states it, so an attribute the contract does not state is a mismatch
/// too (elsewhere what a client adds is not judged). Only looked at when
/// the record matched otherwise: one fault, one mismatch.
pub(super) fn extras(expected: &SendRequest, actual: &Value, found: &[Mismatch]) -> Vec<Mismatch> {
    const AT: &str = "$.message.metadata";
    let Some(record) = expected
        .message
        .metadata
        .as_ref()
        .and_then(|m| m.get(DELEGATION_METADATA_KEY))
    else {
        return Vec::new();
    };
    let sent = &actual["message"]["metadata"][DELEGATION_METADATA_KEY];
    if !sent.is_object() || found.iter().any(|m| m.path.starts_with(AT)) {
        return Vec::new();
    }
    let mut extras = match_json(record, sent, &Default::default(), false);
    for m in &mut extras {
        let tail = m.path.strip_prefix('$').unwrap_or_default();
        m.path = format!("{AT}.{DELEGATION_METADATA_KEY}{tail}");
    }
    extras
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::send::request_mismatches;
    use super::*;

    #[test]
    fn the_delegation_record_is_judged_whole_and_named_by_its_path() {
        let record = json!({"mode": "DRAFT_ONLY", "maxDepth": 0});
        let expected: SendRequest = serde_json::from_value(json!({
            "message": {"role": "ROLE_USER", "parts": [{"text": "plan"}],
                "metadata": {"delegation": record}}}))
        .expect("a request");
        let send = |metadata: Value| json!({"message": {"role": "ROLE_USER", "parts": [{"text": "plan"}], "metadata": metadata}});
        let paths = |metadata: Value| -> Vec<String> {
            request_mismatches(&expected, &send(metadata))
                .into_iter()
                .map(|m| m.path)
                .collect()
        };
        assert!(paths(json!({"delegation": record, "trace": "x"})).is_empty());
        // the a2a-sdk's metadata is a protobuf Struct: counts come as doubles
        assert!(paths(json!({"delegation": {"mode": "DRAFT_ONLY", "maxDepth": 0.0}})).is_empty());
        assert_eq!(
            paths(json!({"delegation": {"mode": "DRAFT_ONLY", "maxDepth": 0.5}})),
            ["$.message.metadata.delegation.maxDepth"]
        );
        assert_eq!(
            paths(json!({"delegation": {"mode": "DRAFT_ONLY", "maxDepth": 1}})),
            ["$.message.metadata.delegation.maxDepth"]
        );
        assert_eq!(
            paths(json!({"delegation": {"mode": "DRAFT_ONLY", "maxDepth": 0, "maxFanOut": 2}})),
            ["$.message.metadata.delegation"]
        );
        assert_eq!(paths(json!({})).len(), 1);
    }
}
