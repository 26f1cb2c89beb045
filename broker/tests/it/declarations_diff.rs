//! `GET …/declarations/diff?against=V`: every change between two provider
//! versions' declarations, with the live consumers each breaks — the seeds'
//! synthetic failure 4 on both backends.

use base64::Engine;
use serde_json::{Value, json};

use crate::support::{TestApp, each_backend};

/// A consumer of `plan-tools` that calls `review` and reads `status`
/// switching on `values` (the static check's tests use it too).
pub fn spec(consumer: &str, values: &str) -> String {
    format!(
        r#"
consumer: {consumer}
provider: plan-tools
protocols: {{ mcp: "2026-07-28" }}
mcp_tools:
  - name: review
    arguments: {{ plan_id: string }}
    reads: {{ status: {{ type: string, enum: [{values}] }} }}
interactions:
  - mcp: review a plan
    tool: review
    arguments: {{ plan_id: plan-7 }}
    expect:
      structured:
        status: ready
"#
    )
}

pub fn publish(app: &TestApp, consumer: &str, values: &str) {
    let none = |_: &str| -> Result<Value, accord_dsl::spec::ResolveError> { Ok(Value::Null) };
    let contract =
        accord_dsl::spec::compile_spec(&spec(consumer, values), "c.yaml", &none).expect("compiles");
    let content = accord_dsl::pact::to_v4_json(&contract).to_string();
    let reply = app.post("/contracts/publish", &json!({
        "pacticipantName": consumer, "pacticipantVersionNumber": "1.0", "branch": "main",
        "contracts": [{"consumerName": consumer, "providerName": "plan-tools", "specification": "pact",
            "contentType": "application/json",
            "content": base64::engine::general_purpose::STANDARD.encode(content)}]
    }));
    assert_eq!(reply.status, 200, "{}", reply.text);
}

pub fn tools(status: &[&str]) -> Value {
    json!({"tools": [{"name": "review", "inputSchema": {"type": "object", "required": ["plan_id"],
        "properties": {"plan_id": {"type": "string"}}},
        "outputSchema": {"type": "object", "required": ["status"],
            "properties": {"status": {"type": "string", "enum": status}}}}]})
}

fn declare(app: &TestApp, version: &str, status: &[&str]) {
    let path = format!("/pacticipants/plan-tools/versions/{version}/declarations/mcp-tools/carol");
    assert_eq!(app.put(&path, &tools(status)).status, 201);
}

const DIFF: &str = "/pacticipants/plan-tools/versions/3.5/declarations/diff?against=3.4";

#[test]
fn an_enum_value_removed_breaks_only_the_live_consumer_that_relies_on_it() {
    each_backend(|app| {
        publish(app, "planner", "draft, ready");
        publish(app, "auditor", "ready, rejected");
        declare(app, "3.4", &["draft", "ready", "rejected"]);
        declare(app, "3.5", &["ready", "rejected"]);
        let diff = app.get(DIFF);
        assert_eq!(diff.status, 200, "{}", diff.text);
        assert_eq!(diff.json["breaking"], true, "{}", diff.text);
        let change = &diff.json["declarations"][0]["changes"][0];
        assert_eq!(change["code"], "BREAKING_ENUM_REMOVAL");
        assert_eq!(change["class"], "breaking");
        assert_eq!(change["path"], "mcpTools[review].result.status");
        assert_eq!(
            change["consumersAffected"],
            json!(["planner 1.0"]),
            "{}",
            diff.text
        );
    });
}

#[test]
fn with_no_consumer_relying_on_the_value_it_breaks_nobody() {
    each_backend(|app| {
        publish(app, "auditor", "ready, rejected");
        declare(app, "3.4", &["draft", "ready", "rejected"]);
        declare(app, "3.5", &["ready", "rejected"]);
        let diff = app.get(DIFF);
        assert_eq!(diff.status, 200, "{}", diff.text);
        assert_eq!(diff.json["breaking"], false, "{}", diff.text);
        assert_eq!(
            diff.json["declarations"][0]["changes"][0]["consumersAffected"],
            json!([])
        );
    });
}

