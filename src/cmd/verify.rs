//! `accord verify`: replay contracts against a running provider.
//!
//! Thin: the flags become an [`accord_verifier::VerifyConfig`], the report
//! is rendered as text, JSON or JUnit. Exit 0 when every non-pending
//! interaction passed, 1 on a non-pending failure, 2 on an operational
//! error. Broker flags (`--broker-url`, selectors, `--publish`) join with
//! the broker's verification API as another contract source.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use accord_verifier::render::{interaction_line, junit, summary};
use accord_verifier::{ContractSource, Filter, Limits, Token, VerificationReport, VerifyConfig};
use anyhow::Context;
use clap::{Args, ValueEnum};

use super::Outcome;

/// Replay contracts against a running provider and report findings by layer.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The provider's name (contracts for another provider are refused).
    #[arg(long)]
    provider: String,
    /// Base URL of the provider under test.
    #[arg(long)]
    provider_base_url: String,
    /// The provider version being verified (recorded in the results).
    #[arg(long)]
    provider_version: Option<String>,
    /// Contract or Pact files to verify.
    #[arg(long = "contract", value_name = "FILE", num_args = 1.., required = true)]
    contracts: Vec<PathBuf>,
    /// Pact-compatible provider-state change URL.
    #[arg(long)]
    state_change_url: Option<String>,
    /// Observation URL: a flat JSON object of integer counters.
    #[arg(long)]
    observe_url: Option<String>,
    /// Pact's message endpoint (default: the provider base URL, as Pact does).
    #[arg(long)]
    message_url: Option<String>,
    /// The bearer token of a principal, NAME=TOKEN (repeatable; never printed).
    #[arg(long = "principal", value_name = "NAME=TOKEN", value_parser = parse_principal)]
    principals: Vec<(String, String)>,
    /// Contracts replayed in parallel.
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
    /// Per-request timeout in milliseconds (send and whole body).
    #[arg(long, default_value_t = 30_000)]
    request_timeout_ms: u64,
    /// Response bodies larger than this are cut off (a finding).
    #[arg(long, default_value_t = 10 * 1024 * 1024)]
    max_response_bytes: usize,
    /// Follow redirects (by default a redirect is the answer judged).
    #[arg(long)]
    follow_redirects: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Junit,
}

fn parse_principal(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, token)) if !name.is_empty() && !token.is_empty() => {
            Ok((name.to_string(), token.to_string()))
        }
        _ => Err("expected NAME=TOKEN".to_string()),
    }
}

/// Runs `accord verify`.
pub fn run(args: VerifyArgs) -> anyhow::Result<Outcome> {
    let config = config(&args)?;
    let live_lines = args.output == Format::Text || args.output_file.is_some();
    let progress: Option<accord_verifier::Progress> = live_lines.then(|| {
        Arc::new(|consumer: &str, i: &accord_verifier::InteractionResult| {
            println!("{}", interaction_line(consumer, i));
        }) as accord_verifier::Progress
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(usize::from(args.jobs).min(8))
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let drivers = accord_verifier::default_drivers();
    let report = runtime.block_on(accord_verifier::verify(&config, drivers, progress))?;
    emit(&args, &report)?;
    Ok(if report.passed() {
        Outcome::Pass
    } else {
        Outcome::Fail
    })
}

fn config(args: &VerifyArgs) -> anyhow::Result<VerifyConfig> {
    let source = ContractSource::Files(args.contracts.clone());
    let mut config = VerifyConfig::new(&args.provider, &args.provider_base_url, source);
    config.provider_version = args.provider_version.clone();
    config.state_change_url = args.state_change_url.clone();
    config.observe_url = args.observe_url.clone();
    config.message_url = args.message_url.clone();
    config.principals = args
        .principals
        .iter()
        .map(|(name, token)| (name.clone(), Token::new(token)))
        .collect();
    config.jobs = usize::from(args.jobs);
    config.filter = Filter::parse(
        args.filter_description.as_deref(),
        args.filter_state.as_deref(),
    )?;
    config.limits = Limits {
        request_timeout: Duration::from_millis(args.request_timeout_ms),
        max_response_bytes: args.max_response_bytes,
        follow_redirects: args.follow_redirects,
    };
    Ok(config)
}

fn emit(args: &VerifyArgs, report: &VerificationReport) -> anyhow::Result<()> {
    let rendered = match args.output {
        Format::Text => summary(report),
        Format::Json => format!("{}\n", serde_json::to_string_pretty(report)?),
        Format::Junit => junit(report),
    };
    match &args.output_file {
        Some(path) => {
            std::fs::write(path, &rendered)
                .with_context(|| format!("cannot write {}", path.display()))?;
            if args.output != Format::Text {
                print!("{}", summary(report));
            }
        }
        None => print!("{rendered}"),
    }
    Ok(())
}
