//! `accord record-deployment`: tell the broker that a version of an
//! application now runs in an environment. It navigates as the Pact CLI
//! does: it reads the version resource and posts to the `pb:record-deployment`
//! link named after the environment, so it works against any Pact Broker.

use clap::Args;
use serde_json::{Map, Value, json};

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, describe_error, link, segment};

/// Record that a version of an application is deployed to an environment.
///
/// The version previously deployed to the same environment (and the same
/// application instance) is marked as no longer deployed. Recording a
/// version that is already deployed there changes nothing.
#[derive(Debug, Args)]
#[command(
    disable_version_flag = true,
    after_help = "Exit codes: 0 recorded, 2 usage error, an unknown pacticipant, version or environment, or the broker could not be reached.\n\nExample:\n  accord record-deployment --pacticipant planning-agent --version 2.0.1 --environment production --broker-url http://127.0.0.1:9292\n\nThe version previously deployed to that environment (and application instance) is marked as no longer deployed; recording the live version again changes nothing.\nThe environment must exist first: accord environment create --name production --production.\nCan-i-deploy and the deployed/deployedOrReleased consumer version selectors read what this records."
)]
pub struct RecordDeploymentArgs {
    /// The application (pacticipant) that was deployed.
    #[arg(long, short = 'a', value_name = "NAME")]
    pacticipant: String,
    /// Its version, as published (e.g. a git sha).
    #[arg(long, short = 'e', value_name = "VERSION")]
    version: String,
    /// The environment's name (see `accord environment list`).
    #[arg(long, value_name = "ENVIRONMENT")]
    environment: String,
    /// Which instance of the application was replaced, when several run side
    /// by side in one environment (e.g. one per customer or region). Without
    /// it the deployment replaces the one recorded without an instance.
    #[arg(long, value_name = "INSTANCE")]
    application_instance: Option<String>,
    #[command(flatten)]
    broker: BrokerArgs,
}

/// Finds the version resource of `pacticipant` `version` and the href of its
/// `rel` link named `environment`.
pub fn target_link(
    client: &BrokerClient,
    rel: &str,
    pacticipant: &str,
    version: &str,
    environment: &str,
) -> anyhow::Result<String> {
    let path = format!(
        "/pacticipants/{}/versions/{}",
        segment(pacticipant),
        segment(version)
    );
    let reply = client.send(reqwest::Method::GET, &path, None)?;
    if reply.status == 404 {
        anyhow::bail!("{pacticipant} version {version} not found");
    }
    if !(200..300).contains(&reply.status) {
        anyhow::bail!(
            "GET {} failed: {}",
            client.url(&path),
            describe_error(&reply)
        );
    }
    let body = reply.body;
    if body.get("_links").and_then(|l| l.get(rel)).is_none() {
        anyhow::bail!("the broker does not support {rel} (it has no such link on versions)");
    }
    match link(&body, rel, Some(environment)) {
        Some(href) => Ok(href.to_owned()),
        None => anyhow::bail!("environment {environment} does not exist"),
    }
}

/// Records that `pacticipant` `version` now runs in `environment` (on
/// `instance`, if given); the deployed-version resource.
pub(crate) fn record(
    client: &BrokerClient,
    pacticipant: &str,
    version: &str,
    environment: &str,
    instance: Option<&str>,
) -> anyhow::Result<Value> {
    let href = target_link(
        client,
        "pb:record-deployment",
        pacticipant,
        version,
        environment,
    )?;
    let mut body = Map::new();
    if let Some(instance) = instance {
        // `target` is the old name of the field; Pact clients send both.
        body.insert("applicationInstance".into(), json!(instance));
        body.insert("target".into(), json!(instance));
    }
    client.post(&href, &Value::Object(body))
}

/// Records the deployment.
pub fn run(args: RecordDeploymentArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    let recorded = record(
        &client,
        &args.pacticipant,
        &args.version,
        &args.environment,
        args.application_instance.as_deref(),
    )?;
    let instance = args
        .application_instance
        .map(|i| format!(" (application instance {i})"))
        .unwrap_or_default();
    println!(
        "Recorded deployment of {} version {} to {} environment{instance}",
        args.pacticipant, args.version, args.environment
    );
    // an environment marked for an admission stage says what it did
    if let Some(reason) = recorded["admission"]["reason"].as_str() {
        let state = recorded["admission"]["state"].as_str().unwrap_or("?");
        println!("Admission: {state} ({reason})");
    }
    Ok(Outcome::Pass)
}
