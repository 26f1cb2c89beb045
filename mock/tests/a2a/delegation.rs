//! The orchestrator's send must carry the contract's delegation record in
//! `message.metadata.delegation`, exactly: a client that sends it is
//! answered, one that omits it or sends a record differing in any one
//! attribute is refused, and the report names the path.

use super::*;

const SPEC: &str = r#"
consumer: orchestrator
provider: planning-agent
protocols: { a2a: "1.0" }
principals: { alice: { tenant: tenant-a } }
interactions:
  - a2a: draft a plan without registering tasks
    as: alice
    send: { data: { goal: plan the offsite } }
    expect: [{ state: COMPLETED }]
    delegation:
      mode: DRAFT_ONLY
      tools: { allowed: [meeting.search, policy.check], forbidden: [ticket.create] }
      agents: { forbidden: [billing-agent] }
      budget: { tool_calls: 5, cost_units: 10, costs: { meeting.search: 2, policy.check: 1 } }
      max_depth: 1
      max_fan_out: 1
      deadline_ms: 30000
      trace: propagate
      credential: not_forwarded
"#;

fn record() -> Value {
    json!({"mode": "DRAFT_ONLY",
        "allowedTools": ["meeting.search", "policy.check"], "forbiddenTools": ["ticket.create"],
        "forbiddenAgents": ["billing-agent"],
        "budget": {"toolCalls": 5, "costUnits": 10, "costs": {"meeting.search": 2, "policy.check": 1}},
        "maxDepth": 1, "maxFanOut": 1, "deadlineMs": 30000,
        "traceContext": "propagate", "credential": "notForwarded"})
}

fn start_delegating() -> MockServer {
    let contract =
        accord_dsl::spec::compile_spec(SPEC, "delegation.yaml", &accord_dsl::spec::NoSchemaFiles)
            .expect("the spec compiles");
    let options = MockOptions {
        principals: vec![("alice".into(), "token-a".into())],
        ..MockOptions::default()
    };
    MockServer::start_with(&contract, options).expect("starts")
}

/// The message the orchestrator sends, with `metadata` as given.
fn message(metadata: Option<Value>) -> Value {
    let mut m = json!({"messageId": "m-1", "role": "ROLE_USER",
        "parts": [{"data": {"goal": "plan the offsite"}}]});
    if let Some(md) = metadata {
        m["metadata"] = md;
    }
    m
}

fn send(c: &Client, mock: &MockServer, metadata: Option<Value>) -> Value {
    let url = format!("{}/a2a", mock.url());
    rpc(
        c,
        &url,
        "token-a",
        "SendMessage",
        json!({"message": message(metadata)}),
    )
}

/// The report's lines of refused sends (the interaction itself is also
/// reported as never received).
fn refusals(report: &accord_mock::MockReport) -> Vec<String> {
    let lines: Vec<String> = report.mismatches.iter().map(|m| m.line()).collect();
    assert!(
        lines[0].starts_with("expected but not received: SendMessage"),
        "{lines:?}"
    );
    lines[1..].to_vec()
}

#[test]
fn a_send_carrying_the_record_is_answered() {
    let mock = start_delegating();
    let c = client();
    let metadata = json!({"delegation": record(), "x-client": "adds this"});
    let answer = send(&c, &mock, Some(metadata));
    assert_eq!(
        answer["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{answer}"
    );
    let report = mock.verify();
    assert!(report.ok, "{:?}", report.mismatches);
    assert_eq!(report.interactions[0].exercised, 1);
}

#[test]
fn a_send_without_the_record_is_refused_on_both_bindings() {
    let mock = start_delegating();
    let c = client();
    let answer = send(&c, &mock, None);
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let rest = c
        .post(format!("{}/a2a/rest/message:send", mock.url()))
        .bearer_auth("token-a")
        .header("A2A-Version", "1.0")
        .json(&json!({"message": message(Some(json!({"other": 1})))}))
        .send()
        .expect("answered");
    assert_eq!(rest.status(), 400);
    let report = mock.verify();
    assert!(!report.ok);
    assert_eq!(report.interactions[0].exercised, 0);
    let lines = refusals(&report);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].contains("`metadata` is missing"), "{}", lines[0]);
    assert_eq!(lines[0].matches("$.message").count(), 1, "{}", lines[0]);
    assert!(
        lines[1].contains("/a2a/rest")
            && lines[1].contains("$.message.metadata:")
            && lines[1].contains("`delegation` is missing"),
        "{}",
        lines[1]
    );
}

/// Each attribute changed alone (or one not stated added) is a mismatch
/// at its own path: every key of `delegation:` changes the mock's verdict.
#[test]
fn a_record_differing_in_any_one_key_is_refused_at_that_key() {
    let cases: Vec<(&str, Value, &str)> = vec![
        ("/mode", json!("ANYTHING"), "delegation.mode"),
        (
            "/allowedTools",
            json!(["meeting.search"]),
            "delegation.allowedTools",
        ),
        ("/forbiddenTools", json!([]), "delegation.forbiddenTools"),
        (
            "/forbiddenAgents",
            json!(["other-agent"]),
            "delegation.forbiddenAgents[0]",
        ),
        (
            "/budget/toolCalls",
            json!(50),
            "delegation.budget.toolCalls",
        ),
        (
            "/budget/costUnits",
            json!(100),
            "delegation.budget.costUnits",
        ),
        (
            "/budget/costs",
            json!({"meeting.search": 0, "policy.check": 1}),
            "delegation.budget.costs",
        ),
        ("/maxDepth", json!(3), "delegation.maxDepth"),
        ("/maxFanOut", json!(9), "delegation.maxFanOut"),
        ("/deadlineMs", json!(600000), "delegation.deadlineMs"),
        ("/traceContext", json!("drop"), "delegation.traceContext"),
        ("/credential", json!("forwarded"), "delegation.credential"),
        ("/extra", json!(true), "$.message.metadata.delegation:"),
    ];
    let mock = start_delegating();
    let c = client();
    for (pointer, value, _) in &cases {
        let mut r = record();
        if *pointer == "/extra" {
            r["maxHops"] = value.clone();
        } else {
            *r.pointer_mut(pointer).expect("a key of the record") = value.clone();
        }
        let answer = send(&c, &mock, Some(json!({"delegation": r})));
        assert_eq!(answer["error"]["code"], -32602, "{pointer}: {answer}");
    }
    let mut dropped = record();
    dropped.as_object_mut().map(|o| o.remove("credential"));
    let answer = send(&c, &mock, Some(json!({"delegation": dropped})));
    assert_eq!(answer["error"]["code"], -32602, "dropped: {answer}");
    let report = mock.verify();
    assert_eq!(report.interactions[0].exercised, 0);
    let lines = refusals(&report);
    assert_eq!(lines.len(), cases.len() + 1, "{lines:#?}");
    for (line, (pointer, _, path)) in lines.iter().zip(&cases) {
        assert!(line.contains(path), "{pointer}: {line}");
        assert_eq!(
            line.matches("$.message").count(),
            1,
            "one fault, one mismatch: {line}"
        );
    }
    assert!(
        lines[cases.len()].contains("credential"),
        "{}",
        lines[cases.len()]
    );
}
