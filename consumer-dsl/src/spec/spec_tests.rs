//! Each capability of the spec language, said without code, and the errors
//! for bad input.

use serde_json::json;

use super::{NoSchemaFiles, compile_spec};
use crate::model::accord::{
    A2aErrorReason, A2aOperation, A2aTaskInteraction, CounterChange, Credential,
    McpToolCallInteraction, RepeatJudgement, TaskState, TaskStep,
};
use crate::{Contract, DslError, Interaction};

const HEAD: &str = "consumer: orchestrator\nprovider: planning-agent\nprincipals:\n  alice: { tenant: tenant-a }\n  bob: { tenant: tenant-b }\ninteractions:\n";

fn compile(interactions: &str) -> Contract {
    let text = format!("{HEAD}{interactions}");
    compile_spec(&text, "test.yaml", &NoSchemaFiles).unwrap_or_else(|e| panic!("{e}"))
}

fn refuse(text: &str) -> DslError {
    compile_spec(text, "bad.yaml", &NoSchemaFiles).expect_err("must be refused")
}

fn a2a(c: &Contract) -> &A2aTaskInteraction {
    match c.interactions.first() {
        Some(Interaction::A2aTask(t)) => t,
        other => panic!("not an A2A task: {other:?}"),
    }
}

fn mcp(c: &Contract) -> &McpToolCallInteraction {
    match c.interactions.first() {
        Some(Interaction::McpToolCall(t)) => t,
        other => panic!("not an MCP call: {other:?}"),
    }
}

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
fn a2a_steps_compile_to_states_artifacts_and_a_terminal_state() {
    let c = compile(
        "  - a2a: plan\n    send: { stream: true, data: { a: 1 } }\n    expect:\n      - state: WORKING\n      - artifact: { media_type: application/json, schema: { type: object }, data: { id: { $like: p-1 } } }\n      - state: TASK_STATE_COMPLETED\n",
    );
    let t = &a2a(&c).task;
    assert!(t.streaming);
    assert_eq!(t.terminal_state, Some(TaskState::Completed));
    let TaskStep::Artifact(a) = &t.steps[1] else {
        panic!("artifact step")
    };
    assert_eq!(a.parts[0].schema, Some(json!({"type": "object"})));
    assert_eq!(
        a.parts[0].matching_rules.to_v4_json()["body"]["$.data.id"]["matchers"][0]["match"],
        "type"
    );
    assert_eq!(
        t.request.message.parts[0].content,
        crate::model::accord::PartContent::Data(json!({"a": 1}))
    );
}

#[test]
fn a_state_after_a_terminal_state_is_refused() {
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    expect: [{{ state: COMPLETED }}, {{ state: WORKING }}]\n"
    ));
    assert!(e.to_string().contains("interactions[0].expect[1]"), "{e}");
    assert!(e.to_string().contains("terminal"), "{e}");
}

