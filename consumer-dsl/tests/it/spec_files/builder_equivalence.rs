//! The builder and a spec file with the same content produce identical
//! contracts.

use accord_dsl::builder::{Common, ContractBuilder, m};
use accord_dsl::model::accord::JsonType;
use accord_dsl::model::accord::{A2aErrorReason, A2aOperation, TaskState};
use accord_dsl::spec::{NoSchemaFiles, compile_spec};
use serde_json::json;

const SPEC: &str = r#"
consumer: orchestrator
provider: planning-agent
principals:
  alice: { tenant: tenant-a }
  bob: { tenant: tenant-b }
agent_card:
  skills: [work-planning]
  output_modes: [application/json]
  capabilities: { streaming: true }
  interfaces: [{ binding: JSONRPC, version: "1.0" }]
mcp_tools:
  - name: work_plan_lookup
    title: Look up a plan
    description: Read a plan by id.
    arguments: { plan_id: string }
    reads: { status: string }
    annotations: { read_only: true }
  - name: work_plan_commit
    reads: { status: { type: string, enum: [committed] } }
    approval: { counter: commits }
interactions:
  - a2a: create a draft plan
    as: alice
    given: [reset, { tenant has records: { count: 7 } }]
    skill: work-planning
    send: { stream: true, data: { request_id: { $uuid: ~ }, items: [{ title: x }] } }
    expect:
      - state: WORKING
      - artifact:
          media_type: application/json
          schema: { type: object }
          data: { plan_id: { $regex: "^plan-\\d+$", example: plan-1 }, steps: { $eachLike: { title: { $like: x } }, min: 1 } }
      - state: COMPLETED
    side_effects: { records: +1, outbound_writes: 0 }
    within: { acknowledge_ms: 1000 }
    probe_as: [bob]
    repeat: 2
    follow_ups:
      - { op: GetTask, expect: { state: COMPLETED } }
      - { op: CancelTask, error: { reason: TASK_NOT_CANCELABLE } }
  - a2a: cancel while working
    as: alice
    send: { text: slow, stream: true }
    expect: [{ state: WORKING }]
    cancel: { at: WORKING, observe_ms: 2000 }
  - mcp: look up a plan
    as: alice
    tool: work_plan_lookup
    arguments: { plan_id: { $fromState: "${plan_id}", example: plan-1 } }
    expect: { structured: { status: { $enum: [draft, ready] } }, schema: { type: object, required: [status] } }
  - mcp: commit without approval
    as: alice
    tool: work_plan_commit
    arguments: { plan_id: plan-1 }
    approval: { granted: false }
    expect: { is_error: true }
  - http: the plan of task 42
    request: { method: GET, path: /plans/42 }
    response: { status: 200, body: { taskId: { $integer: 42 } } }
"#;

#[test]
fn the_builder_and_the_spec_file_yield_the_same_contract() {
    let from_spec =
        compile_spec(SPEC, "equivalence.yaml", &NoSchemaFiles).expect("the spec compiles");
    let built = ContractBuilder::new("orchestrator", "planning-agent")
        .principal("alice", "tenant-a")
        .principal("bob", "tenant-b")
        .agent_card(|c| c.skill("work-planning").output_mode("application/json").streaming(true).interface("JSONRPC", "1.0"))
        .mcp_tool("work_plan_lookup", |t| t.title("Look up a plan").description("Read a plan by id.").argument("plan_id", JsonType::String).reads("status", JsonType::String).read_only(true))
        .mcp_tool("work_plan_commit", |t| t.reads_one_of("status", JsonType::String, ["committed"]).requires_approval("commits"))
        .a2a_task("create a draft plan", |t| {
            t.as_principal("alice")
                .given("reset")
                .given_with("tenant has records", json!({"count": 7}))
                .skill("work-planning")
                .streaming()
                .send_data(json!({"request_id": m::uuid(), "items": [{"title": "x"}]}))
                .expect_state(TaskState::Working)
                .expect_artifact(|a| {
                    a.media_type("application/json")
                        .schema(json!({"type": "object"}))
                        .data(json!({"plan_id": m::regex("^plan-\\d+$", "plan-1"), "steps": m::each_like(json!({"title": m::like("x")}), 1)}))
                })
                .expect_state(TaskState::Completed)
                .side_effect("records", 1)
                .side_effect("outbound_writes", 0)
                .within(|w| w.acknowledge_ms(1000))
                .probe_as("bob")
                .repeat(2)
                .follow_up(A2aOperation::GetTask, |f| f.expect_state(TaskState::Completed))
                .follow_up(A2aOperation::CancelTask, |f| f.fails_with(|e| e.reason(A2aErrorReason::TaskNotCancelable)))
        })
        .a2a_task("cancel while working", |t| {
            t.as_principal("alice")
                .send_text("slow")
                .streaming()
                .expect_state(TaskState::Working)
                .cancel(Some(TaskState::Working), |c| c.observe_ms(2000))
        })
        .mcp_tool_call("look up a plan", |c| {
            c.as_principal("alice")
                .tool("work_plan_lookup")
                .arguments(json!({"plan_id": m::from_state("${plan_id}", "plan-1")}))
                .expect_structured(json!({"status": m::one_of(["draft", "ready"])}))
                .expect_schema(json!({"type": "object", "required": ["status"]}))
        })
        .mcp_tool_call("commit without approval", |c| {
            c.as_principal("alice")
                .tool("work_plan_commit")
                .arguments(json!({"plan_id": "plan-1"}))
                .without_approval(None)
                .expect_tool_error(None)
        })
        .http("the plan of task 42", |h| h.request("GET", "/plans/42").status(200).response_body(json!({"taskId": m::integer(42)})))
        .build()
        .expect("the builder's contract is valid");
    assert_eq!(built, from_spec);
}

