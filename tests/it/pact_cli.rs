//! End-to-end: the official Pact CLI (`pact broker …` and `pact verifier`
//! from PyPI's pact-python-cli) against a real `accord serve`, through a
//! whole release cycle. After every step the broker's state is read back
//! over its HTTP API: the Pact clients exit 0 on some failures (the
//! verifier does when publishing results fails), so exit codes alone prove
//! little. Skips with a printed reason without `ACCORD_PACT_CLI`, except
//! under `CI=true`.

mod access;
mod accord_contracts;
mod provider;
mod tools;

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::broker::{BrokerProcess, PgSchema};
use crate::support::temp_dir;
use provider::Provider;
use tools::{
    Auth, BrokerApi, CONSUMER, PROVIDER, PactCli, Run, failing_v4_pact, href, pact_cli_or_skip,
    passing_v3_pact, write_pact,
};

const REPOSITORY: &str = "https://git.example/shop-web";

/// The broker, the CLI bound to it, a state reader and a provider.
struct Flow {
    cli: PactCli,
    api: BrokerApi,
    provider: Provider,
    dir: PathBuf,
}

impl Flow {
    fn new(bin: PathBuf, url: &str, auth: Auth) -> Flow {
        Flow {
            cli: PactCli {
                bin,
                broker: url.to_owned(),
            },
            api: BrokerApi::new(url, auth),
            provider: Provider::start(),
            dir: temp_dir("pact-cli"),
        }
    }
}

