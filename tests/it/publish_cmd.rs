//! `accord publish` against a real `accord serve`.

use predicates::str::contains;
use serde_json::{Value, json};

use crate::broker::BrokerProcess;
use crate::support::{accord, repo_root, temp_dir};

fn pact(consumer: &str, provider: &str, status: u16, path: &str) -> Value {
    json!({
        "consumer": {"name": consumer},
        "provider": {"name": provider},
        "interactions": [{
            "description": format!("a request for {path}"),
            "request": {"method": "GET", "path": path},
            "response": {"status": status},
        }],
        "metadata": {"pactSpecification": {"version": "3.0.0"}},
    })
}

fn write(dir: &std::path::Path, name: &str, doc: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(doc).expect("json")).expect("write");
    path.to_string_lossy().into_owned()
}

#[test]
fn publish_sends_a_compiled_accord_contract_and_a_pact_file_and_prints_the_notices() {
    let broker = BrokerProcess::start(&[]);
    let dir = temp_dir("publish");
    let compiled = dir.join("planning-agent.json");
    accord()
        .args(["contract", "compile"])
        .arg(repo_root().join("examples/planning-agent.yaml"))
        .arg("-o")
        .arg(&compiled)
        .assert()
        .success();
    let other = write(
        &dir,
        "billing.json",
        &pact("orchestrator", "billing", 200, "/invoices"),
    );
    accord()
        .args(["publish"])
        .arg(&compiled)
        .arg(&other)
        .args(["--consumer-app-version", "1.0.0", "--branch", "main", "--tag", "dev"])
        .args(["--build-url", "http://ci.example/1", "--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains("info: Created orchestrator version 1.0.0 with branch main and tags dev"))
        .stdout(contains("success: Pact successfully published for orchestrator version 1.0.0 and provider planning-agent."))
        .stdout(contains("provider billing."));
    let (status, body) =
        broker.get("/pacts/provider/planning-agent/consumer/orchestrator/branch/main/latest");
    assert_eq!(status, 200, "{body}");
    assert!(body["interactions"][0]["_id"].is_string());
    let (status, _) = broker.get("/pacts/provider/billing/consumer/orchestrator/latest/dev");
    assert_eq!(status, 200);
}

#[test]
fn changed_content_exits_1_with_the_diff_and_merge_adds_interactions() {
    let broker = BrokerProcess::start(&[]);
    let dir = temp_dir("publish-conflict");
    let first = write(&dir, "a.json", &pact("c", "p", 200, "/a"));
    let publish = |file: &str, extra: &[&str]| {
        let mut cmd = accord();
        cmd.args([
            "publish",
            file,
            "--consumer-app-version",
            "1",
            "--broker-url",
            &broker.url,
        ])
        .args(extra);
        cmd
    };
    publish(&first, &[]).assert().success();
    let changed = write(&dir, "changed.json", &pact("c", "p", 500, "/a"));
    publish(&changed, &[])
        .assert()
        .code(1)
        .stderr(contains(
            "Cannot change the content of the pact for c version 1 and provider p",
        ))
        .stdout(contains("+        \"status\": 500"));
    let added = write(&dir, "b.json", &pact("c", "p", 200, "/b"));
    publish(&added, &["--merge"])
        .assert()
        .success()
        .stdout(contains("merged"));
    let (_, body) = broker.get("/pacts/provider/p/consumer/c/version/1");
    assert_eq!(
        body["interactions"].as_array().map(Vec::len),
        Some(2),
        "{body}"
    );
}

#[test]
fn a_file_that_is_not_a_contract_is_refused_before_anything_is_sent() {
    let broker = BrokerProcess::start(&[]);
    let dir = temp_dir("publish-bad");
    let good = write(&dir, "good.json", &pact("c", "p", 200, "/a"));
    let mut broken = pact("c", "p", 200, "/a");
    broken["interactions"][0]["request"]["method"] = json!(7);
    let bad = write(&dir, "bad.json", &broken);
    accord()
        .args([
            "publish",
            &good,
            &bad,
            "--consumer-app-version",
            "1",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .code(2)
        .stderr(contains("bad.json"))
        .stderr(contains("$.interactions[0].request.method"));
    let (status, _) = broker.get("/pacticipants/c");
    assert_eq!(status, 404, "nothing was published");
}

#[test]
fn an_unreachable_broker_is_an_operational_error() {
    let dir = temp_dir("publish-unreachable");
    let good = write(&dir, "good.json", &pact("c", "p", 200, "/a"));
    accord()
        .args(["publish", &good, "--consumer-app-version", "1"])
        .args(["--broker-url", "http://127.0.0.1:1"])
        .assert()
        .code(2)
        .stderr(contains("cannot reach the broker"));
}