#[test]
fn a_diff_against_an_unknown_version_or_without_one_is_refused() {
    each_backend(|app| {
        declare(app, "3.5", &["ready"]);
        let unknown =
            app.get("/pacticipants/plan-tools/versions/3.5/declarations/diff?against=9.9");
        assert_eq!(unknown.status, 404, "{}", unknown.text);
        assert!(unknown.text.contains("9.9"), "{}", unknown.text);
        let missing = app.get("/pacticipants/plan-tools/versions/3.5/declarations/diff");
        assert_eq!(missing.status, 400);
        assert!(
            missing.json["errors"]["against"].is_array(),
            "{}",
            missing.text
        );
    });
}

/// A card of `planner` offering `interfaces` (binding, URL), whose skill
/// `plan` carries `tags`.
fn card(interfaces: &[(&str, &str)], tags: &[&str]) -> Value {
    json!({"name": "planner", "description": "Plans.", "version": "1",
        "supportedInterfaces": interfaces.iter().map(|(b, url)| json!({"protocolBinding": b, "protocolVersion": "1.0", "url": url})).collect::<Vec<_>>(),
        "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "plan", "name": "plan", "description": "Plans.", "tags": tags}]})
}

#[test]
fn an_interface_or_a_tag_removed_breaks_only_the_live_consumer_relying_on_it() {
    each_backend(|app| {
        let relying = |consumer: &str, card: Value| {
            let mut doc = crate::pact_docs::pact(consumer, "planner", json!([]));
            doc["agentCard"] = card;
            doc["metadata"] = json!({"pactSpecification": {"version": "4.0"},
                "accord": {"formatVersion": "1.0", "a2a": "1.0"}});
            crate::pact_docs::publish_ok(app, "1.0", Some("main"), &[], &[doc]);
        };
        let interface =
            |b: &str| json!({"interfaces": [{"protocolBinding": b, "protocolVersion": "1.0"}]});
        relying("rest-client", interface("HTTP+JSON"));
        relying("rpc-client", interface("JSONRPC"));
        relying(
            "router",
            json!({"skills": [{"id": "plan", "tags": ["read-only"]}]}),
        );
        let declare = |version: &str, card: Value| {
            let path = format!("/pacticipants/planner/versions/{version}/declarations/agent-card");
            assert_eq!(app.put(&path, &card).status, 201);
        };
        let both = [
            ("JSONRPC", "https://a/rpc"),
            ("HTTP+JSON", "https://a/rest"),
        ];
        declare("1", card(&both, &["read-only"]));
        declare("2", card(&both[..1], &["planning"]));
        let diff = app.get("/pacticipants/planner/versions/2/declarations/diff?against=1");
        assert_eq!(diff.status, 200, "{}", diff.text);
        assert_eq!(diff.json["breaking"], true, "{}", diff.text);
        let changes = diff.json["declarations"][0]["changes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let of = |code: &str| {
            changes
                .iter()
                .find(|c| c["code"] == code)
                .cloned()
                .unwrap_or_default()
        };
        let removed = of("UNSUPPORTED_PROTOCOL_BINDING");
        assert_eq!(
            removed["path"],
            "agentCard.supportedInterfaces[HTTP+JSON 1.0]"
        );
        assert_eq!(
            removed["consumersAffected"],
            json!(["rest-client 1.0"]),
            "{}",
            diff.text
        );
        let untagged = of("BREAKING_SKILL_TAG_REMOVED");
        assert_eq!(
            untagged["consumersAffected"],
            json!(["router 1.0"]),
            "{}",
            diff.text
        );
        assert_eq!(of("SKILL_TAG_ADDED")["class"], "warning");
    });
}
