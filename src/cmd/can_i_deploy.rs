//! `accord can-i-deploy`: asks the broker whether a pacticipant version may
//! be deployed to an environment (or the latest version with a tag), prints
//! the rows and the reason, and exits 0 deployable, 1 not (false or
//! unknown), 2 on error. `--output json` prints the broker's body and still
//! exits 1 when not deployable (the Pact CLI exits 0 there).
//!
//! The text output ends with the rows that block: for a failed one, the
//! layers and reason codes of its verification's findings and the page to
//! read it on (read from the verification result the row links to).

use std::time::Duration;

use clap::Args;
use serde_json::Value;

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, link, segment};

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
    /// Also answer no when the version's admission state is below STATE
    /// (or off the ladder: REJECTED, QUARANTINED, DEPRECATED).
    #[arg(long, value_name = "STATE", value_parser = [
        "DRAFT", "STATIC_VALIDATED", "CONFORMANCE_VERIFIED", "SECURITY_VERIFIED",
        "REGISTRY_ADMITTED", "CANARY", "ACTIVE",
    ])]
    require_admission: Option<String>,
    /// Also answer no while the version's coverage report has gaps (the
    /// first are named; see `accord coverage`).
    #[arg(long)]
    require_coverage: bool,
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
        let mut path = format!(
            "/can-i-deploy?{}",
            query(&self.pacticipant, &self.version, to, &self.ignore)
        );
        if let Some(state) = &self.require_admission {
            path.push_str(&format!("&requireAdmission={}", segment(state)));
        }
        if self.require_coverage {
            path.push_str("&requireCoverage=true");
        }
        path
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
        print_blocking(&client, &body);
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

/// Each row that blocks (not ignored, not a success): who with whom, the
/// failing layers and reason codes, and where to read the verification.
fn print_blocking(client: &BrokerClient, body: &Value) {
    let empty = Vec::new();
    let blocking: Vec<&Value> = body["matrix"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .filter(|r| r["ignored"] != Value::Bool(true))
        .filter(|r| r["verificationResult"]["success"] != Value::Bool(true))
        .collect();
    if blocking.is_empty() {
        return;
    }
    println!();
    println!("Blocking:");
    for row in blocking {
        let (verdict, link) = row_verdict(client, &row["verificationResult"]);
        println!("  {}: {verdict}", pair(row));
        if let Some(link) = link {
            println!("    {link}");
        }
    }
}

/// "Foo 1 with Bar 3" (no provider version: "with Bar").
fn pair(row: &Value) -> String {
    let side = |s: &Value| {
        let name = s["name"].as_str().unwrap_or("???");
        match s["version"]["number"].as_str() {
            Some(number) => format!("{name} {number}"),
            None => name.to_owned(),
        }
    };
    format!("{} with {}", side(&row["consumer"]), side(&row["provider"]))
}

/// The row's verdict in words and the URL to read its verification on:
/// `failed (schema: CONTENT_MODE_MISMATCH)` and the page (a Pact Broker
/// links no page: the result's own URL), or `not verified`.
fn row_verdict(client: &BrokerClient, result: &Value) -> (String, Option<String>) {
    let href = result["_links"]["self"]["href"].as_str();
    let href = match (href, &result["success"]) {
        (Some(href), Value::Bool(false)) => href,
        (Some(href), _) if result["pactViewOnly"] == Value::Bool(true) => {
            let parts: Vec<&str> = result["unverified"]
                .as_array()
                .map(|list| list.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let what = format!(
                "verified only in its Pact view (unverified: {})",
                parts.join(", ")
            );
            return (what, Some(href.to_owned()));
        }
        _ => return ("not verified".to_owned(), None),
    };
    match client.get(href) {
        Ok(verification) => {
            let marks = verification["findings"]
                .as_array()
                .map(|list| accord_broker::web::matrix::cells::marks_of(list))
                .unwrap_or_default();
            let why = if marks.is_empty() {
                "no findings published".to_owned()
            } else {
                let each: Vec<String> = marks
                    .iter()
                    .map(|m| format!("{}: {}", m.layer, m.codes))
                    .collect();
                each.join("; ")
            };
            let page = link(&verification, "accord:page", None).unwrap_or(href);
            (format!("failed ({why})"), Some(page.to_owned()))
        }
        Err(err) => (
            format!("failed (its findings could not be read: {err:#})"),
            Some(href.to_owned()),
        ),
    }
}
