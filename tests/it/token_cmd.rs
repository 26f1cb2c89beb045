//! `accord token …`: only a database that exists (a token in a file no
//! broker reads is a token no broker knows), or a running broker's
//! `/tokens` with `--broker-url` and an admin token.

use predicates::prelude::*;
use predicates::str::contains;

use crate::broker::BrokerProcess;
use crate::support::{accord, temp_dir};

/// `accord token ARGS` against the broker's API, from an empty directory
/// and without the environment's credentials.
fn token_api(broker: &BrokerProcess, secret: &str, args: &[&str]) -> assert_cmd::assert::Assert {
    accord()
        .arg("token")
        .args(args)
        .args(["--broker-url", &broker.url, "--token", secret])
        .current_dir(temp_dir("token-api-cwd"))
        .env_remove("DATABASE_URL")
        .env_remove("ACCORD_BROKER_TOKEN")
        .env_remove("PACT_BROKER_TOKEN")
        .assert()
}

fn secret_of(run: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&run.get_output().stdout)
        .trim()
        .to_owned()
}

#[test]
fn a_token_command_run_elsewhere_names_the_missing_database_and_creates_none() {
    let dir = temp_dir("token-cwd");
    for args in [
        &["list"][..],
        &["create", "--role", "write", "--name", "ci"],
        &["revoke", "ci"],
    ] {
        accord()
            .arg("token")
            .args(args)
            .current_dir(&dir)
            .env_remove("DATABASE_URL")
            .assert()
            .code(2)
            .stderr(contains(format!(
                "no broker database at {}",
                dir.join("accord.db").display()
            )))
            .stderr(contains("--database-url (or DATABASE_URL)"))
            .stderr(contains("--broker-url"));
    }
    let left: Vec<_> = std::fs::read_dir(&dir).expect("read dir").collect();
    assert!(left.is_empty(), "files were created: {left:?}");
}

#[test]
fn the_database_url_comes_from_the_environment_as_for_serve() {
    let broker = BrokerProcess::start(&[]);
    accord()
        .args(["token", "create", "--role", "read", "--name", "reader"])
        .current_dir(temp_dir("token-env-cwd"))
        .env("DATABASE_URL", &broker.database_url)
        .assert()
        .success();
    accord()
        .args(["token", "list", "--database-url", &broker.database_url])
        .env_remove("DATABASE_URL")
        .assert()
        .success()
        .stdout(contains("reader\tread\tactive"));
}

#[test]
fn token_commands_manage_a_running_brokers_tokens_with_an_admin_token() {
    let broker = BrokerProcess::start(&[]);
    let admin = accord()
        .args(["token", "create", "--role", "admin", "--name", "root"])
        .args(["--database-url", &broker.database_url])
        .env_remove("DATABASE_URL")
        .assert()
        .success();
    let admin = secret_of(&admin);
    let created = token_api(
        &broker,
        &admin,
        &["create", "--role", "write", "--name", "ci"],
    )
    .success()
    .stderr(contains("created token 'ci' with role write"));
    let ci = secret_of(&created);
    assert!(!ci.is_empty() && !ci.contains('\n'), "{ci:?}");
    // the broker knows the new token at once
    accord()
        .args([
            "pacticipant",
            "create",
            "--name",
            "web",
            "--broker-url",
            &broker.url,
        ])
        .args(["--token", &ci])
        .assert()
        .success();
    token_api(&broker, &admin, &["list"])
        .success()
        .stdout(contains("root\tadmin\tactive"))
        .stdout(contains("ci\twrite\tactive"))
        .stdout(contains(&ci).not());
    token_api(
        &broker,
        &admin,
        &["create", "--role", "read", "--name", "ci"],
    )
    .code(2)
    .stderr(contains("a token named 'ci' already exists"));
    // only an admin manages tokens
    token_api(&broker, &ci, &["list"])
        .code(2)
        .stderr(contains("HTTP 403"));
    token_api(&broker, &admin, &["revoke", "ci"])
        .success()
        .stdout(contains("revoked token 'ci'"));
    token_api(&broker, &admin, &["list"])
        .success()
        .stdout(contains("ci\twrite\trevoked"));
    token_api(&broker, &admin, &["revoke", "ci"])
        .code(2)
        .stderr(contains("no active token named 'ci'"));
}

#[test]
fn the_broker_url_and_a_database_url_together_are_refused() {
    let broker = BrokerProcess::start(&[]);
    accord()
        .args(["token", "list", "--broker-url", &broker.url])
        .args(["--database-url", &broker.database_url])
        .env_remove("DATABASE_URL")
        .assert()
        .code(2)
        .stderr(contains("either --broker-url"));
    // DATABASE_URL set on the broker's host does not get in the way
    accord()
        .args(["token", "list", "--broker-url", &broker.url])
        .env("DATABASE_URL", &broker.database_url)
        .assert()
        .success();
}
