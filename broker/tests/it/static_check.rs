//! The static cross-check (issue 25): a provider version's declarations
//! judged against every live consumer contract when they change — a failed
//! check is a failed `static` verification (the matrix and can-i-deploy say
//! so), a passed one is not a verification but moves the admission state
//! DRAFT → STATIC_VALIDATED, and a failed re-declaration moves it back.

use base64::Engine;
use serde_json::{Value, json};

use crate::declarations_diff::spec;
use crate::support::{TestApp, each_backend};

fn publish(app: &TestApp, consumer: &str, values: &str, branch: &str) {
    publish_version(app, consumer, "1.0", values, branch);
}

fn publish_version(app: &TestApp, consumer: &str, version: &str, values: &str, branch: &str) {
    let none = |_: &str| -> Result<Value, accord_dsl::spec::ResolveError> { Ok(Value::Null) };
    let contract =
        accord_dsl::spec::compile_spec(&spec(consumer, values), "c.yaml", &none).expect("compiles");
    let content = accord_dsl::pact::to_v4_json(&contract).to_string();
    let reply = app.post("/contracts/publish", &json!({
        "pacticipantName": consumer, "pacticipantVersionNumber": version, "branch": branch,
        "contracts": [{"consumerName": consumer, "providerName": "plan-tools", "specification": "pact",
            "contentType": "application/json",
            "content": base64::engine::general_purpose::STANDARD.encode(content)}]
    }));
    assert_eq!(reply.status, 200, "{}", reply.text);
}

fn tool(name: &str, status: &[&str]) -> Value {
    json!({"name": name, "inputSchema": {"type": "object", "required": ["plan_id"],
        "properties": {"plan_id": {"type": "string"}}},
        "outputSchema": {"type": "object", "required": ["status"],
            "properties": {"status": {"type": "string", "enum": status}}}})
}

/// Declares `tools` for version `version`; answers the static check.
fn declare(app: &TestApp, version: &str, tools: Value) -> Value {
    let path = format!("/pacticipants/plan-tools/versions/{version}/declarations/mcp-tools/carol");
    let reply = app.put(&path, &json!({"tools": tools}));
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["staticCheck"].clone()
}

/// The matrix summary of planner 1.0 with plan-tools `version`.
fn summary(app: &TestApp, version: &str) -> Value {
    let query = format!(
        "q[][pacticipant]=planner&q[][version]=1.0&q[][pacticipant]=plan-tools&q[][version]={version}&latestby=cvpv"
    );
    let reply = app.get(&format!("/matrix?{query}"));
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json["summary"].clone()
}

