//! `accord admission show P V`: a provider version's admission state, why
//! it is in it, and every transition with its cause, read from
//! `GET /pacticipants/{p}/versions/{v}/admission`.

use clap::{Args, Subcommand};
use serde_json::Value;

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, segment};

/// Show the admission state of provider versions.
#[derive(Debug, Args)]
pub struct AdmissionArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    #[command(subcommand)]
    command: AdmissionCommand,
}

#[derive(Debug, Subcommand)]
enum AdmissionCommand {
    /// Print a version's admission state, its reason and its transitions.
    #[command(
        disable_version_flag = true,
        after_help = "Example:\n  accord admission show planning-agent 2.0.1"
    )]
    Show {
        /// The provider (pacticipant) name.
        pacticipant: String,
        /// Its version number.
        version: String,
        /// text (state, reason, one line per transition) or json (the broker's body).
        #[arg(long, short = 'o', value_parser = ["text", "json"], default_value = "text")]
        output: String,
    },
}

/// Runs an admission subcommand.
pub fn run(args: AdmissionArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    match args.command {
        AdmissionCommand::Show {
            pacticipant,
            version,
            output,
        } => {
            let path = format!(
                "/pacticipants/{}/versions/{}/admission",
                segment(&pacticipant),
                segment(&version)
            );
            let body = client.get(&path)?;
            if output == "json" {
                println!("{}", serde_json::to_string_pretty(&body)?);
            } else {
                print!("{}", render(&pacticipant, &version, &body));
            }
        }
    }
    Ok(Outcome::Pass)
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

/// The text form: the state and its reason, then a line per transition.
fn render(pacticipant: &str, version: &str, body: &Value) -> String {
    let mut out = format!(
        "{pacticipant} {version}: {}\n  {}\n",
        text(body, "state"),
        text(body, "reason")
    );
    out.push_str(&evidence(&body["evidence"]));
    let transitions = body["transitions"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    if !transitions.is_empty() {
        out.push_str("Transitions:\n");
    }
    for t in transitions {
        let cause = &t["cause"];
        let by = match (cause["id"].as_i64(), cause["name"].as_str()) {
            (Some(id), _) => format!("{} {id}", text(cause, "kind")),
            (None, Some(name)) => format!("{} {name}", text(cause, "kind")),
            (None, None) => text(cause, "kind").to_owned(),
        };
        out.push_str(&format!(
            "  {}  {} -> {}  by {by}: {}\n",
            text(t, "at"),
            text(t, "from"),
            text(t, "to"),
            text(t, "reason")
        ));
    }
    out
}

/// The evidence record's lines (none without a record).
fn evidence(e: &Value) -> String {
    if !e.is_object() {
        return String::new();
    }
    let list = |key: &str| {
        e[key]
            .as_array()
            .map(|a| {
                let items: Vec<String> = a
                    .iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                    .collect();
                items.join(", ")
            })
            .unwrap_or_default()
    };
    let mut out = String::from("Evidence:\n");
    out.push_str(&format!(
        "  card: {}\n",
        e["cardDigest"].as_str().unwrap_or("none")
    ));
    for (profile, digest) in e["toolsDigests"].as_object().into_iter().flatten() {
        out.push_str(&format!(
            "  tools ({profile}): {}\n",
            digest.as_str().unwrap_or("")
        ));
    }
    out.push_str(&format!("  contracts: {}\n", list("contractDigests")));
    out.push_str(&format!(
        "  producer: {}\n",
        e["producerDigest"].as_str().unwrap_or("none")
    ));
    out.push_str(&format!("  profiles: {}\n", list("profiles")));
    out.push_str(&format!("  harness: {}\n", text(e, "harnessVersion")));
    out.push_str(&format!("  verifications: {}\n", list("verifications")));
    let security = match e["security"]["reason"].as_str() {
        Some(why) => format!("not verified: {why}"),
        None => "verified".to_owned(),
    };
    out.push_str(&format!("  security: {security}\n"));
    out.push_str(&format!("  verified at: {}\n", text(e, "verifiedAt")));
    let expiry = match e["expiredReason"].as_str() {
        Some(why) => format!("{} (expired: {why})", text(e, "expiresAt")),
        None => text(e, "expiresAt").to_owned(),
    };
    out.push_str(&format!("  expires at: {expiry}\n"));
    out
}
