//! Contracts the reader refuses: invalid JSON, nesting past the limit,
//! wrong shapes and unknown attributes in Accord's own objects, protocol
//! pins outside the supported versions — each named by its JSON path.

use super::tests::{read, v4_document};
use super::*;
use serde_json::json;

#[test]
fn invalid_json_names_the_origin_line_and_column() {
    let e = read_contract("{\n  \"consumer\": {,\n}", "bad.json").expect_err("invalid JSON");
    let text = e.to_string();
    assert!(
        text.starts_with("bad.json: invalid JSON at line 2, column"),
        "{text}"
    );
}

#[test]
fn deeply_nested_input_is_an_error_not_a_panic() {
    let deep = format!(
        "{{\"consumer\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = read_contract(&deep, "deep.json").expect_err("too deep");
    assert!(matches!(e, DslError::Json { .. }), "{e}");
    assert!(e.to_string().contains("recursion limit"), "{e}");
}

#[test]
fn wrong_shapes_name_the_json_path() {
    let mut doc = v4_document();
    doc["interactions"][0]["request"]["method"] = json!(42);
    let e = from_value(&doc, "f.json").expect_err("wrong method");
    assert!(
        e.to_string()
            .starts_with("f.json: $.interactions[0].request.method"),
        "{e}"
    );

    let mut doc = v4_document();
    doc["interactions"][3]["steps"][0]["status"]["state"] = json!("BOGUS");
    let e = from_value(&doc, "f.json").expect_err("wrong state");
    assert!(
        e.to_string().contains("$.interactions[3].steps[0].status"),
        "{e}"
    );

    let mut doc = v4_document();
    doc["interactions"][1]["pending"] = json!("yes");
    let e = from_value(&doc, "f.json").expect_err("wrong pending");
    assert_eq!(
        e.to_string(),
        "f.json: $.interactions[1].pending: expected true or false, found \"yes\""
    );

    let mut doc = v4_document();
    doc["interactions"][2]["type"] = json!("Plugin/Thing");
    let e = from_value(&doc, "f.json").expect_err("unknown type");
    assert!(
        e.to_string()
            .contains("$.interactions[2].type: unknown interaction type 'Plugin/Thing'"),
        "{e}"
    );

    let mut doc = v4_document();
    doc["interactions"][0]["request"]["generators"] = json!({"body": {"$.a": {"type": "Nope"}}});
    let e = from_value(&doc, "f.json").expect_err("unknown generator");
    let text = e.to_string();
    assert!(
        text.starts_with("f.json: $.interactions[0].request.generators.body['$.a']"),
        "{text}"
    );

    let e = from_value(&json!({"consumer": {"name": "c"}}), "f.json").expect_err("no provider");
    assert!(e.to_string().contains("$.provider"), "{e}");
}

/// Accord's own expectation objects: a struct written as an array, or an
/// attribute they do not have (a typo would otherwise drop the check it
/// meant), is refused with its path — in the `Value` reader and in the
/// typed one the parallel reader uses.
#[test]
fn expectation_objects_refuse_arrays_and_unknown_attributes() {
    let cases: [(usize, &str, Value, &str); 12] = [
        (
            0,
            "repeat",
            json!([3]),
            "$.interactions[0].repeat: invalid type: sequence",
        ),
        (
            0,
            "temporal",
            json!([100]),
            "$.interactions[0].temporal: invalid type: sequence",
        ),
        (
            0,
            "auth",
            json!(["alice"]),
            "$.interactions[0].auth: invalid type: sequence",
        ),
        (
            0,
            "approval",
            json!([true]),
            "$.interactions[0].approval: invalid type: sequence",
        ),
        (
            0,
            "temporal",
            json!({"completionWithinMS": 100}),
            "unknown field `completionWithinMS`, expected one of `acknowledgeWithinMs`",
        ),
        (
            0,
            "repeat",
            json!({"times": 2, "sideEfects": "each"}),
            "unknown field `sideEfects`",
        ),
        (
            0,
            "auth",
            json!({"principal": "a", "probes": [{"principal": "b", "tenat": "t"}]}),
            "$.interactions[0].auth.probes[0]",
        ),
        (
            0,
            "sideEffects",
            json!({"orders": [0, 5]}),
            "$.interactions[0].sideEffects.orders: invalid type: sequence, expected a counter change",
        ),
        (
            0,
            "sideEffects",
            json!({"orders": {"minimum": 1}}),
            "unknown field `minimum`, expected `min` or `max`",
        ),
        (
            0,
            "sideEffects",
            json!({"orders": 1.5}),
            "$.interactions[0].sideEffects.orders: invalid type: floating point",
        ),
        (
            4,
            "error",
            json!({"code": -32602, "http_status": 400}),
            "$.interactions[4].error",
        ),
        (
            3,
            "cancel",
            json!({"at": "TASK_STATE_WORKING", "expectState": "TASK_STATE_CANCELED", "observeMS": 50}),
            "unknown field `observeMS`",
        ),
    ];
    for (i, key, bad, says) in cases {
        let mut doc = v4_document();
        doc["interactions"][i][key] = bad.clone();
        let e = from_value(&doc, "f.json").expect_err("refused");
        assert!(e.to_string().contains(says), "{key}: {bad}: {e}");
        // the same interaction alone in a file the parallel reader takes
        let mut one = doc.clone();
        one["interactions"] = json!([doc["interactions"][i]]);
        let text = serde_json::to_string(&one).expect("json");
        assert!(read_contract(&text, "f.json").is_err(), "{key}: {bad}");
    }
    // what they have still reads, `{}` being "any change"
    let mut doc = v4_document();
    doc["interactions"][0]["sideEffects"] = json!({"orders": {}, "audit": {"min": 1}, "mail": -1});
    doc["interactions"][0]["repeat"] = json!({"times": 2, "sideEffects": "each"});
    let c = read(doc);
    let e = &c.interactions[0].meta().expectations;
    let effects = e.side_effects.as_ref().expect("side effects");
    assert!(effects["orders"].accepts(-7) && effects["orders"].accepts(9));
    assert!(!effects["audit"].accepts(0) && effects["mail"].accepts(-1));
    assert_eq!(e.repeat.as_ref().map(|r| r.times), Some(2));
}

#[test]
fn protocol_pins_outside_the_supported_versions_are_refused() {
    for (key, bad, supported) in [
        ("a2a", "0.3", "1.0"),
        ("mcp", "2024-11-05", "2026-07-28, 2025-11-25"),
        ("jsonSchema", "draft-07", "2020-12"),
    ] {
        let mut doc = v4_document();
        doc["metadata"]["accord"][key] = json!(bad);
        let e = from_value(&doc, "f.json").expect_err("unsupported pin");
        let text = e.to_string();
        assert!(text.contains(&format!("$.metadata.accord.{key}")), "{text}");
        assert!(text.contains(bad) && text.contains(supported), "{text}");
    }
    let mut doc = v4_document();
    doc["metadata"]["accord"]["formatVersion"] = json!("2.0");
    assert!(from_value(&doc, "f.json").is_err());
}
