//! The official `pact verifier` against a broker holding a plain Pact
//! contract and an Accord contract (HTTP interactions and an
//! `MCP/ToolCall`) for one provider, the reference HTTP provider: it loads
//! the Accord contract's Pact view, really replays its HTTP interactions
//! and publishes; can-i-deploy then says no for the Accord consumer,
//! naming the interaction only `accord verify` checks, until `accord
//! verify` — which still gets the whole contract from the broker — has
//! verified it. A later Pact-view result of the same provider version does
//! not undo that.

use std::path::Path;

use accord_fixtures::http::HttpProvider;
use accord_fixtures::mcp::McpProvider;
use serde_json::{Value, json};

use super::tools::{Auth, BrokerApi, PactCli, Run, pact_cli_or_skip};
use crate::broker::{BrokerProcess, each_backend};
use crate::support::{accord, temp_dir};

const PROVIDER: &str = "items";
const PLAIN: &str = "shop";
const ACCORD: &str = "orchestrator";

/// The plain Pact consumer's file: `GET /items/7`.
fn plain_pact() -> Value {
    json!({
        "consumer": {"name": PLAIN}, "provider": {"name": PROVIDER},
        "interactions": [{
            "type": "Synchronous/HTTP", "description": "get item 7",
            "providerStates": [{"name": "an item exists", "params": {"id": 7}}],
            "request": {"method": "GET", "path": "/items/7"},
            "response": {"status": 200, "body": {"contentType": "application/json", "encoded": false,
                "content": {"id": 7, "name": "widget"}}}
        }],
        "metadata": {"pactSpecification": {"version": "4.0"}}
    })
}

