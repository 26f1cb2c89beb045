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
    let mcp = json!({"type": "MCP/ToolCall", "description": "m", "tool": "x",
        "result": {"structuredContent": {"ok": true}}});
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

fn pinned(interactions: serde_json::Value) -> crate::model::Contract {
    contract(json!({"consumer": {"name": "c"}, "provider": {"name": "p"},
        "interactions": interactions,
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "a2a": "1.0", "mcp": "2026-07-28"}}}))
}

#[test]
fn a_tool_call_needs_exactly_one_of_result_and_error() {
    let none = json!({"type": "MCP/ToolCall", "description": "a", "tool": "x", "result": null});
    let both = json!({"type": "MCP/ToolCall", "description": "b", "tool": "x",
        "result": {"isError": true}, "error": {"code": -32602}});
    let c = pinned(json!([none, both]));
    assert_eq!(
        codes(&c),
        vec![
            ("MCP_NO_EXPECTATION", "$.interactions[0].result".to_string()),
            (
                "MCP_RESULT_AND_ERROR",
                "$.interactions[1].result".to_string()
            ),
        ]
    );
    assert_eq!(super::blocking(&c).len(), 2, "a verifier cannot run either");
}

#[test]
fn an_embedded_schema_that_is_not_a_schema_is_named_by_its_path() {
    let a2a = json!({"type": "A2A/Task", "description": "t",
        "request": {"message": {"parts": [{"text": "hi"}]}},
        "steps": [{"artifact": {"parts": [{"data": {"a": 1}, "schema": {"type": 42}}]}}]});
    let c = pinned(json!([a2a]));
    assert_eq!(
        codes(&c),
        vec![(
            "INVALID_SCHEMA",
            "$.interactions[0].steps[0].artifact.parts[0].schema".to_string()
        )]
    );
}

#[test]
fn problems_a_verifier_can_run_past_do_not_block() {
    let a = json!({"type": "Synchronous/HTTP", "description": "",
        "request": {"method": "GET", "path": "/"}, "response": {"status": 200}});
    let c = pinned(json!([a]));
    assert_eq!(codes(&c).len(), 1, "EMPTY_DESCRIPTION is an error of lint");
    assert!(
        super::blocking(&c).is_empty(),
        "but Pact's verifier runs it"
    );
}

#[test]
fn a_response_generator_the_verifier_never_applies_does_not_block() {
    let h = json!({"type": "Synchronous/HTTP", "description": "g",
        "request": {"method": "GET", "path": "/", "generators": {"body": {"$.id": {"type": "Regex", "regex": "("}}}},
        "response": {"status": 200, "generators": {"body": {"$.id": {"type": "Regex", "regex": "("}}}}});
    let c = pinned(json!([h]));
    let all: Vec<String> = lint(&c).into_iter().map(|p| p.path).collect();
    assert_eq!(all.len(), 2, "lint names both: {all:?}");
    let blocking: Vec<String> = super::blocking(&c).into_iter().map(|p| p.path).collect();
    assert_eq!(blocking.len(), 1, "{blocking:?}");
    assert!(blocking[0].contains(".request.generators"), "{blocking:?}");
}

#[test]
fn a2a_combinations_that_cannot_be_judged_are_warned_about() {
    let blocking_progress = json!({"type": "A2A/Task", "description": "p",
        "request": {"message": {"parts": [{"text": "hi"}]}},
        "temporal": {"firstProgressWithinMs": 500}, "terminalState": "TASK_STATE_COMPLETED"});
    let refused_probes = json!({"type": "A2A/Task", "description": "r",
        "request": {"message": {"parts": [{"text": "hi"}]}}, "negative": true,
        "auth": {"principal": "alice", "probes": [{"principal": "bob"}]}, "error": {"httpStatus": 403}});
    let c = pinned(json!([blocking_progress, refused_probes]));
    let problems = lint(&c);
    let found: Vec<(&str, &str, Severity)> = problems
        .iter()
        .map(|p| (p.code, p.path.as_str(), p.severity))
        .collect();
    assert!(
        found.contains(&(
            "PROGRESS_UNOBSERVABLE",
            "$.interactions[0].temporal.firstProgressWithinMs",
            Severity::Warning
        )),
        "{found:?}"
    );
    assert!(
        found.contains(&(
            "PROBES_WITHOUT_TASK",
            "$.interactions[1].auth.probes",
            Severity::Warning
        )),
        "{found:?}"
    );
    assert!(super::blocking(&c).is_empty(), "warnings do not block");
}

#[test]
fn a_log_message_at_a_level_mcp_does_not_have_is_refused() {
    let call = |level: &str| {
        json!({"type": "MCP/ToolCall", "description": "l", "tool": "t",
            "logs": [{"level": "info", "data": "ok"}, {"level": level, "data": "x"}],
            "result": {"content": [{"type": "text", "text": "done"}]}})
    };
    let c = pinned(json!([call("loud")]));
    let found: Vec<(&str, String)> = super::blocking(&c)
        .iter()
        .map(|p| (p.code, p.path.clone()))
        .collect();
    assert_eq!(
        found,
        [(
            "MCP_LOG_LEVEL",
            "$.interactions[0].logs[1].level".to_owned()
        )]
    );
    let c = pinned(json!([call("warning")]));
    assert!(super::blocking(&c).is_empty(), "{:?}", lint(&c));
}
