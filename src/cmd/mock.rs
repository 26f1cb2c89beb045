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
    /// A principal's bearer token (repeatable): a request sent as NAME must present
    /// `Authorization: Bearer TOKEN`. A principal not given accepts any non-empty token.
    #[arg(long = "principal", value_name = "NAME=TOKEN", value_parser = principal)]
    principals: Vec<(String, String)>,
    /// Print the final report as JSON on standard output instead of the table.
    #[arg(long)]
    json: bool,
    /// With a command: write the contract into this directory when the command passed, every
    /// interaction was exercised and no unexpected request arrived.
    #[arg(long, value_name = "DIR", requires = "command")]
    out: Option<PathBuf>,
    /// The consumer's test command, run with ACCORD_MOCK_URL (and ACCORD_A2A_URL, ACCORD_MCP_URL
    /// for the surfaces the contract has) set; the mock stops when it ends.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// `NAME=TOKEN`.
fn principal(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, token)) if !name.trim().is_empty() && !token.is_empty() => {
            Ok((name.trim().to_owned(), token.to_owned()))
        }
        _ => Err(format!(
            "'{s}' is not NAME=TOKEN (e.g. --principal alice=token-a)"
        )),
    }
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
        principals: args.principals.clone(),
        ..MockOptions::default()
    };
    let mock = MockServer::start_with(&contract, options)
        .with_context(|| format!("cannot start a mock for {}", args.contract.display()))?;
    let surfaces = surfaces(&mock);
    for (name, url, _) in surfaces.iter().filter(|(name, ..)| !name.is_empty()) {
        println!("{name} {url}");
    }
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
    let mut command = Command::new(program);
    command.args(rest).env("ACCORD_MOCK_URL", mock.url());
    for (_, url, var) in &surfaces {
        if let Some(var) = var {
            command.env(var, url);
        }
    }
    let status = command
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

/// The line per surface the contract has — `HTTP <base url>`, `A2A <agent
/// card url>`, `MCP <endpoint url>` — and the variables the command sees
/// (an entry without a label is a variable only: the agent's base URL).
fn surfaces(mock: &MockServer) -> Vec<(&'static str, String, Option<&'static str>)> {
    let mut out = Vec::new();
    if mock.serves_http() {
        out.push(("HTTP", mock.url().to_owned(), None));
    }
    if let (Some(card), Some(base)) = (mock.a2a_card_url(), mock.a2a_url()) {
        out.push(("A2A", card, None));
        out.push(("", base, Some("ACCORD_A2A_URL")));
    }
    if let Some(mcp) = mock.mcp_url() {
        out.push(("MCP", mcp, Some("ACCORD_MCP_URL")));
    }
    out
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
