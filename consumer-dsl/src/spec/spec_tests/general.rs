//! HTTP interactions, provider states, principals, repeats, versions, and
//! the errors for malformed input.

use super::*;

#[test]
fn an_http_interaction_compiles_request_response_and_rules() {
    let c = compile(
        "  - http: get plan\n    request: { method: get, path: /plans/42, query: { q: [a, b] }, headers: { X-Id: { $uuid: ~ } } }\n    response: { status: 200, body: { steps: { $eachLike: search, min: 1 } } }\n",
    );
    let Some(Interaction::Http(h)) = c.interactions.first() else {
        panic!("not HTTP")
    };
    assert_eq!(h.request.method, "GET");
    assert_eq!(
        h.request.query.as_ref().map(|q| q["q"].clone()),
        Some(vec!["a".to_string(), "b".to_string()])
    );
    assert_eq!(
        h.request.matching_rules.to_v4_json()["header"]["X-Id"]["matchers"][0]["match"],
        "regex"
    );
    assert_eq!(
        h.request.generators.to_v4_json()["header"]["X-Id"]["type"],
        "Uuid"
    );
    assert_eq!(
        h.response.body.as_json(),
        Some(&json!({"steps": ["search"]}))
    );
    assert_eq!(
        h.response.matching_rules.to_v4_json()["body"]["$.steps"]["matchers"][0],
        json!({"match": "type", "min": 1})
    );
}

#[test]
fn provider_states_keep_their_params() {
    let c = compile(
        "  - mcp: x\n    given: [reset, { has records: { tenant: tenant-a, count: 7 } }]\n    tool: t\n    expect: {}\n",
    );
    let states = &c.interactions[0].meta().provider_states;
    assert_eq!(states[0].name, "reset");
    assert_eq!(states[1].params["count"], 7);
}

#[test]
fn repeat_judges_side_effects_over_all_sends() {
    let c = compile(
        "  - mcp: create\n    tool: t\n    expect: {}\n    repeat: 2\n    side_effects: { records: +1, outbound: '>=0', approvals: { min: 1, max: 2 } }\n",
    );
    let e = &c.interactions[0].meta().expectations;
    assert_eq!(
        e.repeat.as_ref().map(|r| (r.times, r.side_effects)),
        Some((2, RepeatJudgement::Total))
    );
    let se = e.side_effects.as_ref().expect("side effects");
    assert_eq!(se["records"], CounterChange::Exact(1));
    assert_eq!(
        se["outbound"],
        CounterChange::Range {
            min: Some(0),
            max: None
        }
    );
    assert_eq!(
        se["approvals"],
        CounterChange::Range {
            min: Some(1),
            max: Some(2)
        }
    );
}

#[test]
fn principals_credentials_and_probes_resolve_tenants() {
    let c = compile(
        "  - a2a: mine\n    as: alice\n    send: { text: hi }\n    probe_as: [bob]\n  - a2a: anon\n    credential: none\n    negative: true\n    send: { text: hi }\n    error: { http_status: 401 }\n  - a2a: old\n    as: alice\n    credential: expired\n    send: { text: hi }\n    error: { http_status: 401, retryable: false }\n",
    );
    let auth = |i: usize| {
        c.interactions[i]
            .meta()
            .expectations
            .auth
            .clone()
            .expect("auth")
    };
    assert_eq!(
        (auth(0).principal.as_deref(), auth(0).tenant.as_deref()),
        (Some("alice"), Some("tenant-a"))
    );
    assert_eq!(auth(0).probes[0].tenant.as_deref(), Some("tenant-b"));
    assert_eq!(auth(1).credential, Credential::None);
    assert!(c.interactions[1].meta().expectations.negative.is_set());
    assert_eq!(auth(2).credential, Credential::Expired);
}

#[test]
fn an_undeclared_principal_is_refused_with_the_declared_ones() {
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    as: carol\n    send: {{ text: hi }}\n"
    ));
    let msg = e.to_string();
    assert!(
        msg.contains("interactions[0].as") && msg.contains("alice, bob"),
        "{msg}"
    );
}

#[test]
fn temporal_limits_and_http_retryability_are_kept() {
    let c = compile(
        "  - http: busy\n    request: { method: GET, path: /x }\n    response: { status: { $statusCode: [503, 429] } }\n    retryable: true\n    within: { acknowledge_ms: 100, first_progress_ms: 200 }\n",
    );
    let m = c.interactions[0].meta();
    assert_eq!(m.expectations.retryable, Some(true));
    assert_eq!(
        m.expectations
            .temporal
            .as_ref()
            .and_then(|t| t.first_progress_within_ms),
        Some(200)
    );
    let Some(Interaction::Http(h)) = c.interactions.first() else {
        panic!("HTTP")
    };
    assert_eq!(h.response.status, 503);
    assert_eq!(
        h.response.matching_rules.to_v4_json()["status"]["matchers"][0]["status"],
        json!([503, 429])
    );
}

