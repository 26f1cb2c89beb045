//! The provider-state values on the expected side of a verification.

use super::*;
use crate::matching::MatchingRules;
use crate::model::{Body, PactSpec};
use serde_json::json;

fn values() -> Map<String, Value> {
    json!({"plan_id": "p-7", "n": 7})
        .as_object()
        .cloned()
        .unwrap_or_default()
}

fn state(expression: &str) -> Generator {
    Generator::ProviderState {
        expression: expression.into(),
        data_type: None,
    }
}

#[test]
fn only_provider_state_generators_write_into_an_expected_response() {
    let mut response = HttpResponse {
        status: 200,
        headers: Some(IndexMap::from([(
            "Location".to_owned(),
            vec!["/plans/p-1".to_owned()],
        )])),
        body: Body::json(json!({"id": "p-1", "count": 1, "token": "t"})),
        generators: Generators::default()
            .with(Category::Body, "$.id", state("${plan_id}"))
            .with(
                Category::Body,
                "$.count",
                Generator::RandomInt { min: 50, max: 60 },
            )
            .with(
                Category::Body,
                "$.token",
                Generator::RandomString { size: 20 },
            )
            .with(Category::Header, "Location", state("/plans/${plan_id}")),
        ..HttpResponse::default()
    };
    apply_state_values_to_response(&mut response, &values());
    assert_eq!(
        response.body.as_json(),
        Some(&json!({"id": "p-7", "count": 1, "token": "t"}))
    );
    let location = response.headers.as_ref().and_then(|h| h.get("Location"));
    assert_eq!(location, Some(&vec!["/plans/p-7".to_owned()]));
}

#[test]
fn a_value_the_states_did_not_return_keeps_the_example_and_is_named() {
    let generators = Generators::default()
        .with(Category::Body, "$.id", state("${missing}"))
        .with(Category::Body, "$.plan", state("${plan_id}"))
        .with(
            Category::Body,
            "$.n",
            Generator::RandomInt { min: 1, max: 2 },
        );
    let mut doc = json!({"id": "p-1", "plan": "p-1", "n": 0});
    apply_state_values_to_json(&mut doc, &generators, &MatchingRules::default(), &values());
    assert_eq!(doc, json!({"id": "p-1", "plan": "p-7", "n": 0}));
    let unresolved: Vec<(Category, &str)> = unresolved_state_generators(&generators, &values())
        .into_iter()
        .map(|(c, k, _)| (c, k))
        .collect();
    assert_eq!(unresolved, [(Category::Body, "$.id")]);
}

#[test]
fn a_value_that_does_not_convert_to_its_data_type_is_unresolved() {
    let generators = Generators::default().with(
        Category::Body,
        "$.n",
        Generator::ProviderState {
            expression: "${plan_id}".into(),
            data_type: Some(crate::generators::DataType::Integer),
        },
    );
    assert_eq!(unresolved_state_generators(&generators, &values()).len(), 1);
}

#[test]
fn array_contains_variants_get_state_values_but_no_random_values() {
    let rules = MatchingRules::from_pact_json(
        &json!({"body": {"$.items": {"matchers": [{"match": "arrayContains", "variants": [
            {"index": 0, "rules": {}, "generators": {
                "$.id": {"type": "ProviderState", "expression": "${plan_id}"},
                "$.n": {"type": "RandomInt", "min": 9, "max": 9}}}
        ]}]}}}),
        PactSpec::V4,
    )
    .expect("valid rules");
    let mut doc = json!({"items": [{"id": "p-1", "n": 0}]});
    apply_state_values_to_json(&mut doc, &Generators::default(), &rules, &values());
    assert_eq!(doc, json!({"items": [{"id": "p-7", "n": 0}]}));
}

#[test]
fn state_generators_keep_only_provider_state_ones() {
    let all = Generators::default()
        .with(Category::Path, "", state("/plans/${plan_id}"))
        .with(Category::Body, "$.n", Generator::RandomBoolean);
    let kept = state_generators(&all);
    assert_eq!(kept.iter().count(), 1);
    assert!(kept.get(Category::Path, "").is_some());
}
