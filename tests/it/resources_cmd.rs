//! `accord environment`, `accord record-deployment` and `accord
//! record-release` against a real `accord serve`, checking what the broker
//! holds after each step (not only the exit code).

use predicates::str::contains;
use serde_json::Value;

use crate::broker::BrokerProcess;
use crate::support::accord;

fn http() -> reqwest::blocking::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::Client::new()
}

fn get(broker: &BrokerProcess, path: &str) -> Value {
    let text = http()
        .get(format!("{}{path}", broker.url))
        .send()
        .expect("broker answers")
        .text()
        .expect("body");
    serde_json::from_str(&text).expect("JSON")
}

fn put_version(broker: &BrokerProcess, p: &str, v: &str) {
    let status = http()
        .put(format!("{}/pacticipants/{p}/versions/{v}", broker.url))
        .header("Content-Type", "application/json")
        .body("{}")
        .send()
        .expect("broker answers")
        .status();
    assert!(status.is_success(), "{status}");
}

fn create_environment(broker: &BrokerProcess, name: &str) -> String {
    let out = accord()
        .args([
            "environment",
            "create",
            "--name",
            name,
            "--broker-url",
            &broker.url,
        ])
        .args(["--display-name", "Production", "--production"])
        .args([
            "--contact-name",
            "Ops",
            "--contact-email",
            "ops@example.com",
        ])
        .output()
        .expect("accord runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        stdout.starts_with(&format!("Created environment {name} with UUID ")),
        "{stdout}"
    );
    stdout.trim().rsplit(' ').next().expect("uuid").to_owned()
}

fn live_numbers(broker: &BrokerProcess, uuid: &str, kind: &str, list: &str) -> Vec<String> {
    let body = get(broker, &format!("/environments/{uuid}/{kind}"));
    body["_embedded"][list]
        .as_array()
        .expect("list")
        .iter()
        .map(|d| {
            d["_embedded"]["version"]["number"]
                .as_str()
                .expect("number")
                .to_owned()
        })
        .collect()
}

#[test]
fn environments_are_created_and_listed() {
    let broker = BrokerProcess::start(&[]);
    let uuid = create_environment(&broker, "production");
    let stored = get(&broker, &format!("/environments/{uuid}"));
    assert_eq!(stored["production"], true);
    assert_eq!(
        stored["contacts"][0]["details"]["emailAddress"],
        "ops@example.com"
    );
    accord()
        .args(["environment", "list", "--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains(format!("{uuid}\tproduction\tProduction\ttrue")));
    accord()
        .args([
            "environment",
            "create",
            "--name",
            "production",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .code(2)
        .stderr(contains("HTTP 409"));
}

#[test]
fn record_deployment_replaces_only_the_same_instance() {
    let broker = BrokerProcess::start(&[]);
    let uuid = create_environment(&broker, "production");
    for v in ["1", "2", "3"] {
        put_version(&broker, "planning-agent", v);
    }
    let deploy = |version: &str, instance: Option<&str>| {
        let mut cmd = accord();
        cmd.args([
            "record-deployment",
            "--pacticipant",
            "planning-agent",
            "--version",
            version,
        ])
        .args(["--environment", "production", "--broker-url", &broker.url]);
        if let Some(i) = instance {
            cmd.args(["--application-instance", i]);
        }
        cmd.assert().success().stdout(contains(format!(
            "Recorded deployment of planning-agent version {version} to production environment"
        )));
    };
    deploy("1", None);
    deploy("2", Some("blue"));
    let current = "deployed-versions/currently-deployed";
    assert_eq!(
        live_numbers(&broker, &uuid, current, "deployedVersions"),
        ["1", "2"]
    );
    deploy("3", None);
    assert_eq!(
        live_numbers(&broker, &uuid, current, "deployedVersions"),
        ["2", "3"]
    );
    deploy("3", None);
    assert_eq!(
        live_numbers(&broker, &uuid, current, "deployedVersions"),
        ["2", "3"]
    );
}

#[test]
fn record_deployment_names_what_does_not_exist() {
    let broker = BrokerProcess::start(&[]);
    create_environment(&broker, "production");
    put_version(&broker, "planning-agent", "1");
    accord()
        .args(["record-deployment", "-a", "planning-agent", "-e", "9"])
        .args(["--environment", "production", "--broker-url", &broker.url])
        .assert()
        .code(2)
        .stderr(contains("planning-agent version 9 not found"));
    accord()
        .args(["record-deployment", "-a", "planning-agent", "-e", "1"])
        .args(["--environment", "staging", "--broker-url", &broker.url])
        .assert()
        .code(2)
        .stderr(contains("environment staging does not exist"));
    accord()
        .args(["record-release", "-a", "planning-agent", "-e", "1"])
        .args(["--environment", "staging", "--broker-url", &broker.url])
        .assert()
        .code(2)
        .stderr(contains("environment staging does not exist"));
}

#[test]
fn record_release_keeps_earlier_releases_supported() {
    let broker = BrokerProcess::start(&[]);
    let uuid = create_environment(&broker, "app-store");
    for v in ["1", "2"] {
        put_version(&broker, "mobile-app", v);
        accord()
            .args([
                "record-release",
                "--pacticipant",
                "mobile-app",
                "--version",
                v,
            ])
            .args(["--environment", "app-store", "--broker-url", &broker.url])
            .assert()
            .success()
            .stdout(contains(format!(
                "Recorded release of mobile-app version {v} to app-store environment"
            )));
    }
    let supported = "released-versions/currently-supported";
    assert_eq!(
        live_numbers(&broker, &uuid, supported, "releasedVersions"),
        ["1", "2"]
    );
}
