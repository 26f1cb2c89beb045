//! MCP 2026-07-28 calls answered with a task of the tasks extension
//! (`io.modelcontextprotocol/tasks`): followed with `tasks/get` to the
//! result a direct call gives and judged as one; each task fault is its one
//! finding; the same contracts pinned to 2025-11-25 get direct answers.

use std::collections::BTreeSet;
use std::time::Duration;

use accord_fixtures::mcp::{McpFault, McpProvider};
use accord_verifier::{
    ContractSource, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::{Value, json};

use crate::mcp::{ERAS, contract};

const EXTENSION: &str = "io.modelcontextprotocol/tasks";

fn run(server: &McpProvider, sourced: SourcedContract, timeout: Duration) -> VerificationReport {
    let mut config = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![sourced]),
    );
    config.state_change_url = Some(server.state_change_url());
    config.observe_url = Some(server.observe_url());
    config.limits.request_timeout = timeout;
    verify_blocking(&config).expect("no operational failure")
}

/// `(interaction, layer, code)` of every finding, and every warning.
fn found(report: &VerificationReport) -> BTreeSet<(String, &'static str, &'static str)> {
    report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter().chain(&i.warnings).map(move |f| (i, f)))
        .map(|(i, f)| (i.description.clone(), f.layer.as_str(), f.reason_code))
        .collect()
}

/// One lookup of a plan, with `temporal` limits if any.
fn lookup(era: &str, temporal: Option<Value>) -> SourcedContract {
    let mut lookup = json!({"type": "MCP/ToolCall", "description": "look up a plan",
        "providerStates": [{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}}],
        "sideEffects": {"records": 0},
        "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
        "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]},
            "contentMatchesStructured": true}});
    if let Some(t) = temporal {
        lookup["temporal"] = t;
    }
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": [lookup],
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "mcp": era, "jsonSchema": "2020-12"}}});
    SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "mcp tasks test").expect("a contract"),
        era,
    )
}

