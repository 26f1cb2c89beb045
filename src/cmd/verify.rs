//! `accord verify`: replay contracts against a running provider.
//!
//! Thin: the flags become an [`accord_verifier::VerifyConfig`], the report
//! is rendered as text, JSON or JUnit. Exit 0 when every non-pending
//! interaction passed, 1 on a non-pending failure, 2 on an operational
//! error. Contracts come from files (`--contract`) or from a broker
//! (`--broker-url`, [`super::verify_fetch`]); with `--publish` the results
//! go back to it ([`super::verify_publish`]). The verifier itself knows no
//! broker.

use std::path::PathBuf;
use std::sync::Arc;

use accord_verifier::render::{junit, summary};
use accord_verifier::{ContractSource, VerificationReport};
use anyhow::Context;
use clap::{Args, ValueEnum};
use serde_json::Value;

use super::Outcome;
use super::verify_fetch::{self, FetchedPact, NoPacts, Selection};
use super::verify_progress::Live;
use super::verify_publish::{self, Publication, Target};
use crate::client::{BrokerArgs, BrokerClient};

/// Replay contracts against a running provider and report findings by layer.
#[path = "verify_config.rs"]
mod config_of;
use config_of::config;

/// Pact verifier's names for the broker options `BrokerArgs` shares with
/// every client command (`--user`, `--password`, `-b`, `-t`), set here so
/// that they stay `verify`'s own.
#[derive(Debug, Args)]
#[command(
    mut_arg("broker_url", |a| a.visible_short_alias('b')),
    mut_arg("token", |a| a.visible_short_alias('t')),
    mut_arg("broker_username", |a| a.visible_alias("user")),
    mut_arg("broker_password", |a| a.visible_alias("password"))
)]
pub struct VerifyArgs {
    /// The provider's name (contracts for another provider are refused).
    #[arg(long, visible_alias = "provider-name", visible_short_alias = 'n')]
    provider: String,
    /// Base URL of the provider under test (or Pact verifier's --hostname/--port/--scheme/--base-path).
    #[arg(long, required_unless_present_any = config_of::BASE_URL_PARTS, conflicts_with_all = config_of::BASE_URL_PARTS)]
    provider_base_url: Option<String>,
    /// Pact verifier's way to give the base URL: the provider's host (default localhost).
    #[arg(long)]
    hostname: Option<String>,
    /// Pact verifier's way to give the base URL: the provider's port (default: the scheme's).
    #[arg(long, visible_short_alias = 'p', value_parser = clap::value_parser!(u16).range(1..))]
    port: Option<u16>,
    /// Pact verifier's way to give the base URL: http (default) or https.
    #[arg(long, visible_alias = "transport", value_parser = ["http", "https"])]
    scheme: Option<String>,
    /// Pact verifier's way to give the base URL: a path every request starts with.
    #[arg(long, value_name = "PATH")]
    base_path: Option<String>,
    /// The provider version being verified (recorded in the results).
    #[arg(long)]
    provider_version: Option<String>,
    /// The provider version's branch (selects pending pacts; recorded on publish).
    #[arg(long, value_name = "BRANCH", visible_alias = "provider-version-branch")]
    provider_branch: Option<String>,
    /// A tag for the provider version (repeatable, or comma-separated).
    #[arg(
        long = "provider-tag",
        visible_alias = "provider-tags",
        value_name = "TAG",
        value_delimiter = ','
    )]
    provider_tags: Vec<String>,
    /// Contract or Pact files to verify, or directories of them (their *.json files), instead of a broker's pacts.
    #[arg(long = "contract", value_name = "FILE", num_args = 1.., conflicts_with = "broker_url", visible_aliases = ["file", "dir"], visible_short_aliases = ['f', 'd'])]
    contracts: Vec<PathBuf>,
    /// Pacts to verify by URL, e.g. a broker webhook's ${pactbroker.pactUrl} (read with the broker credentials; --publish posts to each pact's own link).
    #[arg(long = "pact-url", visible_alias = "url", visible_short_alias = 'u', value_name = "URL", num_args = 1.., conflicts_with_all = ["contracts", "selectors", "consumer_version_tags", "enable_pending", "include_wip_since"])]
    pact_urls: Vec<String>,
    #[command(flatten)]
    broker: BrokerArgs,
    /// Consumer version selectors as JSON objects [default: {"mainBranch":true} {"deployedOrReleased":true}].
    #[arg(long = "consumer-version-selectors", value_name = "JSON", num_args = 1.., value_parser = super::verify_parse::parse_selector, conflicts_with = "contracts")]
    selectors: Vec<Value>,
    /// Consumer version tags, each meaning the latest version with it (repeatable, or comma-separated).
    #[arg(long = "consumer-version-tags", alias = "consumer-version-tag", value_name = "TAG", value_delimiter = ',', conflicts_with_all = ["selectors", "contracts"])]
    consumer_version_tags: Vec<String>,
    /// Ask the broker which pacts are pending (their failures do not fail the run).
    #[arg(long, conflicts_with = "contracts")]
    enable_pending: bool,
    /// Also verify work-in-progress pacts created since DATE (pending too).
    #[arg(
        long,
        value_name = "DATE",
        conflicts_with = "contracts",
        visible_alias = "include-wip-pacts-since"
    )]
    include_wip_since: Option<String>,
    /// Publish the results, and the Agent Card and tool lists read, to the broker (needs --provider-version).
    #[arg(long, requires = "provider_version", conflicts_with = "contracts")]
    publish: bool,
    /// The CI build, recorded with published results.
    #[arg(long, value_name = "URL")]
    build_url: Option<String>,
    /// The producer artifact verified (sha256:<64 hex>, e.g. its image digest), sent with published results: admission evidence binds to it, and a new one starts the evidence over.
    #[arg(long, value_name = "DIGEST", requires = "publish", value_parser = super::verify_parse::parse_producer_digest)]
    producer_digest: Option<String>,
    /// How long published results stand as admission evidence: 90m, 36h, 7d (1 minute to 90 days) [default: 7d].
    #[arg(long, value_name = "DURATION", requires = "publish", value_parser = super::verify_parse::parse_evidence_ttl)]
    evidence_ttl: Option<u64>,
    /// Pact-compatible provider-state change URL.
    #[arg(long, visible_short_alias = 's')]
    state_change_url: Option<String>,
    /// Observation URL: a flat JSON object of integer counters.
    #[arg(long)]
    observe_url: Option<String>,
    /// Pact's message endpoint (default: the provider base URL, as Pact does).
    #[arg(long)]
    message_url: Option<String>,
    /// The MCP server's Streamable HTTP endpoint (default: `{provider base URL}/mcp`);
    /// `MCP/ToolCall` interactions speak the era the contract pins.
    #[arg(long)]
    mcp_url: Option<String>,
    /// The agent's Agent Card, checked against the contracts' `agentCard`; `A2A/Task`
    /// interactions are replayed on its interfaces
    /// (default: `{provider base URL}/.well-known/agent-card.json`).
    #[arg(long)]
    agent_card_url: Option<String>,
    /// The card's interface `A2A/Task` interactions are replayed on: `auto` takes the binding
    /// the contract's `agentCard.interfaces` relies on (both, if it names both), else the
    /// card's first; `all` replays each A2A interaction over every binding the card offers
    /// (JSON-RPC, HTTP+JSON) and reports one result per interaction, each finding naming its
    /// binding.
    #[arg(long, value_enum, default_value = "auto")]
    a2a_binding: super::verify_parse::A2aBindingArg,
    /// The HTTP statuses A2A errors must have on HTTP+JSON: `1.0.1` (the SDKs), `1.0.0` (the
    /// TCK), or `either`; they differ for four reasons (TASK_NOT_CANCELABLE 400 or 409, …).
    #[arg(long, value_enum, default_value = "either")]
    a2a_status_mapping: super::verify_parse::StatusMappingArg,
    /// A public key the consumers trust to sign Agent Cards: a file with a JWK or a JWKS
    /// (repeatable); a contract whose `agentCard` is `signed` needs a signature one verifies.
    #[arg(long = "trust-card-key", value_name = "FILE")]
    trust_card_keys: Vec<std::path::PathBuf>,
    /// How to grade the answer to a tool the server does not list: MCP says a JSON-RPC
    /// error (-32602), the official SDKs answer `isError: true`. `warn`: either passes, the
    /// unexpected one is a warning; `spec`: -32602 is required; `sdk`: `isError` passes too.
    #[arg(long, value_enum, default_value = "warn")]
    mcp_unknown_tool: super::verify_parse::UnknownToolArg,
    /// The bearer token of a principal, NAME=TOKEN (repeatable; never printed).
    #[arg(long = "principal", value_name = "NAME=TOKEN")]
    principals: Vec<String>,
    /// A header for every request to the provider (only to the origins credentials go to, see --allow-origin), NAME=VALUE (repeatable; replaces the interaction's own; never printed).
    #[arg(long = "header", short = 'H', value_name = "NAME=VALUE")]
    headers: Vec<String>,
    /// Chains replayed at once: interactions sharing a provider state stay in order; 1 keeps Pact's order.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    output: Format,
    /// Write the output there (text progress and summary still go to stdout).
    #[arg(long)]
    output_file: Option<PathBuf>,
    /// Only interactions whose description matches this regular expression.
    #[arg(long)]
    filter_description: Option<String>,
    /// Only interactions with a provider state matching this regular expression.
    #[arg(long)]
    filter_state: Option<String>,
    /// Only interactions without provider states.
    #[arg(long, conflicts_with = "filter_state")]
    filter_no_state: bool,
    /// Only the contracts of this consumer (repeatable, or comma-separated).
    #[arg(
        long = "filter-consumer",
        visible_short_alias = 'c',
        value_name = "NAME",
        value_delimiter = ','
    )]
    filter_consumers: Vec<String>,
    /// Exit 0 when the broker selects no pact (by default an operational error, as in Pact).
    #[arg(long, conflicts_with = "contracts")]
    ignore_no_pacts_error: bool,
    /// Per-request timeout in milliseconds (send and whole body).
    #[arg(
        long,
        visible_alias = "request-timeout",
        value_name = "MS",
        default_value_t = 30_000
    )]
    request_timeout_ms: u64,
    /// Response bodies larger than this are cut off (a finding).
    #[arg(long, default_value_t = 10 * 1024 * 1024)]
    max_response_bytes: usize,
    /// Follow redirects (by default a redirect is the answer judged).
    #[arg(long)]
    follow_redirects: bool,
    #[command(flatten)]
    guard: super::verify_guard::GuardArgs,
    #[command(flatten)]
    standins: super::verify_standins::StandInArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Junit,
}

