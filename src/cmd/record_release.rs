//! `accord record-release`: tell the broker that a version of an application
//! is released (and supported) in an environment, through the version's
//! `pb:record-release` link named after the environment, as the Pact CLI does.

use clap::Args;
use serde_json::json;

use super::Outcome;
use super::record_deployment::target_link;
use crate::client::{BrokerArgs, BrokerClient};

/// Record that a version of an application is released to an environment.
///
/// Unlike a deployment, a release replaces nothing: every released version
/// stays supported until support is ended (for apps and libraries of which
/// users run several versions at once). Recording it again changes nothing.
#[derive(Debug, Args)]
#[command(
    disable_version_flag = true,
    after_help = "Exit codes: 0 recorded, 2 usage error, an unknown pacticipant, version or environment, or the broker could not be reached.\n\nExample:\n  accord record-release --pacticipant mobile-app --version 3.4.0 --environment app-store --broker-url http://127.0.0.1:9292\n\nEarlier releases stay supported; end support with PATCH {\"currentlySupported\": false} on the released version.\nThe environment must exist first: accord environment create --name app-store --production.\nThe released/deployedOrReleased consumer version selectors and can-i-deploy read what this records."
)]
pub struct RecordReleaseArgs {
    /// The application (pacticipant) that was released.
    #[arg(long, short = 'a', value_name = "NAME")]
    pacticipant: String,
    /// Its version, as published.
    #[arg(long, short = 'e', value_name = "VERSION")]
    version: String,
    /// The environment's name (see `accord environment list`).
    #[arg(long, value_name = "ENVIRONMENT")]
    environment: String,
    #[command(flatten)]
    broker: BrokerArgs,
}

/// Records the release.
pub fn run(args: RecordReleaseArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    let href = target_link(
        &client,
        "pb:record-release",
        &args.pacticipant,
        &args.version,
        &args.environment,
    )?;
    client.post(&href, &json!({}))?;
    println!(
        "Recorded release of {} version {} to {} environment",
        args.pacticipant, args.version, args.environment
    );
    Ok(Outcome::Pass)
}
