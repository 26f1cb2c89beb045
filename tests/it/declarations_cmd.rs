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
        .stdout(contains(digest.as_str()).and(contains(
            "Static check: no live consumer contract to check the declarations against",
        )));

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

#[test]
fn verify_publish_declares_the_tool_list_it_verified_by_the_digest_it_recorded() {
    let broker = BrokerProcess::start(&[]);
    let server = accord_fixtures::mcp::McpProvider::start().expect("server");
    let dir = tempfile::tempdir().expect("temp dir");
    let states =
        json!([{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}}]);
    let contract = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": [{"type": "MCP/ToolCall", "description": "look up a plan", "providerStates": states,
            "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
            "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]}}}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}
    });
    let file = dir.path().join("contract.json");
    std::fs::write(&file, contract.to_string()).expect("write");
    accord()
        .arg("publish")
        .arg(&file)
        .args([
            "--consumer-app-version",
            "1.0",
            "--branch",
            "main",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success();
    accord()
        .args([
            "verify",
            "--provider",
            "planning-tools",
            "--provider-base-url",
        ])
        .arg(server.base_url())
        .args([
            "--mcp-url",
            &server.mcp_url(),
            "--state-change-url",
            &server.state_change_url(),
        ])
        .args([
            "--broker-url",
            &broker.url,
            "--publish",
            "--provider-version",
            "3.5",
        ])
        .assert()
        .success();
    let (status, declared) = broker.get("/pacticipants/planning-tools/versions/3.5/declarations");
    assert_eq!(status, 200, "{declared}");
    let tools = &declared["declarations"][0];
    assert_eq!(tools["kind"], "mcp/tools/list", "{declared}");
    let (_, result) = broker.get(
        "/pacts/provider/planning-tools/consumer/orchestrator/latest/verification-results/latest",
    );
    assert_eq!(
        result["declarations"][0]["digest"], tools["digest"],
        "{result}"
    );
    let path = format!(
        "/pacticipants/planning-tools/versions/3.5/declarations/mcp-tools/{}",
        accord_broker::hal::encode_segment(tools["profile"].as_str().unwrap_or(""))
    );
    let (_, one) = broker.get(&path);
    assert!(
        one["content"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty()),
        "{one}"
    );
}

#[test]
fn a_card_url_is_read_as_the_verifier_reads_it() {
    let broker = BrokerProcess::start(&[]);
    let agent = accord_fixtures::a2a::A2aAgent::start().expect("agent");
    publish(&broker, &["--agent-card", &agent.card_url()])
        .success()
        .stdout(contains("Declared the Agent Card"));
    let (status, card) = broker.get("/pacticipants/tools/versions/3.5/declarations/agent-card");
    assert_eq!(status, 200, "{card}");
    assert!(card["content"]["skills"].is_array(), "{card}");
    publish(
        &broker,
        &["--agent-card", "http://127.0.0.1:9/nothing-listens"],
    )
    .code(2)
    .stderr(contains("could not be read"));
}

/// Publishes the one-tool contract of `planning-tools` and verifies
/// `server` as version 3.5 with `--publish`: the tool list digest it declared.
fn verified_digest(broker: &BrokerProcess, server: &accord_fixtures::mcp::McpProvider) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let contract = json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": [{"type": "MCP/ToolCall", "description": "look up a plan",
            "providerStates": [{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}}],
            "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
            "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]}}}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}
    });
    let file = dir.path().join("contract.json");
    std::fs::write(&file, contract.to_string()).expect("write");
    accord()
        .arg("publish")
        .arg(&file)
        .args(["--consumer-app-version", "1.0", "--branch", "main"])
        .args(["--broker-url", &broker.url])
        .assert()
        .success();
    accord()
        .args([
            "verify",
            "--provider",
            "planning-tools",
            "--provider-base-url",
        ])
        .arg(server.base_url())
        .args([
            "--mcp-url",
            &server.mcp_url(),
            "--state-change-url",
            &server.state_change_url(),
        ])
        .args(["--broker-url", &broker.url])
        .args(["--publish", "--provider-version", "3.5"])
        .assert()
        .success();
    let (_, declared) = broker.get("/pacticipants/planning-tools/versions/3.5/declarations");
    declared["declarations"][0]["digest"]
        .as_str()
        .unwrap_or_else(|| panic!("no declaration: {declared}"))
        .to_owned()
}

