use super::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;

fn rng() -> StdRng {
    StdRng::seed_from_u64(7)
}

fn gen_json(g: Value, current: Value, ctx: &GeneratorContext) -> Option<Value> {
    let g = Generator::from_json(&g, "t", "$").expect("valid generator");
    g.generate(&current, ctx, &mut rng())
}

fn matches(re: &str, v: &Value) -> bool {
    let s = v
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| v.to_string());
    regex::Regex::new(re).expect("test regex").is_match(&s)
}

#[test]
fn random_int_stays_within_bounds_and_keeps_the_example_type() {
    let ctx = GeneratorContext::default();
    let g = Generator::RandomInt { min: 3, max: 5 };
    let mut r = rng();
    for _ in 0..50 {
        let n = g.generate(&json!(1), &ctx, &mut r).and_then(|v| v.as_i64());
        assert!(matches!(n, Some(3..=5)));
    }
    let s = g.generate(&json!("1"), &ctx, &mut r).expect("value");
    assert!(matches(r"^[345]$", &s) && s.is_string());
}

#[test]
fn each_random_generator_produces_a_value_of_its_shape() {
    let ctx = GeneratorContext::default();
    let table = [
        (json!({"type": "RandomDecimal", "digits": 6}), r"^\d+\.\d+$"),
        (
            json!({"type": "RandomHexadecimal", "digits": 8}),
            r"^[0-9a-f]{8}$",
        ),
        (
            json!({"type": "RandomString", "size": 12}),
            r"^[A-Za-z0-9]{12}$",
        ),
        (json!({"type": "Regex", "regex": "\\d{1,8}"}), r"^\d{1,8}$"),
        (
            json!({"type": "Regex", "regex": "^(pending|done)-[A-Z]{2}$"}),
            r"^(pending|done)-[A-Z]{2}$",
        ),
        (
            json!({"type": "Uuid"}),
            r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
        ),
        (
            json!({"type": "Uuid", "format": "simple"}),
            r"^[0-9a-f]{32}$",
        ),
        (
            json!({"type": "Uuid", "format": "upper-case-hyphenated"}),
            r"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$",
        ),
        (
            json!({"type": "Uuid", "format": "URN"}),
            r"^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-",
        ),
        (json!({"type": "RandomBoolean"}), r"^(true|false)$"),
        (json!({"type": "Date"}), r"^\d{4}-\d{2}-\d{2}$"),
        (json!({"type": "Time"}), r"^\d{2}:\d{2}:\d{2}$"),
        (
            json!({"type": "DateTime"}),
            r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$",
        ),
    ];
    for (g, re) in table {
        let v = gen_json(g.clone(), json!("example"), &ctx);
        let v = v.unwrap_or_else(|| panic!("{g} generated nothing"));
        assert!(matches(re, &v), "{g} produced {v}, expected /{re}/");
    }
}

#[test]
fn random_decimal_is_a_number_when_the_example_is_a_number() {
    let v = gen_json(
        json!({"type": "RandomDecimal", "digits": 5}),
        json!(1.5),
        &GeneratorContext::default(),
    );
    assert!(v.is_some_and(|v| v.is_f64()));
}

fn provider_ctx(values: Value) -> GeneratorContext {
    GeneratorContext {
        provider_state_values: values.as_object().cloned().unwrap_or_default(),
        mode: GeneratorMode::Provider,
        ..GeneratorContext::default()
    }
}

#[test]
fn provider_state_whole_expression_keeps_the_json_type() {
    let ctx = provider_ctx(json!({"id": 1000, "plan_id": "plan-1"}));
    let g = json!({"type": "ProviderState", "expression": "${id}"});
    assert_eq!(gen_json(g, json!(1), &ctx), Some(json!(1000)));
    let g = json!({"type": "ProviderState", "expression": "/plans/${plan_id}/steps/${id}"});
    assert_eq!(
        gen_json(g, json!(""), &ctx),
        Some(json!("/plans/plan-1/steps/1000"))
    );
}

#[test]
fn provider_state_data_type_converts_the_value() {
    let ctx = provider_ctx(json!({"id": "42", "n": 7}));
    let g = json!({"type": "ProviderState", "expression": "${id}", "dataType": "INTEGER"});
    assert_eq!(gen_json(g, json!(0), &ctx), Some(json!(42)));
    let g = json!({"type": "ProviderState", "expression": "${n}", "dataType": "STRING"});
    assert_eq!(gen_json(g, json!(0), &ctx), Some(json!("7")));
}

#[test]
fn provider_state_keeps_the_example_when_a_value_is_missing_or_in_consumer_mode() {
    let g = json!({"type": "ProviderState", "expression": "${absent}"});
    assert_eq!(gen_json(g, json!(1), &provider_ctx(json!({"id": 1}))), None);
    let g = json!({"type": "ProviderState", "expression": "${id}"});
    let consumer = GeneratorContext {
        mode: GeneratorMode::Consumer,
        ..provider_ctx(json!({"id": 1}))
    };
    assert_eq!(gen_json(g, json!(1), &consumer), None);
}

