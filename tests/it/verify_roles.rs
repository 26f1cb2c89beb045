//! What a CLI pointed at the wrong thing says: a broker URL where something
//! else answers is named as not a broker; `accord verify --publish` with a
//! token that may only read is refused before any pact is replayed (Accord's
//! broker names the credential's role on its index), while a Pact Broker,
//! which names none, is not second-guessed: its first 403 for results ends
//! the publication in one line.

use accord_fixtures::http::HttpProvider;
use serde_json::json;

use crate::broker::{BrokerProcess, each_backend};
use crate::fake_broker::{FakeBroker, Response};
use crate::support::{accord, temp_dir, verify_items};
use crate::verify_broker::{contract, publish};
use crate::verify_legacy::legacy;

/// A token made straight in the broker's database; its secret.
fn token(broker: &BrokerProcess, role: &str, name: &str) -> String {
    let run = accord()
        .args(["token", "create", "--role", role, "--name", name])
        .args(["--database-url", &broker.database_url])
        .env_remove("DATABASE_URL")
        .assert()
        .success();
    String::from_utf8_lossy(&run.get_output().stdout)
        .trim()
        .to_owned()
}

fn stderr(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stderr).into_owned()
}

#[test]
fn a_read_token_is_refused_for_publish_before_anything_is_replayed() {
    each_backend(&[], a_read_token_is_refused_for_publish_on);
}

fn a_read_token_is_refused_for_publish_on(broker: BrokerProcess) {
    let dir = temp_dir("verify-roles");
    publish(&broker, &contract(&dir, "consumer", json!({})), "1.0.0");
    let admin = token(&broker, "admin", "root");
    let reader = token(&broker, "read", "reader");
    let writer = token(&broker, "write", "ci");
    let provider = HttpProvider::start().expect("provider");
    let publishing = ["--publish", "--provider-version", "2.0.0"];
    let refused = verify_items(&broker.url, &provider)
        .args(publishing)
        .args(["--token", &reader])
        .assert()
        .code(2);
    let err = stderr(&refused);
    assert!(
        err.contains("--publish needs a credential with the write role")
            && err.contains("this one has the read role"),
        "{err}"
    );
    assert!(err.len() < 400, "one short message: {err}");
    assert!(provider.state_calls().is_empty(), "nothing was replayed");
    // the same token verifies without --publish, and a write token publishes
    verify_items(&broker.url, &provider)
        .args(["--token", &reader])
        .assert()
        .success();
    for secret in [&writer, &admin] {
        verify_items(&broker.url, &provider)
            .args(publishing)
            .args(["--token", secret])
            .assert()
            .success();
    }
}

#[test]
fn a_url_where_no_broker_answers_is_named_as_not_a_broker() {
    let provider = HttpProvider::start().expect("something else");
    let url = provider.base_url();
    let a = verify_items(&url, &provider).assert().code(2);
    let err = stderr(&a);
    assert!(
        err.contains("does not look like an Accord or Pact broker") && err.contains("HTTP 404"),
        "{err}"
    );
    let env = accord()
        .args(["environment", "list", "--broker-url", &url])
        .assert()
        .code(2);
    let err = stderr(&env);
    assert!(
        err.contains("does not look like an Accord or Pact broker"),
        "{err}"
    );
}

#[test]
fn a_pact_broker_refusing_results_with_403_is_told_once_not_per_pact() {
    // a Pact Broker names no role on its index: the replay runs, and the
    // first 403 for results ends the publication in one line
    let broker = FakeBroker::start(|base, req, _| {
        if req.method == "POST" && req.path.starts_with("/results/") {
            return Response::json(403, &json!({"error": "not allowed"}));
        }
        legacy(base, req)
    });
    let provider = HttpProvider::start().expect("provider");
    let a = verify_items(&broker.url, &provider)
        .args(["--consumer-version-tags", "prod,dev"])
        .args(["--publish", "--provider-version", "2.0.0"])
        .assert()
        .code(2);
    let err = stderr(&a);
    assert!(
        err.contains("the broker refused the verification results of consumer's pact: HTTP 403")
            && err.contains("(the results of 1 more pacts were not sent)"),
        "{err}"
    );
    assert_eq!(err.matches("HTTP 403").count(), 1, "{err}");
    let posts = broker
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.starts_with("/results/"))
        .count();
    assert_eq!(posts, 1);
}
