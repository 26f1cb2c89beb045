//! `accord admission promote`, `accord environment create --admission-stage`
//! and `accord can-i-deploy --require-admission` / `--require-coverage`
//! against a real broker process: a refused promotion exits 1 with the
//! broker's reason; `environment list` shows the stage, `admission show`
//! the evaluations.

use accord_broker::admission::{AdmissionState, Cause};
use predicates::str::contains;

use crate::broker::BrokerProcess;
use crate::support::accord;

/// A broker with version 1.2.0 of `agent` moved to `state` (through the store).
fn broker_with(state: AdmissionState) -> BrokerProcess {
    let broker = BrokerProcess::start(&[]);
    put(&broker, "/pacticipants/agent/versions/1.2.0", "{}");
    climb(&broker, state);
    broker
}

/// PUTs `body` (JSON) at `path`.
fn put(broker: &BrokerProcess, path: &str, body: &str) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let put = reqwest::blocking::Client::new()
        .put(format!("{}{path}", broker.url))
        .header("Content-Type", "application/json")
        .body(body.to_owned())
        .send()
        .expect("broker answers");
    assert!(put.status().is_success(), "{}", put.status());
}

/// Moves agent 1.2.0 up the ladder to `state` (through the store).
fn climb(broker: &BrokerProcess, state: AdmissionState) {
    let pool = accord_broker::db::connect(&broker.database_url, 1).expect("connect");
    let mut conn = pool.get().expect("connection");
    let p = accord_broker::store::pacticipants::find_by_name(&mut conn, "agent")
        .expect("query")
        .expect("pacticipant");
    let v = accord_broker::store::versions::find_by_number(&mut conn, p.id, "1.2.0")
        .expect("query")
        .expect("version");
    for s in accord_broker::admission::STATES {
        if s.rung().is_some_and(|r| r >= 1) && s.rung() <= state.rung() {
            accord_broker::store::admission::transition(&mut conn, v.id, s, &Cause::Broker, "test")
                .expect("move");
        }
    }
}

fn promote(broker: &BrokerProcess, to: &str) -> assert_cmd::assert::Assert {
    accord()
        .args(["admission", "promote", "agent", "1.2.0", "--to", to])
        .args(["--reason", "release review 42", "--broker-url", &broker.url])
        .assert()
}

#[test]
fn admission_promote_moves_a_version_and_a_refusal_exits_1_with_the_reason() {
    let broker = broker_with(AdmissionState::StaticValidated);
    promote(&broker, "REGISTRY_ADMITTED")
        .code(1)
        .stderr(contains(
            "REGISTRY_ADMITTED needs SECURITY_VERIFIED evidence; version 1.2.0 is STATIC_VALIDATED",
        ));
    promote(&broker, "SECURITY_VERIFIED").code(2);
    drop(broker);
    let broker = broker_with(AdmissionState::SecurityVerified);
    promote(&broker, "REGISTRY_ADMITTED")
        .success()
        .stdout(contains("agent 1.2.0: REGISTRY_ADMITTED"))
        .stdout(contains("release review 42"));
}

#[test]
fn a_stage_environment_and_can_i_deploy_require_admission() {
    let broker = broker_with(AdmissionState::SecurityVerified);
    accord()
        .args([
            "environment",
            "create",
            "--name",
            "production",
            "--production",
        ])
        .args(["--admission-stage", "active", "--broker-url", &broker.url])
        .assert()
        .success();
    let (_, list) = broker.get("/environments");
    assert_eq!(
        list["_embedded"]["environments"][0]["admissionStage"], "active",
        "{list}"
    );
    let cid = |state: &str| {
        accord()
            .args([
                "can-i-deploy",
                "--pacticipant",
                "agent",
                "--version",
                "1.2.0",
            ])
            .args([
                "--to-environment",
                "production",
                "--require-admission",
                state,
            ])
            .args(["--broker-url", &broker.url])
            .assert()
    };
    cid("REGISTRY_ADMITTED").code(1).stdout(contains(
        "admission: agent 1.2.0 is SECURITY_VERIFIED, below REGISTRY_ADMITTED",
    ));
    cid("SECURITY_VERIFIED").success();
    promote(&broker, "REGISTRY_ADMITTED").success();
    cid("REGISTRY_ADMITTED").success();
    accord()
        .args([
            "record-deployment",
            "--pacticipant",
            "agent",
            "--version",
            "1.2.0",
        ])
        .args(["--environment", "production", "--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains(
            "Admission: ACTIVE (deployed to active environment production)",
        ));
    let (_, admission) = broker.get("/pacticipants/agent/versions/1.2.0/admission");
    assert_eq!(admission["state"], "ACTIVE", "{admission}");
}

#[test]
fn require_coverage_refuses_with_the_gaps_and_show_lists_evaluations_apart() {
    let broker = BrokerProcess::start(&[]);
    // one declared tool no contract uses: one gap
    put(
        &broker,
        "/pacticipants/agent/versions/1.2.0/declarations/mcp-tools/default",
        r#"{"tools": [{"name": "plan_delete", "inputSchema": {"type": "object"}}]}"#,
    );
    climb(&broker, AdmissionState::SecurityVerified);
    let gap = "1 coverage gap: tool plan_delete (destructive): COVERAGE_NO_CONTRACT";
    accord()
        .args([
            "admission",
            "promote",
            "agent",
            "1.2.0",
            "--to",
            "REGISTRY_ADMITTED",
        ])
        .args(["--require-coverage", "--broker-url", &broker.url])
        .assert()
        .code(1)
        .stderr(contains(gap));
    accord()
        .args([
            "environment",
            "create",
            "--name",
            "production",
            "--production",
        ])
        .args(["--admission-stage", "canary", "--broker-url", &broker.url])
        .assert()
        .success();
    accord()
        .args(["environment", "list", "--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains("PRODUCTION\tSTAGE"))
        .stdout(contains("\ttrue\tcanary"));
    let cid = |extra: &[&str]| {
        accord()
            .args([
                "can-i-deploy",
                "--pacticipant",
                "agent",
                "--version",
                "1.2.0",
            ])
            .args([
                "--to-environment",
                "production",
                "--broker-url",
                &broker.url,
            ])
            .args(extra)
            .assert()
    };
    cid(&[]).success();
    cid(&["--require-coverage"])
        .code(1)
        .stdout(contains(format!("coverage: agent 1.2.0 has {gap}")));
    let evaluation = reqwest::blocking::Client::new()
        .post(format!(
            "{}/pacticipants/agent/versions/1.2.0/evaluations",
            broker.url
        ))
        .header("Content-Type", "application/json")
        .body(r#"{"dataset": "golden", "score": 0.9, "threshold": 0.5}"#)
        .send()
        .expect("broker answers");
    assert_eq!(evaluation.status().as_u16(), 201);
    accord()
        .args([
            "admission",
            "show",
            "agent",
            "1.2.0",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success()
        .stdout(contains("agent 1.2.0: SECURITY_VERIFIED"))
        .stdout(contains("Evaluations (1; apart from the evidence"))
        .stdout(contains("  golden: 0.9 (>= 0.5) pass"));
}
