use super::*;
use crate::generators::{Generator, GeneratorMode};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;

fn rng() -> StdRng {
    StdRng::seed_from_u64(1)
}

fn provider_ctx() -> GeneratorContext {
    GeneratorContext {
        provider_state_values: json!({"id": 1000}).as_object().cloned().unwrap_or_default(),
        mode: GeneratorMode::Provider,
        ..GeneratorContext::default()
    }
}

#[test]
fn request_path_query_header_and_body_are_generated() {
    let mut req = HttpRequest {
        method: "GET".into(),
        path: "/path/1".into(),
        body: Body::json(json!({"one": "a", "two": "b"})),
        generators: Generators::from_pact_json(&json!({
            "path": {"type": "ProviderState", "expression": "/path/${id}"},
            "query": {"v1": {"type": "RandomInt", "min": 1, "max": 10}},
            "header": {"X-TEST": {"type": "RandomInt", "min": 1, "max": 10}},
            "body": {"$.one": {"type": "ProviderState", "expression": "${id}"}}
        }))
        .expect("valid"),
        ..HttpRequest::default()
    };
    apply_to_request(&mut req, &provider_ctx(), &mut rng());
    assert_eq!(req.path, "/path/1000");
    let q = req
        .query
        .as_ref()
        .and_then(|q| q.get("v1"))
        .and_then(|v| v.first());
    assert!(q.is_some_and(|v| v.parse::<u8>().is_ok_and(|n| (1..=10).contains(&n))));
    assert!(
        req.headers
            .as_ref()
            .is_some_and(|h| h.contains_key("X-TEST"))
    );
    assert_eq!(req.body.as_json(), Some(&json!({"one": 1000, "two": "b"})));
}

#[test]
fn header_generators_replace_existing_headers_whatever_their_case() {
    let mut resp = HttpResponse {
        status: 200,
        headers: Some(
            [("x-test".to_string(), vec!["old".to_string()])]
                .into_iter()
                .collect(),
        ),
        generators: Generators::default()
            .with(
                Category::Header,
                "X-Test",
                Generator::Regex {
                    regex: "new".into(),
                },
            )
            .with(
                Category::Status,
                "",
                Generator::RandomInt { min: 201, max: 599 },
            ),
        ..HttpResponse::default()
    };
    apply_to_response(&mut resp, &GeneratorContext::default(), &mut rng());
    assert_eq!(resp.headers.as_ref().map(|h| h.len()), Some(1));
    assert_eq!(
        resp.headers.as_ref().and_then(|h| h.get("x-test")),
        Some(&vec!["new".to_string()])
    );
    assert!((201..=599).contains(&resp.status));
}

#[test]
fn message_contents_and_metadata_are_generated() {
    let mut msg = Message {
        contents: Body::json(json!({"items": [{"id": "a"}, {"id": "b"}]})),
        generators: Generators::default()
            .with(
                Category::Body,
                "$.items[*].id",
                Generator::Regex { regex: "x".into() },
            )
            .with(
                Category::Metadata,
                "key",
                Generator::Regex {
                    regex: "k[0-9]".into(),
                },
            ),
        ..Message::default()
    };
    apply_to_message(&mut msg, &GeneratorContext::default(), &mut rng());
    assert_eq!(
        msg.contents.as_json(),
        Some(&json!({"items": [{"id": "x"}, {"id": "x"}]}))
    );
    let key = msg
        .metadata
        .get("key")
        .and_then(Value::as_str)
        .unwrap_or_default();
    assert!(key.len() == 2 && key.starts_with('k'));
}

#[test]
fn compatibility_suite_generator_fixtures_apply_to_basic_json() {
    let Some(dir) = crate::generators::tests_support::fixtures_dir() else {
        return;
    };
    let basic: Value = read(&dir.join("basic.json"));
    for name in [
        "randomint",
        "randomdec",
        "randomhex",
        "randomstr",
        "randomregex",
        "date",
        "time",
        "datetime",
        "uuid",
        "boolean",
    ] {
        let file = dir.join(format!("{name}-generator.json"));
        let generators = Generators::from_pact_json(&read(&file)).expect("fixture parses");
        let mut body = basic.clone();
        apply_to_json(
            &mut body,
            &generators,
            &GeneratorContext::default(),
            &mut rng(),
        );
        assert_ne!(body["one"], basic["one"], "{name} changed nothing");
        assert_eq!(body["two"], basic["two"]);
    }
}

