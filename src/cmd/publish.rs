//! `accord publish FILE… --consumer-app-version V`: publishes contracts
//! (Accord contracts from `accord contract compile`, or Pact files of any
//! version) to a broker, one `POST /contracts/publish` per consumer with
//! every contract of that consumer, and prints the broker's notices.
//!
//! Every file is read and checked before anything is sent. Files for the
//! same consumer and provider are merged here first, as the Pact CLI does.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use base64::Engine;
use clap::Args;
use serde_json::{Value, json};

use super::Outcome;
use super::files::read_json;
use crate::client::{BrokerArgs, BrokerClient, describe_error, link};

/// Publish contracts to a broker.
#[derive(Debug, Args)]
pub struct PublishArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    /// Contract files (JSON): Accord contracts or Pact files (V1–V4).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The consumer version these contracts belong to (a git sha, a semver).
    #[arg(long, short = 'a', value_name = "VERSION")]
    consumer_app_version: String,
    /// The consumer's branch this version is on.
    #[arg(long, value_name = "BRANCH")]
    branch: Option<String>,
    /// A tag for the consumer version (repeatable).
    #[arg(long = "tag", short = 't', value_name = "TAG")]
    tags: Vec<String>,
    /// The CI build that produced the contracts.
    #[arg(long, value_name = "URL")]
    build_url: Option<String>,
    /// Merge interactions into a pact already published for this version
    /// instead of refusing changed content.
    #[arg(long)]
    merge: bool,
}

/// One contract file, read and checked.
#[derive(Debug)]
struct ContractFile {
    path: PathBuf,
    consumer: String,
    provider: String,
    document: Value,
}

/// Reads and validates a file; errors name the file and the JSON path.
fn read_contract(path: &Path) -> anyhow::Result<ContractFile> {
    let document = read_json(path)?;
    let origin = path.display().to_string();
    let contract = accord_dsl::pact::from_value(&document, &origin)
        .with_context(|| format!("{origin} is not a contract"))?;
    Ok(ContractFile {
        path: path.to_owned(),
        consumer: contract.consumer.name,
        provider: contract.provider.name,
        document,
    })
}

/// Files grouped by consumer (first-seen order); files for the same pair
/// merged into one document.
fn group(files: Vec<ContractFile>) -> anyhow::Result<Vec<(String, Vec<ContractFile>)>> {
    let mut groups: Vec<(String, Vec<ContractFile>)> = Vec::new();
    for file in files {
        let index = match groups.iter().position(|(c, _)| *c == file.consumer) {
            Some(i) => i,
            None => {
                groups.push((file.consumer.clone(), Vec::new()));
                groups.len() - 1
            }
        };
        let list = &mut groups[index].1;
        match list.iter_mut().find(|f| f.provider == file.provider) {
            Some(same) => {
                same.document =
                    accord_broker::contract::merge::merge(&same.document, &file.document)
                        .with_context(|| {
                            format!(
                                "cannot merge {} into {}",
                                file.path.display(),
                                same.path.display()
                            )
                        })?;
            }
            None => list.push(file),
        }
    }
    Ok(groups)
}

fn request_body(args: &PublishArgs, consumer: &str, files: &[ContractFile]) -> Value {
    let on_conflict = if args.merge { "merge" } else { "overwrite" };
    let contracts: Vec<Value> = files
        .iter()
        .map(|f| {
            json!({
                "consumerName": consumer,
                "providerName": f.provider,
                "specification": "pact",
                "contentType": "application/json",
                "content": base64::engine::general_purpose::STANDARD.encode(f.document.to_string()),
                "onConflict": on_conflict,
            })
        })
        .collect();
    let mut body = json!({
        "pacticipantName": consumer,
        "pacticipantVersionNumber": args.consumer_app_version,
        "tags": args.tags,
        "contracts": contracts,
    });
    if let Some(b) = &args.branch {
        body["branch"] = json!(b);
    }
    if let Some(u) = &args.build_url {
        body["buildUrl"] = json!(u);
    }
    body
}

/// Prints the notices of a reply: errors to standard error, the rest to
/// standard output.
fn print_notices(body: &Value) {
    for notice in body["notices"].as_array().into_iter().flatten() {
        let kind = notice["type"].as_str().unwrap_or("info");
        let text = notice["text"].as_str().unwrap_or("");
        match kind {
            "error" | "danger" => eprintln!("{kind}: {text}"),
            _ => println!("{kind}: {text}"),
        }
    }
}

/// Runs `accord publish`.
pub fn run(args: PublishArgs) -> anyhow::Result<Outcome> {
    let files = args
        .files
        .iter()
        .map(|p| read_contract(p))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let groups = group(files)?;
    let client = BrokerClient::from_args(&args.broker)?;
    let index = client.get("/")?;
    let target = link(&index, "pb:publish-contracts", None)
        .unwrap_or("/contracts/publish")
        .to_owned();
    for (consumer, files) in &groups {
        let reply = client.send(
            reqwest::Method::POST,
            &target,
            Some(&request_body(&args, consumer, files)),
        )?;
        print_notices(&reply.body);
        match reply.status {
            200..=299 => {}
            409 => return Ok(Outcome::Fail),
            _ => bail!(
                "publishing the contracts of {consumer} failed: {}",
                describe_error(&reply)
            ),
        }
    }
    Ok(Outcome::Pass)
}