/// The pacts fetched from a broker, kept for publishing.
struct BrokerRun {
    client: BrokerClient,
    pacts: Vec<FetchedPact>,
}

/// Runs `accord verify`.
pub fn run(args: VerifyArgs) -> anyhow::Result<Outcome> {
    let (source, broker) = match source(&args) {
        Err(e) if args.ignore_no_pacts_error && e.downcast_ref::<NoPacts>().is_some() => {
            say(&args, &format!("{e} (ignored: --ignore-no-pacts-error)"));
            return Ok(Outcome::Pass);
        }
        other => other?,
    };
    let source = crate::cmd::lint_warnings::print_for_source(source, &args.provider);
    let mut config = config(&args, source)?;
    let client = broker.as_ref().map(|b| &b.client);
    let standins = super::verify_standins::prepare(&args.standins, &mut config, client)?;
    let _provider = super::verify_standins::start_provider(
        &args.standins,
        standins.as_ref(),
        &config.provider_base_url,
    )?;
    let live = stdout_is_for_people(&args).then(|| Arc::new(Live::on_stdout()));
    let progress = live
        .clone()
        .map(|l| l as Arc<dyn accord_verifier::Progress>);
    let drivers = accord_verifier::default_drivers();
    let partial = config.filter.selects_interactions();
    let report = accord_verifier::verify_on_threads_owned(config, drivers, progress);
    if let Some(live) = &live {
        live.finish();
    }
    // an operational error publishes nothing: no verdict was reached
    let report = report.map_err(|e| config_of::as_given(&args, e))?;
    emit(&args, &report)?;
    if let Some(s) = &standins {
        s.check_called(&report)?;
    }
    if let Some(broker) = broker {
        after_verification(&args, &broker, &report, partial)?;
    }
    Ok(if report.passed() {
        Outcome::Pass
    } else {
        Outcome::Fail
    })
}

