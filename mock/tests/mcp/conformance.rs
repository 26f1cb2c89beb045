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
    assert_eq!(tools.len(), 10);
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
    assert!(report.ok, "{}", report.table());
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
