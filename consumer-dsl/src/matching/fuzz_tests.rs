//! Property tests: no input makes a parser or matcher panic.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::matching::path::DocPath;
use crate::matching::{Category, MatchingRules, match_json, match_xml};
use crate::model::PactSpec;

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-c]{1,2}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn rules() -> Category {
    let v = json!({"body": {
        "$": {"matchers": [{"match": "type"}]},
        "$.a": {"combine": "OR", "matchers": [{"match": "integer"}, {"match": "regex", "regex": "\\w*"}]},
        "$.b[*]": {"matchers": [{"match": "eachKey", "rules": [{"match": "regex", "regex": "[a-c]+"}]},
                                  {"match": "eachValue", "rules": [{"match": "type"}]}]},
        "$.c": {"matchers": [{"match": "arrayContains", "variants": [{"index": 0, "rules": {}}]}]},
        "$.*.*": {"matchers": [{"match": "values"}, {"match": "notEmpty"}]}
    }});
    let r = MatchingRules::from_pact_json(&v, PactSpec::V4).expect("valid rules");
    r.body().cloned().unwrap_or_default()
}

proptest! {
    #[test]
    fn json_matching_never_panics(e in arb_json(), a in arb_json(), allow in any::<bool>()) {
        let _ = match_json(&e, &a, &Category::default(), allow);
        let _ = match_json(&e, &a, &rules(), allow);
        prop_assert!(match_json(&e, &e, &Category::default(), allow).is_empty());
    }

    #[test]
    fn path_parsing_never_panics(s in "\\PC{0,24}") {
        let _ = DocPath::parse(&s);
        let _ = DocPath::parse(&format!("${s}"));
    }

    #[test]
    fn xml_matching_never_panics(e in "<[a-c]{1,3}[^\\x00]{0,30}", a in "<[a-c]{1,3}[^\\x00]{0,30}") {
        let _ = match_xml(&e, &a, &rules(), false);
    }

    #[test]
    fn rule_parsing_never_panics(v in arb_json()) {
        let _ = MatchingRules::from_pact_json(&json!({"body": {"$.x": v.clone()}}), PactSpec::V4);
        let _ = MatchingRules::from_pact_json(&v, PactSpec::V2);
    }
}
