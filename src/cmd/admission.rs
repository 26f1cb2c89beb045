//! `accord admission show P V`: a provider version's admission state, why
//! it is in it, and every transition with its cause, read from
//! `GET /pacticipants/{p}/versions/{v}/admission`. `accord admission
//! promote P V --to STATE [--reason TEXT] [--require-coverage]` posts a
//! promotion there; a refusal (409) prints the broker's reason and exits 1.

use clap::{Args, Subcommand};
use reqwest::Method;
use serde_json::{Value, json};

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, describe_error, segment};

/// Show or promote the admission state of provider versions.
#[derive(Debug, Args)]
pub struct AdmissionArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    #[command(subcommand)]
    command: AdmissionCommand,
}

#[derive(Debug, Subcommand)]
enum AdmissionCommand {
    /// Print a version's admission state, its reason, evidence, evaluations and transitions.
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
    /// Promote (or deprecate, or reject) a version: REGISTRY_ADMITTED needs
    /// SECURITY_VERIFIED evidence, CANARY and ACTIVE need REGISTRY_ADMITTED.
    #[command(
        disable_version_flag = true,
        after_help = "Exit codes: 0 moved, 1 refused (the broker's reason is printed), 2 usage error, no such version, or the broker could not be reached.\n\nThe evidence states (STATIC_VALIDATED, CONFORMANCE_VERIFIED, SECURITY_VERIFIED) follow from\nevidence and QUARANTINED from runtime drift: they cannot be set by hand.\n\nExample:\n  accord admission promote planning-agent 2.0.1 --to REGISTRY_ADMITTED --reason \"release review 42\""
    )]
    Promote {
        /// The provider (pacticipant) name.
        pacticipant: String,
        /// Its version number.
        version: String,
        /// The state to move it to.
        #[arg(long, value_parser = ["REGISTRY_ADMITTED", "CANARY", "ACTIVE", "DEPRECATED", "REJECTED"])]
        to: String,
        /// Why (recorded in the version's admission history).
        #[arg(long)]
        reason: Option<String>,
        /// Also refuse while the version's coverage report has gaps (for
        /// REGISTRY_ADMITTED, CANARY and ACTIVE; see `accord coverage`).
        #[arg(long)]
        require_coverage: bool,
        /// text (the new state and its reason) or json (the broker's body).
        #[arg(long, short = 'o', value_parser = ["text", "json"], default_value = "text")]
        output: String,
    },
}

/// The admission resource's path.
fn admission_path(pacticipant: &str, version: &str) -> String {
    format!(
        "/pacticipants/{}/versions/{}/admission",
        segment(pacticipant),
        segment(version)
    )
}

/// Prints the admission `body` as `output` asks.
fn show(pacticipant: &str, version: &str, body: &Value, output: &str) -> anyhow::Result<()> {
    if output == "json" {
        println!("{}", serde_json::to_string_pretty(body)?);
    } else {
        print!("{}", render(pacticipant, version, body));
    }
    Ok(())
}

/// Posts the promotion; a 409 (refused) prints the reason and fails.
fn promote(client: &BrokerClient, args: Promotion<'_>) -> anyhow::Result<Outcome> {
    let mut request = json!({ "to": args.to });
    if let Some(reason) = args.reason {
        request["reason"] = json!(reason);
    }
    if args.require_coverage {
        request["requireCoverage"] = json!(true);
    }
    let path = admission_path(args.pacticipant, args.version);
    let reply = client.send(Method::POST, &path, Some(&request))?;
    match reply.status {
        200..=299 => {
            show(args.pacticipant, args.version, &reply.body, args.output)?;
            Ok(Outcome::Pass)
        }
        409 => {
            let detail = reply.body["detail"].as_str().unwrap_or("refused");
            eprintln!("Refused: {detail}");
            Ok(Outcome::Fail)
        }
        _ => anyhow::bail!(
            "POST {} failed: {}",
            client.url(&path),
            describe_error(&reply)
        ),
    }
}

/// What `admission promote` was asked.
struct Promotion<'a> {
    pacticipant: &'a str,
    version: &'a str,
    to: &'a str,
    reason: Option<&'a str>,
    require_coverage: bool,
    output: &'a str,
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
            let body = client.get(&admission_path(&pacticipant, &version))?;
            show(&pacticipant, &version, &body, &output)?;
            Ok(Outcome::Pass)
        }
        AdmissionCommand::Promote {
            pacticipant,
            version,
            to,
            reason,
            require_coverage,
            output,
        } => promote(
            &client,
            Promotion {
                pacticipant: &pacticipant,
                version: &version,
                to: &to,
                reason: reason.as_deref(),
                require_coverage,
                output: &output,
            },
        ),
    }
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
    out.push_str(&evaluations(body));
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
            (None, None) => match cause["uuid"].as_str() {
                Some(uuid) => format!("{} {uuid}", text(cause, "kind")),
                None => text(cause, "kind").to_owned(),
            },
        };
        out.push_str(&format!(
            "  {}  {} -> {}  by {by}: {}\n",
            text(t, "at"),
            text(t, "from"),
            text(t, "to"),
            text(t, "reason")
        ));
    }
    let holds = body["deploymentsNotMoved"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    if !holds.is_empty() {
        out.push_str("Deployments that did not move it:\n");
    }
    for h in holds {
        out.push_str(&format!("  {}  {}\n", text(h, "at"), text(h, "reason")));
    }
    out
}

/// The evaluation results' lines, apart from the evidence (none without any).
fn evaluations(body: &Value) -> String {
    let listed = body["evaluations"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    if listed.is_empty() {
        return String::new();
    }
    let total = body["evaluationsTotal"]
        .as_u64()
        .unwrap_or(listed.len() as u64);
    let mut out =
        format!("Evaluations ({total}; apart from the evidence: they never change the state):\n");
    for e in listed {
        let bound = if e["higherIsBetter"] == Value::Bool(false) {
            "<="
        } else {
            ">="
        };
        let verdict = if e["pass"] == Value::Bool(true) {
            "pass"
        } else {
            "fail"
        };
        out.push_str(&format!(
            "  {}: {} ({bound} {}) {verdict}\n",
            text(e, "dataset"),
            e["score"],
            e["threshold"]
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