#[test]
fn a_bad_matcher_given_to_the_builder_fails_the_build() {
    let err = ContractBuilder::new("a", "b")
        .mcp_tool_call("x", |c| {
            c.tool("t")
                .arguments(json!({"id": {"$lik": 1}}))
                .expect_structured(json!({}))
        })
        .build()
        .expect_err("unknown matcher");
    assert!(err.to_string().contains("unknown matcher `$lik`"), "{err}");
}

const SPEC_MORE: &str = r#"
consumer: orchestrator
provider: planning-agent
principals:
  alice: { tenant: tenant-a }
interactions:
  - a2a: several parts and context
    as: alice
    credential: expired
    negative: true
    send:
      text: see attached
      parts: [{ url: "https://files.example/plan.pdf", media_type: application/pdf }]
      context_id: ctx-1
      history_length: 0
    error: { http_status: 401 }
  - a2a: steps in the spec's shape
    as: alice
    send: { data: { a: 1 } }
    expect:
      - state: WORKING
        message: { data: { progress: { $number: 0.5 } } }
      - artifact: { parts: [{ text: { $include: plan }, media_type: text/plain }, { data: { id: 1 } }] }
      - state: COMPLETED
    push: { token: t, expect: [COMPLETED] }
  - message: a plan was published
    contents: { plan_id: { $like: plan-1 } }
    metadata: { topic: plans }
  - sync_message: a lookup over the bus
    contents: { plan_id: plan-1 }
    responses:
      - { contents: { status: draft }, metadata: { kind: reply } }
  - mcp: blocks
    tool: t
    expect: { is_error: true, content: [{ type: text, text: { $regex: "no.*", example: no plan } }], retryable: true }
"#;

#[test]
fn the_builder_reaches_the_less_common_keys_too() {
    let from_spec =
        compile_spec(SPEC_MORE, "more.yaml", &NoSchemaFiles).expect("the spec compiles");
    let built = ContractBuilder::new("orchestrator", "planning-agent")
        .principal("alice", "tenant-a")
        .a2a_task("several parts and context", |t| {
            t.as_principal("alice")
                .expired_credential()
                .negative()
                .send_text("see attached")
                .send_part(json!({"url": "https://files.example/plan.pdf", "media_type": "application/pdf"}))
                .send_with(json!({"context_id": "ctx-1", "history_length": 0}))
                .fails_with(|e| e.http_status(401))
        })
        .a2a_task("steps in the spec's shape", |t| {
            t.as_principal("alice")
                .send_data(json!({"a": 1}))
                .expect_step(json!({"state": "WORKING", "message": {"data": {"progress": {"$number": 0.5}}}}))
                .expect_step(json!({"artifact": {"parts": [{"text": {"$include": "plan"}, "media_type": "text/plain"}, {"data": {"id": 1}}]}}))
                .expect_state(TaskState::Completed)
                .push(|p| p.token("t").expect_states([TaskState::Completed]))
        })
        .message("a plan was published", |m| m.contents(json!({"plan_id": m::like("plan-1")})).metadata(json!({"topic": "plans"})))
        .sync_message("a lookup over the bus", |m| {
            m.contents(json!({"plan_id": "plan-1"}))
                .response_with(json!({"contents": {"status": "draft"}, "metadata": {"kind": "reply"}}))
        })
        .mcp_tool_call("blocks", |c| {
            c.tool("t")
                .expect_tool_error(Some(true))
                .expect_content(vec![json!({"type": "text", "text": m::regex("no.*", "no plan")})])
        })
        .build()
        .expect("valid");
    assert_eq!(built, from_spec);
}
