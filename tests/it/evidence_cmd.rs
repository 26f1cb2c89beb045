//! `accord verify --publish --producer-digest … --evidence-ttl …` against a
//! real `accord serve` and the reference MCP server: the replay moves the
//! version up to CONFORMANCE_VERIFIED, and `accord admission show` prints
//! the evidence record; a bad TTL or digest is a usage error.

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::json;

use crate::broker::BrokerProcess;
use crate::support::accord;

const PRODUCER: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";

/// Publishes orchestrator's contract calling the fixture's lookup tool.
fn publish_contract(broker: &BrokerProcess, dir: &std::path::Path) {
    let states =
        json!([{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}}]);
    let contract = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": [{"type": "MCP/ToolCall", "description": "look up a plan", "providerStates": states,
            "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
            "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]}}}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}
    });
    let file = dir.join("contract.json");
    std::fs::write(&file, contract.to_string()).expect("write");
    accord()
        .arg("publish")
        .arg(&file)
        .args(["--consumer-app-version", "1.0", "--branch", "main"])
        .args(["--broker-url", &broker.url])
        .assert()
        .success();
}

/// Seconds since the epoch of `YYYY-MM-DDTHH:MM:SSZ` (the broker's times).
fn seconds(text: &str) -> i64 {
    let n =
        |r: std::ops::Range<usize>| text.get(r).and_then(|t| t.parse::<i64>().ok()).expect(text);
    let (y, m, d) = (n(0..4), n(5..7), n(8..10));
    // days from the civil date (Howard Hinnant's algorithm)
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    days * 86_400 + n(11..13) * 3600 + n(14..16) * 60 + n(17..19)
}

fn verify(
    broker: &BrokerProcess,
    server: &accord_fixtures::mcp::McpProvider,
    extra: &[&str],
) -> assert_cmd::assert::Assert {
    accord()
        .args([
            "verify",
            "--provider",
            "planning-tools",
            "--provider-base-url",
        ])
        .arg(server.base_url())
        .args(["--mcp-url", &server.mcp_url()])
        .args(["--state-change-url", &server.state_change_url()])
        .args(["--broker-url", &broker.url, "--publish"])
        .args(["--provider-version", "3.5"])
        .args(extra)
        .assert()
}

#[test]
fn a_published_replay_is_admission_evidence_with_its_producer_digest_and_ttl() {
    let broker = BrokerProcess::start(&[]);
    let server = accord_fixtures::mcp::McpProvider::start().expect("server");
    let dir = tempfile::tempdir().expect("temp dir");
    publish_contract(&broker, dir.path());
    verify(
        &broker,
        &server,
        &["--producer-digest", PRODUCER, "--evidence-ttl", "36h"],
    )
    .success();
    let (status, admission) = broker.get("/pacticipants/planning-tools/versions/3.5/admission");
    assert_eq!(status, 200, "{admission}");
    assert_eq!(admission["state"], "CONFORMANCE_VERIFIED", "{admission}");
    let e = &admission["evidence"];
    assert_eq!(e["producerDigest"], PRODUCER, "{admission}");
    assert_eq!(e["profiles"], json!(["mcp-2026-07-28"]), "{admission}");
    assert_eq!(
        e["harnessVersion"],
        env!("CARGO_PKG_VERSION"),
        "{admission}"
    );
    let at = |k: &str| seconds(e[k].as_str().expect(k));
    let ttl = at("expiresAt") - at("verifiedAt");
    assert!(ttl > 35 * 3600 && ttl <= 36 * 3600, "{admission}");
    accord()
        .args(["admission", "show", "planning-tools", "3.5"])
        .args(["--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(
            contains("planning-tools 3.5: CONFORMANCE_VERIFIED")
                .and(contains("Evidence:"))
                .and(contains(format!("producer: {PRODUCER}")))
                .and(contains("profiles: mcp-2026-07-28"))
                .and(contains("security: not verified")),
        );
}

#[test]
fn a_bad_evidence_ttl_or_producer_digest_is_a_usage_error_before_any_replay() {
    let broker = BrokerProcess::start(&[]);
    let server = accord_fixtures::mcp::McpProvider::start().expect("server");
    verify(&broker, &server, &["--evidence-ttl", "91d"])
        .code(2)
        .stderr(contains("--evidence-ttl").and(contains("90 days")));
    verify(&broker, &server, &["--producer-digest", "sha256:abc"])
        .code(2)
        .stderr(contains("--producer-digest").and(contains("64 lower-case hex digits")));
    let (status, _) = broker.get("/pacticipants/planning-tools/versions/3.5");
    assert_eq!(status, 404, "nothing was published");
}
