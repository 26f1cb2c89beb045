//! `accord coverage` against a real `accord serve`: the table, the gaps,
//! and `--require-coverage` exiting 1 while a gap remains and 0 once the
//! live contracts cover every declared operation.

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::json;

use crate::broker::{BrokerProcess, each_backend};
use crate::support::accord;

const HEAD: &str = "consumer: planner\nprovider: plan-tools\nprotocols: { mcp: \"2026-07-28\" }\n\
    principals:\n  alice: { tenant: tenant-a }\ninteractions:\n  - mcp: look up\n    as: alice\n    \
    tool: plan_lookup\n    arguments: { plan_id: plan-1 }\n    expect: { structured: { status: ready } }\n";
const ERROR: &str = "  - mcp: unknown plan\n    as: alice\n    tool: plan_lookup\n    \
    arguments: { plan_id: nope }\n    expect: { is_error: true }\n";

/// Compiles and publishes planner `version` on main.
fn publish(broker: &BrokerProcess, dir: &std::path::Path, version: &str, spec: &str) {
    let yaml = dir.join(format!("planner-{version}.yaml"));
    let json = dir.join(format!("planner-{version}.json"));
    std::fs::write(&yaml, spec).expect("write");
    accord()
        .args(["contract", "compile"])
        .arg(&yaml)
        .arg("-o")
        .arg(&json)
        .assert()
        .success();
    accord()
        .arg("publish")
        .arg(&json)
        .args(["--consumer-app-version", version, "--branch", "main"])
        .args(["--broker-url", &broker.url])
        .assert()
        .success();
}

fn coverage(broker: &BrokerProcess, args: &[&str]) -> assert_cmd::assert::Assert {
    accord()
        .args(["coverage", "--pacticipant"])
        .args(args)
        .args(["--broker-url", &broker.url])
        .assert()
}

#[test]
fn coverage_prints_the_gaps_and_the_gate_fails_until_they_are_covered() {
    each_backend(&[], |broker| gate(&broker));
}

fn gate(broker: &BrokerProcess) {
    let dir = tempfile::tempdir().expect("temp dir");
    publish(broker, dir.path(), "1.0", HEAD);
    let tools = dir.path().join("tools.json");
    let listed = json!({"tools": [{"name": "plan_lookup", "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": true}}]});
    std::fs::write(&tools, listed.to_string()).expect("write");
    accord()
        .args([
            "declarations",
            "publish",
            "--pacticipant",
            "plan-tools",
            "--version",
            "3.5",
        ])
        .arg("--mcp-tools")
        .arg(&tools)
        .args(["--profile", "alice", "--broker-url", &broker.url])
        .assert()
        .success();

    coverage(broker, &["plan-tools"]).success().stdout(
        contains("Coverage of plan-tools 3.5: 1 operation(s), 1 gap(s)")
            .and(contains(
                "tool plan_lookup  read-only  boundary  -    planner    GAP",
            ))
            .and(contains(
                "COVERAGE_BOUNDARY_CASE_MISSING  tool plan_lookup (read-only)",
            )),
    );
    coverage(
        broker,
        &["plan-tools", "--version", "3.5", "--require-coverage"],
    )
    .code(1)
    .stdout(contains("COVERAGE_BOUNDARY_CASE_MISSING"));

    publish(broker, dir.path(), "1.1", &format!("{HEAD}{ERROR}"));
    coverage(broker, &["plan-tools", "--require-coverage"])
        .success()
        .stdout(contains("0 gap(s)").and(contains("covered")));
    coverage(broker, &["plan-tools", "-o", "json"])
        .success()
        .stdout(contains("\"covered\": true"));
    coverage(broker, &["nobody"])
        .code(2)
        .stderr(contains("Pacticipant 'nobody'"));
}