#[test]
fn unknown_keys_name_file_line_column_field_and_allowed_keys() {
    let e = refuse("consumer: a\nprovider: b\ninteractions:\n  - a2a: x\n    send: { txt: hi }\n");
    let msg = e.to_string();
    assert!(msg.starts_with("bad.yaml: "), "{msg}");
    assert!(msg.contains("interactions[0]"), "{msg}");
    assert!(
        msg.contains("unknown field `txt`") && msg.contains("`text`"),
        "{msg}"
    );
    assert_eq!(e.location().map(|l| l.0), Some(5), "{msg}");
}

#[test]
fn an_unknown_interaction_key_lists_its_kinds_keys_and_the_closest() {
    let e = refuse(
        "consumer: a\nprovider: b\ninteractions:\n  - a2a: x\n    skill: s\n    side_efects: {}\n",
    );
    let msg = e.to_string();
    assert!(
        msg.contains("unknown field `side_efects` (did you mean `side_effects`?)"),
        "{msg}"
    );
    assert!(
        msg.contains("an a2a interaction's keys are skill, send, returns"),
        "{msg}"
    );
    for other_kind in ["request", "tool,", "contents", "sync_message"] {
        assert!(!msg.contains(other_kind), "{other_kind} listed: {msg}");
    }
    assert_eq!(e.location().map(|l| l.0), Some(6), "{msg}");
}

#[test]
fn an_unknown_key_before_the_kind_lists_the_kinds() {
    let e = refuse("consumer: a\nprovider: b\ninteractions:\n  - pendng: true\n    mcp: x\n");
    let msg = e.to_string();
    assert!(msg.contains("(did you mean `pending`?)"), "{msg}");
    assert!(
        msg.contains("an interaction starts with one of http, a2a, mcp, message, sync_message"),
        "{msg}"
    );
    let far = refuse(
        "consumer: a\nprovider: b\ninteractions:\n  - mcp: x\n    tool: t\n    timeout: 3\n",
    );
    let msg = far.to_string();
    assert!(!msg.contains("did you mean"), "{msg}");
    assert!(
        msg.contains("an mcp interaction's keys are tool, arguments"),
        "{msg}"
    );
}

#[test]
fn a_key_of_another_interaction_kind_is_refused() {
    let e = refuse("consumer: a\nprovider: b\ninteractions:\n  - a2a: x\n    tool: t\n");
    let msg = e.to_string();
    assert!(
        msg.contains("`tool` does not belong to an a2a interaction"),
        "{msg}"
    );
    assert!(e.location().is_some(), "{msg}");
}

#[test]
fn json_input_of_the_same_shape_compiles_to_the_same_contract() {
    let yaml = "consumer: a\nprovider: b\ninteractions:\n  - mcp: x\n    tool: t\n    arguments: { id: { $like: 1 } }\n    expect: { is_error: false }\n";
    let json = r#"{"consumer": "a", "provider": "b", "interactions": [
        {"mcp": "x", "tool": "t", "arguments": {"id": {"$like": 1}}, "expect": {"is_error": false}}]}"#;
    let a = compile_spec(yaml, "a.yaml", &NoSchemaFiles).expect("yaml");
    let b = compile_spec(json, "a.json", &NoSchemaFiles).expect("json");
    assert_eq!(a, b);
}

#[test]
fn unsupported_protocol_versions_are_refused() {
    let e = refuse("consumer: a\nprovider: b\nprotocols: { mcp: '2024-11-05' }\n");
    assert!(e.to_string().contains("protocols.mcp"), "{e}");
}

#[test]
fn two_interactions_with_the_same_description_and_states_are_refused() {
    let e = refuse(&format!(
        "{HEAD}  - mcp: x\n    tool: t\n    expect: {{}}\n  - mcp: x\n    tool: u\n    expect: {{}}\n"
    ));
    assert!(
        e.to_string().contains("interactions[1]") && e.to_string().contains("interactions[0]"),
        "{e}"
    );
}

/// The spec sketch of DESIGN.md, verbatim but for the schema file.
const DESIGN_SKETCH: &str = r#"
consumer: orchestrator
provider: work-planning-agent
protocols: { a2a: "1.0", mcp: "2026-07-28" }
principals:
  alice: { tenant: tenant-a }
  bob:   { tenant: tenant-b }