/// Files, or the pacts the broker selects (their notices printed first).
fn source(args: &VerifyArgs) -> anyhow::Result<(ContractSource, Option<BrokerRun>)> {
    if !args.contracts.is_empty() {
        return Ok((ContractSource::Files(args.contracts.clone()), None));
    }
    if let Some(first) = args.pact_urls.first() {
        for url in &args.pact_urls {
            if reqwest::Url::parse(url).is_err() {
                anyhow::bail!(
                    "--pact-url {url} is not a URL (http://… or https://…); for a file, use --contract {url}"
                );
            }
        }
        let client = BrokerClient::with_default_base(&args.broker, Some(first))?;
        let pacts = args
            .pact_urls
            .iter()
            .map(|url| verify_fetch::fetch_pact(&client, url, "given by URL"))
            .collect::<anyhow::Result<Vec<_>>>()?;
        return broker_source(args, client, pacts);
    }
    let client = BrokerClient::from_args(&args.broker)
        .context("pass --contract FILE… or a broker (--broker-url)")?;
    let selection = Selection {
        selectors: if args.consumer_version_tags.is_empty() {
            args.selectors.clone()
        } else {
            verify_fetch::tag_selectors(&args.consumer_version_tags)
        },
        provider_branch: args.provider_branch.clone(),
        provider_tags: args.provider_tags.clone(),
        include_pending: args.enable_pending,
        wip_since: args.include_wip_since.clone(),
    };
    let index = client.index()?;
    if args.publish {
        verify_publish::check_role(&index)?;
    }
    let fetched = verify_fetch::fetch_from(&client, &index.body, &args.provider, &selection)?;
    for notice in &fetched.notices {
        say(args, notice);
    }
    broker_source(args, client, fetched.pacts)
}

