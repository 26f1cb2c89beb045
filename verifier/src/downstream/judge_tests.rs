//! The judge of downstream calls, rule by rule: each fault its one finding.

use std::time::{Duration, Instant};

use accord_dsl::model::accord::Delegation;
use serde_json::json;

use super::super::{DownstreamCall, Surface};
use super::{Judged, judge};
use crate::canary::Canaries;
use crate::config::Token;
use crate::driver::Authorization;

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";

fn delegation(v: serde_json::Value) -> Delegation {
    serde_json::from_value(v).expect("a delegation record")
}

fn call(
    dependency: &str,
    surface: Surface,
    at: Instant,
    traceparent: Option<&str>,
) -> DownstreamCall {
    let mut headers = vec![(
        "authorization".to_owned(),
        "Bearer service-token-1".to_owned(),
    )];
    if let Some(t) = traceparent {
        headers.push(("traceparent".into(), t.into()));
    }
    DownstreamCall {
        dependency: dependency.into(),
        at,
        method: "POST".into(),
        path: "/mcp".into(),
        headers,
        surface,
        mismatch: None,
    }
}

fn tool(name: &str) -> Surface {
    Surface::Mcp {
        method: "tools/call".into(),
        tool: Some(name.into()),
    }
}

fn send() -> Surface {
    Surface::A2a {
        operation: "SendMessage".into(),
        metadata: None,
    }
}

fn good_parent() -> String {
    format!("00-{TRACE}-00f067aa0ba902b7-01")
}

fn codes(
    d: Option<&Delegation>,
    calls: &[DownstreamCall],
    sent_at: Instant,
) -> Vec<(&'static str, String)> {
    let canaries = Canaries::of(
        &[("alice".to_owned(), Token::new("alice-secret-token"))]
            .into_iter()
            .collect(),
        Authorization::Without,
        &[],
    );
    let ids = vec!["0f8fad5b-d9cb-469f-a165-70867728950e".to_owned()];
    let j = Judged {
        delegation: d,
        trace_id: TRACE,
        task_ids: &ids,
        canaries: &canaries,
        mcp_server: false,
        read_only_tool: None,
        sent_at,
        cancel_acked: None,
    };
    let (found, _) = judge(&j, calls);
    found
        .into_iter()
        .map(|f| (f.reason_code, f.path.to_string()))
        .collect()
}

#[test]
fn the_synthetic_failure_is_exactly_three_findings_and_the_good_build_none() {
    let d = delegation(
        json!({"mode": "DRAFT_ONLY", "allowedTools": ["meeting.search", "policy.check"],
        "forbiddenTools": ["ticket.create"], "traceContext": "propagate", "credential": "notForwarded"}),
    );
    let now = Instant::now();
    let good: Vec<_> = ["meeting.search", "policy.check"]
        .iter()
        .map(|t| call("tools", tool(t), now, Some(&good_parent())))
        .collect();
    assert_eq!(codes(Some(&d), &good, now), []);
    let mut bad = vec![
        call("tools", tool("meeting.search"), now, None),
        call("tools", tool("ticket.create"), now, None),
    ];
    for c in &mut bad {
        c.headers[0].1 = "Bearer alice-secret-token".into();
    }
    assert_eq!(
        codes(Some(&d), &bad, now),
        [
            ("CREDENTIAL_FORWARDED", "delegation.credential".to_owned()),
            ("TRACE_CONTEXT_BROKEN", "delegation.traceContext".to_owned()),
            (
                "DELEGATION_FORBIDDEN_ACTION",
                "delegation.forbiddenTools[0]".to_owned()
            ),
        ]
    );
}

#[test]
fn a_tool_outside_the_allowed_set_is_forbidden_and_not_also_a_contract_break() {
    let d = delegation(json!({"allowedTools": ["meeting.search"]}));
    let now = Instant::now();
    let mut c = call("tools", tool("ticket.create"), now, None);
    c.mismatch = Some("no interaction calls ticket.create".into());
    assert_eq!(
        codes(Some(&d), &[c.clone()], now),
        [(
            "DELEGATION_FORBIDDEN_ACTION",
            "delegation.allowedTools".to_owned()
        )]
    );
    // without a delegation the stand-in's mismatch is the finding
    assert_eq!(
        codes(None, &[c], now),
        [(
            "DOWNSTREAM_CONTRACT_BROKEN",
            "dependencies.tools".to_owned()
        )]
    );
}

#[test]
fn budgets_are_crossed_once_each_at_the_call_that_crossed_them() {
    let d = delegation(
        json!({"budget": {"toolCalls": 2, "costUnits": 3, "costs": {"meeting.search": 2}}}),
    );
    let now = Instant::now();
    let calls: Vec<_> = (0..4)
        .map(|_| call("tools", tool("meeting.search"), now, None))
        .collect();
    assert_eq!(
        codes(Some(&d), &calls, now),
        [
            (
                "DELEGATION_BUDGET_EXCEEDED",
                "delegation.budget.costUnits".to_owned()
            ),
            (
                "DELEGATION_BUDGET_EXCEEDED",
                "delegation.budget.toolCalls".to_owned()
            ),
        ]
    );
    assert_eq!(codes(Some(&d), &calls[..1], now), []);
}

