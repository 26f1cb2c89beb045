//! `accord can-i-deploy`: asks the broker whether a pacticipant version may
//! be deployed to an environment (or the latest version with a tag), prints
//! the rows and the reason, and exits 0 deployable, 1 not (false or
//! unknown), 2 on error. `--output json` prints the broker's body and still
//! exits 1 when not deployable (the Pact CLI exits 0 there).

use std::time::Duration;

use clap::Args;
use serde_json::Value;

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, segment};

/// Ask the broker whether a version can be deployed.
#[derive(Debug, Args)]
pub struct CanIDeployArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    /// The pacticipant to deploy.
    #[arg(long, short = 'a')]
    pacticipant: String,
    /// Its version number.
    #[arg(long, short = 'e')]
    version: String,
    /// The environment to deploy to (every version live there must be compatible).
    #[arg(long, conflicts_with = "to", required_unless_present = "to")]
    to_environment: Option<String>,
    /// The tag to deploy to (the latest version of each integrated app with this tag).
    #[arg(long)]
    to: Option<String>,
    /// A pacticipant whose missing or failed verifications do not block (repeatable).
    #[arg(long)]
    ignore: Vec<String>,
    /// text (a table and the reason) or json (the broker's body).
    #[arg(long, short = 'o', value_parser = ["text", "json"], default_value = "text")]
    output: String,
    /// Ask again up to N times while the answer is unknown (verifications pending).
    #[arg(long, default_value_t = 0, value_name = "N")]
    retry_while_unknown: u32,
    /// Seconds between those retries.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    retry_interval: u64,
}

/// Where a version is to be deployed.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Destination<'a> {
    /// Every version live in this environment must be compatible.
    Environment(&'a str),
    /// The latest version of each integrated app with this tag.
    Tag(&'a str),
}

/// The query string of the broker's `/can-i-deploy` (and of its page,
/// `/ui/can-i-deploy`): `pacticipant`, `version`, the destination, the
/// ignored pacticipants.
pub(crate) fn query(
    pacticipant: &str,
    version: &str,
    to: Option<Destination<'_>>,
    ignore: &[String],
) -> String {
    let mut query = format!(
        "pacticipant={}&version={}",
        segment(pacticipant),
        segment(version)
    );
    match to {
        Some(Destination::Environment(env)) => {
            query.push_str(&format!("&environment={}", segment(env)));
        }
        Some(Destination::Tag(tag)) => query.push_str(&format!("&to={}", segment(tag))),
        None => {}
    }
    for name in ignore {
        query.push_str(&format!("&ignore[]={}", segment(name)));
    }
    query
}

impl CanIDeployArgs {
    fn path(&self) -> String {
        let to = match (&self.to_environment, &self.to) {
            (Some(env), _) => Some(Destination::Environment(env)),
            (None, Some(tag)) => Some(Destination::Tag(tag)),
            (None, None) => None,
        };
        format!(
            "/can-i-deploy?{}",
            query(&self.pacticipant, &self.version, to, &self.ignore)
        )
    }
}

/// Runs the check.
pub fn run(args: CanIDeployArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    let path = args.path();
    let mut body = client.get(&path)?;
    for _ in 0..args.retry_while_unknown {
        let unknown = body["summary"]["unknown"].as_u64().unwrap_or(0);
        if !body["summary"]["deployable"].is_null() || unknown == 0 {
            break;
        }
        eprintln!(
            "Waiting for {unknown} verification result(s) to be published; asking again in {} s",
            args.retry_interval
        );
        std::thread::sleep(Duration::from_secs(args.retry_interval));
        body = client.get(&path)?;
    }
    let deployable = body["summary"]["deployable"] == Value::Bool(true);
    if args.output == "json" {
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else {
        print_text(&body, deployable);
    }
    Ok(if deployable {
        Outcome::Pass
    } else {
        Outcome::Fail
    })
}

fn print_text(body: &Value, deployable: bool) {
    println!(
        "{}",
        if deployable {
            "Computer says yes \\o/"
        } else {
            "Computer says no ¯\\_(ツ)_/¯"
        }
    );
    let empty = Vec::new();
    let rows = body["matrix"].as_array().unwrap_or(&empty);
    if !rows.is_empty() {
        println!();
        println!("CONSUMER\tC.VERSION\tPROVIDER\tP.VERSION\tSUCCESS?");
        for r in rows {
            let text = |v: &Value| v.as_str().unwrap_or("???").to_owned();
            let success = match &r["verificationResult"]["success"] {
                Value::Bool(b) => b.to_string(),
                _ => "???".to_owned(),
            };
            let ignored = if r["ignored"] == Value::Bool(true) {
                " [ignored]"
            } else {
                ""
            };
            println!(
                "{}\t{}\t{}\t{}\t{success}{ignored}",
                text(&r["consumer"]["name"]),
                text(&r["consumer"]["version"]["number"]),
                text(&r["provider"]["name"]),
                text(&r["provider"]["version"]["number"]),
            );
        }
    }
    println!();
    let notices = body["notices"].as_array().unwrap_or(&empty);
    if notices.is_empty() {
        println!("{}", body["summary"]["reason"].as_str().unwrap_or(""));
    }
    for n in notices {
        println!("{}", n["text"].as_str().unwrap_or(""));
    }
}
