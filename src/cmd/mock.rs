//! `accord mock`: the consumer's mock provider, built from a contract —
//! serving until stopped, or around the consumer's own test command.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use accord_dsl::model::PactSpec;
use accord_mock::{MockOptions, MockReport, MockServer};
use anyhow::{Context, bail};

use super::Outcome;
use super::files::read_json;

/// Serve a mock provider built from a contract, for the consumer's tests.
#[derive(Debug, clap::Args)]
pub struct MockArgs {
    /// The contract: a compiled contract (JSON) or a spec (YAML, compiled
    /// as `accord contract compile` does).
    #[arg(long, value_name = "FILE|SPEC")]
    contract: PathBuf,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Answer CORS pre-flight requests and allow any origin (as `pact mock --cors`).
    #[arg(long)]
    cors: bool,
    /// Print the final report as JSON on standard output instead of the table.
    #[arg(long)]
    json: bool,
    /// With a command: write the contract into this directory when the command passed, every
    /// interaction was exercised and no unexpected request arrived.
    #[arg(long, value_name = "DIR", requires = "command")]
    out: Option<PathBuf>,
    /// The consumer's test command, run with ACCORD_MOCK_URL set; the mock stops when it ends.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// Reads a compiled contract (and the Pact specification it was written
/// for, whose matching semantics the mock applies), or compiles a spec
/// (`.yaml`, `.yml`: V4).
fn load(path: &Path) -> anyhow::Result<(accord_dsl::Contract, PactSpec)> {
    let spec = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
    if spec {
        return Ok((super::contract::compile_spec_file(path)?, PactSpec::V4));
    }
    let value = read_json(path)?;
    let origin = path.display().to_string();
    let version = accord_dsl::pact::detect_spec(&value, &origin)?;
    Ok((accord_dsl::pact::from_value(&value, &origin)?, version))
}

pub fn run(args: MockArgs) -> anyhow::Result<Outcome> {
    let (contract, spec) = load(&args.contract)?;
    let options = MockOptions {
        spec,
        host: args.host.clone(),
        port: args.port,
        cors: args.cors,
        progress: Some(Arc::new(|line: String| eprintln!("mock: {line}"))),
        ..MockOptions::default()
    };
    let mock = MockServer::start_with(&contract, options)
        .with_context(|| format!("cannot start a mock for {}", args.contract.display()))?;
    println!("HTTP {}", mock.url());
    if args.command.is_empty() {
        eprintln!("mock: serving until Ctrl-C (or SIGTERM)");
        let signal = actix_web::rt::System::new().block_on(super::serve::shutdown_signal());
        eprintln!("mock: stopped ({signal})");
        let report = mock.verify();
        show(&report, args.json)?;
        return Ok(if report.ok {
            Outcome::Pass
        } else {
            Outcome::Fail
        });
    }
    let (program, rest) = args.command.split_first().context("no command after --")?;
    let status = Command::new(program)
        .args(rest)
        .env("ACCORD_MOCK_URL", mock.url())
        .status()
        .with_context(|| format!("cannot run {program}"))?;
    let report = mock.verify();
    drop(mock);
    show(&report, args.json)?;
    if !status.success() {
        eprintln!("mock: the command failed ({status}): the contract is not written");
        return Ok(Outcome::Fail);
    }
    if !report.ok {
        eprintln!("mock: the contract was not exercised as written: it is not written");
        return Ok(Outcome::Fail);
    }
    if let Some(dir) = &args.out {
        let path = accord_mock::write_contract(&contract, dir)?;
        eprintln!("mock: wrote {}", path.display());
    }
    Ok(Outcome::Pass)
}

fn show(report: &MockReport, json: bool) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        eprint!("{}", report.table());
    }
    if report.interactions.is_empty() {
        bail!("the mock had no interaction to serve");
    }
    Ok(())
}
