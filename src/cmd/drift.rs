//! `accord drift report FILE`: sends a runtime drift report (from a
//! router, gateway or sidecar) to the broker's `POST /drift-reports`.
//! The report carries contract signals only; the broker refuses a payload
//! field by its JSON path (docs/drift.md).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::Outcome;
use super::files::read_json;
use crate::client::{BrokerArgs, BrokerClient};

/// Send runtime drift reports to a broker.
#[derive(Debug, Args)]
pub struct DriftArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    #[command(subcommand)]
    command: DriftCommand,
}

#[derive(Debug, Subcommand)]
enum DriftCommand {
    /// Send a drift report (a JSON file); prints its id.
    #[command(
        after_help = "The report: provider, version, environment, window {start, end}, and only contract signals: agentCardDigest, toolsDigests {profile: digest}, counts {outputSchemaViolations, unknownErrorCodes, impossibleTaskTransitions, annotationMismatches, writesAfterCancel, crossTenantAllows, consumerDecodeFailures} and observations [{signal, count, mcp.method.name, gen_ai.tool.name, error.type, profile}]. A field that could carry content (request, response, arguments, result, messages …) is refused. See docs/drift.md.\n\nExample:\n  accord drift report drift.json --broker-url http://127.0.0.1:9292"
    )]
    Report {
        /// The report, a JSON file.
        file: PathBuf,
        /// text (a line) or json (the broker's body).
        #[arg(long, short = 'o', value_parser = ["text", "json"], default_value = "text")]
        output: String,
    },
}

/// Runs a drift subcommand.
pub fn run(args: DriftArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    match args.command {
        DriftCommand::Report { file, output } => {
            let report = read_json(&file)?;
            let stored = client.post("/drift-reports", &report)?;
            if output == "json" {
                println!("{}", serde_json::to_string_pretty(&stored)?);
            } else {
                let text = |k: &str| stored[k].as_str().unwrap_or("").to_owned();
                println!(
                    "Recorded drift report {} for {} {} in {}",
                    stored["id"],
                    text("provider"),
                    text("version"),
                    text("environment")
                );
            }
        }
    }
    Ok(Outcome::Pass)
}
