//! Messages: contents (as a body, unexpected keys allowed) and metadata.

use serde_json::{Map, Value};

use super::body::match_body;
use super::check::{check_json, check_list};
use super::content_type::MediaType;
use super::mismatch::{Mismatch, MismatchKind, describe};
use super::rules::Category;
use crate::model::Message;

/// Compares an actual message with an expected one.
pub fn match_message(expected: &Message, actual: &Message) -> Vec<Mismatch> {
    let rules = &expected.matching_rules;
    let empty = Category::default();
    let mut out = match_body(
        &expected.contents,
        &actual.contents,
        rules.body().unwrap_or(&empty),
        true,
    );
    out.extend(match_metadata(
        &expected.metadata,
        &actual.metadata,
        rules.category("metadata"),
    ));
    out
}

/// Compares message metadata: every expected key must be present and
/// equal, or satisfy its rule; content types compare as media types.
pub fn match_metadata(
    expected: &Map<String, Value>,
    actual: &Map<String, Value>,
    rules: Option<&Category>,
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for (key, ev) in expected {
        let Some(av) = actual.get(key).or_else(|| {
            actual
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v)
        }) else {
            let msg = format!("Expected metadata '{key}' but it was missing");
            out.push(
                Mismatch::new(MismatchKind::Metadata, key.as_str(), msg)
                    .values(Some(ev.clone()), None),
            );
            continue;
        };
        let failure = match rules.and_then(|r| r.for_name(key, false)) {
            Some(list) => check_list(list, |r| check_json(r, ev, av))
                .err()
                .map(|f| (f.message, Some(f.rule))),
            None if metadata_equal(key, ev, av) => None,
            None => Some((
                format!(
                    "Expected metadata '{key}' to be {} but received {}",
                    describe(ev),
                    describe(av)
                ),
                None,
            )),
        };
        if let Some((msg, rule)) = failure {
            let mut m = Mismatch::new(MismatchKind::Metadata, key.as_str(), msg)
                .values(Some(ev.clone()), Some(av.clone()));
            m.rule = rule;
            out.push(m);
        }
    }
    out
}

fn metadata_equal(key: &str, ev: &Value, av: &Value) -> bool {
    let is_ct = key.eq_ignore_ascii_case("contentType") || key.eq_ignore_ascii_case("content-type");
    match (ev, av) {
        (Value::String(e), Value::String(a)) if is_ct => {
            MediaType::parse(e).accepts(&MediaType::parse(a))
        }
        (Value::String(e), other) | (other, Value::String(e)) if !other.is_string() => {
            serde_json::from_str::<Value>(e).is_ok_and(|v| v == *other)
        }
        _ => ev == av,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::PactSpec;
    use crate::pact::parts::message_from_json;

    fn msg(v: Value) -> Message {
        message_from_json(&v, PactSpec::V3, "t").expect("valid")
    }

    #[test]
    fn message_contents_allow_unexpected_keys() {
        let e = msg(json!({"contents": {"a": 1}}));
        assert!(match_message(&e, &msg(json!({"contents": {"a": 1, "b": 2}}))).is_empty());
        assert_eq!(
            match_message(&e, &msg(json!({"contents": {"a": 2}}))).len(),
            1
        );
    }

    #[test]
    fn metadata_keys_must_be_present_and_equal_or_match_their_rule() {
        let e = msg(json!({"metaData": {"topic": "x", "n": 1}}));
        assert!(
            match_message(
                &e,
                &msg(json!({"metaData": {"topic": "x", "n": "1", "z": 0}}))
            )
            .is_empty()
        );
        assert_eq!(
            match_message(&e, &msg(json!({"metaData": {"topic": "y", "n": 1}}))).len(),
            1
        );
        assert_eq!(
            match_message(&e, &msg(json!({"metaData": {"n": 1}})))[0].kind,
            MismatchKind::Metadata
        );
        let ruled = msg(
            json!({"metaData": {"topic": "x"}, "matchingRules": {"metadata": {"topic": {"matchers": [{"match": "regex", "regex": "[a-z]+"}]}}}}),
        );
        assert!(match_message(&ruled, &msg(json!({"metaData": {"topic": "orders"}}))).is_empty());
    }
}
