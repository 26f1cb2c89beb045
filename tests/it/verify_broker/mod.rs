//! `accord verify --broker-url … --publish` end to end: a real `accord
//! serve`, the fixtures HTTP provider, `accord publish`, verification
//! results read back over the broker's API, `accord record-deployment` and
//! `accord can-i-deploy` answering from those results; a contract the
//! provider breaks; a pending contract; operational errors. Every body runs
//! on SQLite and on PostgreSQL (`each_backend`).

use accord_fixtures::http::HttpProvider;
use predicates::str::contains;
use serde_json::{Value, json};

use crate::broker::{BrokerProcess, each_backend};
use crate::support::{accord, items_pact, temp_dir, verify_items};

mod by_url;

/// A Pact V4 contract for the fixtures provider (`items`); `extra` fields
/// are expected in the item body (the provider never sends any).
pub(crate) fn contract(dir: &std::path::Path, consumer: &str, extra: Value) -> String {
    let mut body = json!({"id": 7, "name": "widget"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    let doc = items_pact(consumer, body);
    let path = dir.join(format!(
        "{consumer}-{}.json",
        extra.as_object().map_or(0, |m| m.len())
    ));
    std::fs::write(&path, doc.to_string()).expect("write contract");
    path.to_string_lossy().into_owned()
}

pub(crate) fn publish(broker: &BrokerProcess, file: &str, consumer_version: &str) {
    publish_on(broker, file, consumer_version, "main");
}

fn publish_on(broker: &BrokerProcess, file: &str, consumer_version: &str, branch: &str) {
    accord()
        .args(["publish", file, "--consumer-app-version", consumer_version])
        .args(["--branch", branch, "--broker-url", &broker.url])
        .assert()
        .success();
}

fn verify(
    broker: &BrokerProcess,
    provider: &HttpProvider,
    extra: &[&str],
) -> assert_cmd::assert::Assert {
    verify_items(&broker.url, provider).args(extra).assert()
}

/// `GET` that must succeed with a JSON body.
fn get(broker: &BrokerProcess, path_or_url: &str) -> Value {
    let (status, body) = broker.get(path_or_url);
    assert!((200..300).contains(&status), "GET {path_or_url}: {status}");
    assert!(!body.is_null(), "GET {path_or_url}: no JSON body");
    body
}

/// The published result's page is printed under its API URL: the same
/// path under `/ui`, and the broker serves it as a page.
fn page_is_printed_beside_the_result(broker: &BrokerProcess, out: &str) {
    let api = out
        .lines()
        .find_map(|l| l.strip_prefix("Published the verification of consumer's pact: "))
        .unwrap_or_else(|| panic!("the result's URL: {out}"));
    let page = out
        .lines()
        .find_map(|l| l.strip_prefix("  its page: "))
        .unwrap_or_else(|| panic!("the page's URL: {out}"));
    let path = api
        .strip_prefix(broker.url.as_str())
        .expect("on the broker");
    assert!(path.contains("/verification-results/1"), "{api}");
    assert_eq!(page, format!("{}/ui{path}", broker.url));
    let _ = rustls::crypto::ring::default_provider().install_default();
    let reply = reqwest::blocking::get(page).expect("the page answers");
    assert_eq!(reply.status().as_u16(), 200, "GET {page}");
    let html = reply.text().expect("a page");
    assert!(html.contains("<html"), "{html}");
}

/// The latest verification of consumer `version`'s pact with `items`.
fn latest_verification(broker: &BrokerProcess, version: &str) -> Value {
    get(
        broker,
        &format!(
            "/pacts/provider/items/consumer/consumer/version/{version}/verification-results/latest"
        ),
    )
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

fn record_deployment(broker: &BrokerProcess, pacticipant: &str, version: &str) {
    accord()
        .args([
            "record-deployment",
            "--pacticipant",
            pacticipant,
            "--version",
            version,
        ])
        .args(["--environment", "production", "--broker-url", &broker.url])
        .assert()
        .success();
}

fn can_i_deploy(broker: &BrokerProcess, version: &str) -> assert_cmd::assert::Assert {
    accord()
        .args([
            "can-i-deploy",
            "--pacticipant",
            "consumer",
            "--version",
            version,
        ])
        .args([
            "--to-environment",
            "production",
            "--broker-url",
            &broker.url,
        ])
        .assert()
}

pub(crate) const PUBLISH: [&str; 7] = [
    "--publish",
    "--provider-version",
    "2.0.0",
    "--provider-branch",
    "main",
    "--provider-tag",
    "prod-candidate",
];

#[test]
fn verified_and_published_results_let_can_i_deploy_answer_then_a_broken_contract_blocks() {
    each_backend(
        &[],
        verified_and_published_results_let_can_i_deploy_answer_then_a_broken_contract_blocks_on,
    );
}

fn verified_and_published_results_let_can_i_deploy_answer_then_a_broken_contract_blocks_on(
    broker: BrokerProcess,
) {
    let provider = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-broker");
    publish(&broker, &contract(&dir, "consumer", json!({})), "1.0.0");
    let a = verify(&broker, &provider, &PUBLISH).code(0);
    let out = stdout(&a);
    assert!(
        out.contains("is being verified because"),
        "notices first: {out}"
    );
    assert!(
        out.contains("PASS") && out.contains("consumer: get item 7"),
        "{out}"
    );
    assert!(
        out.contains("Published the verification of consumer's pact"),
        "{out}"
    );
    page_is_printed_beside_the_result(&broker, &out);

    let stored = latest_verification(&broker, "1.0.0");
    assert_eq!(stored["success"], true, "{stored}");
    assert_eq!(stored["providerApplicationVersion"], "2.0.0", "{stored}");
    assert_eq!(stored["findings"], json!([]), "{stored}");
    let on_main = get(&broker, "/pacticipants/items/branches/main/versions/2.0.0");
    assert_eq!(on_main["number"], "2.0.0", "{on_main}");
    get(
        &broker,
        "/pacticipants/items/versions/2.0.0/tags/prod-candidate",
    );

    accord()
        .args([
            "environment",
            "create",
            "--name",
            "production",
            "--production",
        ])
        .args(["--broker-url", &broker.url])
        .assert()
        .success();
    record_deployment(&broker, "items", "2.0.0");
    record_deployment(&broker, "consumer", "1.0.0");
    can_i_deploy(&broker, "1.0.0").code(0);

    // 1.1.0 expects a price the provider never sends.
    publish(
        &broker,
        &contract(&dir, "consumer", json!({"price": 5})),
        "1.1.0",
    );
    let a = verify(&broker, &provider, &PUBLISH).code(1);
    let out = stdout(&a);
    assert!(out.contains("schema RESPONSE_MISMATCH"), "{out}");
    let stored = latest_verification(&broker, "1.1.0");
    assert_eq!(stored["success"], false, "{stored}");
    let finding = &stored["findings"][0];
    assert_eq!(finding["reasonCode"], "RESPONSE_MISMATCH", "{stored}");
    assert_eq!(finding["layer"], "schema", "{stored}");
    assert_eq!(latest_verification(&broker, "1.0.0")["success"], true);
    can_i_deploy(&broker, "1.1.0").code(1);
    can_i_deploy(&broker, "1.0.0").code(0);
}

#[test]
fn a_failing_pending_contract_exits_zero_and_is_shown_as_pending() {
    each_backend(
        &[],
        a_failing_pending_contract_exits_zero_and_is_shown_as_pending_on,
    );
}

fn a_failing_pending_contract_exits_zero_and_is_shown_as_pending_on(broker: BrokerProcess) {
    let provider = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-broker-pending");
    publish(
        &broker,
        &contract(&dir, "consumer", json!({"price": 5})),
        "1.0.0",
    );
    let a = verify(
        &broker,
        &provider,
        &["--enable-pending", "--provider-branch", "main"],
    )
    .code(0);
    let out = stdout(&a);
    assert!(out.contains("FAIL (pending)"), "{out}");
    assert!(out.contains("[pending]"), "{out}");
    assert!(out.contains("1 pending failure(s)"), "{out}");
    assert!(out.contains("Verification PASSED"), "{out}");
    // Without pending status the same failure fails the run.
    verify(&broker, &provider, &["--provider-branch", "main"]).code(1);
}

#[test]
fn a_failing_wip_contract_is_verified_as_wip_and_does_not_fail_the_run() {
    each_backend(
        &[],
        a_failing_wip_contract_is_verified_as_wip_and_does_not_fail_the_run_on,
    );
}

fn a_failing_wip_contract_is_verified_as_wip_and_does_not_fail_the_run_on(broker: BrokerProcess) {
    let provider = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-broker-wip");
    publish(&broker, &contract(&dir, "consumer", json!({})), "1.0.0");
    verify(&broker, &provider, &PUBLISH).code(0);
    let feature = contract(&dir, "consumer", json!({"price": 5}));
    publish_on(&broker, &feature, "1.1.0", "feat-price");
    // The default selectors do not pick a feature branch …
    let a = verify(&broker, &provider, &["--provider-branch", "main"]).code(0);
    assert!(!stdout(&a).contains("FAIL"), "{}", stdout(&a));
    // … but it is work in progress since then.
    let wip = [
        "--provider-branch",
        "main",
        "--include-wip-since",
        "2020-01-01",
    ];
    let a = verify(&broker, &provider, &wip).code(0);
    let out = stdout(&a);
    assert!(out.contains("[WIP, pending]"), "{out}");
    assert!(out.contains("FAIL (pending)"), "{out}");
    assert!(out.contains("Verification PASSED"), "{out}");
}

#[test]
fn operational_errors_exit_two_with_a_clear_message() {
    each_backend(&[], operational_errors_exit_two_with_a_clear_message_on);
}

fn operational_errors_exit_two_with_a_clear_message_on(broker: BrokerProcess) {
    let provider = HttpProvider::start().expect("provider");
    verify(&broker, &provider, &[])
        .code(2)
        .stderr(contains("no pacts were found for provider items"));
    let unreachable = accord()
        .args(["verify", "--provider", "items", "--provider-base-url"])
        .arg(provider.base_url())
        .args(["--broker-url", "http://127.0.0.1:9"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&unreachable.get_output().stderr).into_owned();
    assert!(err.contains("cannot reach the broker"), "{err}");
    verify(&broker, &provider, &["--publish"])
        .code(2)
        .stderr(contains("--provider-version"));
}

#[test]
fn a_broker_that_wants_credentials_is_an_operational_error_without_them() {
    each_backend(
        &["--basic-auth", "ci:s3cret"],
        a_broker_that_wants_credentials_is_an_operational_error_without_them_on,
    );
}

fn a_broker_that_wants_credentials_is_an_operational_error_without_them_on(broker: BrokerProcess) {
    let provider = HttpProvider::start().expect("provider");
    let a = verify(&broker, &provider, &[]).code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("HTTP 401"), "{err}");
    // With Basic credentials the broker is read (and has no pacts yet).
    let creds = ["--broker-username", "ci", "--broker-password", "s3cret"];
    verify(&broker, &provider, &creds)
        .code(2)
        .stderr(contains("no pacts were found"));
}

#[test]
fn filters_choose_consumers_and_interactions_and_filtered_results_are_not_published() {
    each_backend(
        &[],
        filters_choose_consumers_and_interactions_and_filtered_results_are_not_published_on,
    );
}

fn filters_choose_consumers_and_interactions_and_filtered_results_are_not_published_on(
    broker: BrokerProcess,
) {
    let provider = HttpProvider::start().expect("provider");
    let dir = temp_dir("verify-filters");
    publish(&broker, &contract(&dir, "consumer", json!({})), "1.0.0");
    // `other` expects a field the provider never sends: its pact fails.
    let colour = json!({"colour": "red"});
    publish(&broker, &contract(&dir, "other", colour), "1.0.0");
    verify(&broker, &provider, &[]).code(1);
    let a = verify(&broker, &provider, &["--filter-consumer", "consumer"]).code(0);
    let out = stdout(&a);
    assert!(out.contains("consumer: get item 7"), "{out}");
    assert!(!out.contains("other: get item 7"), "{out}");

    let mut filtered = PUBLISH.to_vec();
    filtered.extend(["--filter-consumer", "consumer"]);
    filtered.extend(["--filter-description", "item 7"]);
    let a = verify(&broker, &provider, &filtered).code(0);
    assert!(
        stdout(&a).contains("Results are not published"),
        "{}",
        stdout(&a)
    );
    let latest =
        "/pacts/provider/items/consumer/consumer/version/1.0.0/verification-results/latest";
    assert_eq!(broker.get(latest).0, 404, "nothing published");

    verify(&broker, &provider, &["--filter-consumer", "nobody"])
        .code(2)
        .stderr(contains(
            "none of the pacts the broker selected is of consumer nobody",
        ));
    let ignore = ["--filter-consumer", "nobody", "--ignore-no-pacts-error"];
    verify(&broker, &provider, &ignore)
        .code(0)
        .stdout(contains("ignored: --ignore-no-pacts-error"));
}
