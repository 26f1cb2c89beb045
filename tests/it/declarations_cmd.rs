//! `accord declarations publish|show` against a real `accord serve`: what
//! the broker holds after each step, and a refused file.

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::json;

use crate::broker::BrokerProcess;
use crate::support::accord;

fn publish(broker: &BrokerProcess, args: &[&str]) -> assert_cmd::assert::Assert {
    accord()
        .args([
            "declarations",
            "publish",
            "--pacticipant",
            "tools",
            "--version",
            "3.5",
        ])
        .args(args)
        .args(["--broker-url", &broker.url])
        .assert()
}

#[test]
fn a_tool_list_and_a_card_are_published_by_digest_and_shown() {
    let broker = BrokerProcess::start(&[]);
    let dir = tempfile::tempdir().expect("temp dir");
    let tools = dir.path().join("tools.json");
    let listed = [
        json!({"name": "b", "inputSchema": {"type": "object"}}),
        json!({"name": "a", "inputSchema": {"type": "object"}}),
    ];
    std::fs::write(&tools, json!({"tools": listed}).to_string()).expect("write");
    let digest = accord_verifier::mcp::listing::digest_of(&listed);
    let tools = tools.to_string_lossy().into_owned();
    publish(&broker, &["--mcp-tools", &tools, "--profile", "alice"])
        .success()
        .stdout(contains(digest.as_str()));

    let card = dir.path().join("card.json");
    std::fs::write(&card, "[1]").expect("write");
    let card = card.to_string_lossy().into_owned();
    publish(&broker, &["--agent-card", &card])
        .code(2)
        .stderr(contains("$"));
    publish(&broker, &["--mcp-tools", &tools])
        .code(2)
        .stderr(contains("--profile"));

    accord()
        .args([
            "declarations",
            "show",
            "--pacticipant",
            "tools",
            "--version",
            "3.5",
        ])
        .args(["--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains("mcp/tools/list\talice\t").and(contains(digest.as_str())));
}
