//! `accord verify --broker-url` against a real `accord serve` (each test
//! body on SQLite and on PostgreSQL): Pact's `--consumer-version-tags`, and
//! a read-only token refused for `--publish` before the replay.

use accord_fixtures::http::HttpProvider;
use serde_json::json;

use crate::broker::{BrokerProcess, each_backend};
use crate::support::{accord, items_pact, temp_dir, verify_items};

/// Writes a Pact V4 contract for the fixtures provider; with `price` it
/// expects a field the provider never sends.
fn contract(dir: &std::path::Path, price: bool) -> String {
    let mut item = json!({"id": 7, "name": "widget"});
    if price {
        item["price"] = json!(5);
    }
    let doc = items_pact("consumer", item);
    let path = dir.join(format!("consumer-{price}.json"));
    std::fs::write(&path, doc.to_string()).expect("write contract");
    path.to_string_lossy().into_owned()
}

fn publish(broker: &BrokerProcess, file: &str, version: &str, tag: &str) {
    accord()
        .args(["publish", file, "--consumer-app-version", version])
        .args([
            "--branch",
            "main",
            "--tag",
            tag,
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success();
}

fn verify(
    broker: &BrokerProcess,
    provider: &HttpProvider,
    extra: &[&str],
) -> assert_cmd::assert::Assert {
    verify_items(&broker.url, provider)
        .args(extra)
        .env_remove("ACCORD_BROKER_TOKEN")
        .env_remove("PACT_BROKER_TOKEN")
        .assert()
}

#[test]
fn consumer_version_tags_select_the_latest_version_with_each_tag() {
    each_backend(&[], |broker| {
        let provider = HttpProvider::start().expect("provider");
        let dir = temp_dir("verify-tags");
        let (good, bad) = (contract(&dir, false), contract(&dir, true));
        publish(&broker, &bad, "1.0.0", "prod");
        publish(&broker, &good, "1.1.0", "prod");
        // The latest prod version's pact passes …
        let a = verify(&broker, &provider, &["--consumer-version-tags", "prod"]).code(0);
        let stdout = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
        assert!(stdout.contains("PASS"), "{stdout}");
        // … while every prod version includes the broken one.
        let all_prod = [r#"--consumer-version-selectors"#, r#"{"tag":"prod"}"#];
        verify(&broker, &provider, &all_prod).code(1);
        publish(&broker, &bad, "1.2.0", "dev");
        verify(&broker, &provider, &["--consumer-version-tags", "prod,dev"]).code(1);
        verify(&broker, &provider, &["--consumer-version-tags", "nothing"]).code(2);
    });
}

#[test]
fn results_a_read_only_token_cannot_publish_are_refused_before_the_replay() {
    each_backend(&[], |broker| {
        let provider = HttpProvider::start().expect("provider");
        let dir = temp_dir("verify-read-token");
        publish(&broker, &contract(&dir, false), "1.0.0", "prod");
        let created = accord()
            .args(["token", "create", "--role", "read", "--name", "reader"])
            .args(["--database-url", &broker.database_url])
            .output()
            .expect("token create runs");
        assert!(created.status.success());
        let reader = String::from_utf8_lossy(&created.stdout).trim().to_owned();
        let publishing = [
            "--token",
            &reader,
            "--publish",
            "--provider-version",
            "2.0.0",
        ];
        // Accord's broker names the token's role on its index: the run is
        // refused before any replay, with or without a branch to record
        // (a Pact Broker's refusal after the replay: verify_legacy.rs).
        for branch in [&[][..], &["--provider-branch", "main"][..]] {
            let a = verify(&broker, &provider, &[&publishing[..], branch].concat()).code(2);
            let stdout = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
            let stderr = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
            assert!(!stdout.contains("Verification"), "{stdout}");
            assert!(
                stderr.contains("--publish needs a credential with the write role"),
                "{stderr}"
            );
        }
        let _ = rustls::crypto::ring::default_provider().install_default();
        let latest = format!(
            "{}/pacts/provider/items/consumer/consumer/version/1.0.0/verification-results/latest",
            broker.url
        );
        let reply = reqwest::blocking::Client::new()
            .get(&latest)
            .bearer_auth(&reader)
            .send()
            .expect("broker answers");
        assert_eq!(reply.status().as_u16(), 404, "nothing was published");
    });
}