/// The Accord consumer's contract: two HTTP interactions (one with a side
/// effect only Accord checks) and an `MCP/ToolCall`.
fn accord_contract() -> Value {
    json!({
        "consumer": {"name": ACCORD}, "provider": {"name": PROVIDER},
        "interactions": [
            {"type": "Synchronous/HTTP", "description": "get item 8",
             "providerStates": [{"name": "an item exists", "params": {"id": 8}}],
             "request": {"method": "GET", "path": "/items/8"},
             "response": {"status": 200, "body": {"contentType": "application/json", "encoded": false,
                 "content": {"id": 8, "name": "widget"}}}},
            {"type": "Synchronous/HTTP", "description": "create an item", "sideEffects": {"records": 1},
             "request": {"method": "POST", "path": "/items",
                 "headers": {"Content-Type": ["application/json"]},
                 "body": {"contentType": "application/json", "encoded": false, "content": {"name": "gadget"}}},
             "response": {"status": 201, "body": {"contentType": "application/json", "encoded": false,
                 "content": {"name": "gadget"}}}},
            {"type": "MCP/ToolCall", "description": "draft a plan", "tool": "work_plan_draft",
             "arguments": {"tenant_id": "tenant-a", "title": "rotate keys"},
             "result": {"structuredContent": {"status": "draft"}}}
        ],
        "metadata": {"pactSpecification": {"version": "4.0"},
                     "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}
    })
}

fn write(dir: &Path, name: &str, document: &Value) -> String {
    let file = dir.join(name);
    std::fs::write(&file, document.to_string()).expect("write contract");
    file.to_string_lossy().into_owned()
}

/// `pact verifier` from the broker (main branch), publishing as `version`.
fn pact_verify(cli: &PactCli, provider: &HttpProvider, version: &str) -> Run {
    let port = provider
        .base_url()
        .rsplit(':')
        .next()
        .unwrap_or_default()
        .to_owned();
    let states = provider.state_change_url();
    cli.verifier(&[
        "--provider-name",
        PROVIDER,
        "--hostname",
        "127.0.0.1",
        "--port",
        &port,
        "--state-change-url",
        &states,
        "--consumer-version-selectors",
        r#"{"mainBranch":true}"#,
        "--publish",
        "--provider-version",
        version,
        "--provider-branch",
        "main",
    ])
}

/// The provider's observed counters.
fn records(provider: &HttpProvider) -> i64 {
    let observed: Value = reqwest::blocking::get(provider.observe_url())
        .and_then(reqwest::blocking::Response::json)
        .expect("the provider's counters");
    observed["records"].as_i64().unwrap_or(-1)
}

fn latest_result(api: &BrokerApi, consumer: &str) -> Value {
    api.get_ok(&format!(
        "/pacts/provider/{PROVIDER}/consumer/{consumer}/version/1.0.0/verification-results/latest"
    ))
}

fn can_i_deploy(cli: &PactCli, consumer: &str) -> Run {
    let args = [
        "-a",
        consumer,
        "-e",
        "1.0.0",
        "--to-environment",
        "production",
    ];
    cli.broker("can-i-deploy", &args)
}

/// The Pact verifier replays both contracts' HTTP interactions, the Accord
/// contract's MCP interaction stays out of its view and unverified.
fn pact_verifier_runs_the_pact_view(cli: &PactCli, api: &BrokerApi, provider: &HttpProvider) {
    let run = pact_verify(cli, provider, "2.0.0").expect(0);
    let out = run.output();
    for description in ["get item 7", "get item 8", "create an item"] {
        assert!(
            out.contains(description),
            "{description} not verified:\n{out}"
        );
    }
    assert!(
        !out.contains("draft a plan (") && !out.contains("Failed to load pact"),
        "{out}"
    );
    assert!(
        out.contains("Pact clients are served its Pact view"),
        "the notice: {out}"
    );
    let ids: Vec<Value> = provider
        .state_calls()
        .iter()
        .map(|c| c["params"]["id"].clone())
        .collect();
    assert!(
        ids.contains(&json!(8)),
        "the Accord contract's state was set up: {ids:?}"
    );
    assert_eq!(
        records(provider),
        1,
        "the Accord contract's POST reached the provider"
    );

    let plain = latest_result(api, PLAIN);
    assert_eq!(
        (plain["success"].clone(), plain["pactViewOnly"].clone()),
        (json!(true), json!(false)),
        "{plain}"
    );
    let partial = latest_result(api, ACCORD);
    assert_eq!(partial["success"], true, "{partial}");
    assert_eq!(partial["pactViewOnly"], true, "{partial}");
    let reported: Vec<&Value> = partial["testResults"]
        .as_array()
        .map(|a| a.iter().map(|t| &t["interactionId"]).collect())
        .unwrap_or_default();
    assert_eq!(reported.len(), 2, "the two HTTP interactions: {partial}");
}

fn record_deployments(cli: &PactCli) {
    cli.broker(
        "create-environment",
        &["--name", "production", "--production"],
    )
    .expect(0);
    for (pacticipant, version) in [(PROVIDER, "2.0.0"), (PLAIN, "1.0.0"), (ACCORD, "1.0.0")] {
        let args = [
            "-a",
            pacticipant,
            "-e",
            version,
            "--environment",
            "production",
        ];
        cli.broker("record-deployment", &args).expect(0);
    }
}

/// `accord verify` of both contracts from the broker, publishing.
fn accord_verify(broker: &BrokerProcess, provider: &HttpProvider, mcp: &McpProvider) -> Value {
    let out = accord()
        .args([
            "verify",
            "--provider",
            PROVIDER,
            "--broker-url",
            &broker.url,
        ])
        .args(["--provider-base-url", &provider.base_url()])
        .args(["--state-change-url", &provider.state_change_url()])
        .args(["--observe-url", &provider.observe_url()])
        .args(["--mcp-url", &mcp.mcp_url()])
        .args(["--consumer-version-selectors", r#"{"mainBranch":true}"#])
        .args([
            "--publish",
            "--provider-version",
            "2.0.0",
            "--provider-branch",
            "main",
        ])
        .args(["--output", "json"])
        .output()
        .expect("accord verify runs");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

fn release_with_an_accord_contract(bin: &Path, broker: BrokerProcess) {
    let cli = PactCli {
        bin: bin.to_path_buf(),
        broker: broker.url.clone(),
    };
    let api = BrokerApi::new(&broker.url, Auth::None);
    let dir = temp_dir("pact-accord");
    let plain = write(&dir, "shop-items.json", &plain_pact());
    cli.broker("publish", &[&plain, "-a", "1.0.0", "--branch", "main"])
        .expect(0);
    let contract = write(&dir, "orchestrator-items.json", &accord_contract());
    accord()
        .args([
            "publish",
            &contract,
            "--consumer-app-version",
            "1.0.0",
            "--branch",
            "main",
        ])
        .args(["--broker-url", &broker.url])
        .assert()
        .success();

    let provider = HttpProvider::start().expect("the HTTP provider");
    pact_verifier_runs_the_pact_view(&cli, &api, &provider);
    record_deployments(&cli);
    can_i_deploy(&cli, PLAIN).expect(0);
    let no = can_i_deploy(&cli, ACCORD).expect(1);
    let said = no.output();
    assert!(said.contains("verified only in its Pact view"), "{said}");
    assert!(said.contains("MCP/ToolCall 'draft a plan'"), "{said}");
    assert!(said.contains("sideEffects of 'create an item'"), "{said}");
    // accord's answer names the blocking row and what is left unverified
    let ours = accord()
        .args(["can-i-deploy", "-a", ACCORD, "-e", "1.0.0"])
        .args([
            "--to-environment",
            "production",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .code(1);
    let ours = String::from_utf8_lossy(&ours.get_output().stdout).into_owned();
    let blocking = format!(
        "Blocking:\n  {ACCORD} 1.0.0 with {PROVIDER} 2.0.0: verified only in its Pact view (unverified: "
    );
    assert!(ours.contains(&blocking), "{ours}");
    assert!(ours.contains("MCP/ToolCall 'draft a plan'"), "{ours}");

    // accord verify gets the whole contract, MCP interaction included
    let mcp = McpProvider::start().expect("the MCP server");
    let report = accord_verify(&broker, &provider, &mcp);
    let contracts = report["contracts"].as_array().cloned().unwrap_or_default();
    let types: Vec<&str> = contracts
        .iter()
        .flat_map(|c| c["interactions"].as_array().into_iter().flatten())
        .filter_map(|i| i["interactionType"].as_str())
        .collect();
    assert!(types.contains(&"MCP/ToolCall"), "{report}");
    can_i_deploy(&cli, ACCORD).expect(0);

    // a later Pact-view success of the same provider version changes nothing
    pact_verify(&cli, &provider, "2.0.0").expect(0);
    can_i_deploy(&cli, ACCORD).expect(0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_pact_verifier_verifies_the_pact_view_of_an_accord_contract_and_can_i_deploy_waits_for_accord()
 {
    let Some(bin) = pact_cli_or_skip() else {
        return;
    };
    each_backend(&[], |broker| release_with_an_accord_contract(&bin, broker));
}

/// `pact broker publish --merge` of a plain Pact file into a consumer
/// version whose Accord contract (published by `accord publish`) holds
/// the contract-level `mcpTools` and Accord metadata: the merge adds the
/// interaction and keeps what only the stored contract had.
fn a_pact_cli_merge_keeps_what_only_the_stored_contract_had(bin: &Path, broker: BrokerProcess) {
    let cli = PactCli {
        bin: bin.to_path_buf(),
        broker: broker.url.clone(),
    };
    let dir = temp_dir("pact-merge");
    let mut stored = accord_contract();
    stored["mcpTools"] =
        json!([{"name": "work_plan_draft", "annotations": {"readOnlyHint": false}}]);
    let contract = write(&dir, "orchestrator-items.json", &stored);
    accord()
        .args(["publish", &contract, "--consumer-app-version", "1.0.0"])
        .args(["--broker-url", &broker.url])
        .assert()
        .success();
    let mut plain = plain_pact();
    plain["consumer"]["name"] = json!(ACCORD);
    let plain = write(&dir, "orchestrator-items-plain.json", &plain);
    cli.broker("publish", &[&plain, "-a", "1.0.0", "--merge"])
        .expect(0);
    let merged: Value = reqwest::blocking::Client::new()
        .get(format!(
            "{}/pacts/provider/{PROVIDER}/consumer/{ACCORD}/version/1.0.0",
            broker.url
        ))
        .header("X-Accord-Client", "test")
        .send()
        .and_then(|r| r.json())
        .expect("the contract");
    assert_eq!(merged["mcpTools"], stored["mcpTools"], "{merged}");
    assert_eq!(
        merged["metadata"]["accord"], stored["metadata"]["accord"],
        "{merged}"
    );
    let count = merged["interactions"].as_array().map_or(0, Vec::len);
    assert_eq!(count, 4, "three stored and the Pact CLI's one: {merged}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pact_cli_merge_keeps_the_contract_level_expectations_already_stored() {
    let Some(bin) = pact_cli_or_skip() else {
        return;
    };
    each_backend(&[], |broker| {
        a_pact_cli_merge_keeps_what_only_the_stored_contract_had(&bin, broker)
    });
}
