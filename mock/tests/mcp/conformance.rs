//! The contract the MCP conformance suite runs against
//! (tests/fixtures/mcp-conformance.yaml, `.ci/mcp-conformance`) compiles,
//! and the mock built from it answers the suite's tools and lifecycle
//! requests as its scenarios check them — without Node, in both eras.

use accord_dsl::spec::{NoSchemaFiles, compile_spec};
use accord_mock::MockServer;
use serde_json::{Value, json};

use super::*;

fn fixture() -> accord_dsl::Contract {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/mcp-conformance.yaml");
    let text = std::fs::read_to_string(&path).expect("the fixture contract");
    compile_spec(&text, "mcp-conformance.yaml", &NoSchemaFiles).expect("it compiles")
}

/// Progress before the result: at least three notifications with the
/// token, increasing (`tools-call-with-progress`).
fn progress_then_result(messages: &[Value], id: u64) {
    let (notes, rest) = messages.split_at(messages.len() - 1);
    let values: Vec<f64> = notes
        .iter()
        .inspect(|n| assert_eq!(n["params"]["progressToken"], "progress-test-1", "{n}"))
        .filter_map(|n| n["params"]["progress"].as_f64())
        .collect();
    assert!(
        values.len() >= 3 && values.windows(2).all(|w| w[0] < w[1]),
        "{values:?}"
    );
    assert_eq!(rest[0]["id"], id);
    assert_eq!(rest[0]["result"]["content"][0]["type"], "text");
}

#[test]
fn the_fixture_serves_the_suites_tools_in_the_modern_era_and_is_exercised_whole() {
    let mock = MockServer::start(&fixture()).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let listed = json_of(modern(&c, &url, 1, "tools/list", json!({})));
    let tools = listed["result"]["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 11);
    for t in tools {
        assert!(
            t["description"].is_string() && t["inputSchema"]["type"] == "object",
            "{t}"
        );
    }
    for (id, tool) in [
        (2, "test_simple_text"),
        (3, "test_image_content"),
        (4, "test_audio_content"),
        (5, "test_embedded_resource"),
        (6, "test_multiple_content_types"),
        (7, "test_error_handling"),
        (8, "test_streaming_elicitation"),
        (9, "test_logging_tool"),
    ] {
        let r = json_of(modern(&c, &url, id, "tools/call", json!({"name": tool})));
        let content = r["result"]["content"].as_array().expect("content");
        assert!(!content.is_empty(), "{r}");
        assert_eq!(r["result"]["isError"], tool == "test_error_handling", "{r}");
    }
    let p = json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "progress-test-1"}});
    progress_then_result(&sse_messages(modern(&c, &url, 10, "tools/call", p)), 10);
    // 2026-07-28: the request's own `_meta` asks for the log level
    let p = json!({"name": "test_tool_with_logging", "arguments": {},
        "_meta": {"io.modelcontextprotocol/logLevel": "info"}});
    logs_then_result(&sse_messages(modern(&c, &url, 12, "tools/call", p)), 12, 3);
    let r = modern(&c, &url, 13, "logging/setLevel", json!({"level": "info"}));
    assert_eq!(r.status(), 404, "logging/setLevel is gone in 2026-07-28");
    let r = modern(
        &c,
        &url,
        11,
        "tools/call",
        json!({"name": "test_missing_capability", "arguments": {}}),
    );
    assert_eq!(r.status(), 400);
    let e = json_of(r);
    assert_eq!(e["id"], 11);
    assert_eq!(e["error"]["code"], -32021);
    assert_eq!(
        e["error"]["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
    let report = mock.verify();
    let unexpected: Vec<_> = report.mismatches.iter().map(|m| m.line()).collect();
    assert!(
        unexpected.len() == 1 && unexpected[0].contains("logging/setLevel"),
        "{}",
        report.table()
    );
    assert!(
        report.interactions.iter().all(|i| i.exercised > 0),
        "{}",
        report.table()
    );
}

/// `count` log messages (`notifications/message`) before the result
/// (`tools-call-with-logging`).
fn logs_then_result(messages: &[Value], id: u64, count: usize) {
    let (notes, rest) = messages.split_at(messages.len() - 1);
    assert_eq!(notes.len(), count, "{messages:?}");
    for n in notes {
        assert_eq!(n["method"], "notifications/message", "{n}");
        assert_eq!(n["params"]["level"], "info", "{n}");
        assert!(n["params"]["data"].is_string(), "{n}");
    }
    assert_eq!(rest[0]["id"], id);
    assert_eq!(
        rest[0]["result"]["content"][0]["text"],
        "Logging test completed"
    );
}

#[test]
fn the_fixture_sends_its_log_messages_at_the_level_the_legacy_client_set() {
    let mock = MockServer::start(&fixture()).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let session = legacy_session(&c, &url);
    let call = json!({"name": "test_tool_with_logging", "arguments": {}});
    // no level set: the answer alone
    let r = legacy(
        &c,
        &url,
        Some(&session),
        Some(2),
        "tools/call",
        call.clone(),
    );
    logs_then_result(&sse_messages(r), 2, 0);
    // a level above the messages' filters them out
    let set = |id, level: &str| {
        let r = legacy(
            &c,
            &url,
            Some(&session),
            Some(id),
            "logging/setLevel",
            json!({"level": level}),
        );
        sse_message(r)
    };
    assert_eq!(set(3, "error")["result"], json!({}));
    let r = legacy(
        &c,
        &url,
        Some(&session),
        Some(4),
        "tools/call",
        call.clone(),
    );
    logs_then_result(&sse_messages(r), 4, 0);
    assert_eq!(set(5, "debug")["result"], json!({}));
    let r = legacy(&c, &url, Some(&session), Some(6), "tools/call", call);
    logs_then_result(&sse_messages(r), 6, 3);
    // a level MCP does not have is refused
    assert_eq!(set(7, "loud")["error"]["code"], -32602);
}

#[test]
fn the_logging_capability_is_declared_only_for_a_contract_that_relies_on_logs() {
    let mock = MockServer::start(&fixture()).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let r = legacy(
        &c,
        &url,
        None,
        Some(1),
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    );
    assert_eq!(
        sse_message(r)["result"]["capabilities"]["logging"],
        json!({})
    );
    let plain = MockServer::start(&contract("2025-11-25")).expect("starts");
    let url = plain.mcp_url().expect("an MCP surface");
    let r = legacy(
        &c,
        &url,
        None,
        Some(1),
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    );
    assert!(
        sse_message(r)["result"]["capabilities"]
            .get("logging")
            .is_none()
    );
}

#[test]
fn the_fixture_reports_progress_in_the_legacy_era_too() {
    let mock = MockServer::start(&fixture()).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let session = legacy_session(&c, &url);
    let p = json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "progress-test-1"}});
    let r = legacy(&c, &url, Some(&session), Some(4), "tools/call", p);
    progress_then_result(&sse_messages(r), 4);
    // without a token the contract's progress cannot be sent: the call
    // fits no interaction
    let r = sse_message(legacy(
        &c,
        &url,
        Some(&session),
        Some(5),
        "tools/call",
        json!({"name": "test_tool_with_progress", "arguments": {}}),
    ));
    let text = r["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("Missing progress token"), "{text}");
}
