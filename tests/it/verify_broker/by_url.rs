//! A pact given by URL (no `--broker-url`): verified, and its results go
//! to the pact's own link.

use super::*;

#[test]
fn a_pact_given_by_url_is_verified_and_its_results_go_to_its_own_link() {
    each_backend(
        &[],
        a_pact_given_by_url_is_verified_and_its_results_go_to_its_own_link_on,
    );
}

fn a_pact_given_by_url_is_verified_and_its_results_go_to_its_own_link_on(broker: BrokerProcess) {
    let provider = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-url");
    publish(&broker, &contract(&dir, "consumer", json!({})), "1.0.0");
    let url = format!(
        "{}/pacts/provider/items/consumer/consumer/version/1.0.0",
        broker.url
    );
    // No --broker-url: the pact's own links lead back to the broker.
    let a = accord()
        .args(["verify", "--provider", "items", "--provider-base-url"])
        .arg(provider.base_url())
        .arg("--state-change-url")
        .arg(provider.state_change_url())
        .args([
            "--pact-url",
            &url,
            "--publish",
            "--provider-version",
            "3.0.0",
        ])
        .env_remove("ACCORD_BROKER_URL")
        .env_remove("PACT_BROKER_BASE_URL")
        .assert()
        .code(0);
    assert!(stdout(&a).contains("(given by URL)"), "{}", stdout(&a));
    let stored = latest_verification(&broker, "1.0.0");
    assert_eq!(stored["success"], true, "{stored}");
    assert_eq!(stored["providerApplicationVersion"], "3.0.0", "{stored}");

    let missing = format!("{url}9");
    verify(&broker, &provider, &["--pact-url", &missing])
        .code(2)
        .stderr(contains("cannot fetch the pact at"));
}
