//! Bad input: a clear error, the mock keeps serving, the report records it.

use accord_mock::{MockMismatch, MockOptions, MockServer};
use reqwest::blocking::Response;
use serde_json::json;

use super::*;

#[test]
fn bad_input_is_a_clear_error_the_mock_keeps_serving_and_the_report_records_it() {
    let options = MockOptions {
        max_body_bytes: 2048,
        ..MockOptions::default()
    };
    let mock = MockServer::start_with(&contract(MODERN), options).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let post = |body: &str, content_type: &str, version: &str, method: &str| {
        c.post(&url)
            .header("content-type", content_type)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", version)
            .header("mcp-method", method)
            .body(body.to_owned())
            .send()
            .expect("answered")
    };
    let still_serving = || {
        let r = modern(&c, &url, 9, "tools/list", json!({}));
        assert_eq!(r.status(), 200, "the mock keeps serving");
    };
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let cases: Vec<(Response, u16, i64)> = vec![
        (
            post("{not json", "application/json", MODERN, "tools/list"),
            400,
            -32700,
        ),
        (
            post(
                r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#,
                "application/json",
                MODERN,
                "tools/list",
            ),
            400,
            -32600,
        ),
        (
            post(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
                "text/plain",
                MODERN,
                "tools/list",
            ),
            415,
            -32600,
        ),
        (
            post(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
                "application/json",
                MODERN,
                "tools/list",
            ),
            400,
            -32602,
        ),
        (
            post(
                &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{meta}}}}}"#),
                "application/json",
                MODERN,
                "tools/call",
            ),
            400,
            -32020,
        ),
        (
            post(
                &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"foo/bar","params":{{{meta}}}}}"#),
                "application/json",
                MODERN,
                "foo/bar",
            ),
            404,
            -32601,
        ),
        (
            post(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2027-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
                "application/json",
                "2027-01-01",
                "tools/list",
            ),
            400,
            -32022,
        ),
        (
            post(
                &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{{meta}}}}}"#),
                "application/json",
                MODERN,
                "initialize",
            ),
            404,
            -32601,
        ),
    ];
    let n = cases.len();
    for (r, status, code) in cases {
        assert_eq!(r.status().as_u16(), status);
        let body = json_of(r);
        assert_eq!(body["error"]["code"], code, "{body}");
        still_serving();
    }
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"x":"{}"}}}}"#,
        "x".repeat(4096)
    );
    assert_eq!(
        post(&big, "application/json", MODERN, "tools/list").status(),
        413
    );
    still_serving();
    // the legacy transport: unknown method inside its SSE stream, Accept checked
    let session = legacy_session(&c, &url);
    let unknown = sse_message(legacy(
        &c,
        &url,
        Some(&session),
        Some(3),
        "foo/bar",
        json!({}),
    ));
    assert_eq!(
        unknown["error"],
        json!({"code": -32601, "message": "Method not found", "data": "foo/bar"})
    );
    let r = c
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        .send()
        .expect("answered");
    assert_eq!(r.status(), 406);
    still_serving();
    let report = mock.verify();
    let not_found = report
        .mismatches
        .iter()
        .filter(|m| matches!(m, MockMismatch::RequestNotFound { .. }))
        .count();
    assert_eq!(not_found, n + 3, "{}", report.table());
    assert!(report.table().contains("foo/bar"), "{}", report.table());
}

#[test]
fn a_host_or_origin_that_is_not_loopback_is_refused_on_a_loopback_mock() {
    let mock = MockServer::start(&contract(MODERN)).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let discover = |host: Option<&str>, origin: Option<&str>| {
        let mut b = c
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", MODERN)
            .header("mcp-method", "server/discover");
        if let Some(h) = host {
            b = b.header("host", h);
        }
        if let Some(o) = origin {
            b = b.header("origin", o);
        }
        let meta = json!({"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {}});
        b.body(json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}).to_string())
            .send()
            .expect("answered")
            .status()
            .as_u16()
    };
    assert_eq!(discover(Some("evil.example.com"), None), 421);
    assert_eq!(discover(None, Some("http://evil.example.com")), 403);
    assert_eq!(discover(None, Some("http://localhost:3000")), 200);
    let report = mock.verify();
    let refused: Vec<String> = report
        .mismatches
        .iter()
        .filter_map(|m| match m {
            MockMismatch::RequestNotFound {
                reason: Some(r), ..
            } => Some(r.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(refused, ["Invalid Host header", "Invalid Origin header"]);
}
