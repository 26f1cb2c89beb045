//! Messages: contents (as a body, unexpected keys allowed) and metadata.

use serde_json::{Map, Value};

use super::body::match_body;
use super::check::{check_json, judge, same};
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
    let kind = MismatchKind::Metadata;
    let mut out = Vec::new();
    for (key, ev) in expected {
        let found = actual.get(key).or_else(|| {
            let mut same_name = actual.iter().filter(|(k, _)| k.eq_ignore_ascii_case(key));
            same_name.next().map(|(_, v)| v)
        });
        let Some(av) = found else {
            let msg = format!("Expected metadata '{key}' but it was missing");
            out.push(Mismatch::new(kind, key.as_str(), msg).values(Some(ev.clone()), None));
            continue;
        };
        let verdict = judge(
            rules.and_then(|r| r.for_name(key, false)),
            |r| check_json(r, ev, av),
            || {
                same(metadata_equal(key, ev, av), || {
                    let (e, a) = (describe(ev), describe(av));
                    format!("Expected metadata '{key}' to be {e} but received {a}")
                })
            },
        );
        if let Err(f) = verdict {
            let (e, a) = (Some(ev.clone()), Some(av.clone()));
            out.push(Mismatch::failed(kind, key.as_str(), e, a, f));
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