agent_card:                       # what this consumer relies on
  skills: [work-planning]
  capabilities: { streaming: true }
  output_modes: [application/json]
interactions:
  - a2a: create a draft plan
    as: alice
    given: [reset, { tenant has records: { tenant: tenant-a, count: 7 } }]
    send:
      skill: work-planning
      stream: true
      data: { tenant_id: tenant-a, request_id: r-1, items: [{ title: rotate keys }] }
    expect:
      - state: TASK_STATE_WORKING
      - artifact:
          media_type: application/json
          schema: { type: object }
          data: { plan_id: { $like: plan-1 }, status: draft }
      - state: TASK_STATE_COMPLETED
    side_effects: { records: +1, outbound_writes: 0 }
    within: { acknowledge_ms: 1000, first_progress_ms: 5000 }
  - a2a: nobody else sees my task
    as: alice
    send: { skill: work-planning, data: { tenant_id: tenant-a, request_id: r-2, items: [{ title: x }] } }
    probe_as: bob                 # Get/Cancel/Subscribe/List as bob must look like an unknown id
  - mcp: look up a plan
    as: alice
    tool: work_plan_lookup
    arguments: { tenant_id: tenant-a, plan_id: plan-1 }
    expect: { is_error: false, structured: { plan_id: plan-1, status: { $enum: [draft, ready] } } }
    side_effects: { records: 0 }  # the tool claims readOnlyHint
  - http: the plan of task 42
    given: [{ task 42 exists: { id: 42 } }]
    request: { method: GET, path: /plans/42 }
    response: { status: 200, body: { taskId: 42, steps: { $eachLike: search, min: 1 } } }
"#;

#[test]
fn the_design_sketch_compiles() {
    let c =
        compile_spec(DESIGN_SKETCH, "DESIGN.md", &NoSchemaFiles).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.interactions.len(), 4);
    let Some(Interaction::A2aTask(t)) = c.interactions.get(1) else {
        panic!("an A2A task")
    };
    assert_eq!(t.task.skill.as_deref(), Some("work-planning"));
    let probes = &t.meta.expectations.auth.as_ref().expect("auth").probes;
    assert_eq!(probes[0].principal, "bob");
}

#[test]
fn compiled_http_rules_judge_actual_requests_and_responses() {
    use crate::matching::{match_request, match_response};
    let c = compile(
        "  - http: x\n    request: { method: GET, path: { $regex: '^/plans/\\d+$', example: /plans/42 }, headers: { X-Id: { $uuid: ~ } } }\n    response: { status: { $statusCode: [503, 429] }, body: { steps: { $eachLike: s, min: 1 } } }\n",
    );
    let Some(Interaction::Http(h)) = c.interactions.first() else {
        panic!("HTTP")
    };
    let mut req = h.request.clone();
    req.path = "/plans/7".into();
    assert!(
        match_request(&h.request, &req).is_empty(),
        "{:?}",
        match_request(&h.request, &req)
    );
    req.path = "/tasks/7".into();
    assert!(!match_request(&h.request, &req).is_empty());
    let mut req = h.request.clone();
    req.headers = Some(
        [("X-Id".to_string(), vec!["nope".to_string()])]
            .into_iter()
            .collect(),
    );
    assert!(!match_request(&h.request, &req).is_empty());
    let mut resp = h.response.clone();
    resp.status = 429;
    resp.body = crate::model::Body::json(json!({"steps": ["a", "b"]}));
    assert!(
        match_response(&h.response, &resp).is_empty(),
        "{:?}",
        match_response(&h.response, &resp)
    );
    resp.status = 200;
    assert!(!match_response(&h.response, &resp).is_empty());
}

#[test]
fn structured_content_is_an_object_before_mcp_2026() {
    let spec = |v: &str| {
        format!(
            "consumer: a\nprovider: b\nprotocols: {{ mcp: '{v}' }}\ninteractions:\n  - mcp: x\n    tool: t\n    expect: {{ structured: [1, 2] }}\n"
        )
    };
    let e = refuse(&spec("2025-11-25"));
    assert!(
        e.to_string().contains("interactions[0].expect.structured"),
        "{e}"
    );
    assert!(compile_spec(&spec("2026-07-28"), "t.yaml", &NoSchemaFiles).is_ok());
}

#[test]
fn errors_found_after_parsing_carry_the_position_of_their_field() {
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    as: carol\n    send: {{ text: hi }}\n"
    ));
    assert!(matches!(e, DslError::SpecField { .. }), "{e}");
    assert_eq!(e.location(), Some((8, 9)), "{e}");
    assert!(e.to_string().ends_with("at line 8 column 9"), "{e}");
}