/// The requests of `method` the server received: (headers, body).
fn received(server: &McpProvider, method: &str) -> Vec<(Vec<(String, String)>, Value)> {
    server.with_state(|s| {
        s.seen
            .iter()
            .filter(|(_, b)| b["method"] == method)
            .cloned()
            .collect()
    })
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn a_whole_contract_answered_with_tasks_passes_in_2026_07_28() {
    let server = McpProvider::start().expect("server");
    server.answer_with_tasks(true);
    let report = run(&server, contract("2026-07-28"), Duration::from_secs(5));
    let failed: Vec<_> = found(&report)
        .into_iter()
        .filter(|(_, _, code)| *code != "ERROR_CODE_MISMATCH")
        .collect();
    assert_eq!(failed, [], "{:#?}", report.contracts[0].interactions);
    assert!(report.passed());
    // every call was a task, followed to its end
    let tasks = server.with_state(|s| s.tasks.len());
    let calls = received(&server, "tools/call");
    assert_eq!(tasks, calls.len(), "every tools/call became a task");
    // the call declares the extension; each poll names its task, declares
    // the extension and presents the credential of the call it follows
    for (_, body) in &calls {
        let caps = &body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
        assert_eq!(caps["extensions"][EXTENSION], json!({}), "{body}");
    }
    let created_by = server.with_state(|s| {
        s.tasks
            .iter()
            .map(|(id, t)| (id.clone(), t.tenant.clone()))
            .collect::<std::collections::BTreeMap<_, _>>()
    });
    let polls = received(&server, "tasks/get");
    assert!(
        polls.len() >= tasks,
        "{} polls for {tasks} tasks",
        polls.len()
    );
    for (headers, body) in &polls {
        let id = body["params"]["taskId"].as_str().expect("a task id");
        assert_eq!(header(headers, "mcp-name"), Some(id));
        assert_eq!(header(headers, "mcp-method"), Some("tasks/get"));
        assert!(
            body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
                [EXTENSION]
                .is_object()
        );
        // as the principal whose call created the task
        let token = header(headers, "authorization").and_then(|v| v.strip_prefix("Bearer "));
        let tenant =
            server.with_state(|s| token.and_then(|t| s.tokens.get(t)).map(|p| p.1.clone()));
        assert_eq!(created_by.get(id), Some(&tenant), "{id}");
    }
    assert_eq!(
        received(&server, "tasks/cancel").len(),
        0,
        "nothing given up"
    );
}

#[test]
fn pinned_to_2025_11_25_the_same_contracts_get_direct_answers_and_pass() {
    let faults = [
        None,
        Some(McpFault::TaskNeverCompletes),
        Some(McpFault::TaskOutputSchemaViolation),
        Some(McpFault::TaskMalformed),
    ];
    for fault in faults {
        let server = McpProvider::start().expect("server");
        server.answer_with_tasks(true);
        server.set_fault(fault);
        let report = run(&server, lookup("2025-11-25", None), Duration::from_secs(5));
        assert_eq!(found(&report), BTreeSet::new(), "{fault:?}");
        assert!(report.passed(), "{fault:?}");
        assert_eq!(server.with_state(|s| s.tasks.len()), 0, "{fault:?}");
        assert_eq!(received(&server, "tasks/get").len(), 0, "{fault:?}");
    }
    // and the whole contract, with its probes, repeats and invalid inputs
    let server = McpProvider::start().expect("server");
    server.answer_with_tasks(true);
    let report = run(&server, contract(ERAS[1]), Duration::from_secs(5));
    assert!(report.passed(), "{:#?}", report.contracts[0].interactions);
    assert_eq!(server.with_state(|s| s.tasks.len()), 0);
}

/// A task fault, the interaction's `temporal`, and the (layer, code) it gives.
type Case = (McpFault, Option<Value>, (&'static str, &'static str));

#[test]
fn each_task_fault_is_its_one_finding_on_its_layer() {
    let never = McpFault::TaskNeverCompletes;
    let cases: [Case; 4] = [
        (
            never,
            Some(json!({"completionWithinMs": 400})),
            ("temporal", "COMPLETION_LATE"),
        ),
        (never, None, ("protocol", "TASK_NOT_COMPLETED")),
        (
            McpFault::TaskOutputSchemaViolation,
            None,
            ("schema", "OUTPUT_SCHEMA_VIOLATION"),
        ),
        (
            McpFault::TaskMalformed,
            None,
            ("protocol", "MALFORMED_RESPONSE"),
        ),
    ];
    for (fault, temporal, (layer, code)) in cases {
        let server = McpProvider::start().expect("server");
        server.set_fault(Some(fault));
        // without a limit a task is followed ten request timeouts: 3 s here
        let report = run(
            &server,
            lookup("2026-07-28", temporal.clone()),
            Duration::from_millis(300),
        );
        let want = BTreeSet::from([("look up a plan".to_owned(), layer, code)]);
        assert_eq!(found(&report), want, "{fault:?} {temporal:?}");
        let gave_up = fault == never;
        let cancelled = server.with_state(|s| s.tasks.values().all(|t| t.cancelled));
        assert_eq!(
            cancelled, gave_up,
            "{fault:?}: a task given up on is cancelled"
        );
    }
}

#[test]
fn acknowledgement_is_timed_to_the_task_and_completion_to_its_end() {
    let limits = json!({"acknowledgeWithinMs": 1000, "completionWithinMs": 6000});
    let server = McpProvider::start().expect("server");
    server.answer_with_tasks(true);
    // longer than the acknowledgement limit: only the task handle is timed
    server.set_task_delay(Duration::from_millis(1200));
    let report = run(
        &server,
        lookup("2026-07-28", Some(limits)),
        Duration::from_secs(5),
    );
    assert_eq!(found(&report), BTreeSet::new());
    // a limit shorter than the task is late, at its limit
    let server = McpProvider::start().expect("server");
    server.answer_with_tasks(true);
    let short = json!({"completionWithinMs": 30});
    let report = run(
        &server,
        lookup("2026-07-28", Some(short)),
        Duration::from_secs(5),
    );
    let late: Vec<_> = report
        .interactions()
        .flat_map(|(_, i)| &i.findings)
        .collect();
    assert_eq!(late.len(), 1, "{late:?}");
    assert_eq!(
        (late[0].reason_code, late[0].path.as_str()),
        ("COMPLETION_LATE", "completionWithinMs")
    );
    assert_eq!(late[0].expected.as_deref(), Some(&json!(30)));
}