#[test]
fn mock_server_url_replaces_the_base_of_the_example() {
    let ctx = GeneratorContext {
        mock_server_url: Some("http://somewhere.world".into()),
        ..GeneratorContext::default()
    };
    let g = json!({"type": "MockServerURL", "regex": ".*(/a)", "example": "http://1234:8080/a"});
    assert_eq!(
        gen_json(g.clone(), json!(""), &ctx),
        Some(json!("http://somewhere.world/a"))
    );
    let provider = GeneratorContext {
        mode: GeneratorMode::Provider,
        ..ctx
    };
    assert_eq!(gen_json(g, json!(""), &provider), None);
}

#[test]
fn an_unsupported_regex_keeps_the_example() {
    let v = gen_json(
        json!({"type": "Regex", "regex": "(unclosed"}),
        json!("x"),
        &GeneratorContext::default(),
    );
    assert_eq!(v, None);
}

#[test]
fn provider_state_expressions_follow_pact_reference() {
    // pact_models expression_parser `replace_expressions` and
    // `DataValue::as_json`.
    let ctx = provider_ctx(json!({"a": "x", "b": 2, "f": 2.7, "t": true, "n": null}));
    let rows = [
        // Mixed text: values spliced in as text.
        (json!({"expression": "${a}/${b}"}), Some(json!("x/2"))),
        (
            json!({"expression": "id-${b}-${a}!"}),
            Some(json!("id-2-x!")),
        ),
        // `${}` stands for nothing.
        (json!({"expression": "a${}b"}), Some(json!("ab"))),
        // A missing value or an unclosed brace: no value.
        (json!({"expression": "${a}/${zz}"}), None),
        (json!({"expression": "${a"}), None),
        // Casts.
        (
            json!({"expression": "${f}", "dataType": "INTEGER"}),
            Some(json!(2)),
        ),
        (
            json!({"expression": "${t}", "dataType": "INTEGER"}),
            Some(json!(1)),
        ),
        (
            json!({"expression": "${n}", "dataType": "INTEGER"}),
            Some(json!(0)),
        ),
        (
            json!({"expression": "${b}", "dataType": "DECIMAL"}),
            Some(json!(2.0)),
        ),
        (
            json!({"expression": "${b}", "dataType": "BOOLEAN"}),
            Some(json!(true)),
        ),
        (
            json!({"expression": "${n}", "dataType": "BOOLEAN"}),
            Some(json!(false)),
        ),
        (json!({"expression": "${a}", "dataType": "INTEGER"}), None),
        (
            json!({"expression": "${t}", "dataType": "STRING"}),
            Some(json!("true")),
        ),
    ];
    for (mut g, want) in rows {
        g["type"] = json!("ProviderState");
        assert_eq!(gen_json(g.clone(), json!("example"), &ctx), want, "{g}");
    }
}

#[test]
fn mock_server_url_replaces_the_first_match_and_keeps_the_rest() {
    // pact-reference `replace_with_regex`: the match becomes the mock URL
    // and group 1; text outside the match stays; no match keeps the example.
    let ctx = GeneratorContext {
        mock_server_url: Some("http://mock:1234/".into()),
        ..GeneratorContext::default()
    };
    let rows = [
        (
            ".*(/orders/\\d+)$",
            "http://localhost:8080/orders/5678",
            "http://mock:1234/orders/5678",
        ),
        (
            "http://[^/]+(/a)",
            "see http://x/a?q=1",
            "see http://mock:1234/a?q=1",
        ),
        ("http://[^/]+", "http://x/a", "http://mock:1234/a"),
        ("nomatch(\\d)", "http://x/a", "http://x/a"),
    ];
    for (regex, example, want) in rows {
        let g = json!({"type": "MockServerURL", "regex": regex, "example": example});
        assert_eq!(
            gen_json(g, json!(example), &ctx),
            Some(json!(want)),
            "{regex}"
        );
    }
}

#[test]
fn uuid_formats_and_random_sizes() {
    let ctx = GeneratorContext::default();
    let rows = [
        ("simple", r"^[0-9a-f]{32}$"),
        (
            "lower-case-hyphenated",
            r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
        ),
        (
            "upper-case-hyphenated",
            r"^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$",
        ),
        (
            "URN",
            r"^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
        ),
    ];
    for (format, pattern) in rows {
        let v = gen_json(json!({"type": "Uuid", "format": format}), json!(""), &ctx);
        let text = v
            .as_ref()
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        assert!(
            regex::Regex::new(pattern).expect("valid").is_match(&text),
            "{format}: {text}"
        );
    }
    // RandomString `size` characters; RandomDecimal `digits` digits with a
    // point inside (pact-reference `generate_decimal`).
    let s = gen_json(json!({"type": "RandomString", "size": 17}), json!(""), &ctx);
    assert_eq!(s.as_ref().and_then(Value::as_str).map(str::len), Some(17));
    let decimal = regex::Regex::new(r"^[1-9]\d*\.\d+$").expect("valid");
    for digits in [2, 3, 9] {
        let d = gen_json(
            json!({"type": "RandomDecimal", "digits": digits}),
            json!(""),
            &ctx,
        );
        let text = d
            .as_ref()
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        assert_eq!(
            text.chars().filter(char::is_ascii_digit).count(),
            digits,
            "{text}"
        );
        assert!(decimal.is_match(&text), "{text}");
    }
}
