//! Tests of the canonical writer: RFC 8785 order and escapes, the pinned
//! digests stored contracts are keyed by, the oracle property.

use super::*;
use serde_json::json;

#[test]
fn sorts_keys_by_utf16_code_units_as_rfc8785_requires() {
    // RFC 8785 section 3.2.3.
    let v = json!({"\u{20ac}": "Euro Sign", "\r": "Carriage Return", "\u{fb33}": "Hebrew Letter Dalet With Dagesh",
        "1": "One", "\u{1f600}": "Emoji: Grinning Face", "\u{80}": "Control", "\u{f6}": "Latin Small Letter O With Diaeresis"});
    let keys: Vec<String> = serde_json::from_str::<Map<String, Value>>(&canonical_json(&v))
        .expect("canonical output is JSON")
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        keys,
        [
            "\r",
            "1",
            "\u{80}",
            "\u{f6}",
            "\u{20ac}",
            "\u{1f600}",
            "\u{fb33}"
        ]
    );
}

#[test]
fn formats_numbers_like_ecmascript() {
    // RFC 8785 section 3.2.2.3 examples, and integers around 2^53.
    let v: Value = serde_json::from_str(
        r#"[333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001, -0.0, 9007199254740993, 1152921504606846976, -5]"#,
    )
    .expect("valid JSON");
    assert_eq!(
        canonical_json(&v),
        "[333333333.3333333,1e+30,4.5,0.002,1e-27,0,9007199254740992,1152921504606847000,-5]"
    );
}

#[test]
fn escapes_strings_like_json_stringify() {
    let v = json!(["\u{7}\u{1f}\"\\\n\t\u{8}\u{c}\r", "\u{2028}é€😀", "/"]);
    assert_eq!(
        canonical_json(&v),
        "[\"\\u0007\\u001f\\\"\\\\\\n\\t\\b\\f\\r\",\"\u{2028}é€😀\",\"/\"]"
    );
}

#[test]
fn agrees_with_the_rfc8785_example_of_section_3_2_2() {
    let input = r#"{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/", "literals": [null, true, false]}"#;
    let v: Value = serde_json::from_str(input).expect("valid JSON");
    assert_eq!(
        canonical_json(&v),
        r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
    );
}

#[test]
fn digest_ignores_key_order_and_whitespace_but_not_values() {
    let a: Value = serde_json::from_str(r#"{"b": 1, "a": [1, 2]}"#).expect("valid JSON");
    let b: Value = serde_json::from_str(r#"{ "a":[1,2],"b":1 }"#).expect("valid JSON");
    let c: Value = serde_json::from_str(r#"{"a": [2, 1], "b": 1}"#).expect("valid JSON");
    assert_eq!(digest(&a), digest(&b));
    assert_ne!(digest(&a), digest(&c));
    assert_eq!(
        digest(&a),
        hex::encode(Sha256::digest(br#"{"a":[1,2],"b":1}"#))
    );
}

/// Stored contracts are keyed by their digest: these documents' digests
/// and canonical bytes are fixed for good (computed independently, by a
/// Python RFC 8785 writer, before the writer here was last changed).
#[test]
fn digests_of_fixed_documents_never_change() {
    let contract = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": [{"type": "MCP/ToolCall", "description": "look up plan-1", "tool": "work_plan_lookup",
            "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"}, "sideEffects": {"records": 0},
            "result": {"structuredContent": {"status": "draft", "plan_id": "plan-1",
                "steps": [{"title": "rotate keys", "done": false, "score": 0.25}]}}}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}});
    assert_eq!(
        digest(&contract),
        "abd8bc769bffcac627b98e1b992706b1368cc40be647c6600876a72fd5ac8812"
    );
    let torture = json!({"\u{20ac}": "Euro \u{2028} sign", "\r": "cr\u{7}\u{1f}\"\\\n\t\u{8}\u{c}",
        "\u{fb33}": [], "1": {}, "\u{1f600}": "\u{1f600} face", "\u{80}": null,
        "\u{f6}": [true, false, -5, 12.75, 1e30, 0.002, 1e-27, -0.0, 4.5], "a/b": "\u{7f}/", "": "empty key", "Z": "z"});
    assert_eq!(
        canonical_json(&torture),
        "{\"\":\"empty key\",\"\\r\":\"cr\\u0007\\u001f\\\"\\\\\\n\\t\\b\\f\",\"1\":{},\"Z\":\"z\",\"a/b\":\"\u{7f}/\",\
         \"\u{80}\":null,\"\u{f6}\":[true,false,-5,12.75,1e+30,0.002,1e-27,0,4.5],\"\u{20ac}\":\"Euro \u{2028} sign\",\
         \"\u{1f600}\":\"\u{1f600} face\",\"\u{fb33}\":[]}"
    );
    assert_eq!(
        digest(&torture),
        "44f1340a708b4557f4464900b3ce902b345ac5598b3cb5a87841a6e4834a224b"
    );
}

#[test]
fn a_digest_past_one_hash_block_is_the_digest_of_the_canonical_text() {
    let long = "x\"".repeat(40_000);
    let v = json!({"b": [long.clone(), {"k": long}], "a": (0..20_000).collect::<Vec<_>>()});
    let text = canonical_json(&v);
    assert!(text.len() > 3 * BLOCK);
    assert_eq!(digest(&v), hex::encode(Sha256::digest(text.as_bytes())));
}

fn arbitrary_json() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "\\PC{0,8}|[\\x00-\\x1f\"\\\\]{0,3}|[\u{10000}-\u{10ffff}\u{e000}-\u{ffff}]{0,2}"
            .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec(
                (
                    "\\PC{0,6}|[\u{10000}-\u{10ffff}\u{e000}-\u{ffff}a]{0,2}",
                    inner
                ),
                0..6
            )
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    #[test]
    fn agrees_with_serde_json_canonicalizer_on_any_value(v in arbitrary_json()) {
        let oracle = serde_json_canonicalizer::to_string(&v).expect("oracle serialises any value");
        proptest::prop_assert_eq!(canonical_json(&v), oracle);
    }

    #[test]
    fn the_digest_is_the_sha256_of_the_oracles_text(v in arbitrary_json()) {
        let oracle = serde_json_canonicalizer::to_string(&v).expect("oracle serialises any value");
        proptest::prop_assert_eq!(digest(&v), hex::encode(Sha256::digest(oracle.as_bytes())));
    }

    #[test]
    fn canonical_form_is_a_fixed_point(v in arbitrary_json()) {
        let once = canonical_json(&v);
        let again: Value = serde_json::from_str(&once).expect("canonical output is JSON");
        proptest::prop_assert_eq!(canonical_json(&again), once);
    }
}
