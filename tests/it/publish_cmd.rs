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

/// Two files of one pair (the demo's planning-agent, with the card, and
/// cancel-plans, without) make one publication that keeps the card in
/// either order; two files that disagree on the card are refused with both
/// names and the place, and nothing is published.
#[test]
fn files_of_one_pair_keep_the_contract_level_expectations_of_both_in_either_order() {
    let broker = BrokerProcess::start(&[]);
    let dir = temp_dir("publish-pair");
    let compile = |name: &str| {
        let out = dir.join(format!("{name}.json"));
        accord()
            .args(["contract", "compile"])
            .arg(repo_root().join(format!("examples/demo/release-orchestrator/{name}.yaml")))
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        out
    };
    let (card, cancel) = (compile("planning-agent"), compile("cancel-plans"));
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(&card).expect("read")).expect("json");
    for (version, files) in [("1", [&card, &cancel]), ("2", [&cancel, &card])] {
        accord()
            .arg("publish")
            .args(files)
            .args([
                "--consumer-app-version",
                version,
                "--broker-url",
                &broker.url,
            ])
            .assert()
            .success();
        // as Accord's own client asks: the whole contract, not its Pact view
        let body: Value = reqwest::blocking::Client::new()
            .get(format!(
                "{}/pacts/provider/planning-agent/consumer/release-orchestrator/version/{version}",
                broker.url
            ))
            .header("X-Accord-Client", "test")
            .send()
            .and_then(|r| r.json())
            .expect("the contract");
        assert_eq!(
            body["agentCard"], expected["agentCard"],
            "files in order {files:?}"
        );
    }
    let mut clash = expected.clone();
    clash["agentCard"]["capabilities"]["streaming"] = json!(false);
    let clash = write(&dir, "clash.json", &clash);
    accord()
        .arg("publish")
        .arg(&card)
        .arg(&clash)
        .args(["--consumer-app-version", "3", "--broker-url", &broker.url])
        .assert()
        .code(2)
        .stderr(contains("clash.json"))
        .stderr(contains("planning-agent.json"))
        .stderr(contains(
            "$.agentCard.capabilities.streaming is true in one contract and false in the other",
        ));
    let (status, _) =
        broker.get("/pacts/provider/planning-agent/consumer/release-orchestrator/version/3");
    assert_eq!(status, 404, "nothing was published");
}

/// A misspelt attribute is kept (Pact's robustness rule) but checks
/// nothing: `publish` and `verify` say so for the files they are given,
/// one line with the file, the JSON path and the suggestion.
#[test]
fn publish_and_verify_print_the_lint_warnings_of_the_files_they_are_given() {
    let broker = BrokerProcess::start(&[]);
    let dir = temp_dir("publish-lint");
    let mut doc = pact("orchestrator", "billing", 200, "/invoices");
    doc["interactions"][0]["response"]["statsu"] = json!(201);
    let file = write(&dir, "typo.json", &doc);
    let line = "typo.json: $.interactions[0].response.statsu: `statsu` is not an attribute Accord knows here: it is kept but checks nothing; did you mean `status`? (UNKNOWN_ATTRIBUTE)";
    accord()
        .arg("publish")
        .arg(&file)
        .args(["--consumer-app-version", "1", "--broker-url", &broker.url])
        .assert()
        .success()
        .stderr(contains(line));
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    accord()
        .args([
            "verify",
            "--provider",
            "billing",
            "--provider-base-url",
            &url,
            "--contract",
        ])
        .arg(&file)
        .assert()
        .stderr(contains(line));
}
