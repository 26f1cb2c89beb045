//! `accord admission show`, `accord drift report` and `accord drift policy`
//! against a real broker process.

use predicates::str::contains;

use crate::broker::BrokerProcess;
use crate::support::accord;

#[test]
fn admission_show_prints_a_versions_state_and_refuses_an_unknown_one() {
    let broker = BrokerProcess::start(&[]);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let put = reqwest::blocking::Client::new()
        .put(format!("{}/pacticipants/agent/versions/1.0.0", broker.url))
        .header("Content-Type", "application/json")
        .body("{}")
        .send()
        .expect("broker answers");
    assert!(put.status().is_success(), "{}", put.status());
    accord()
        .args([
            "admission",
            "show",
            "agent",
            "1.0.0",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success()
        .stdout(contains("agent 1.0.0: DRAFT"));
    accord()
        .args([
            "admission",
            "show",
            "agent",
            "9.9.9",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .code(2)
        .stderr(contains("404"));
}

#[test]
fn drift_report_sends_a_file_and_a_payload_field_is_refused_by_path() {
    let broker = BrokerProcess::start(&[]);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::blocking::Client::new();
    for (path, body) in [
        ("/pacticipants/agent/versions/1.0.0", "{}"),
        ("/environments", r#"{"name": "production"}"#),
    ] {
        let url = format!("{}{path}", broker.url);
        let request = if path == "/environments" {
            http.post(url)
        } else {
            http.put(url)
        };
        let reply = request
            .header("Content-Type", "application/json")
            .body(body)
            .send()
            .expect("broker answers");
        assert!(reply.status().is_success(), "{path}: {}", reply.status());
    }
    let dir = crate::support::temp_dir("drift-report");
    let good = dir.join("drift.json");
    let report = serde_json::json!({
        "provider": "agent", "version": "1.0.0", "environment": "production",
        "window": {"start": "2026-12-05T04:00:00Z", "end": "2026-12-05T04:05:00Z"},
        "counts": {"unknownErrorCodes": 2}
    });
    std::fs::write(&good, report.to_string()).expect("write");
    accord()
        .args(["drift", "report"])
        .arg(&good)
        .args(["--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains(
            "Recorded drift report 1 for agent 1.0.0 in production (admission: DRAFT)",
        ))
        .stdout(contains(
            "  action: unknown_error_codes: 2 at or over the threshold 1: warn",
        ));
    let mut carrying = report.clone();
    carrying["response"] = serde_json::json!({"plan": 1});
    let bad = dir.join("payload.json");
    std::fs::write(&bad, carrying.to_string()).expect("write");
    accord()
        .args(["drift", "report"])
        .arg(&bad)
        .args(["--broker-url", &broker.url])
        .assert()
        .code(2)
        .stderr(contains("$.response"));
}

#[test]
fn drift_policy_set_reads_yaml_and_show_prints_it() {
    let broker = BrokerProcess::start(&[]);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let reply = reqwest::blocking::Client::new()
        .post(format!("{}/pacticipants", broker.url))
        .header("Content-Type", "application/json")
        .body(r#"{"name": "agent"}"#)
        .send()
        .expect("broker answers");
    assert!(reply.status().is_success(), "{}", reply.status());
    let dir = crate::support::temp_dir("drift-policy");
    let file = dir.join("policy.yaml");
    let yaml = "drift_policy:\n  rules:\n    unknown_error_codes: { threshold: 5, action: route_disable }\n";
    std::fs::write(&file, yaml).expect("write");
    accord()
        .args(["drift", "policy", "set", "agent"])
        .arg(&file)
        .args(["--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains("Set the drift policy of agent"));
    accord()
        .args([
            "drift",
            "policy",
            "show",
            "agent",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success()
        .stdout(contains("\"route_disable\""));
    std::fs::write(
        &file,
        "drift_policy:\n  rules:\n    latency: { threshold: 1, action: warn }\n",
    )
    .expect("write");
    accord()
        .args(["drift", "policy", "set", "agent"])
        .arg(&file)
        .args(["--broker-url", &broker.url])
        .assert()
        .code(2)
        .stderr(contains("rules"));
}
