//! `accord diff`: offline from files (with and without consumer
//! contracts) and through a real `accord serve`.

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::{Value, json};

use crate::broker::BrokerProcess;
use crate::support::accord;

fn tools(status: &[&str]) -> Value {
    json!({"tools": [{"name": "review", "inputSchema": {"type": "object", "required": ["plan_id"],
        "properties": {"plan_id": {"type": "string"}}},
        "outputSchema": {"type": "object", "required": ["status"],
            "properties": {"status": {"type": "string", "enum": status}}}}]})
}

fn contract(consumer: &str, values: &[&str]) -> Value {
    json!({"consumer": {"name": consumer}, "provider": {"name": "plan-tools"},
        "interactions": [], "metadata": {"pactSpecification": {"version": "4.0"}},
        "mcpTools": [{"name": "review", "arguments": [{"name": "plan_id", "type": "string", "alwaysSent": true}],
            "resultFields": [{"path": "$.status", "type": "string", "enum": values}]}]})
}

fn write(dir: &std::path::Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, value.to_string()).expect("write");
    path.to_string_lossy().into_owned()
}

#[test]
fn offline_a_removed_enum_value_fails_only_for_a_consumer_that_relies_on_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let old = write(
        dir.path(),
        "old.json",
        &tools(&["draft", "ready", "rejected"]),
    );
    let new = write(dir.path(), "new.json", &tools(&["ready", "rejected"]));
    let planner = write(
        dir.path(),
        "planner.json",
        &contract("planner", &["draft", "ready"]),
    );
    let auditor = write(dir.path(), "auditor.json", &contract("auditor", &["ready"]));
    accord()
        .args(["diff", &old, &new])
        .assert()
        .code(1)
        .stdout(contains(
            "breaking\tBREAKING_ENUM_REMOVAL\tmcpTools[review].result.status",
        ));
    accord()
        .args([
            "diff",
            &old,
            &new,
            "--contract",
            &planner,
            "--contract",
            &auditor,
        ])
        .assert()
        .code(1)
        .stdout(contains("planner (").and(contains("auditor (").not()));
    accord()
        .args(["diff", &old, &new, "--contract", &auditor])
        .assert()
        .success()
        .stdout(contains("none breaks a consumer"));
    accord()
        .args(["diff", &old, &old])
        .assert()
        .success()
        .stdout(contains("No changes."));
}

#[test]
fn through_a_broker_between_two_provider_versions() {
    let broker = BrokerProcess::start(&[]);
    let dir = tempfile::tempdir().expect("temp dir");
    for (version, status) in [
        ("3.4", tools(&["draft", "ready"])),
        ("3.5", tools(&["ready"])),
    ] {
        let file = write(dir.path(), &format!("{version}.json"), &status);
        accord()
            .args([
                "declarations",
                "publish",
                "--pacticipant",
                "plan-tools",
                "--version",
                version,
            ])
            .args([
                "--mcp-tools",
                &file,
                "--profile",
                "carol",
                "--broker-url",
                &broker.url,
            ])
            .assert()
            .success();
    }
    accord()
        .args([
            "diff",
            "--pacticipant",
            "plan-tools",
            "--from",
            "3.4",
            "--to",
            "3.5",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success()
        .stdout(contains("BREAKING_ENUM_REMOVAL").and(contains("none breaks a consumer")));
    accord()
        .args([
            "diff",
            "--pacticipant",
            "plan-tools",
            "--from",
            "0.1",
            "--to",
            "3.5",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .code(2)
        .stderr(contains("0.1"));
}
