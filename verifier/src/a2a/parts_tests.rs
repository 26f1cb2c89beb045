use accord_dsl::model::accord::{PartContent, PartExpectation};
use serde_json::{Value, json};

use super::*;

fn data_part(example: Value, schema: Option<Value>) -> PartExpectation {
    PartExpectation {
        content: PartContent::Data(example),
        media_type: Some("application/json".into()),
        filename: None,
        schema,
        rules: Default::default(),
    }
}

fn codes_of(found: &[Finding]) -> Vec<(&'static str, String)> {
    found
        .iter()
        .map(|f| (f.reason_code, f.path.clone()))
        .collect()
}

#[test]
fn prose_where_json_was_promised_is_a_content_mode_mismatch_alone() {
    let want = data_part(
        json!({"plan_id": "plan-1"}),
        Some(json!({"type": "object"})),
    );
    let got = json!({"text": "Here is your plan: rotate keys", "mediaType": "text/plain"});
    let found = judge_part(&want, &got, "steps[1].artifact.parts[0]");
    assert_eq!(
        codes_of(&found),
        [(
            "CONTENT_MODE_MISMATCH",
            "steps[1].artifact.parts[0]".to_owned()
        )]
    );
}

#[test]
fn a_schema_violation_is_reported_once_not_also_as_a_mismatch() {
    let schema = json!({"type": "object", "properties": {"plan_id": {"type": "string"}}});
    let want = data_part(json!({"plan_id": "plan-1"}), Some(schema));
    let got = json!({"data": {"plan_id": 7}, "mediaType": "application/json"});
    let found = judge_part(&want, &got, "p");
    assert_eq!(
        codes_of(&found),
        [("OUTPUT_SCHEMA_VIOLATION", "p.data.plan_id".to_owned())]
    );
}

#[test]
fn a_wrong_value_under_equality_is_a_response_mismatch_at_its_path() {
    let want = data_part(json!({"status": "draft"}), None);
    let got = json!({"data": {"status": "final"}, "mediaType": "application/json"});
    assert_eq!(
        codes_of(&judge_part(&want, &got, "p")),
        [("RESPONSE_MISMATCH", "p.data.status".to_owned())]
    );
}

#[test]
fn another_media_type_is_a_content_mode_mismatch_and_a_missing_one_is_inferred() {
    let want = data_part(json!({}), None);
    let csv = json!({"data": {}, "mediaType": "text/csv"});
    assert_eq!(
        codes_of(&judge_part(&want, &csv, "p")),
        [("CONTENT_MODE_MISMATCH", "p.mediaType".to_owned())]
    );
    assert!(judge_part(&want, &json!({"data": {}}), "p").is_empty());
    assert!(same_mode(
        "application/*",
        "application/json; charset=utf-8"
    ));
    assert!(!same_mode("text/plain", "application/json"));
    // modes written without a slash, as SDK examples do
    assert!(same_mode("text", "text/plain"));
    assert!(same_mode("json", "application/json"));
    assert!(!same_mode("text", "application/json"));
}

#[test]
fn each_expected_part_takes_a_distinct_actual_part_the_best_one_reported() {
    let want = [
        data_part(json!({"a": 1}), None),
        data_part(json!({"a": 1}), None),
    ];
    let one = [json!({"data": {"a": 1}})];
    let found = judge_parts(&want, &one, "x.parts");
    assert_eq!(
        codes_of(&found),
        [("RESPONSE_MISMATCH", "x.parts[1]".to_owned())]
    );
    let two = [json!({"text": "no"}), json!({"data": {"a": 1}})];
    assert!(judge_parts(&want[..1], &two, "x.parts").is_empty());
}

#[test]
fn a_whole_double_from_the_sdk_meets_an_integer_and_a_decimal_rule_alike() {
    let integer = data_part(json!({"n": 3}), None);
    assert!(judge_part(&integer, &json!({"data": {"n": 3.0}}), "p").is_empty());
    let mut decimal = data_part(json!({"n": 2.5}), None);
    let rules =
        json!({"body": {"$.data.n": {"combine": "AND", "matchers": [{"match": "decimal"}]}}});
    decimal.rules = serde_json::from_value(json!({"matchingRules": rules})).expect("rules");
    assert!(judge_part(&decimal, &json!({"data": {"n": 10.0}}), "p").is_empty());
    assert_eq!(
        judge_part(&integer, &json!({"data": {"n": 4.0}}), "p").len(),
        1
    );
}
