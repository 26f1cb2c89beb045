//! Inline matchers judged by the matching engine, and a property test
//! that no template input makes the compiler panic.

use serde_json::{Value, json};

use super::path::PactPath;
use super::template::{Compiled, Template};

#[test]
fn compiled_rules_judge_actual_values_in_the_matching_engine() {
    use crate::matching::{MatchingRules, match_json};
    use crate::model::PactSpec;
    let table: &[(&str, Value, bool)] = &[
        ("{a: {$like: plan-1}}", json!({"a": "other"}), true),
        ("{a: {$like: plan-1}}", json!({"a": 1}), false),
        (
            "{a: {$regex: '^p-\\d+$', example: p-1}}",
            json!({"a": "p-22"}),
            true,
        ),
        (
            "{a: {$regex: '^p-\\d+$', example: p-1}}",
            json!({"a": "q-1"}),
            false,
        ),
        (
            "{a: {$eachLike: {t: {$like: x}}, min: 2}}",
            json!({"a": [{"t": "1"}, {"t": "2"}, {"t": "3"}]}),
            true,
        ),
        (
            "{a: {$eachLike: {t: {$like: x}}, min: 2}}",
            json!({"a": [{"t": "1"}]}),
            false,
        ),
        (
            "{a: {$eachLike: {t: {$like: x}}, min: 2}}",
            json!({"a": [{"t": 1}, {"t": "2"}]}),
            false,
        ),
        ("{a: {$enum: [draft, ready]}}", json!({"a": "ready"}), true),
        ("{a: {$enum: [draft, ready]}}", json!({"a": "gone"}), false),
        ("{a: {$integer: 1}}", json!({"a": 1.5}), false),
        (
            "{a: {$datetime: \"yyyy-MM-dd'T'HH:mm:ss\", example: '2026-01-01T00:00:00'}}",
            json!({"a": "2027-02-03T04:05:06"}),
            true,
        ),
        (
            "{a: {$datetime: \"yyyy-MM-dd'T'HH:mm:ss\", example: '2026-01-01T00:00:00'}}",
            json!({"a": "yesterday"}),
            false,
        ),
        (
            "{a: {$arrayContains: [{rel: self}]}}",
            json!({"a": [{"rel": "next"}, {"rel": "self"}]}),
            true,
        ),
        (
            "{a: {$arrayContains: [{rel: self}]}}",
            json!({"a": [{"rel": "next"}]}),
            false,
        ),
        (
            "{a: {$eachKey: {$regex: '^[a-z]+$', example: k}, example: {k: 1}}}",
            json!({"a": {"K1": 1}}),
            false,
        ),
        (
            "{a: {$fromState: '${id}', example: p-1}}",
            json!({"a": "p-9"}),
            true,
        ),
        ("{a: {$uuid: ~}}", json!({"a": "not-a-uuid"}), false),
    ];
    for (yaml, actual, ok) in table {
        let t: Template = yaml_serde::from_str(yaml).expect("valid template");
        let mut out = Compiled::default();
        let example = t.compile(&PactPath::root(), &mut out);
        let rules =
            MatchingRules::from_pact_json(&json!({"body": out.rules_by_path()}), PactSpec::V4)
                .expect("the engine reads the compiled rules");
        let body = rules.category("body").expect("a body category");
        assert!(
            match_json(&example, &example, body, true).is_empty(),
            "{yaml}: the example must match itself"
        );
        let mismatches = match_json(&example, actual, body, true);
        assert_eq!(
            mismatches.is_empty(),
            *ok,
            "{yaml} against {actual}: {mismatches:?}"
        );
    }
}

mod fuzz {
    use proptest::prelude::*;
    use serde_json::{Map, Value};

    use super::super::matcher::KEYWORDS;
    use super::super::path::PactPath;
    use super::super::template::{Compiled, Template};

    fn key() -> impl Strategy<Value = String> {
        let keywords: Vec<String> = KEYWORDS.iter().map(|(k, _)| k.to_string()).collect();
        prop_oneof![
            proptest::sample::select(keywords),
            proptest::sample::select(vec![
                "min", "max", "example", "examples", "generate", "digits", "size", "regex", "$$x",
                "a b", "x"
            ])
            .prop_map(str::to_string),
        ]
    }

    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-5i64..300).prop_map(Value::from),
            (-1.0e3f64..1.0e3).prop_map(Value::from),
            "[a-z0-9^$.*()\\[\\]-]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(6, 64, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((key(), inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn arbitrary_matcher_trees_never_panic(v in json()) {
            if let Ok(t) = Template::from_json(v) {
                let mut out = Compiled::default();
                let example = t.compile(&PactPath::root(), &mut out);
                prop_assert!(t.expanded_size() >= 1);
                let rules = serde_json::json!({"body": out.rules_by_path()});
                let read = crate::matching::MatchingRules::from_pact_json(&rules, crate::model::PactSpec::V4);
                prop_assert!(read.is_ok(), "the engine refuses {rules}: {read:?}");
                let _ = (example, out.generators_by_path());
            }
        }
    }
}
