//! W3C trace context on every A2A and MCP request: each interaction is one
//! trace, reported with its result; each request a new span; `tracestate`
//! names the run.

use std::collections::BTreeSet;

use accord_fixtures::a2a::A2aAgent;
use accord_fixtures::mcp::McpProvider;
use accord_verifier::VerificationReport;
use accord_verifier::config::A2aBinding;

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn trace_ids(report: &VerificationReport) -> BTreeSet<String> {
    let ids: Vec<String> = report
        .interactions()
        .map(|(_, i)| {
            i.trace_id
                .clone()
                .expect("every replayed interaction has a trace id")
        })
        .collect();
    let set: BTreeSet<String> = ids.iter().cloned().collect();
    assert_eq!(set.len(), ids.len(), "a new trace per interaction: {ids:?}");
    set
}

/// Every request's traceparent is well formed, continues one of the
/// interactions' traces with a span of its own, and names the run.
fn check_requests(seen: &[Vec<(String, String)>], traces: &BTreeSet<String>) {
    let mut spans = BTreeSet::new();
    let mut runs = BTreeSet::new();
    for headers in seen {
        let parent = header(headers, "traceparent").expect("every request carries a traceparent");
        let id = accord_verifier::trace::trace_id_of(parent).expect("well formed");
        assert!(
            traces.contains(id),
            "{parent} continues no interaction's trace"
        );
        spans.insert(parent.to_string());
        let state = header(headers, "tracestate").expect("tracestate");
        assert!(state.starts_with("accord="), "{state}");
        runs.insert(state.to_string());
    }
    assert_eq!(spans.len(), seen.len(), "a new span id per request");
    assert_eq!(runs.len(), 1, "one run id: {runs:?}");
}

#[test]
fn every_a2a_send_carries_its_interactions_trace_on_both_bindings() {
    for binding in [A2aBinding::JsonRpc, A2aBinding::HttpJson] {
        let agent = A2aAgent::start().expect("the agent starts");
        let report = crate::a2a_task::run_on(&agent, binding, crate::a2a_task::contract());
        let traces = trace_ids(&report);
        let seen: Vec<_> = agent.with_state(|s| {
            s.seen
                .iter()
                .filter(|r| r.method == "SendMessage" || r.method == "SendStreamingMessage")
                .map(|r| r.headers.clone())
                .collect()
        });
        assert!(!seen.is_empty());
        check_requests(&seen, &traces);
    }
}

#[test]
fn every_mcp_call_carries_its_interactions_trace_in_both_eras() {
    for era in crate::mcp::ERAS {
        let server = McpProvider::start().expect("server");
        let report = crate::mcp::run(&server, era);
        let traces = trace_ids(&report);
        let seen: Vec<_> = server.with_state(|s| {
            s.seen
                .iter()
                .filter(|(_, b)| b["method"] == "tools/call")
                .map(|(h, _)| h.clone())
                .collect()
        });
        assert!(!seen.is_empty());
        check_requests(&seen, &traces);
    }
}
