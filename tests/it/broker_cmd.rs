//! CLI client commands against a real `accord serve`.

use predicates::str::contains;

use crate::broker::BrokerProcess;
use crate::support::accord;

#[test]
fn pacticipant_create_then_list_shows_it() {
    let broker = BrokerProcess::start(&[]);
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "Order Service",
            "--main-branch",
            "main",
            "--broker-url",
            &broker.url,
        ])
        .assert()
        .success()
        .stdout(contains("created pacticipant Order Service"));
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "Order Service",
            "--repository-url",
            "https://git/x",
        ])
        .env("PACT_BROKER_BASE_URL", &broker.url)
        .assert()
        .success()
        .stdout(contains("updated pacticipant"));
    accord()
        .args(["pacticipant", "list", "--broker-url", &broker.url])
        .assert()
        .success()
        .stdout(contains("Order Service\tmain\thttps://git/x"));
}

#[test]
fn a_token_closes_the_broker_to_anonymous_writes() {
    let broker = BrokerProcess::start(&[]);
    let out = accord()
        .args([
            "token",
            "create",
            "--role",
            "write",
            "--name",
            "ci",
            "--database-url",
            &broker.database_url,
        ])
        .output()
        .expect("token create runs");
    assert!(out.status.success());
    let secret = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "x",
            "--broker-url",
            &broker.url,
        ])
        .env_remove("ACCORD_BROKER_TOKEN")
        .env_remove("PACT_BROKER_TOKEN")
        .assert()
        .code(2)
        .stderr(contains("HTTP 401"))
        .stderr(contains("--token (or ACCORD_BROKER_TOKEN)"));
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "x",
            "--broker-url",
            &broker.url,
            "--token",
            &secret,
        ])
        .assert()
        .success();
    accord()
        .args([
            "pacticipant",
            "list",
            "--broker-url",
            &broker.url,
            "--broker-username",
            "ci",
            "--broker-password",
            &secret,
        ])
        .assert()
        .success()
        .stdout(contains("x\t"));
    let read_out = accord()
        .args([
            "token",
            "create",
            "--role",
            "read",
            "--name",
            "reader",
            "--database-url",
            &broker.database_url,
        ])
        .output()
        .expect("token create runs");
    let reader = String::from_utf8_lossy(&read_out.stdout).trim().to_owned();
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "y",
            "--broker-url",
            &broker.url,
            "--token",
            &reader,
        ])
        .assert()
        .code(2)
        .stderr(contains("HTTP 403"));
}

#[test]
fn serve_on_a_busy_port_fails_and_leaves_no_database_behind() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = busy.local_addr().expect("its address").to_string();
    let dir = crate::support::temp_dir("serve-busy-port");
    let db = dir.join("accord.db");
    accord()
        .args(["serve", "--bind", &addr, "--database-url"])
        .arg(&db)
        .assert()
        .failure()
        .stderr(contains("cannot listen on"));
    assert!(!db.exists(), "{} was created", db.display());
}

#[test]
fn a_token_command_refuses_a_database_that_does_not_exist() {
    let dir = crate::support::temp_dir("token-no-db");
    let db = dir.join("accord.db");
    accord()
        .args([
            "token",
            "create",
            "--role",
            "write",
            "--name",
            "ci",
            "--database-url",
        ])
        .arg(&db)
        .assert()
        .failure()
        .stderr(contains("no broker database at"))
        .stderr(contains("accord.db"));
    assert!(!db.exists(), "{} was created", db.display());
}
