//! `accord drift report FILE`: sends a runtime drift report (from a
//! router, gateway or sidecar) to the broker's `POST /drift-reports`.
//! The report carries contract signals only; the broker refuses a payload
//! field by its JSON path (docs/drift.md). `accord drift policy set|show`:
//! a provider's drift policy (a YAML or JSON file, sent as JSON to
//! `PUT /pacticipants/{p}/drift-policy`).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::Outcome;
use super::files::{read_json, read_text};
use crate::client::{BrokerArgs, BrokerClient, segment};

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
    /// Send a drift report (a JSON file); prints what the broker made of it
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
    /// Set or show a provider's drift policy.
    #[command(subcommand)]
    Policy(PolicyCommand),
}

#[derive(Debug, Subcommand)]
enum PolicyCommand {
    /// Replace the provider's drift policy with a YAML or JSON file.
    #[command(
        after_help = "The file (the seed's form):\n  drift_policy:\n    rules:\n      agent_card_digest: { threshold: 1, action: quarantine }\n      unknown_error_codes: { threshold: 5, action: route_disable }\n    environments:\n      production:\n        cross_tenant_allows: { threshold: 1, action: quarantine }\n\nSignals: agent_card_digest, tools_digest, output_schema_violations, unknown_error_codes, impossible_task_transitions, annotation_mismatches, writes_after_cancel, cross_tenant_allows, consumer_decode_failures. Actions: warn, canary_stop, route_disable, incident_open, quarantine.\n\nExample:\n  accord drift policy set planning-agent drift-policy.yaml --broker-url http://127.0.0.1:9292"
    )]
    Set {
        /// The provider (pacticipant) name.
        pacticipant: String,
        /// The policy, a YAML or JSON file.
        file: PathBuf,
    },
    /// Print the provider's drift policy and the defaults (JSON).
    Show {
        /// The provider (pacticipant) name.
        pacticipant: String,
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
                print_report(&stored);
            }
        }
        DriftCommand::Policy(PolicyCommand::Set { pacticipant, file }) => {
            let policy = read_policy(&file)?;
            let path = policy_path(&pacticipant);
            client.expect_ok(reqwest::Method::PUT, &path, Some(&policy))?;
            println!("Set the drift policy of {pacticipant}");
        }
        DriftCommand::Policy(PolicyCommand::Show { pacticipant }) => {
            let body = client.get(&policy_path(&pacticipant))?;
            let shown = serde_json::json!({
                "drift_policy": body["drift_policy"],
                "defaults": body["defaults"],
            });
            println!("{}", serde_json::to_string_pretty(&shown)?);
        }
    }
    Ok(Outcome::Pass)
}

/// The stored report in words: its id, each live consumer's verdict
/// (breaks it and where, unaffected, must re-verify) and each action.
fn print_report(stored: &serde_json::Value) {
    let text = |k: &str| stored[k].as_str().unwrap_or("").to_owned();
    println!(
        "Recorded drift report {} for {} {} in {} (admission: {})",
        stored["id"],
        text("provider"),
        text("version"),
        text("environment"),
        text("admission")
    );
    let lines = |k: &str, field: &str| -> Vec<String> {
        stored[k]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v[field].as_str().map(str::to_owned))
            .collect()
    };
    for note in lines("consumers", "note") {
        println!("  consumer: {note}");
    }
    for reason in lines("actions", "reason") {
        println!("  action: {reason}");
    }
}

fn policy_path(pacticipant: &str) -> String {
    format!("/pacticipants/{}/drift-policy", segment(pacticipant))
}

/// A policy file: JSON when it reads as JSON, YAML otherwise.
fn read_policy(file: &std::path::Path) -> anyhow::Result<serde_json::Value> {
    let text = read_text(file)?;
    if let Ok(value) = serde_json::from_str(&text) {
        return Ok(value);
    }
    yaml_serde::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: not JSON, nor YAML: {e}", file.display()))
}
