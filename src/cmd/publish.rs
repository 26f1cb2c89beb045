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
use crate::client::{BrokerArgs, BrokerClient, Reply, describe_error, link};

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
pub(crate) struct ContractFile {
    path: PathBuf,
    consumer: String,
    provider: String,
    document: Value,
}

impl ContractFile {
    /// A contract document read from (or compiled from) `path`, checked;
    /// errors name the file and the JSON path.
    pub(crate) fn new(path: &Path, document: Value) -> anyhow::Result<ContractFile> {
        let origin = path.display().to_string();
        let contract = accord_dsl::pact::from_value(&document, &origin)
            .with_context(|| format!("{origin} is not a contract"))?;
        crate::cmd::lint_warnings::print(&origin, &contract);
        Ok(ContractFile {
            path: path.to_owned(),
            consumer: contract.consumer.name,
            provider: contract.provider.name,
            document,
        })
    }

    /// The provider's name.
    pub(crate) fn provider(&self) -> &str {
        &self.provider
    }
}

/// The consumer version a publication is for, and how it treats a pact
/// already published for it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Release {
    pub version: String,
    pub branch: Option<String>,
    pub tags: Vec<String>,
    pub build_url: Option<String>,
    pub merge: bool,
}

impl From<&PublishArgs> for Release {
    fn from(args: &PublishArgs) -> Release {
        Release {
            version: args.consumer_app_version.clone(),
            branch: args.branch.clone(),
            tags: args.tags.clone(),
            build_url: args.build_url.clone(),
            merge: args.merge,
        }
    }
}

/// Reads and validates a file; errors name the file and the JSON path.
fn read_contract(path: &Path) -> anyhow::Result<ContractFile> {
    ContractFile::new(path, read_json(path)?)
}

/// Files grouped by consumer (first-seen order); files for the same pair
/// merged into one document.
pub(crate) fn group(files: Vec<ContractFile>) -> anyhow::Result<Vec<(String, Vec<ContractFile>)>> {
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

fn request_body(release: &Release, consumer: &str, files: &[ContractFile]) -> Value {
    let on_conflict = if release.merge { "merge" } else { "overwrite" };
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
        "pacticipantVersionNumber": release.version,
        "tags": release.tags,
        "contracts": contracts,
    });
    if let Some(b) = &release.branch {
        body["branch"] = json!(b);
    }
    if let Some(u) = &release.build_url {
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

/// The broker's `pb:publish-contracts` href (`/contracts/publish` when
/// its index has none).
pub(crate) fn publish_href(client: &BrokerClient) -> anyhow::Result<String> {
    let index = client.index()?.body;
    Ok(link(&index, "pb:publish-contracts", None)
        .unwrap_or("/contracts/publish")
        .to_owned())
}

/// Publishes one consumer's contracts (a group of [`group`]) for
/// `release`: the broker's reply, whatever its status.
pub(crate) fn publish_group(
    client: &BrokerClient,
    href: &str,
    consumer: &str,
    files: &[ContractFile],
    release: &Release,
) -> anyhow::Result<Reply> {
    let body = request_body(release, consumer, files);
    client.send(reqwest::Method::POST, href, Some(&body))
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
    let target = publish_href(&client)?;
    let release = Release::from(&args);
    for (consumer, files) in &groups {
        let reply = publish_group(&client, &target, consumer, files, &release)?;
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
