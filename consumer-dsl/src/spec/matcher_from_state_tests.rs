//! `$fromState` and its `equal` modifier: the rule, the generator, the
//! builder helper and the refusals.

use serde_json::{Value, json};

use crate::matching::{MatchingRules, match_json};
use crate::model::PactSpec;
use crate::spec::path::PactPath;
use crate::spec::template::{Compiled, Template};

/// Example, rules and generators of a YAML template.
fn compile(yaml: &str) -> (Value, Value, Value) {
    let t: Template = yaml_serde::from_str(yaml).expect("valid template");
    compiled(&t)
}

fn compiled(t: &Template) -> (Value, Value, Value) {
    let mut out = Compiled::default();
    let example = t.compile(&PactPath::root(), &mut out);
    (
        example,
        Value::Object(out.rules_by_path()),
        Value::Object(out.generators_by_path()),
    )
}

fn generator(expression: &str) -> Value {
    json!({"type": "ProviderState", "expression": expression, "dataType": "STRING"})
}

#[test]
fn from_state_with_equal_compiles_to_an_equality_rule_beside_its_generator() {
    let (example, rules, generators) =
        compile("{id: {$fromState: '${plan_id}', example: p-1, equal: true}}");
    assert_eq!(example, json!({"id": "p-1"}));
    assert_eq!(rules["$.id"]["matchers"], json!([{"match": "equality"}]));
    assert_eq!(generators["$.id"], generator("${plan_id}"));
}

#[test]
fn from_state_without_equal_or_with_equal_false_keeps_the_type_rule() {
    for yaml in [
        "{id: {$fromState: '${plan_id}', example: p-1}}",
        "{id: {$fromState: '${plan_id}', example: p-1, equal: false}}",
    ] {
        let (example, rules, generators) = compile(yaml);
        assert_eq!(example, json!({"id": "p-1"}), "{yaml}");
        assert_eq!(
            rules["$.id"]["matchers"],
            json!([{"match": "type"}]),
            "{yaml}"
        );
        assert_eq!(generators["$.id"], generator("${plan_id}"), "{yaml}");
    }
}

#[test]
fn the_equality_rule_refuses_another_value_the_type_rule_accepts() {
    let other = json!({"id": "p-2"});
    for (yaml, accepted) in [
        ("{id: {$fromState: '${plan_id}', example: p-1}}", true),
        (
            "{id: {$fromState: '${plan_id}', example: p-1, equal: true}}",
            false,
        ),
    ] {
        let (example, rules, _) = compile(yaml);
        let rules = MatchingRules::from_pact_json(&json!({ "body": rules }), PactSpec::V4)
            .expect("the engine reads the compiled rules");
        let body = rules.category("body").expect("a body category");
        assert!(
            match_json(&example, &example, body, true).is_empty(),
            "{yaml}"
        );
        let mismatches = match_json(&example, &other, body, true);
        assert_eq!(mismatches.is_empty(), accepted, "{yaml}: {mismatches:?}");
    }
}

#[test]
fn a_numeric_example_keeps_its_data_type_under_equality() {
    let (example, rules, generators) =
        compile("{id: {$fromState: '${id}', example: 42, equal: true}}");
    assert_eq!(example, json!({"id": 42}));
    assert_eq!(rules["$.id"]["matchers"], json!([{"match": "equality"}]));
    assert_eq!(generators["$.id"]["dataType"], json!("INTEGER"));
}

#[test]
fn an_equal_that_is_not_a_boolean_is_refused_where_it_is_written() {
    for yaml in [
        "{id: {$fromState: '${plan_id}', example: p-1, equal: 'yes'}}",
        "{id: {$fromState: '${plan_id}', example: p-1, equal: 1}}",
        "{id: {$fromState: '${plan_id}', example: p-1, equal: {$like: true}}}",
    ] {
        let err = yaml_serde::from_str::<Template>(yaml)
            .expect_err(yaml)
            .to_string();
        assert!(
            err.contains("$fromState: `equal` must be true or false"),
            "{yaml}: {err}"
        );
        assert!(err.contains("line 1"), "{yaml}: `{err}` has no position");
    }
}

#[test]
fn an_unknown_modifier_names_equal_among_the_allowed_ones() {
    let err = yaml_serde::from_str::<Template>(
        "{id: {$fromState: '${plan_id}', example: p-1, equals: true}}",
    )
    .expect_err("a typo")
    .to_string();
    assert!(
        err.contains("unknown key `equals` for $fromState; allowed: example, equal"),
        "{err}"
    );
}

#[test]
fn the_builder_helpers_write_the_same_matchers_as_the_spec() {
    use crate::builder::m;
    let pairs = [
        (
            m::from_state_equal("${plan_id}", "p-1"),
            "{$fromState: '${plan_id}', example: p-1, equal: true}",
        ),
        (
            m::from_state("${plan_id}", "p-1"),
            "{$fromState: '${plan_id}', example: p-1}",
        ),
    ];
    for (built, yaml) in pairs {
        let from_builder = Template::from_json(json!({ "id": built })).expect("valid");
        let from_spec: Template =
            yaml_serde::from_str(&format!("{{id: {yaml}}}")).expect("valid template");
        assert_eq!(from_builder, from_spec, "{yaml}");
        assert_eq!(compiled(&from_builder), compiled(&from_spec), "{yaml}");
    }
}
