//! The observer hook: every request read is handed over after its answer,
//! with its surface, headers and whether the contract allowed it.

use std::sync::{Arc, Mutex};

use accord_mock::{MockOptions, MockServer, Observed, Surface};
use serde_json::json;

use super::*;

#[test]
fn every_request_is_observed_with_its_tool_headers_and_mismatch() {
    let seen: Arc<Mutex<Vec<Observed>>> = Arc::default();
    let sink = seen.clone();
    let options = MockOptions {
        observer: Some(Arc::new(move |o| sink.lock().expect("lock").push(o))),
        ..MockOptions::default()
    };
    let mock = MockServer::start_with(&contract(MODERN), options).expect("starts");
    let (c, url) = (client(), mock.mcp_url().expect("an MCP surface"));
    let allowed = json!({"name": "make_plan", "arguments": {"goal": "g", "max_steps": 2}});
    json_of(modern(&c, &url, 1, "tools/call", allowed));
    json_of(modern(
        &c,
        &url,
        2,
        "tools/call",
        json!({"name": "nope", "arguments": {}}),
    ));
    let plain = c
        .get(format!("{}/elsewhere", mock.url()))
        .send()
        .expect("sent");
    assert_eq!(plain.status(), 500);
    let seen = seen.lock().expect("lock");
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert_eq!(
        seen[0].surface,
        Surface::Mcp {
            method: "tools/call".into(),
            tool: Some("make_plan".into())
        }
    );
    assert!(seen[0].mismatch.is_none(), "{:?}", seen[0].mismatch);
    assert!(
        seen[0]
            .headers
            .iter()
            .any(|(k, v)| k == "mcp-method" && v == "tools/call")
    );
    assert_eq!(seen[0].method, "POST");
    assert!(seen[1].mismatch.is_some(), "an unknown tool is a mismatch");
    assert_eq!(seen[2].surface, Surface::Http);
    assert_eq!(seen[2].path, "/elsewhere");
    assert!(seen[2].mismatch.is_some());
    assert!(seen[0].at <= seen[1].at && seen[1].at <= seen[2].at);
}
