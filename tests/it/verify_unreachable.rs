//! `accord verify --publish` against a provider that cannot be reached:
//! an operational error (exit 2) naming the URL and the option it came
//! from, and nothing published — with Accord's options and with Pact
//! verifier's. Every body runs on SQLite and on PostgreSQL.

use serde_json::json;

use crate::broker::{BrokerProcess, each_backend};
use crate::support::{accord, temp_dir};
use crate::verify_broker::{PUBLISH, contract, publish};

#[test]
fn a_provider_that_cannot_be_reached_is_an_operational_error_and_nothing_is_published() {
    each_backend(
        &[],
        a_provider_that_cannot_be_reached_is_an_operational_error_and_nothing_is_published_on,
    );
}

fn a_provider_that_cannot_be_reached_is_an_operational_error_and_nothing_is_published_on(
    broker: BrokerProcess,
) {
    let dir = temp_dir("verify-unreachable");
    publish(&broker, &contract(&dir, "consumer", json!({})), "1.0.0");
    let a = accord()
        .args(["verify", "--provider", "items"])
        .args(["--provider-base-url", "http://127.0.0.1:9"])
        .args(["--broker-url", &broker.url])
        .args(PUBLISH)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("cannot reach the provider at http://127.0.0.1:9 (--provider-base-url)")
            && err.contains("nothing was verified"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one message: {err}");
    // a pact_verifier_cli command line: its options are named
    let a = accord()
        .args([
            "verify",
            "-n",
            "items",
            "--hostname",
            "127.0.0.1",
            "--port",
            "9",
        ])
        .args([
            "-b",
            &broker.url,
            "--publish",
            "--provider-version",
            "2.0.0",
        ])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("(--hostname/--port/--scheme/--base-path)"),
        "{err}"
    );
    let (status, body) = broker
        .get("/pacts/provider/items/consumer/consumer/version/1.0.0/verification-results/latest");
    assert_eq!(status, 404, "nothing published: {body}");
    let (status, body) = broker.get("/pacticipants/items/versions/2.0.0");
    assert_eq!(status, 404, "not even the provider version: {body}");
}