#[test]
fn depth_fan_out_and_forbidden_agents_are_told_apart() {
    let now = Instant::now();
    let zero = delegation(json!({"maxDepth": 0}));
    assert_eq!(
        codes(Some(&zero), &[call("helper", send(), now, None)], now),
        [(
            "DELEGATION_DEPTH_EXCEEDED",
            "delegation.maxDepth".to_owned()
        )]
    );
    let one = delegation(json!({"maxDepth": 1}));
    let carried = Surface::A2a {
        operation: "SendMessage".into(),
        metadata: json!({"delegation": {"maxDepth": 0}}).as_object().cloned(),
    };
    assert_eq!(
        codes(Some(&one), &[call("helper", carried, now, None)], now),
        []
    );
    assert_eq!(
        codes(Some(&one), &[call("helper", send(), now, None)], now).len(),
        1,
        "a record without maxDepth"
    );
    let fan = delegation(json!({"maxFanOut": 1}));
    let two = [call("a", send(), now, None), call("b", send(), now, None)];
    assert_eq!(
        codes(Some(&fan), &two, now),
        [(
            "DELEGATION_DEPTH_EXCEEDED",
            "delegation.maxFanOut".to_owned()
        )]
    );
    let agents = delegation(json!({"forbiddenAgents": ["billing-agent"], "maxDepth": 0}));
    assert_eq!(
        codes(
            Some(&agents),
            &[call("billing-agent", send(), now, None)],
            now
        ),
        [(
            "DELEGATION_FORBIDDEN_ACTION",
            "delegation.forbiddenAgents[0]".to_owned()
        )],
        "a forbidden agent is not also a depth finding"
    );
}

#[test]
fn a_late_call_passes_the_deadline_and_a_reused_task_id_is_reused_not_broken() {
    let now = Instant::now();
    let d = delegation(json!({"deadlineMs": 50, "traceContext": "propagate"}));
    let late = call(
        "tools",
        tool("x"),
        now + Duration::from_millis(80),
        Some(&good_parent()),
    );
    assert_eq!(
        codes(Some(&d), &[late], now),
        [(
            "DELEGATION_DEADLINE_EXCEEDED",
            "delegation.deadlineMs".to_owned()
        )]
    );
    let reused = "00-0f8fad5bd9cb469fa16570867728950e-00f067aa0ba902b7-01";
    assert_eq!(
        codes(
            Some(&d),
            &[call("tools", tool("x"), now, Some(reused))],
            now
        ),
        [("TRACE_ID_REUSED", "delegation.traceContext".to_owned())]
    );
}

#[test]
fn an_mcp_server_never_forwards_a_credential_and_a_read_only_tool_never_writes() {
    let now = Instant::now();
    let canaries = Canaries::of(
        &[("alice".to_owned(), Token::new("alice-secret-token"))]
            .into_iter()
            .collect(),
        Authorization::Without,
        &[],
    );
    let mut post = call("billing-api", Surface::Http, now, None);
    post.headers[0].1 = "Bearer alice-secret-token".into();
    let j = Judged {
        delegation: None,
        trace_id: TRACE,
        task_ids: &[],
        canaries: &canaries,
        mcp_server: true,
        read_only_tool: Some("plan.lookup"),
        sent_at: now,
        cancel_acked: None,
    };
    let (found, chain) = judge(&j, &[post]);
    let got: Vec<_> = found.iter().map(|f| f.reason_code).collect();
    assert_eq!(
        got,
        ["SIDE_EFFECT_DECLARATION_MISMATCH", "CREDENTIAL_FORWARDED"]
    );
    assert!(
        !found[1].detail.to_string().contains("alice-secret-token"),
        "never the value"
    );
    assert_eq!(chain[0].name, "POST /mcp");
    assert!(!chain[0].continues_trace);
}

#[test]
fn downstream_work_after_the_acknowledged_cancel_is_a_side_effect_after_cancel() {
    let now = Instant::now();
    let canaries = Canaries::default();
    let acked = now + Duration::from_millis(100);
    let j = Judged {
        delegation: None,
        trace_id: TRACE,
        task_ids: &[],
        canaries: &canaries,
        mcp_server: false,
        read_only_tool: None,
        sent_at: now,
        cancel_acked: Some(acked),
    };
    let before = call(
        "tools",
        tool("meeting.search"),
        now + Duration::from_millis(50),
        None,
    );
    let (found, _) = judge(&j, std::slice::from_ref(&before));
    assert!(found.is_empty(), "{found:?}");
    let late = [
        call(
            "tools",
            tool("meeting.search"),
            acked + Duration::from_millis(30),
            None,
        ),
        call(
            "tools",
            tool("policy.check"),
            acked + Duration::from_millis(60),
            None,
        ),
    ];
    let (found, _) = judge(&j, &late);
    let got: Vec<_> = found
        .iter()
        .map(|f| (f.layer.as_str(), f.reason_code, f.path.to_string()))
        .collect();
    assert_eq!(
        got,
        [("temporal", "SIDE_EFFECT_AFTER_CANCEL", "cancel".to_owned())],
        "once"
    );
}