fn read(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).expect("fixture readable");
    serde_json::from_str(&text).expect("fixture is JSON")
}

#[test]
fn a_header_or_query_parameter_is_added_only_when_a_value_is_generated() {
    // pact-reference `generate_request`: a missing name is inserted only on
    // a successful generation; a failed one (no provider-state value)
    // leaves the request as it was.
    let mut req = HttpRequest {
        generators: Generators::from_pact_json(&json!({
            "query": {"q": {"type": "ProviderState", "expression": "${absent}"}},
            "header": {
                "X-Missing": {"type": "ProviderState", "expression": "${absent}"},
                "X-Id": {"type": "ProviderState", "expression": "${id}"}
            }
        }))
        .expect("valid"),
        ..HttpRequest::default()
    };
    apply_to_request(&mut req, &provider_ctx(), &mut rng());
    assert_eq!(req.query, None);
    let headers = req.headers.unwrap_or_default();
    assert_eq!(headers.get("X-Id"), Some(&vec!["1000".to_string()]));
    assert!(!headers.contains_key("X-Missing"));
}

#[test]
fn every_value_of_a_multi_valued_query_parameter_is_generated() {
    let mut req = HttpRequest {
        query: Some(
            [("q".to_string(), vec!["a".into(), "b".into()])]
                .into_iter()
                .collect(),
        ),
        generators: Generators::from_pact_json(&json!({
            "query": {"q": {"type": "RandomString", "size": 3}}
        }))
        .expect("valid"),
        ..HttpRequest::default()
    };
    apply_to_request(&mut req, &GeneratorContext::default(), &mut rng());
    let values = req
        .query
        .unwrap_or_default()
        .shift_remove("q")
        .unwrap_or_default();
    assert_eq!(values.len(), 2);
    assert!(values.iter().all(|v| v.len() == 3 && v != "a" && v != "b"));
}

#[test]
fn json_bodies_kept_as_text_are_generated_into() {
    let mut resp = HttpResponse {
        body: Body::text(
            r#"{"id": 1, "name": "x"}"#,
            Some("application/vnd.api+json"),
        ),
        generators: Generators::from_pact_json(&json!({
            "body": {"$.id": {"type": "RandomInt", "min": 5, "max": 5}}
        }))
        .expect("valid"),
        ..HttpResponse::default()
    };
    apply_to_response(&mut resp, &GeneratorContext::default(), &mut rng());
    let Body::Present {
        content: BodyContent::Text(text),
        ..
    } = &resp.body
    else {
        panic!("the body stays text: {:?}", resp.body);
    };
    let v: Value = serde_json::from_str(text).expect("still JSON");
    assert_eq!(v, json!({"id": 5, "name": "x"}));
}

#[test]
fn array_contains_variant_generators_apply_to_their_item() {
    // pact-specification V4: arrayContains variants carry `generators`,
    // relative to the variant; pact-reference applies them through
    // `Generator::ArrayContains`.
    let mut resp = HttpResponse {
        body: Body::json(json!({"actions": [{"id": 1}, {"id": 2}]})),
        matching_rules: crate::matching::MatchingRules::from_pact_json(
            &json!({"body": {"$.actions": {"matchers": [{"match": "arrayContains", "variants": [
                {"index": 1, "rules": {}, "generators": {"$.id": {"type": "RandomInt", "min": 7, "max": 7}}}
            ]}]}}}),
            crate::model::PactSpec::V4,
        )
        .expect("valid"),
        ..HttpResponse::default()
    };
    apply_to_response(&mut resp, &GeneratorContext::default(), &mut rng());
    assert_eq!(
        resp.body.as_json(),
        Some(&json!({"actions": [{"id": 1}, {"id": 7}]}))
    );
}