fn publish_tools(
    broker: &BrokerProcess,
    version: &str,
    args: &[&str],
) -> assert_cmd::assert::Assert {
    accord()
        .args([
            "declarations",
            "publish",
            "--pacticipant",
            "planning-tools",
            "--version",
            version,
        ])
        .args(["--profile", "alice"])
        .args(args)
        .args(["--broker-url", &broker.url])
        .assert()
}

#[test]
fn a_tool_list_url_is_listed_page_by_page_and_declared_by_the_digest_verify_declares() {
    let broker = BrokerProcess::start(&[]);
    let server = accord_fixtures::mcp::McpProvider::start().expect("server");
    server.set_tool_pages(accord_fixtures::mcp::ToolPages::Split(3));
    let verified = verified_digest(&broker, &server);
    let pages = |s: &accord_fixtures::mcp::McpProvider| {
        s.with_state(|s| s.calls.get("tools/list").copied().unwrap_or(0))
    };
    let before = pages(&server);
    publish_tools(&broker, "3.6", &["--mcp-tools", &server.mcp_url()])
        .success()
        .stdout(contains(verified.as_str()));
    assert_eq!(pages(&server) - before, 3, "every nextCursor page was read");
    let (status, one) =
        broker.get("/pacticipants/planning-tools/versions/3.6/declarations/mcp-tools/alice");
    assert_eq!(status, 200, "{one}");
    assert_eq!(one["digest"], json!(verified), "{one}");
    // a 2025 era opens a session with initialize first; the same tools
    publish_tools(
        &broker,
        "3.7",
        &[
            "--mcp-tools",
            &server.mcp_url(),
            "--mcp-version",
            "2025-11-25",
        ],
    )
    .success()
    .stdout(contains(verified.as_str()));
    assert!(server.with_state(|s| s.calls.contains_key("initialize")));
}

#[test]
fn a_principal_token_goes_to_the_tool_list_url_only_and_a_server_that_is_down_publishes_nothing() {
    let broker = BrokerProcess::start(&[]);
    let server = accord_fixtures::mcp::McpProvider::start().expect("server");
    let secret = "tok-alice-7f3a9c";
    server.with_state(|s| {
        s.tokens
            .insert(secret.to_owned(), ("alice".into(), "tenant-a".into()))
    });
    publish_tools(&broker, "4.0", &["--mcp-tools", &server.mcp_url()])
        .code(2)
        .stderr(contains("could not be read"));
    let principal = format!("alice={secret}");
    let earlier = server.with_state(|s| s.seen.len());
    let out = publish_tools(
        &broker,
        "4.0",
        &["--mcp-tools", &server.mcp_url(), "--principal", &principal],
    )
    .success()
    .stdout(contains("Declared the MCP tools of profile alice"));
    let printed = String::from_utf8_lossy(&out.get_output().stdout).into_owned()
        + &String::from_utf8_lossy(&out.get_output().stderr);
    assert!(!printed.contains(secret), "the token is never printed");
    let bearer = format!("Bearer {secret}");
    let sent = server.with_state(|s| {
        s.seen[earlier..]
            .iter()
            .filter(|(_, m)| m["method"] == "tools/list")
            .all(|(h, _)| h.iter().any(|(n, v)| n == "authorization" && *v == bearer))
    });
    assert!(sent, "every tools/list carried the principal's token");
    let (_, stored) =
        broker.get("/pacticipants/planning-tools/versions/4.0/declarations/mcp-tools/alice");
    assert!(!stored.to_string().contains(secret), "{stored}");

    publish_tools(&broker, "4.1", &["--mcp-tools", "http://127.0.0.1:9/mcp"])
        .code(2)
        .stderr(contains(
            "the tools/list of http://127.0.0.1:9/mcp could not be read",
        ));
    let (status, _) = broker.get("/pacticipants/planning-tools/versions/4.1/declarations");
    assert_eq!(status, 404, "nothing was published");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("tools.json");
    std::fs::write(&file, r#"{"tools": []}"#).expect("write");
    publish_tools(
        &broker,
        "4.1",
        &[
            "--mcp-tools",
            &file.to_string_lossy(),
            "--principal",
            &principal,
        ],
    )
    .code(2)
    .stderr(contains("--principal goes with an --mcp-tools URL"));
}
