//! The Pact CLI and verifier through the broker's access control: write
//! and read tokens made with `accord token create` (`-k`), and an HTTP Basic
//! account (`accord serve --basic-auth`, `--broker-username/--broker-password`
//! and the verifier's `--user/--password`). Refusals must be 401 or 403 and
//! must leave nothing behind.

use crate::broker::BrokerProcess;
use crate::support::accord;

use super::tools::{Auth, BrokerApi, PROVIDER, Run, pact_cli_or_skip, passing_v3_pact, write_pact};
use super::{Flow, assert_verified, pact_path, verify};

fn create_token(database_url: &str, role: &str, name: &str) -> String {
    let args = ["token", "create", "--role", role, "--name", name];
    let out = accord()
        .args(args)
        .args(["--database-url", database_url])
        .output()
        .expect("accord token create runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn write_passing_pact(f: &Flow) -> String {
    write_pact(&f.dir.join("pacts"), &passing_v3_pact())
}

/// A run the broker refused with 401 before anything was written.
#[track_caller]
fn assert_unauthorized(run: &Run, api: &BrokerApi) {
    assert_eq!(run.code, 1, "{}", run.output());
    assert!(
        run.output().contains("401 Unauthorized"),
        "{}",
        run.output()
    );
    assert_nothing_published(api);
}

fn assert_nothing_published(api: &BrokerApi) {
    let (status, body) = api.get(&pact_path("1.0.0"));
    assert_eq!(status, 404, "a refused publish stored nothing: {body}");
}

#[test]
fn the_pact_cli_publishes_with_a_write_token_and_is_refused_without_one() {
    let Some(bin) = pact_cli_or_skip() else {
        return;
    };
    // Public reads: the CLI's GET / succeeds anonymously, so the refusals
    // below come from the write itself.
    let broker = BrokerProcess::start(&["--public-read"]);
    let token = create_token(&broker.database_url, "write", "ci");
    let reader = create_token(&broker.database_url, "read", "dashboard");
    let f = Flow::new(bin, &broker.url, Auth::None);
    let dir = write_passing_pact(&f);
    let publish = [dir.as_str(), "-a", "1.0.0", "--branch", "main"];
    assert_unauthorized(&f.cli.broker("publish", &publish), &f.api);
    let wrong = [&publish[..], &["-k", "acc_wrong"]].concat();
    assert_unauthorized(&f.cli.broker("publish", &wrong), &f.api);
    let read_only = f
        .cli
        .broker("publish", &[&publish[..], &["-k", &reader]].concat());
    assert_eq!(read_only.code, 1, "{}", read_only.output());
    assert!(read_only.output().contains("403"), "{}", read_only.output());
    assert_nothing_published(&f.api);
    f.cli
        .broker("publish", &[&publish[..], &["-k", &token]].concat())
        .expect(0);
    let as_reader = BrokerApi::new(&broker.url, Auth::Bearer(reader));
    let pact = as_reader.get_ok(&pact_path("1.0.0"));
    assert_eq!(pact["provider"]["name"], PROVIDER);
}

#[test]
fn the_pact_cli_and_verifier_use_a_basic_auth_account() {
    let Some(bin) = pact_cli_or_skip() else {
        return;
    };
    let broker = BrokerProcess::start(&["--basic-auth", "ci:s3cret"]);
    let auth = Auth::Basic("ci".into(), "s3cret".into());
    let f = Flow::new(bin, &broker.url, auth);
    let dir = write_passing_pact(&f);
    let publish = [dir.as_str(), "-a", "1.0.0", "--branch", "main"];
    let wrong = ["--broker-username", "ci", "--broker-password", "nope"];
    let refused = f.cli.broker("publish", &[&publish[..], &wrong].concat());
    assert_unauthorized(&refused, &f.api);
    let right = ["--broker-username", "ci", "--broker-password", "s3cret"];
    f.cli
        .broker("publish", &[&publish[..], &right].concat())
        .expect(0);
    let run = verify(&f, "2.0.0", &["--user", "ci", "--password", "s3cret"]).expect(0);
    assert!(!f.provider.state_calls().is_empty(), "{}", run.output());
    assert_verified(&f, "1.0.0", "2.0.0", true);
}
