use super::*;
use crate::pact::from_value;
use serde_json::json;

fn contract(v: serde_json::Value) -> Contract {
    from_value(&v, "t").unwrap_or_else(|e| panic!("readable: {e}"))
}

fn codes(c: &Contract) -> Vec<(&'static str, String)> {
    lint(c).into_iter().map(|p| (p.code, p.path)).collect()
}

fn http(description: &str, state: &str) -> serde_json::Value {
    json!({"type": "Synchronous/HTTP", "description": description,
           "providerStates": [{"name": state}],
           "request": {"method": "GET", "path": "/x"}, "response": {"status": 200}})
}

#[test]
fn a_clean_contract_has_no_problems() {
    let c = contract(json!({"consumer": {"name": "c"}, "provider": {"name": "p"},
        "interactions": [http("a", "s"), http("a", "other state"), http("b", "s")]}));
    assert_eq!(lint(&c), vec![]);
}

#[test]
fn duplicate_descriptions_with_the_same_states_and_empty_descriptions_are_errors() {
    let c = contract(json!({"consumer": {"name": "c"}, "provider": {"name": ""},
        "interactions": [http("a", "s"), http("", "s"), http("a", "s")]}));
    assert_eq!(
        codes(&c),
        vec![
            ("EMPTY_NAME", "$.provider.name".to_string()),
            ("DUPLICATE_INTERACTION", "$.interactions[2]".to_string()),
            (
                "EMPTY_DESCRIPTION",
                "$.interactions[1].description".to_string()
            ),
        ]
    );
    assert!(lint(&c).iter().all(|p| p.severity == Severity::Error));
    assert_eq!(
        lint(&c)[2].to_string(),
        "error EMPTY_DESCRIPTION at $.interactions[1].description: the interaction has no description"
    );
}

#[test]
fn a2a_and_mcp_interactions_need_their_protocol_pins() {
    let a2a = json!({"type": "A2A/Task", "description": "t",
        "request": {"message": {"parts": [{"text": "hi"}]}}});
    let mcp = json!({"type": "MCP/ToolCall", "description": "m", "tool": "x"});
    let c = contract(
        json!({"consumer": {"name": "c"}, "provider": {"name": "p"}, "interactions": [a2a, mcp]}),
    );
    assert_eq!(
        codes(&c),
        vec![
            ("MISSING_PROTOCOL_PIN", "$.metadata.accord.a2a".to_string()),
            ("MISSING_PROTOCOL_PIN", "$.metadata.accord.mcp".to_string()),
        ]
    );
    let mut pinned = c.clone();
    pinned.accord = Some(crate::model::AccordMetadata {
        a2a: Some("1.0".into()),
        mcp: Some("2025-11-25".into()),
        ..Default::default()
    });
    assert_eq!(lint(&pinned), vec![]);
}

#[test]
fn the_summary_counts_interactions_by_type() {
    let c = contract(json!({"consumer": {"name": "c"}, "provider": {"name": "p"},
        "interactions": [http("a", "s"), {"type": "MCP/ToolCall", "description": "m", "tool": "x"}, http("b", "s")]}));
    let s = summarize(&c);
    assert_eq!(s.total, 3);
    assert_eq!(s.by_type.get("Synchronous/HTTP"), Some(&2));
    assert_eq!(s.by_type.get("MCP/ToolCall"), Some(&1));
    assert_eq!(
        s.by_type.keys().copied().collect::<Vec<_>>(),
        vec!["Synchronous/HTTP", "MCP/ToolCall"]
    );
}

#[test]
fn unusable_generators_and_stateless_provider_state_generators_are_reported() {
    let mut bad = http("g", "s");
    bad["providerStates"] = json!([]);
    bad["request"]["generators"] = json!({
        "path": {"type": "ProviderState", "expression": "/x/${id}"},
        "body": {"$.a": {"type": "Regex", "regex": "("}, "$..b": {"type": "RandomBoolean"}}
    });
    let c = contract(
        json!({"consumer": {"name": "c"}, "provider": {"name": "p"}, "interactions": [bad]}),
    );
    assert_eq!(
        codes(&c),
        vec![
            (
                "PROVIDER_STATE_GENERATOR_WITHOUT_STATE",
                "$.interactions[0].request.generators.path".to_string()
            ),
            (
                "GENERATOR_UNUSABLE",
                "$.interactions[0].request.generators.body['$.a']".to_string()
            ),
            (
                "INVALID_GENERATOR_PATH",
                "$.interactions[0].request.generators.body['$..b']".to_string()
            ),
        ]
    );
}