impl Drop for Flow {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn pact_path(consumer_version: &str) -> String {
    format!("/pacts/provider/{PROVIDER}/consumer/{CONSUMER}/version/{consumer_version}")
}

/// `(pacticipant, version)` of each entry of `_embedded[key]`, as the
/// deployed- and released-version collections list them.
fn pacticipant_versions(body: &Value, key: &str) -> Vec<(String, String)> {
    let entries = body["_embedded"][key]
        .as_array()
        .unwrap_or_else(|| panic!("no _embedded.{key} in {body}"));
    entries
        .iter()
        .map(|e| {
            let name = e["_embedded"]["pacticipant"]["name"].as_str();
            let number = e["_embedded"]["version"]["number"].as_str();
            (
                name.unwrap_or("?").to_owned(),
                number.unwrap_or("?").to_owned(),
            )
        })
        .collect()
}

fn pair(pacticipant: &str, version: &str) -> (String, String) {
    (pacticipant.to_owned(), version.to_owned())
}

/// `create-environment --production`; returns the environment's uuid.
fn create_environment(f: &Flow) -> String {
    let args = ["--name", "production", "--display-name", "Production"];
    let run = f
        .cli
        .broker(
            "create-environment",
            &[&args[..], &["--production"]].concat(),
        )
        .expect(0);
    let list = f.api.get_ok("/environments");
    let envs = list["_embedded"]["environments"].as_array().cloned();
    let env = envs
        .unwrap_or_default()
        .into_iter()
        .find(|e| e["name"] == "production")
        .unwrap_or_else(|| panic!("production is not listed: {list}"));
    assert_eq!(env["production"], true, "{env}");
    assert_eq!(env["displayName"], "Production", "{env}");
    let uuid = env["uuid"].as_str().expect("environment uuid").to_owned();
    assert!(
        run.stdout.contains(&uuid),
        "the CLI prints the uuid: {}",
        run.output()
    );
    uuid
}

/// `create-or-update-pacticipant` creates, then updates without losing what
/// the first call set.
fn create_pacticipants(f: &Flow) {
    let create = ["--name", CONSUMER, "--main-branch", "main"];
    f.cli
        .broker("create-or-update-pacticipant", &create)
        .expect(0);
    let (status, _) = f.api.get(&format!("/pacticipants/{CONSUMER}"));
    assert_eq!(status, 200, "the first call created {CONSUMER}");
    let update = ["--name", CONSUMER, "--repository-url", REPOSITORY];
    f.cli
        .broker("create-or-update-pacticipant", &update)
        .expect(0);
    let consumer = f.api.get_ok(&format!("/pacticipants/{CONSUMER}"));
    assert_eq!(consumer["mainBranch"], "main", "{consumer}");
    assert_eq!(consumer["repositoryUrl"], REPOSITORY, "{consumer}");
    let provider = ["--name", PROVIDER, "--main-branch", "main"];
    f.cli
        .broker("create-or-update-pacticipant", &provider)
        .expect(0);
    let list = f.api.get_ok("/pacticipants");
    let names: Vec<&str> = list["_embedded"]["pacticipants"]
        .as_array()
        .map(|a| a.iter().filter_map(|p| p["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names.len(), 2, "no duplicate made by the update: {list}");
}

/// `pact broker publish DIR -a V --branch B`; the pact is readable, each
/// interaction has an `_id`, and the version is on branch B.
fn publish(f: &Flow, version: &str, branch: &str, pact: &Value) -> Value {
    let dir = write_pact(&f.dir.join(version), pact);
    let args = [dir.as_str(), "-a", version, "--branch", branch];
    f.cli.broker("publish", &args).expect(0);
    let stored = f.api.get_ok(&pact_path(version));
    assert_eq!(stored["consumer"]["name"], CONSUMER, "{stored}");
    let interactions = stored["interactions"].as_array().expect("interactions");
    assert_eq!(
        interactions.len(),
        pact["interactions"].as_array().map_or(0, Vec::len)
    );
    for i in interactions {
        let id = i["_id"].as_str().unwrap_or_default();
        assert!(!id.is_empty(), "interaction without _id: {i}");
    }
    // What the verifier follows to publish its result (it exits 0 without it).
    let results = href(&stored, "pb:publish-verification-results");
    assert!(results.ends_with("/verification-results"), "{results}");
    assert_on_branch(f, CONSUMER, version, branch);
    stored
}

fn assert_on_branch(f: &Flow, pacticipant: &str, version: &str, branch: &str) {
    let v = f
        .api
        .get_ok(&format!("/pacticipants/{pacticipant}/versions/{version}"));
    let branches: Vec<&str> = v["_embedded"]["branchVersions"]
        .as_array()
        .map(|a| a.iter().filter_map(|b| b["name"].as_str()).collect())
        .unwrap_or_default();
    assert!(
        branches.contains(&branch),
        "{pacticipant} {version} not on {branch}: {v}"
    );
}

/// `pact verifier` from the broker with selectors, pending, WIP and
/// publishing, against the in-process provider.
fn verify(f: &Flow, provider_version: &str, auth: &[&str]) -> Run {
    let port = f.provider.port.to_string();
    let states = f.provider.state_change_url();
    let mut args = vec!["--provider-name", PROVIDER, "--hostname", "127.0.0.1"];
    args.extend_from_slice(&["--port", &port, "--state-change-url", &states]);
    args.extend_from_slice(&["--consumer-version-selectors", r#"{"mainBranch":true}"#]);
    args.extend_from_slice(&[
        "--enable-pending",
        "--include-wip-pacts-since",
        "2020-01-01",
    ]);
    args.extend_from_slice(&["--publish", "--provider-version", provider_version]);
    args.extend_from_slice(&["--provider-branch", "main"]);
    args.extend_from_slice(auth);
    f.cli.verifier(&args)
}

/// The latest verification result of the pact of `consumer_version`
/// (`P/version/{cv}/verification-results/latest`, a Pact Broker route).
fn latest_verification(f: &Flow, consumer_version: &str) -> Value {
    let path = format!(
        "{}/verification-results/latest",
        pact_path(consumer_version)
    );
    f.api.get_ok(&path)
}

fn assert_verified(
    f: &Flow,
    consumer_version: &str,
    provider_version: &str,
    success: bool,
) -> Value {
    let result = latest_verification(f, consumer_version);
    assert_eq!(result["success"], success, "{result}");
    assert_eq!(
        result["providerApplicationVersion"], provider_version,
        "{result}"
    );
    assert_on_branch(f, PROVIDER, provider_version, "main");
    result
}

fn first_verification(f: &Flow) {
    let run = verify(f, "2.0.0", &[]).expect(0);
    let calls = f.provider.state_calls();
    let order = json!({ "action": "setup", "state": "order 1 exists", "params": { "id": 1 } });
    assert!(
        calls.contains(&order),
        "state set up: {calls:?}\n{}",
        run.output()
    );
    assert!(
        calls
            .iter()
            .any(|c| c["state"] == "order 99 does not exist"),
        "{calls:?}"
    );
    let result = assert_verified(f, "1.0.0", "2.0.0", true);
    // the verifier's result is the first of its pact, under that number
    assert_eq!(result["number"], 1, "{result}");
    let me = href(&result, "self");
    assert!(me.ends_with("/verification-results/1"), "{me}");
    assert_eq!(f.api.get_ok(me)["providerApplicationVersion"], "2.0.0");
}

fn record_deployments(f: &Flow, env: &str) {
    let provider = ["-a", PROVIDER, "-e", "2.0.0", "--environment", "production"];
    f.cli.broker("record-deployment", &provider).expect(0);
    let consumer = ["-a", CONSUMER, "-e", "1.0.0", "--environment", "production"];
    f.cli.broker("record-deployment", &consumer).expect(0);
    let path = format!("/environments/{env}/deployed-versions/currently-deployed");
    let deployed = pacticipant_versions(&f.api.get_ok(&path), "deployedVersions");
    assert!(deployed.contains(&pair(PROVIDER, "2.0.0")), "{deployed:?}");
    assert!(deployed.contains(&pair(CONSUMER, "1.0.0")), "{deployed:?}");
}

fn can_i_deploy(f: &Flow, version: &str) -> Run {
    let args = [
        "-a",
        CONSUMER,
        "-e",
        version,
        "--to-environment",
        "production",
    ];
    f.cli.broker("can-i-deploy", &args)
}

/// A consumer version whose pact the deployed provider fails: the failure
/// is stored (pending, so the verifier still exits 0) and can-i-deploy says no.
fn failing_version(f: &Flow) {
    let pact = publish(f, "1.1.0", "main", &failing_v4_pact());
    f.provider.clear_state_calls();
    let run = verify(f, "2.0.0", &[]).expect(0);
    assert!(run.stdout.contains("Pending Failures"), "{}", run.output());
    assert!(!f.provider.state_calls().is_empty(), "{}", run.output());
    let result = assert_verified(f, "1.1.0", "2.0.0", false);
    // The verifier echoes the broker's interaction `_id` in its test results.
    let failed = &result["testResults"][0];
    assert_eq!(
        failed["interactionId"], pact["interactions"][0]["_id"],
        "{result}"
    );
    assert_eq!(failed["success"], false, "{result}");
    let no = can_i_deploy(f, "1.1.0").expect(1);
    assert!(no.output().contains("Computer says no"), "{}", no.output());
}

fn record_release(f: &Flow, env: &str) {
    let args = ["-a", CONSUMER, "-e", "1.0.0", "--environment", "production"];
    f.cli.broker("record-release", &args).expect(0);
    let path = format!("/environments/{env}/released-versions/currently-supported");
    let released = pacticipant_versions(&f.api.get_ok(&path), "releasedVersions");
    assert_eq!(released, vec![pair(CONSUMER, "1.0.0")]);
}

/// Every step of the cycle, each followed by a read of the broker's state.
fn release_cycle(bin: PathBuf, url: &str) {
    let f = Flow::new(bin, url, Auth::None);
    create_pacticipants(&f);
    let env = create_environment(&f);
    publish(&f, "1.0.0", "main", &passing_v3_pact());
    let described = ["-a", CONSUMER, "-e", "1.0.0"];
    let run = f.cli.broker("describe-version", &described).expect(0);
    assert!(run.stdout.contains("1.0.0"), "{}", run.output());
    first_verification(&f);
    record_deployments(&f, &env);
    can_i_deploy(&f, "1.0.0").expect(0);
    failing_version(&f);
    can_i_deploy(&f, "1.0.0").expect(0);
    record_release(&f, &env);
    work_in_progress(&f);
}

/// A pact on a feature branch, selected by no selector, is verified as
/// work in progress (`--include-wip-pacts-since`) and its result stored.
fn work_in_progress(f: &Flow) {
    let mut pact = passing_v3_pact();
    if let Some(interactions) = pact["interactions"].as_array_mut() {
        interactions.remove(0);
    }
    publish(f, "1.2.0", "feat-x", &pact);
    let run = verify(f, "2.0.1", &[]).expect(0);
    assert!(run.stdout.contains("work in progress"), "{}", run.output());
    assert_verified(f, "1.2.0", "2.0.1", true);
}

#[test]
fn the_pact_cli_runs_a_release_cycle_against_accord_serve() {
    let Some(bin) = pact_cli_or_skip() else {
        return;
    };
    let broker = BrokerProcess::start(&[]);
    release_cycle(bin, &broker.url);
}

#[test]
fn the_pact_cli_runs_a_release_cycle_against_accord_serve_on_postgres() {
    let Some(bin) = pact_cli_or_skip() else {
        return;
    };
    let Some(schema) = PgSchema::create_or_skip() else {
        return;
    };
    let broker = BrokerProcess::start_on(&schema.url, &[]);
    release_cycle(bin, &broker.url);
}