fn admission(app: &TestApp, version: &str) -> Value {
    let reply = app.get(&format!(
        "/pacticipants/plan-tools/versions/{version}/admission"
    ));
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

#[test]
fn a_tool_a_live_consumer_calls_missing_from_the_declaration_fails_statically() {
    each_backend(|app| {
        publish(app, "planner", "draft, ready", "main");
        let check = declare(app, "2.0", json!([tool("lookup", &["ready"])]));
        assert_eq!(check["passed"], false, "{check}");
        assert_eq!(
            check["consumers"][0]["reasonCodes"],
            json!(["TOOL_MISSING"])
        );
        let s = summary(app, "2.0");
        assert_eq!(s["deployable"], false, "{s}");
        let reasons = s["reasons"].to_string() + &s["reason"].to_string();
        assert!(
            reasons.contains("static check of the declarations: TOOL_MISSING"),
            "{s}"
        );
        let latest = app
            .get("/pacts/provider/plan-tools/consumer/planner/latest/verification-results/latest");
        assert_eq!(latest.status, 200, "{}", latest.text);
        assert_eq!(latest.json["kind"], "static");
        assert_eq!(latest.json["success"], false);
        assert_eq!(latest.json["findings"][0]["reasonCode"], "TOOL_MISSING");
        assert_eq!(admission(app, "2.0")["state"], "DRAFT");
    });
}

#[test]
fn the_declared_tool_passes_statically_and_still_needs_replay() {
    each_backend(|app| {
        publish(app, "planner", "draft, ready", "main");
        let check = declare(app, "2.0", json!([tool("review", &["draft", "ready"])]));
        assert_eq!(check["passed"], true, "{check}");
        assert_eq!(check["admission"], "STATIC_VALIDATED");
        // not a verification: the pair is unverified until replay
        assert_eq!(summary(app, "2.0")["deployable"], Value::Null);
        let latest = app
            .get("/pacts/provider/plan-tools/consumer/planner/latest/verification-results/latest");
        assert_eq!(latest.status, 404, "{}", latest.text);
        let state = admission(app, "2.0");
        assert_eq!(state["state"], "STATIC_VALIDATED", "{state}");
        assert_eq!(state["transitions"][0]["cause"]["kind"], "broker");
    });
}

#[test]
fn an_enum_value_a_live_consumer_relies_on_dropped_is_the_breaking_code() {
    each_backend(|app| {
        publish(app, "planner", "draft, ready", "main");
        publish(app, "auditor", "ready", "main");
        let check = declare(app, "2.0", json!([tool("review", &["ready", "rejected"])]));
        let codes: Vec<(Value, Value)> = check["consumers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| (c["consumer"].clone(), c["reasonCodes"].clone()))
            .collect();
        assert!(
            codes.contains(&(json!("planner"), json!(["BREAKING_ENUM_REMOVAL"]))),
            "{check}"
        );
        // the consumer that never reads `draft` is not broken
        assert!(codes.contains(&(json!("auditor"), json!([]))), "{check}");
    });
}

#[test]
fn a_consumer_version_that_is_not_live_is_not_judged() {
    each_backend(|app| {
        publish_version(app, "planner", "1.0", "ready", "main");
        // a feature branch head: not live, though it relies on `draft`
        publish_version(app, "planner", "1.1", "draft, ready", "feature-x");
        let check = declare(app, "2.0", json!([tool("review", &["ready", "rejected"])]));
        assert_eq!(check["passed"], true, "{check}");
        assert_eq!(check["consumers"].as_array().map(Vec::len), Some(1));
        assert_eq!(check["consumers"][0]["versions"], json!(["1.0"]), "{check}");
        let latest = app
            .get("/pacts/provider/plan-tools/consumer/planner/latest/verification-results/latest");
        assert_eq!(latest.status, 404, "{}", latest.text);
    });
}

#[test]
fn with_no_live_consumer_there_is_no_evidence() {
    each_backend(|app| {
        let check = declare(app, "2.0", json!([tool("lookup", &["ready"])]));
        assert_eq!(check["consumers"], json!([]), "{check}");
        assert_eq!(admission(app, "2.0")["state"], "DRAFT");
    });
}

#[test]
fn static_validated_is_reached_and_lost_with_the_reason() {
    each_backend(|app| {
        publish(app, "planner", "draft, ready", "main");
        declare(app, "2.0", json!([tool("review", &["draft", "ready"])]));
        assert_eq!(admission(app, "2.0")["state"], "STATIC_VALIDATED");
        let check = declare(app, "2.0", json!([tool("review", &["ready"])]));
        assert_eq!(check["passed"], false, "{check}");
        let state = admission(app, "2.0");
        assert_eq!(state["state"], "DRAFT", "{state}");
        let reason = state["reason"].as_str().unwrap_or_default();
        assert!(reason.contains("BREAKING_ENUM_REMOVAL"), "{state}");
        // declared again with the tool back: the failed static result is gone
        declare(
            app,
            "2.0",
            json!([tool("review", &["draft", "ready", "rejected"])]),
        );
        assert_eq!(admission(app, "2.0")["state"], "STATIC_VALIDATED");
        assert_eq!(summary(app, "2.0")["deployable"], Value::Null);
    });
}

#[test]
fn a_consumer_relying_on_tools_the_version_did_not_declare_is_no_evidence() {
    each_backend(|app| {
        publish(app, "planner", "draft, ready", "main");
        let card = json!({"name": "plan-tools", "description": "Plans.", "version": "2.0",
            "supportedInterfaces": [{"url": "https://plan.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
            "skills": [{"id": "plan", "name": "Plan", "description": "Plans.", "tags": ["plan"]}]});
        let reply = app.put(
            "/pacticipants/plan-tools/versions/2.0/declarations/agent-card",
            &card,
        );
        assert_eq!(reply.status, 201, "{}", reply.text);
        let check = &reply.json["staticCheck"];
        assert_eq!(check["consumers"][0]["passed"], Value::Null, "{check}");
        assert_eq!(check["consumers"][0]["undeclared"], json!(["mcpTools"]));
        assert_eq!(admission(app, "2.0")["state"], "DRAFT");
    });
}