/// The pacts read from a broker, of the consumers `--filter-consumer`
/// keeps, each announced with its notices.
fn broker_source(
    args: &VerifyArgs,
    client: BrokerClient,
    mut pacts: Vec<FetchedPact>,
) -> anyhow::Result<(ContractSource, Option<BrokerRun>)> {
    let chosen = |p: &FetchedPact| {
        let consumer = &p.sourced.contract.consumer.name;
        args.filter_consumers.is_empty() || args.filter_consumers.contains(consumer)
    };
    if !pacts.iter().any(chosen) {
        let names = args.filter_consumers.join(", ");
        let text = format!("none of the pacts the broker selected is of consumer {names}");
        return Err(NoPacts(text).into());
    }
    pacts.retain(chosen);
    for pact in &pacts {
        say(
            args,
            &format!(
                "\nThe pact of {} ({})",
                pact.sourced.contract.consumer.name, pact.short_description
            ),
        );
        for notice in pact.before_notices() {
            say(args, &format!("  {}", notice.text));
        }
    }
    let loaded = pacts.iter().map(|p| p.sourced.clone()).collect();
    Ok((
        ContractSource::Loaded(loaded),
        Some(BrokerRun { client, pacts }),
    ))
}

/// Publishes (with `--publish`, unless `partial`: interactions were
/// filtered out) and prints each pact's after-verification notices; results
/// that could not be published are an error (exit 2), after every other
/// pact's were.
fn after_verification(
    args: &VerifyArgs,
    broker: &BrokerRun,
    report: &VerificationReport,
    partial: bool,
) -> anyhow::Result<()> {
    if args.publish && partial {
        say(
            args,
            "Results are not published: the --filter-* options left interactions out, so they do not speak for whole pacts.",
        );
    }
    let publication = match (args.publish && !partial, &args.provider_version) {
        (true, Some(version)) => {
            let target = Target {
                provider: args.provider.clone(),
                version: version.clone(),
                branch: args.provider_branch.clone(),
                tags: args.provider_tags.clone(),
                build_url: args.build_url.clone(),
                declarations: report.declarations.clone(),
                producer_digest: args.producer_digest.clone(),
                evidence_ttl_seconds: args.evidence_ttl,
            };
            verify_publish::publish(&broker.client, &broker.pacts, &report.contracts, &target)
        }
        _ => Publication::none(broker.pacts.len(), None),
    };
    let each = broker.pacts.iter().zip(&report.contracts);
    for ((pact, result), published) in each.zip(&publication.published) {
        if let Some(published) = published {
            let line = format!(
                "Published the verification of {}'s pact: {}",
                result.consumer, published.href
            );
            say(args, &line);
            if let Some(page) = &published.page {
                say(args, &format!("  its page: {page}"));
            }
        }
        for notice in pact.after_notices(result.passed(), published.is_some()) {
            say(args, &notice.text);
        }
    }
    if publication.failures.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("{}", publication.failures.join("; "))
    }
}

/// True when stdout is for the person (text output, or the output goes to
/// a file), not for the JSON or JUnit output.
fn stdout_is_for_people(args: &VerifyArgs) -> bool {
    args.output == Format::Text || args.output_file.is_some()
}

/// A line for the person at the terminal: stdout, unless stdout carries
/// the JSON or JUnit output.
fn say(args: &VerifyArgs, line: &str) {
    if stdout_is_for_people(args) {
        println!("{line}");
    } else {
        eprintln!("{line}");
    }
}

fn emit(args: &VerifyArgs, report: &VerificationReport) -> anyhow::Result<()> {
    let rendered = match args.output {
        Format::Text => summary(report),
        Format::Json => format!("{}\n", serde_json::to_string_pretty(report)?),
        Format::Junit => junit(report),
    };
    match &args.output_file {
        Some(path) => {
            crate::cmd::files::write_file(path, rendered.as_bytes())?;
            if args.output != Format::Text {
                print!("{}", summary(report));
            }
        }
        None => print!("{rendered}"),
    }
    Ok(())
}

#[cfg(test)]
#[path = "verify_args_tests.rs"]
mod args_tests;