#[test]
fn mcp_calls_compile_arguments_results_and_protocol_errors() {
    let c = compile(
        "  - mcp: lookup\n    tool: t\n    arguments: { id: { $fromState: '${plan_id}', example: p-1 } }\n    expect: { structured: { status: { $enum: [draft, ready] } }, content_matches_structured: true }\n  - mcp: bad\n    tool: t\n    arguments: {}\n    error: { code: -32602, retryable: false }\n",
    );
    let call = &mcp(&c).call;
    assert_eq!(call.arguments["id"], "p-1");
    assert_eq!(
        call.generators.to_v4_json()["body"]["$.arguments.id"]["expression"],
        "${plan_id}"
    );
    let r = call.result.as_ref().expect("a result");
    assert!(!r.is_error && r.content_matches_structured);
    assert_eq!(
        r.matching_rules.to_v4_json()["body"]["$.structuredContent.status"]["matchers"][0]["regex"],
        "^(draft|ready)$"
    );
    let Some(Interaction::McpToolCall(bad)) = c.interactions.get(1) else {
        panic!("second call")
    };
    assert_eq!(
        bad.call.error.as_ref().map(|e| (e.code, e.retryable)),
        Some((Some(-32602), Some(false)))
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
fn follow_ups_carry_outcomes_and_errors_after_the_task_ends() {
    let c = compile(
        "  - a2a: x\n    send: { text: hi }\n    expect: [{ state: COMPLETED }]\n    follow_ups:\n      - { op: GetTask, expect: { state: COMPLETED } }\n      - { op: SendMessage, send: { text: more }, error: { reason: UNSUPPORTED_OPERATION } }\n      - { op: CancelTask, error: { reason: TASK_NOT_CANCELABLE } }\n      - { op: SubscribeToTask, error: { reason: UNSUPPORTED_OPERATION } }\n      - { op: ListTasks, expect: { contains_task: true } }\n",
    );
    let f = &a2a(&c).task.follow_ups;
    use A2aOperation::*;
    assert_eq!(
        f.iter().map(|f| f.operation).collect::<Vec<_>>(),
        [GetTask, SendMessage, CancelTask, SubscribeToTask, ListTasks]
    );
    assert_eq!(f[1].error.as_ref().and_then(|e| e.code), Some(-32004));
    assert_eq!(
        f[2].error.as_ref().and_then(|e| e.reason),
        Some(A2aErrorReason::TaskNotCancelable)
    );
    assert_eq!(
        f[4].expect.as_ref().and_then(|e| e.contains_task),
        Some(true)
    );
}

#[test]
fn cancel_at_a_state_with_an_observation_window() {
    let c = compile(
        "  - a2a: x\n    send: { text: hi }\n    expect: [{ state: WORKING }]\n    cancel: { at: WORKING, observe_ms: 2000 }\n    within: { cancellation_effect_ms: 500, no_side_effects_after_cancel_ack: true }\n",
    );
    let t = a2a(&c);
    let cancel = t.task.cancel.as_ref().expect("cancel");
    assert_eq!(
        (cancel.at, cancel.expect_state, cancel.observe_ms),
        (
            Some(TaskState::Working),
            Some(TaskState::Canceled),
            Some(2000)
        )
    );
    let temporal = t.meta.expectations.temporal.as_ref().expect("temporal");
    assert_eq!(temporal.cancellation_effect_within_ms, Some(500));
    assert!(temporal.no_new_side_effect_after_cancel_ack);
}

#[test]
fn cancel_cannot_wait_for_a_terminal_state() {
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    cancel: {{ at: COMPLETED }}\n"
    ));
    assert!(e.to_string().contains("interactions[0].cancel.at"), "{e}");
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
    assert!(c.interactions[1].meta().expectations.negative);
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
fn agent_card_and_mcp_tool_expectations_compile() {
    let text = "consumer: a\nprovider: b\nagent_card:\n  skills: [s1, { id: s2, output_modes: [text/plain] }]\n  capabilities: { streaming: true }\n  interfaces: [{ binding: JSONRPC }]\n  extensions: [urn:x]\nmcp_tools:\n  - name: t\n    arguments: { id: string }\n    reads: { 'items[*].title': string }\n    annotations: { read_only: true }\n";
    let c = compile_spec(text, "t.yaml", &NoSchemaFiles).expect("valid");
    let card = c.agent_card.as_ref().expect("card");
    assert_eq!(card.skills[1].output_modes, ["text/plain"]);
    assert_eq!(card.interfaces[0].protocol_version, "1.0");
    assert_eq!(card.extensions[0].uri, "urn:x");
    let tool = &c.mcp_tools[0];
    assert_eq!(tool.result_fields[0].path, "$.items[*].title");
    assert_eq!(tool.annotations.and_then(|a| a.read_only_hint), Some(true));
    let accord = c.accord.as_ref().expect("accord");
    assert_eq!(
        (accord.a2a.as_deref(), accord.mcp.as_deref()),
        (Some("1.0"), Some("2026-07-28"))
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
fn a_bad_state_name_is_refused_where_it_is_written() {
    let e = refuse(
        "consumer: a\nprovider: b\ninteractions:\n  - a2a: x\n    send: { text: hi }\n    expect:\n      - state: DONE\n",
    );
    let msg = e.to_string();
    assert!(msg.contains("unknown task state 'DONE'"), "{msg}");
    assert_eq!(e.location().map(|l| l.0), Some(7), "{msg}");
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
fn a_direct_reply_cannot_have_task_states() {
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    returns: message\n    expect: [{{ state: COMPLETED }}]\n"
    ));
    assert!(e.to_string().contains("direct reply"), "{e}");
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    expect: [{{ reply: {{ text: yes }} }}]\n"
    ));
    assert!(e.to_string().contains("returns: message"), "{e}");
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

#[test]
fn impossible_combinations_are_refused_with_their_field() {
    let table: &[(&str, &str, &str)] = &[
        (
            "  - a2a: x\n    send: { parts: [{ data: {}, schema: { type: object } }] }\n",
            "interactions[0].send.parts[0]",
            "expected parts",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    follow_ups: [{ op: GetTask, expect: {}, error: { code: -32001 } }]\n",
            "interactions[0].follow_ups[0]",
            "exactly one of",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    follow_ups: [{ op: GetTask, expect: { contains_task: true } }]\n",
            "contains_task",
            "ListTasks",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    follow_ups: [{ op: SendMessage, expect: {} }]\n",
            "interactions[0].follow_ups[0]",
            "needs `send`",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    error: { code: -32001 }\n    expect: [{ state: WORKING }]\n",
            "interactions[0].error",
            "creates no task",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    error: { reason: TASK_NOT_FOUND, code: -32004 }\n",
            "interactions[0].error",
            "-32001",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    error: { retryable: true }\n",
            "interactions[0].error",
            "needs `code`",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    terminal: WORKING\n",
            "interactions[0].terminal",
            "not a terminal state",
        ),
        (
            "  - a2a: x\n    send: {}\n",
            "interactions[0].send",
            "at least one part",
        ),
        (
            "  - a2a: x\n    send: { parts: [{ text: a, data: {} }] }\n",
            "interactions[0].send.parts[0]",
            "exactly one of",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    expect: [{ artifact: { name: a } }]\n",
            "interactions[0].expect[0].artifact",
            "needs its content",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    expect: [{ state: WORKING, artifact: { text: a } }]\n",
            "interactions[0].expect[0]",
            "exactly one of",
        ),
        (
            "  - mcp: x\n    tool: t\n",
            "interactions[0]",
            "exactly one of `expect`",
        ),
        (
            "  - mcp: x\n    tool: t\n    error: { reason: TASK_NOT_FOUND }\n",
            "interactions[0].error.reason",
            "MCP protocol error",
        ),
        (
            "  - mcp: x\n    tool: t\n    expect: { text: a, content: [] }\n",
            "interactions[0].expect",
            "not both",
        ),
        (
            "  - mcp: x\n    tool: t\n    expect: { retryable: true }\n",
            "interactions[0].expect.retryable",
            "is_error",
        ),
        (
            "  - mcp: x\n    tool: t\n    arguments: [1]\n    expect: {}\n",
            "interactions[0].arguments",
            "a map",
        ),
        (
            "  - mcp: x\n    tool: t\n    expect: {}\n    repeat: 0\n",
            "interactions[0].repeat",
            "at least once",
        ),
        (
            "  - http: x\n    request: { method: GET, path: plans }\n    response: { status: 200 }\n",
            "interactions[0].request.path",
            "starts with `/`",
        ),
        (
            "  - http: x\n    request: { method: GET, path: /p }\n    response: { status: 700 }\n",
            "interactions[0].response.status",
            "100 to 599",
        ),
        (
            "  - http: x\n    request: { method: GET, path: /p }\n",
            "interactions[0]",
            "`request` and `response`",
        ),
        ("  - message: x\n", "interactions[0]", "needs `contents`"),
        (
            "  - mcp: x\n    tool: t\n    expect: {}\n    probe_as: [carol]\n",
            "interactions[0].probe_as[0]",
            "unknown principal",
        ),
    ];
    for (interactions, path, reason) in table {
        let e = refuse(&format!("{HEAD}{interactions}"));
        let msg = e.to_string();
        assert!(
            msg.contains(path) && msg.contains(reason),
            "{interactions}: `{msg}` lacks `{path}` or `{reason}`"
        );
    }
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
