//! The mock's MCP server on loopback, in both eras: the wire as the SDK
//! servers serve it, answers from the contract, the report, bad input;
//! and the official Python `mcp` client against it (`sdk.rs`).

mod bad_input;
mod calls;
mod conformance;
mod eras;
mod observer;
mod sdk;

use accord_mock::{MockMismatch, MockReport};
use reqwest::blocking::{Client, Response};
use serde_json::{Value, json};

pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

pub fn client() -> Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::builder().build().expect("a client")
}

/// A planning tool relied on in `mcpTools`, a tool error, an unknown
/// tool; `pin` is `metadata.accord.mcp`.
pub fn contract(pin: &str) -> accord_dsl::Contract {
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "mcpTools": [{"name": "make_plan", "title": "Make plan", "description": "Turn a goal into a short ordered plan.",
            "arguments": [{"name": "goal", "type": "string", "alwaysSent": true},
                          {"name": "max_steps", "type": "integer"}],
            "resultFields": [{"path": "$.steps[*]", "type": "string"}],
            "annotations": {"readOnlyHint": true}}],
        "interactions": [
            {"type": "MCP/ToolCall", "description": "make a plan", "tool": "make_plan",
             "arguments": {"goal": "literature review", "max_steps": 2},
             "matchingRules": {"body": {
                 "$.arguments.goal": {"combine": "AND", "matchers": [{"match": "type"}]},
                 "$.arguments.max_steps": {"combine": "AND", "matchers": [{"match": "integer"}]}}},
             "result": {"structuredContent": {"goal": "literature review", "steps": ["search", "summarise"], "estimatedMinutes": 4},
                        "contentMatchesStructured": true}},
            {"type": "MCP/ToolCall", "description": "an unknown plan is a tool error", "tool": "lookup_plan",
             "arguments": {"plan_id": "plan-404"},
             "result": {"isError": true, "content": [{"type": "text", "text": "plan-404 not found"}]}},
            {"type": "MCP/ToolCall", "description": "an unknown tool is refused", "negative": true, "tool": "shred",
             "arguments": {}, "error": {"code": -32602, "message": "shred"}}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": pin}}});
    accord_dsl::pact::from_value(&doc, "t").expect("a contract")
}

/// A 2026-07-28 exchange: headers and `_meta` as the SDK client sends them.
/// A `_meta` the caller gives (a progress token) is kept.
pub fn modern(c: &Client, url: &str, id: u64, method: &str, mut params: Value) -> Response {
    let envelope = json!({"io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"}});
    let meta = &mut params["_meta"];
    if !meta.is_object() {
        *meta = json!({});
    }
    for (k, v) in envelope.as_object().into_iter().flatten() {
        meta[k] = v.clone();
    }
    let mut b = c
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", method);
    if let Some(name) = params["name"].as_str() {
        b = b.header("mcp-name", name);
    }
    b.body(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string())
        .send()
        .expect("answered")
}

/// A legacy request in `session` (none for `initialize`); `id` none for a
/// notification.
pub fn legacy(
    c: &Client,
    url: &str,
    session: Option<&str>,
    id: Option<u64>,
    method: &str,
    params: Value,
) -> Response {
    let mut message = json!({"jsonrpc": "2.0", "method": method, "params": params});
    if let Some(id) = id {
        message["id"] = json!(id);
    }
    let mut b = c
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(s) = session {
        b = b
            .header("mcp-session-id", s)
            .header("mcp-protocol-version", LEGACY);
    }
    b.body(message.to_string()).send().expect("answered")
}

/// Every JSON-RPC message of an SSE answer, in order.
pub fn sse_messages(r: Response) -> Vec<Value> {
    assert!(
        r.headers()["content-type"]
            .to_str()
            .is_ok_and(|t| t.starts_with("text/event-stream")),
        "{:?}",
        r.headers()
    );
    let text = r.text().expect("a body");
    text.split("\n\n")
        .filter_map(|event| event.lines().find_map(|l| l.strip_prefix("data: ")))
        .map(|data| serde_json::from_str(data).expect("JSON"))
        .collect()
}

/// The JSON-RPC message of an SSE answer (one `message` event).
pub fn sse_message(r: Response) -> Value {
    assert!(
        r.headers()["content-type"]
            .to_str()
            .is_ok_and(|t| t.starts_with("text/event-stream")),
        "{:?}",
        r.headers()
    );
    let text = r.text().expect("a body");
    assert!(text.starts_with("event: message\n"), "{text}");
    let data = text
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .expect("a data line");
    serde_json::from_str(data).expect("JSON")
}

pub fn json_of(r: Response) -> Value {
    r.json().expect("JSON")
}

pub fn legacy_session(c: &Client, url: &str) -> String {
    let r = legacy(
        c,
        url,
        None,
        Some(1),
        "initialize",
        json!({"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    );
    assert_eq!(r.status(), 200);
    let session = r.headers()["mcp-session-id"]
        .to_str()
        .expect("text")
        .to_owned();
    let init = sse_message(r);
    assert_eq!(init["result"]["protocolVersion"], LEGACY);
    assert!(init["result"]["serverInfo"]["name"].is_string());
    assert_eq!(
        init["result"]["capabilities"]["tools"],
        json!({"listChanged": false})
    );
    let r = legacy(
        c,
        url,
        Some(&session),
        None,
        "notifications/initialized",
        json!({}),
    );
    assert_eq!(r.status(), 202);
    session
}

pub fn kinds(report: &MockReport) -> Vec<&'static str> {
    report
        .mismatches
        .iter()
        .map(|m| match m {
            MockMismatch::MissingRequest { .. } => "missing",
            MockMismatch::RequestMismatch { .. } => "mismatch",
            MockMismatch::RequestNotFound { .. } => "not-found",
        })
        .collect()
}
