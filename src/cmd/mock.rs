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
use super::mock_env;

/// Serve a mock provider built from a contract, for the consumer's tests.
#[derive(Debug, clap::Args)]
pub struct MockArgs {
    /// The contract: a compiled contract (JSON) or a spec (YAML, compiled
    /// as `accord contract compile` does). Repeat it for a consumer of several
    /// providers: one mock per contract, each on its own port.
    #[arg(long = "contract", value_name = "FILE|SPEC", required = true)]
    contracts: Vec<PathBuf>,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free port). With several contracts, the first of a range:
    /// the Nth `--contract` listens on P+N-1 (0: each on any free port).
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
    /// for the surfaces the contract has) set, and per provider ACCORD_MOCK_URL_<PROVIDER>
    /// (ACCORD_A2A_URL_<PROVIDER>, ACCORD_MCP_URL_<PROVIDER>); the mock stops when it ends.
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
pub(super) fn load(path: &Path) -> anyhow::Result<(accord_dsl::Contract, PactSpec)> {
    if super::files::is_spec(path) {
        return Ok((super::contract::compile_spec_file(path)?, PactSpec::V4));
    }
    let value = read_json(path)?;
    let origin = path.display().to_string();
    let version = accord_dsl::pact::detect_spec(&value, &origin)?;
    Ok((accord_dsl::pact::from_value(&value, &origin)?, version))
}

pub fn run(args: MockArgs) -> anyhow::Result<Outcome> {
    let mocks = start_all(&args)?;
    // refused before serving: two providers under one variable name
    let variables = mock_env::variables(mocks.iter().map(|m| (m.provider(), &m.server)))?;
    let many = mocks.len() > 1;
    for m in &mocks {
        let surfaces = mock_env::surfaces(&m.server);
        for (name, url, _) in surfaces.iter().filter(|(name, ..)| !name.is_empty()) {
            if many {
                println!("{}: {name} {url}", m.provider());
            } else {
                println!("{name} {url}");
            }
        }
    }
    if args.command.is_empty() {
        eprintln!("mock: serving until Ctrl-C (or SIGTERM)");
        let signal = actix_web::rt::System::new().block_on(super::serve::shutdown_signal());
        eprintln!("mock: stopped ({signal})");
        let reports = reports(mocks);
        show(&reports, args.json)?;
        let ok = reports.iter().all(|(_, r)| r.ok);
        return Ok(if ok { Outcome::Pass } else { Outcome::Fail });
    }
    let (program, rest) = args.command.split_first().context("no command after --")?;
    let mut command = Command::new(program);
    command.args(rest);
    command.envs(variables);
    let status = command
        .status()
        .with_context(|| format!("cannot run {program}"))?;
    let reports = reports(mocks);
    show(&reports, args.json)?;
    if !status.success() {
        eprintln!("mock: the command failed ({status}): the contract is not written");
        return Ok(Outcome::Fail);
    }
    write_exercised(&reports, args.out.as_deref())
}

/// A contract and its running mock.
struct Mocked {
    path: PathBuf,
    contract: accord_dsl::Contract,
    server: MockServer,
}

impl Mocked {
    fn provider(&self) -> &str {
        &self.contract.provider.name
    }
}

/// One mock per `--contract`, the Nth on `--port`+N-1 (or any free port).
fn start_all(args: &MockArgs) -> anyhow::Result<Vec<Mocked>> {
    let many = args.contracts.len() > 1;
    let mut mocks = Vec::new();
    for (n, path) in args.contracts.iter().enumerate() {
        let (contract, spec) = load(path)?;
        let port = match args.port {
            0 => 0,
            p => u16::try_from(n)
                .ok()
                .and_then(|n| p.checked_add(n))
                .context("--port: the range of ports passes 65535")?,
        };
        let prefix = if many {
            format!("mock {}: ", contract.provider.name)
        } else {
            "mock: ".to_owned()
        };
        let options = MockOptions {
            spec,
            host: args.host.clone(),
            port,
            cors: args.cors,
            progress: Some(Arc::new(move |line: String| eprintln!("{prefix}{line}"))),
            principals: args.principals.clone(),
            ..MockOptions::default()
        };
        let server = MockServer::start_with(&contract, options)
            .with_context(|| format!("cannot start a mock for {}", path.display()))?;
        mocks.push(Mocked {
            path: path.clone(),
            contract,
            server,
        });
    }
    Ok(mocks)
}

/// Each mock's report, the mocks stopped.
fn reports(mocks: Vec<Mocked>) -> Vec<(Mocked, MockReport)> {
    mocks
        .into_iter()
        .map(|m| {
            let report = m.server.verify();
            (m, report)
        })
        .collect()
}

/// Writes each contract exercised as written into `out`; a contract that
/// was not is named and not written, and fails the run.
fn write_exercised(
    reports: &[(Mocked, MockReport)],
    out: Option<&Path>,
) -> anyhow::Result<Outcome> {
    let mut outcome = Outcome::Pass;
    for (m, report) in reports {
        if !report.ok {
            let which = if reports.len() > 1 {
                format!("the contract {} ", m.path.display())
            } else {
                "the contract ".to_owned()
            };
            eprintln!("mock: {which}was not exercised as written: it is not written");
            outcome = Outcome::Fail;
        } else if let Some(dir) = out {
            let path = accord_mock::write_contract(&m.contract, dir)?;
            eprintln!("mock: wrote {}", path.display());
        }
    }
    Ok(outcome)
}

/// The report per contract: the table on standard error (headed by the
/// provider and file when there are several), or JSON on standard output
/// (an array of `{provider, contract, report}` when there are several).
fn show(reports: &[(Mocked, MockReport)], json: bool) -> anyhow::Result<()> {
    let many = reports.len() > 1;
    if json && many {
        let all: Vec<serde_json::Value> = reports
            .iter()
            .map(|(m, r)| {
                serde_json::json!({"provider": m.provider(), "contract": m.path.display().to_string(), "report": r})
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&all)?);
    }
    for (m, report) in reports {
        if json && !many {
            println!("{}", serde_json::to_string_pretty(report)?);
        } else if !json {
            if many {
                eprintln!("mock: {} ({})", m.provider(), m.path.display());
            }
            eprint!("{}", report.table());
        }
        if report.interactions.is_empty() {
            bail!(
                "the mock of {} had no interaction to serve",
                m.path.display()
            );
        }
    }
    Ok(())
}
