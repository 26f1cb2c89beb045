use serde_json::json;

use super::*;

fn call(v: Value) -> McpToolCall {
    serde_json::from_value(v).expect("a call")
}

fn result(reply: Reply) -> Value {
    match reply {
        Reply::Result(v) => v,
        other => panic!("not a result: {other:?}"),
    }
}

#[test]
fn structured_content_is_mirrored_in_a_text_block_with_generators_applied() {
    let c = call(
        json!({"tool": "t", "result": {"structuredContent": {"id": "x", "self": "http://example/p/1"},
        "generators": {"body": {
            "$.structuredContent.id": {"type": "Uuid"},
            "$.structuredContent.self": {"type": "MockServerURL", "example": "http://example/p/1", "regex": ".*(/p/1)$"}}}}}),
    );
    let r = result(expected(&c, "http://127.0.0.1:9", true));
    let s = &r["structuredContent"];
    assert_eq!(
        s["id"].as_str().map(str::len),
        Some(36),
        "a generated uuid: {s}"
    );
    assert_eq!(s["self"], "http://127.0.0.1:9/p/1");
    assert_eq!(r["isError"], false);
    let text: Value =
        serde_json::from_str(r["content"][0]["text"].as_str().expect("text")).expect("json");
    assert_eq!(&text, s, "the text block mirrors the generated value");
}

#[test]
fn content_that_matches_structured_carries_the_generated_value() {
    let c = call(
        json!({"tool": "t", "result": {"structuredContent": {"n": 1},
        "content": [{"type": "text", "text": "{\"n\":1}"}, {"type": "text", "text": "note"}],
        "contentMatchesStructured": true,
        "generators": {"body": {"$.structuredContent.n": {"type": "RandomInt", "min": 5, "max": 9}}}}}),
    );
    let r = result(expected(&c, "", true));
    let n = r["structuredContent"]["n"].as_i64().expect("an integer");
    assert!((5..=9).contains(&n));
    let text: Value =
        serde_json::from_str(r["content"][0]["text"].as_str().expect("text")).expect("json");
    assert_eq!(text["n"], n);
    assert_eq!(r["content"][1]["text"], "note");
}

#[test]
fn a_tool_error_is_answered_as_written() {
    let c = call(
        json!({"tool": "t", "result": {"isError": true, "content": [{"type": "text", "text": "plan-404 not found"}]}}),
    );
    assert_eq!(
        result(expected(&c, "", true)),
        json!({"content": [{"type": "text", "text": "plan-404 not found"}], "isError": true})
    );
}

#[test]
fn a_protocol_error_takes_its_code_a_message_its_pattern_finds_and_its_status() {
    let c = call(json!({"tool": "shred", "error": {"code": -32602, "message": "shred"}}));
    assert_eq!(
        expected(&c, "", false),
        Reply::Error {
            error: RpcError::new(-32602, "shred"),
            status: None
        }
    );
    let c = call(json!({"tool": "shred", "error": {"code": -32602}}));
    let Reply::Error { error, .. } = expected(&c, "", false) else {
        panic!("an error")
    };
    assert_eq!(error.message, "Unknown tool: shred");
    let c = call(
        json!({"tool": "t", "error": {"code": -32001, "message": "^busy \\d+ s$", "httpStatus": 503}}),
    );
    let Reply::Error { error, status } = expected(&c, "", true) else {
        panic!("an error")
    };
    assert_eq!((error.code, status), (-32001, Some(503)));
    assert!(
        SearchRegex::new("^busy \\d+ s$")
            .expect("valid")
            .is_found(&error.message),
        "{}",
        error.message
    );
}

#[test]
fn an_expected_401_without_a_code_is_an_authorization_refusal() {
    let c = call(json!({"tool": "t", "error": {"httpStatus": 401}}));
    match expected(&c, "", true) {
        Reply::Refused { status: 401, body } => assert_eq!(body["error"], "invalid_token"),
        other => panic!("not a refusal: {other:?}"),
    }
}

#[test]
fn the_modern_transport_maps_codes_to_statuses_as_the_sdk_does() {
    let table: &[(i64, u16)] = &[
        (-32700, 400),
        (-32602, 400),
        (-32020, 400),
        (-32022, 400),
        (-32601, 404),
        (-32603, 200),
        (-32001, 200),
    ];
    for (code, status) in table {
        assert_eq!(modern_status(*code), *status, "{code}");
    }
}

#[test]
fn an_error_carries_the_data_the_consumer_reads() {
    let c = call(
        json!({"tool": "t", "error": {"code": -32021, "httpStatus": 400,
        "data": {"requiredCapabilities": {"sampling": {}}}}}),
    );
    let Reply::Error { error, status } = expected(&c, "", true) else {
        panic!("an error")
    };
    assert_eq!((error.code, status), (-32021, Some(400)));
    assert_eq!(error.message, "Missing required client capability");
    assert_eq!(
        error.data,
        Some(json!({"requiredCapabilities": {"sampling": {}}}))
    );
}

#[test]
fn progress_notifications_carry_the_callers_token() {
    let c = call(
        json!({"tool": "t", "progress": [{"progress": 0, "total": 100}, {"progress": 50, "message": "half"}]}),
    );
    let n = progress_notifications(&c.progress, &json!("tok-1"));
    assert_eq!(n.len(), 2);
    assert_eq!(
        n[0],
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": "tok-1", "progress": 0, "total": 100}})
    );
    assert_eq!(n[1]["params"]["message"], "half");
}
