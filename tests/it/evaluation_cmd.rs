//! `accord evaluation publish|list` against a real `accord serve`: the
//! broker computes pass, the CLI says evaluations gate nothing, and bad
//! numbers or an unknown version are refused with exit 2.

use predicates::prelude::*;
use predicates::str::contains;

use crate::broker::BrokerProcess;
use crate::support::accord;

fn evaluation(broker: &BrokerProcess, args: &[&str]) -> assert_cmd::assert::Assert {
    accord()
        .arg("evaluation")
        .args(args)
        .args(["--broker-url", &broker.url])
        .assert()
}

fn publish(broker: &BrokerProcess, version: &str, args: &[&str]) -> assert_cmd::assert::Assert {
    let head = [
        "publish",
        "--pacticipant",
        "planning-agent",
        "--version",
        version,
    ];
    let all: Vec<&str> = head.iter().chain(args).copied().collect();
    evaluation(broker, &all)
}

#[test]
fn evaluations_are_published_with_a_computed_verdict_and_listed_beside_the_contract_evidence() {
    let broker = BrokerProcess::start(&[]);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let created = reqwest::blocking::Client::new()
        .put(format!(
            "{}/pacticipants/planning-agent/versions/3.5",
            broker.url
        ))
        .header("Content-Type", "application/json")
        .body("{}")
        .send()
        .expect("create the version");
    assert!(created.status().is_success(), "{}", created.status());
    let golden = [
        "--dataset",
        "golden",
        "--score",
        "0.91",
        "--threshold",
        "0.85",
    ];
    let evaluator = ["--evaluator", "evalkit", "--evaluator-version", "2.1"];
    let args: Vec<&str> = golden.iter().chain(&evaluator).copied().collect();
    publish(&broker, "3.5", &args)
        .success()
        .stdout(contains("score 0.91 >= 0.85: met").and(contains("can-i-deploy are unchanged")));
    let loss = [
        "--dataset",
        "error rate",
        "--score",
        "0.2",
        "--threshold",
        "0.1",
        "--lower-is-better",
    ];
    publish(&broker, "3.5", &loss)
        .success()
        .stdout(contains("score 0.2 <= 0.1: not met"));
    publish(
        &broker,
        "3.5",
        &["--dataset", "ll", "--score", "-1", "--threshold", "-2"],
    )
    .success()
    .stdout(contains(": met"));
    publish(
        &broker,
        "3.5",
        &["--dataset", "d", "--score", "NaN", "--threshold", "1"],
    )
    .code(2)
    .stderr(contains("finite"));
    publish(&broker, "9.9", &golden)
        .code(2)
        .stderr(contains("9.9"));
    publish(
        &broker,
        "3.5",
        &["--dataset", "a\u{1}b", "--score", "1", "--threshold", "1"],
    )
    .code(2)
    .stderr(contains("dataset"));
    evaluation(
        &broker,
        &[
            "list",
            "--pacticipant",
            "planning-agent",
            "--version",
            "3.5",
        ],
    )
    .success()
    .stdout(
        contains("Contract evidence: 0 contract(s) verified, 0 contract pass(es)")
            .and(contains("golden\tscore 0.91 >= 0.85: met\tevalkit 2.1\t"))
            .and(contains("error rate\tscore 0.2 <= 0.1: not met\t-\t")),
    );
    let (_, listed) = broker.get("/pacticipants/planning-agent/versions/3.5/evaluations");
    assert_eq!(listed["total"], 3, "{listed}");
}
