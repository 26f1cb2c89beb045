//! `accord diff`: every change between two declarations of a provider (two
//! Agent Cards, or two `tools/list` results), classified by
//! `accord_verifier::compat`, with the consumers each affects — offline
//! from files (`accord diff OLD NEW [--contract C…]`) or through a broker
//! between two provider versions (`--pacticipant P --from V1 --to V2`).

use std::path::PathBuf;

use accord_verifier::compat::{self, Change, Kind};
use anyhow::{Context, bail};
use clap::Args;
use serde_json::{Value, json};

use super::Outcome;
use super::files::read_json;
use crate::client::{BrokerArgs, BrokerClient, segment};

/// Classify every change between two declarations of a provider.
#[derive(Debug, Args)]
#[command(disable_version_flag = true)]
pub struct DiffArgs {
    /// The older declaration (an Agent Card, or a tools/list result: {"tools": [...]}).
    #[arg(value_name = "OLD", requires = "new", conflicts_with = "pacticipant")]
    old: Option<PathBuf>,
    /// The newer declaration, of the same kind.
    #[arg(value_name = "NEW")]
    new: Option<PathBuf>,
    /// A consumer contract (Accord/Pact JSON) to judge the changes for; repeatable.
    #[arg(long, value_name = "FILE")]
    contract: Vec<PathBuf>,
    /// Through a broker: the provider whose versions are compared.
    #[arg(long, short = 'a', value_name = "NAME", requires_all = ["from", "to"])]
    pacticipant: Option<String>,
    /// Through a broker: the older provider version.
    #[arg(long, value_name = "VERSION")]
    from: Option<String>,
    /// Through a broker: the newer provider version.
    #[arg(long, value_name = "VERSION")]
    to: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    output: String,
    #[command(flatten)]
    broker: BrokerArgs,
}

/// Runs the diff: exit 1 when a breaking change affects a live consumer
/// (offline without `--contract`: any breaking change).
pub fn run(args: DiffArgs) -> anyhow::Result<Outcome> {
    let (declarations, breaking) = match (&args.old, &args.new, &args.pacticipant) {
        (Some(old), Some(new), None) => offline(old, new, &args.contract)?,
        (None, None, Some(p)) => through_broker(&args, p)?,
        _ => {
            bail!("give OLD and NEW files, or --pacticipant P --from V1 --to V2 with --broker-url")
        }
    };
    if args.output == "json" {
        let body = json!({"breaking": breaking, "declarations": declarations});
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else {
        print_table(&declarations, breaking);
    }
    Ok(if breaking {
        Outcome::Fail
    } else {
        Outcome::Pass
    })
}

fn offline(
    old: &std::path::Path,
    new: &std::path::Path,
    contracts: &[PathBuf],
) -> anyhow::Result<(Vec<Value>, bool)> {
    let (old, new) = (read_json(old)?, read_json(new)?);
    let kind = Kind::of(&new);
    if Kind::of(&old) != kind {
        bail!("OLD and NEW are not of one kind (one is an Agent Card, the other a tool list)");
    }
    let mut held = Vec::new();
    for path in contracts {
        let document = read_json(path)?;
        let contract = accord_dsl::pact::from_value(&document, &path.display().to_string())
            .with_context(|| format!("{} is not a contract", path.display()))?;
        held.push((
            format!("{} ({})", contract.consumer.name, path.display()),
            contract,
        ));
    }
    let changes = compat::classify(kind, &old, &new, &compat::consumers_of(&held));
    let breaking = if contracts.is_empty() {
        changes.iter().any(|c| c.class == compat::Class::Breaking)
    } else {
        changes.iter().any(Change::breaks_a_consumer)
    };
    let kind_name = match kind {
        Kind::AgentCard => "a2a/agent-card",
        Kind::McpTools => "mcp/tools/list",
    };
    Ok((
        vec![json!({"kind": kind_name, "changes": changes})],
        breaking,
    ))
}

fn through_broker(args: &DiffArgs, pacticipant: &str) -> anyhow::Result<(Vec<Value>, bool)> {
    let (Some(from), Some(to)) = (&args.from, &args.to) else {
        bail!("--pacticipant needs --from and --to");
    };
    let client = BrokerClient::from_args(&args.broker)?;
    let path = format!(
        "/pacticipants/{}/versions/{}/declarations/diff?against={}",
        segment(pacticipant),
        segment(to),
        segment(from)
    );
    let body = client.get(&path)?;
    let declarations = body["declarations"].as_array().cloned().unwrap_or_default();
    Ok((declarations, body["breaking"].as_bool().unwrap_or(false)))
}

fn print_table(declarations: &[Value], breaking: bool) {
    println!("CLASS\tCODE\tPATH\tCONSUMERS AFFECTED\tDETAIL");
    let mut count = 0;
    for d in declarations {
        for c in d["changes"].as_array().into_iter().flatten() {
            count += 1;
            let affected: Vec<&str> = c["consumersAffected"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let text = |k: &str| c[k].as_str().unwrap_or("").to_owned();
            let who = if affected.is_empty() {
                "-".to_owned()
            } else {
                affected.join("; ")
            };
            println!(
                "{}\t{}\t{}\t{who}\t{}",
                text("class"),
                text("code"),
                text("path"),
                text("detail")
            );
        }
        if let Some(note) = d["note"].as_str() {
            let profile = d["profile"]
                .as_str()
                .map(|p| format!(" ({p})"))
                .unwrap_or_default();
            println!(
                "-\t-\t{}{profile}\t-\t{note}",
                d["kind"].as_str().unwrap_or("")
            );
        }
    }
    match (count, breaking) {
        (0, _) => println!("No changes."),
        (_, true) => println!("{count} changes: breaking (exit 1)."),
        (_, false) => println!("{count} changes: none breaks a consumer."),
    }
}
