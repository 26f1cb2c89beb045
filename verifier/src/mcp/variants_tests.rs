//! One test per row of the variant table, and the judgement.

use serde_json::json;

use super::*;

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn schema() -> Value {
    json!({"type": "object", "required": ["tenant_id", "title"], "additionalProperties": false,
        "$defs": {"Priority": {"enum": ["low", "high"]}},
        "properties": {"tenant_id": {"type": "string"}, "title": {"type": "string", "maxLength": 5},
            "priority": {"$ref": "#/$defs/Priority"}, "count": {"type": "integer"},
            "tags": {"type": "array", "maxItems": 2, "items": {"type": "string"}}}})
}

fn recorded() -> Map<String, Value> {
    args(json!({"tenant_id": "t", "title": "ok", "priority": "low", "count": 1, "tags": ["a"]}))
}

fn kinds(vs: &[Variant]) -> Vec<(&str, &str)> {
    vs.iter().map(|v| (v.kind, v.path.as_str())).collect()
}

#[test]
fn each_kind_is_derived_once_on_the_first_property_it_applies_to() {
    let vs = variants(&schema(), &recorded());
    assert_eq!(
        kinds(&vs),
        [
            ("required field missing", "arguments.tenant_id"),
            ("wrong type", "arguments.tenant_id"),
            ("enum value outside the set", "arguments.priority"),
            (
                "additional property",
                "arguments.accord_unexpected_argument"
            ),
            ("oversize string", "arguments.title"),
            ("oversize array", "arguments.tags"),
        ]
    );
    assert!(!vs[0].arguments.contains_key("tenant_id"));
    assert_eq!(vs[1].arguments["tenant_id"], json!(12345));
    assert_eq!(vs[4].arguments["title"], json!("xxxxxx"));
    assert_eq!(vs[5].arguments["tags"], json!(["a", "a", "a"]));
    // every variant keeps the other recorded arguments
    assert_eq!(vs[2].arguments["title"], json!("ok"));
    assert!(
        vs.iter()
            .filter(|v| v.lenient)
            .all(|v| v.kind == "additional property")
    );
}

#[test]
fn an_optional_enumerated_argument_never_sent_is_still_varied() {
    let mut without = recorded();
    without.remove("priority");
    let vs = variants(&schema(), &without);
    let outside: Vec<_> = vs
        .iter()
        .filter(|v| v.kind == "enum value outside the set")
        .collect();
    assert_eq!(outside.len(), 1, "{:?}", kinds(&vs));
    assert_eq!(outside[0].path, "arguments.priority");
    assert_eq!(
        outside[0].arguments["priority"],
        json!("accord-not-in-enum")
    );
    assert_eq!(outside[0].arguments["title"], json!("ok"));
}

#[test]
fn a_schema_that_forbids_nothing_derives_nothing() {
    let open = json!({"type": "object", "properties": {"q": {}}});
    assert!(variants(&open, &args(json!({"q": 1}))).is_empty());
    // pydantic's schemas: no additionalProperties, so no such variant
    let pydantic = json!({"type": "object", "required": ["goal"],
        "properties": {"goal": {"type": "string", "title": "Goal"}}});
    assert_eq!(
        kinds(&variants(&pydantic, &args(json!({"goal": "g"})))),
        [
            ("required field missing", "arguments.goal"),
            ("wrong type", "arguments.goal")
        ]
    );
}

#[test]
fn a_served_variant_is_accepted_invalid_input_a_refusal_of_any_kind_is_right() {
    let vs = variants(&schema(), &recorded());
    let code = |v: &Variant, a: &Answer| match judge_variant("draft", v, a) {
        Verdict::Refused => "refused",
        Verdict::Finding(f) => f.reason_code,
        Verdict::Warning(_) => "warning",
    };
    let served = Answer::Served(json!({}));
    assert_eq!(code(&vs[0], &served), "INVALID_INPUT_ACCEPTED");
    assert_eq!(code(&vs[3], &served), "warning");
    for refusal in [
        Answer::ToolError("validation error".into()),
        Answer::Protocol(-32602, "Invalid params".into()),
        Answer::Http(400),
    ] {
        assert_eq!(code(&vs[0], &refusal), "refused");
    }
    assert_eq!(code(&vs[0], &Answer::Broken("HTTP 500".into())), "warning");
}
