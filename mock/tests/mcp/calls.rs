//! `tools/call` answers: a call the contract does not allow, an unknown
//! tool, a principal's credential.

use accord_mock::{MockMismatch, MockOptions, MockServer};
use serde_json::json;

use super::*;

#[test]
fn arguments_the_contract_does_not_allow_get_a_tool_error_naming_the_argument_and_rule() {
    let mock = MockServer::start(&contract(MODERN)).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let r = json_of(modern(
        &c,
        &url,
        1,
        "tools/call",
        json!({"name": "make_plan", "arguments": {"goal": "g", "max_steps": "two"}}),
    ));
    assert_eq!(r["result"]["isError"], true);
    let text = r["result"]["content"][0]["text"].as_str().expect("text");
    assert!(
        text.contains("argument 'max_steps' failed rule integer"),
        "{text}"
    );
    assert!(text.contains("\"make a plan\""), "{text}");
    let unknown = json_of(modern(
        &c,
        &url,
        2,
        "tools/call",
        json!({"name": "nope", "arguments": {}}),
    ));
    assert_eq!(
        unknown["result"]["content"][0]["text"],
        "Unknown tool: nope"
    );
    assert_eq!(unknown["result"]["isError"], true);
    let report = mock.verify();
    assert!(!report.ok);
    match &report.mismatches[3] {
        MockMismatch::RequestMismatch {
            interaction: 0,
            path,
            mismatches,
            ..
        } => {
            assert_eq!(path, "make_plan");
            assert_eq!(mismatches[0].path, "$.arguments.max_steps");
        }
        other => panic!("not the argument mismatch: {other:?}"),
    }
    assert!(matches!(&report.mismatches[4],
        MockMismatch::RequestNotFound { method, path, .. } if method == "tools/call" && path == "nope"));
}

#[test]
fn a_principal_s_call_needs_its_token_else_401_with_a_challenge() {
    let mut contract = contract(MODERN);
    if let accord_dsl::Interaction::McpToolCall(c) = &mut contract.interactions[1] {
        c.meta.expectations.auth =
            serde_json::from_value(json!({"principal": "alice"})).expect("auth");
    }
    let options = MockOptions {
        principals: vec![("alice".into(), "a-1".into())],
        ..MockOptions::default()
    };
    let mock = MockServer::start_with(&contract, options).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let call = |token: Option<&str>| {
        let meta = json!({"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}});
        let mut b = c
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", MODERN)
            .header("mcp-method", "tools/call")
            .header("mcp-name", "lookup_plan");
        if let Some(t) = token {
            b = b.bearer_auth(t);
        }
        b.body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "lookup_plan", "arguments": {"plan_id": "plan-404"}, "_meta": meta}})
            .to_string(),
        )
        .send()
        .expect("answered")
    };
    let r = call(Some("wrong"));
    assert_eq!(r.status(), 401);
    assert_eq!(r.headers()["www-authenticate"], "Bearer");
    assert_eq!(call(None).status(), 401);
    assert_eq!(call(Some("a-1")).status(), 200);
    let report = mock.verify();
    assert_eq!(report.interactions[1].exercised, 1);
    let refused = report
        .mismatches
        .iter()
        .filter(|m| {
            matches!(m,
        MockMismatch::RequestMismatch { mismatches, .. } if mismatches[0].path == "Authorization")
        })
        .count();
    assert_eq!(refused, 2);
}
