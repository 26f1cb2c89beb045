//! Each era's wire: 2026-07-28 (discover, headers, `_meta`, statuses) and
//! the legacy transport (initialize, session, SSE, DELETE); a call on the
//! era the contract does not pin.

use accord_mock::{MockMismatch, MockServer};
use serde_json::{Value, json};

use super::*;

#[test]
fn the_modern_era_discovers_lists_and_calls_and_the_report_is_ok() {
    let mock = MockServer::start(&contract(MODERN)).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let r = modern(&c, &url, 1, "server/discover", json!({}));
    assert_eq!(r.status(), 200);
    let d = json_of(r);
    assert_eq!(d["result"]["supportedVersions"], json!([MODERN]));
    assert_eq!(d["result"]["resultType"], "complete");
    assert_eq!(
        d["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "planning-tools"
    );
    let tools = json_of(modern(&c, &url, 2, "tools/list", json!({})));
    assert_eq!(
        (&tools["result"]["ttlMs"], &tools["result"]["cacheScope"]),
        (&json!(0), &json!("private"))
    );
    let list = tools["result"]["tools"].as_array().expect("tools");
    let names: Vec<&Value> = list.iter().map(|t| &t["name"]).collect();
    assert_eq!(
        names,
        [&json!("make_plan"), &json!("lookup_plan")],
        "shred is the unknown tool"
    );
    let plan = &list[0];
    assert_eq!(
        (&plan["title"], &plan["description"]),
        (
            &json!("Make plan"),
            &json!("Turn a goal into a short ordered plan.")
        )
    );
    assert_eq!(plan["inputSchema"]["required"], json!(["goal"]));
    assert_eq!(
        plan["inputSchema"]["properties"]["max_steps"],
        json!({"type": "integer"})
    );
    assert_eq!(
        plan["outputSchema"]["properties"]["steps"]["items"]["type"],
        "string"
    );
    assert_eq!(plan["annotations"], json!({"readOnlyHint": true}));
    let call = json_of(modern(
        &c,
        &url,
        3,
        "tools/call",
        json!({"name": "make_plan", "arguments": {"goal": "a talk", "max_steps": 5}}),
    ));
    let result = &call["result"];
    assert_eq!(
        result["structuredContent"]["steps"],
        json!(["search", "summarise"])
    );
    assert_eq!(
        (&result["isError"], &result["resultType"]),
        (&json!(false), &json!("complete"))
    );
    let mirrored: Value =
        serde_json::from_str(result["content"][0]["text"].as_str().expect("text")).expect("json");
    assert_eq!(mirrored, result["structuredContent"]);
    let error = json_of(modern(
        &c,
        &url,
        4,
        "tools/call",
        json!({"name": "lookup_plan", "arguments": {"plan_id": "plan-404"}}),
    ));
    assert_eq!(error["result"]["isError"], true);
    assert_eq!(error["result"]["content"][0]["text"], "plan-404 not found");
    let r = modern(
        &c,
        &url,
        5,
        "tools/call",
        json!({"name": "shred", "arguments": {}}),
    );
    assert_eq!(r.status(), 400, "-32602 takes the SDK's status");
    assert_eq!(
        json_of(r)["error"],
        json!({"code": -32602, "message": "shred"})
    );
    let report = mock.verify();
    assert!(report.ok, "{}", report.table());
    assert!(
        report
            .interactions
            .iter()
            .all(|i| i.exercised == 1 && i.interaction_type == "MCP/ToolCall")
    );
}

#[test]
fn the_legacy_era_initializes_a_session_answers_in_sse_and_ends_it() {
    let mock = MockServer::start(&contract(LEGACY)).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let session = legacy_session(&c, &url);
    let tools = sse_message(legacy(
        &c,
        &url,
        Some(&session),
        Some(2),
        "tools/list",
        json!({}),
    ));
    assert_eq!(tools["result"]["tools"][0]["title"], "Make plan");
    assert!(
        tools["result"].get("ttlMs").is_none(),
        "no 2026-07-28 fields"
    );
    let call = sse_message(legacy(
        &c,
        &url,
        Some(&session),
        Some(3),
        "tools/call",
        json!({"name": "make_plan", "arguments": {"goal": "g", "max_steps": 1}, "_meta": {"progressToken": 7}}),
    ));
    assert_eq!(call["id"], 3);
    assert_eq!(call["result"]["structuredContent"]["estimatedMinutes"], 4);
    assert!(call["result"].get("resultType").is_none());
    let e = sse_message(legacy(
        &c,
        &url,
        Some(&session),
        Some(4),
        "tools/call",
        json!({"name": "shred"}),
    ));
    assert_eq!(e["error"]["code"], -32602);
    let e = sse_message(legacy(
        &c,
        &url,
        Some(&session),
        Some(5),
        "tools/call",
        json!({"name": "lookup_plan", "arguments": {"plan_id": "plan-404"}}),
    ));
    assert_eq!(e["result"]["isError"], true);
    assert_eq!(
        sse_message(legacy(&c, &url, Some(&session), Some(6), "ping", json!({})))["result"],
        json!({})
    );
    // the session is needed, and a GET stream is not offered
    let r = legacy(&c, &url, None, Some(7), "tools/list", json!({}));
    assert_eq!(
        (r.status().as_u16(), json_of(r)["error"]["message"].clone()),
        (400, json!("Bad Request: Missing session ID"))
    );
    assert_eq!(
        legacy(&c, &url, Some("0123"), Some(8), "tools/list", json!({})).status(),
        404
    );
    assert_eq!(
        c.get(&url)
            .header("mcp-session-id", session.as_str())
            .send()
            .expect("answered")
            .status(),
        405
    );
    assert_eq!(
        c.delete(&url)
            .header("mcp-session-id", session.as_str())
            .send()
            .expect("answered")
            .status(),
        200
    );
    assert_eq!(
        legacy(&c, &url, Some(&session), Some(9), "tools/list", json!({})).status(),
        404,
        "ended"
    );
    let report = mock.verify();
    assert!(
        report.interactions.iter().all(|i| i.exercised == 1),
        "{}",
        report.table()
    );
    assert_eq!(
        kinds(&report),
        ["not-found", "not-found", "not-found"],
        "{}",
        report.table()
    );
}

#[test]
fn a_call_on_the_other_era_is_answered_but_does_not_exercise_the_pinned_contract() {
    let mock = MockServer::start(&contract(MODERN)).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let session = legacy_session(&c, &url);
    let call = sse_message(legacy(
        &c,
        &url,
        Some(&session),
        Some(2),
        "tools/call",
        json!({"name": "make_plan", "arguments": {"goal": "g"}}),
    ));
    assert_eq!(
        call["result"]["isError"], true,
        "max_steps is missing: {call}"
    );
    let call = sse_message(legacy(
        &c,
        &url,
        Some(&session),
        Some(3),
        "tools/call",
        json!({"name": "make_plan", "arguments": {"goal": "g", "max_steps": 3}}),
    ));
    assert_eq!(call["result"]["isError"], false);
    let report = mock.verify();
    assert_eq!(report.interactions[0].exercised, 0);
    let era = report.mismatches.iter().find_map(|m| match m {
        MockMismatch::RequestMismatch { mismatches, .. }
            if mismatches[0].path == "MCP-Protocol-Version" =>
        {
            Some(mismatches[0].message.clone())
        }
        _ => None,
    });
    let era = era.expect("the era is recorded");
    assert!(
        era.contains("answered on MCP 2025-11-25, but the contract pins 2026-07-28"),
        "{era}"
    );
}
