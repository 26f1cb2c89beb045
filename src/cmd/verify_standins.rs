//! `accord verify --dependency NAME=PATH`: stand-ins for the provider's own
//! dependencies. Each is an `accord_mock::MockServer` on a loopback
//! ephemeral port built from the provider's own consumer contract with
//! that dependency, with an observer that records every call into the
//! verifier's [`DownstreamLog`]; every agent a contract's delegation
//! forbids (`forbiddenAgents`) that no `--dependency` names is served too,
//! as a bare A2A agent (a card with its name, no interactions), so a call
//! to it is seen. The verifier judges the calls; this module only serves.

use std::path::PathBuf;
use std::sync::Arc;

use accord_dsl::{Contract, Interaction};
use accord_mock::{MockOptions, MockServer, Observed};
use accord_verifier::downstream::{Dependency, Downstream, DownstreamCall, DownstreamLog, Surface};
use anyhow::Context;
use clap::Args;
use serde_json::json;

/// The stand-in options of `accord verify`.
#[derive(Debug, Args, Default)]
pub struct StandInArgs {
    /// A dependency of the provider served as a stand-in while it is verified, NAME=PATH
    /// (repeatable): PATH is the provider's own consumer contract with that dependency
    /// (compiled JSON or a YAML spec). Its URLs reach the provider in the state-change
    /// request's `dependencies` and, with `-- COMMAND`, as ACCORD_DEPENDENCY_URL_<NAME>.
    #[arg(long = "dependency", value_name = "NAME=PATH", value_parser = parse_dependency)]
    pub dependencies: Vec<(String, PathBuf)>,
    /// Also serve a stand-in for every provider the broker holds a contract of the provider
    /// under test with (it the consumer): the latest from its main branch where it has one,
    /// else its latest version; NAME is that provider's name.
    #[arg(long, requires = "broker_url")]
    pub dependencies_from_broker: bool,
    /// With a provider command: how long it has to answer at the base URL.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 30,
        requires = "command"
    )]
    pub provider_start_timeout: u64,
    /// The provider under test, started before the run with ACCORD_DEPENDENCY_URL_<NAME> (and
    /// ACCORD_DEPENDENCY_A2A_URL_<NAME>, ACCORD_DEPENDENCY_MCP_URL_<NAME>) per stand-in, waited for
    /// until its base URL answers, and stopped after the run (SIGTERM, then SIGKILL).
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Starts the provider command, if one was given, wired to the stand-ins.
pub fn start_provider(
    args: &StandInArgs,
    standins: Option<&StandIns>,
    base_url: &str,
) -> anyhow::Result<Option<super::verify_command::Provider>> {
    if args.command.is_empty() {
        return Ok(None);
    }
    let env = standins
        .map(|s| environment(s.dependencies()))
        .unwrap_or_default();
    let timeout = std::time::Duration::from_secs(args.provider_start_timeout);
    super::verify_command::Provider::start(&args.command, &env, base_url, timeout).map(Some)
}

/// `NAME=PATH`, NAME of letters, digits, `-` and `_`.
fn parse_dependency(s: &str) -> Result<(String, PathBuf), String> {
    let (name, path) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=PATH"))?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "the dependency name `{name}` may hold only letters, digits, `-` and `_`"
        ));
    }
    if path.is_empty() {
        return Err(format!("--dependency {name}= names no contract file"));
    }
    Ok((name.to_owned(), PathBuf::from(path)))
}

/// The stand-ins of a run: kept alive while it runs.
pub struct StandIns {
    /// Kept for the run: dropping a mock stops it.
    _mocks: Vec<MockServer>,
    /// The names `--dependency` gave (the rest are forbidden agents).
    given: Vec<String>,
    /// The names `--dependency` gave itself (not the broker).
    named: Vec<String>,
    /// The agents the contracts' delegation records forbid.
    forbidden: Vec<String>,
    pub downstream: Downstream,
}

impl StandIns {
    /// The names and URLs served.
    pub fn dependencies(&self) -> &[Dependency] {
        &self.downstream.dependencies
    }
}

/// With `--dependency`: the stand-ins served and the configuration told of
/// them (`None` without: no stand-in, nothing observed downstream).
pub fn prepare(
    args: &StandInArgs,
    config: &mut accord_verifier::VerifyConfig,
    broker: Option<&crate::client::BrokerClient>,
) -> anyhow::Result<Option<StandIns>> {
    let fetched = match (args.dependencies_from_broker, broker) {
        (true, Some(client)) => super::verify_standins_broker::fetch(client, &config.provider)?,
        _ => Vec::new(),
    };
    if args.dependencies.is_empty() && fetched.is_empty() {
        return Ok(None);
    }
    let contracts = accord_verifier::load::load(&config.source, &config.provider)?;
    let contracts: Vec<Contract> = contracts.into_iter().map(|s| s.contract).collect();
    let served = serve(args, &config.provider, &contracts, fetched)?;
    config.downstream = served.as_ref().map(|s| s.downstream.clone());
    Ok(served)
}

impl StandIns {
    /// Says which given dependencies no interaction called (the provider
    /// never needed them, or is not wired to them); an error when the
    /// provider called none of those `--dependency` named, except those a delegation record
    /// forbids (a good provider never calls those): then it is not wired
    /// to its stand-ins, and the run judged nothing of what it does
    /// downstream.
    pub fn check_called(&self, report: &accord_verifier::VerificationReport) -> anyhow::Result<()> {
        let called = |name: &str| {
            report
                .interactions()
                .any(|(_, i)| i.downstream.iter().any(|c| c.dependency == name))
        };
        let uncalled: Vec<&Dependency> = self
            .dependencies()
            .iter()
            .filter(|d| self.given.contains(&d.name) && !called(&d.name))
            .collect();
        let expected: Vec<&String> = self
            .named
            .iter()
            .filter(|n| !self.forbidden.contains(n))
            .collect();
        if !expected.is_empty() && expected.iter().all(|n| !called(n)) {
            let names: Vec<String> = expected.iter().map(|n| format!("`{n}`")).collect();
            anyhow::bail!(
                "the provider called none of its stand-ins ({}): it is not wired to them, so \
                 nothing it does downstream was judged. It learns their URLs from the \
                 provider-state change request's `dependencies` (by NAME) or, started by \
                 `accord verify … -- COMMAND`, from ACCORD_DEPENDENCY_URL_<NAME> (and \
                 _A2A_URL_, _MCP_URL_): check that NAME is the name its wiring reads",
                names.join(", ")
            );
        }
        for d in uncalled {
            eprintln!(
                "warning: the dependency {} was served at {} but no interaction called it",
                d.name, d.url
            );
        }
        Ok(())
    }
}

/// Serves a stand-in for every `--dependency` and every forbidden agent
/// the run's `contracts` name; `None` when there is none to serve.
pub fn serve(
    args: &StandInArgs,
    provider: &str,
    contracts: &[Contract],
    fetched: Vec<(String, Contract)>,
) -> anyhow::Result<Option<StandIns>> {
    let mut wanted: Vec<(String, Contract)> = Vec::new();
    for (name, path) in &args.dependencies {
        if wanted.iter().any(|(n, _)| n == name) {
            anyhow::bail!("--dependency {name} is given twice");
        }
        let (contract, _) = super::mock::load(path).with_context(|| {
            format!(
                "--dependency {name}={}: cannot read the contract",
                path.display()
            )
        })?;
        if contract.consumer.name != provider {
            eprintln!(
                "warning: --dependency {name}={}: its consumer is `{}`, not the provider under test `{provider}`",
                path.display(),
                contract.consumer.name
            );
        }
        wanted.push((name.clone(), contract));
    }
    // a --dependency of the same name replaces the broker's
    for (name, contract) in fetched {
        if !wanted.iter().any(|(n, _)| *n == name) {
            wanted.push((name, contract));
        }
    }
    let given: Vec<String> = wanted.iter().map(|(n, _)| n.clone()).collect();
    let forbidden = forbidden_agents(contracts);
    for agent in forbidden.iter().cloned() {
        if !wanted.iter().any(|(n, _)| *n == agent) {
            let bare = bare_agent(provider, &agent)?;
            wanted.push((agent, bare));
        }
    }
    if wanted.is_empty() {
        return Ok(None);
    }
    let log = DownstreamLog::default();
    let mut mocks = Vec::new();
    let mut dependencies = Vec::new();
    for (name, contract) in wanted {
        let sink = (log.clone(), name.clone());
        let options = MockOptions {
            observer: Some(Arc::new(move |o: Observed| {
                sink.0.push(call_of(&sink.1, o))
            })),
            ..MockOptions::default()
        };
        let mock = MockServer::start_with(&contract, options)
            .with_context(|| format!("the stand-in for dependency {name} cannot be served"))?;
        dependencies.push(Dependency {
            name,
            url: mock.url().to_owned(),
            a2a_card_url: mock.a2a_card_url(),
            mcp_url: mock.mcp_url(),
        });
        mocks.push(mock);
    }
    Ok(Some(StandIns {
        _mocks: mocks,
        given,
        named: args.dependencies.iter().map(|(n, _)| n.clone()).collect(),
        forbidden,
        downstream: Downstream { dependencies, log },
    }))
}

/// The agents the contracts' delegations forbid, by name (a card URL is
/// not a name the provider's wiring can use: not served).
fn forbidden_agents(contracts: &[Contract]) -> Vec<String> {
    let mut out: Vec<String> = contracts
        .iter()
        .flat_map(|c| &c.interactions)
        .filter_map(|i| match i {
            Interaction::A2aTask(t) => t.task.delegation.as_ref(),
            _ => None,
        })
        .flat_map(|d| d.forbidden_agents.iter().cloned())
        .filter(|a| parse_dependency(&format!("{a}=x")).is_ok())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// An A2A agent named `agent` with a card and no interactions.
fn bare_agent(provider: &str, agent: &str) -> anyhow::Result<Contract> {
    let doc = json!({"consumer": {"name": provider}, "provider": {"name": agent},
        "agentCard": {}, "interactions": [],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    Ok(accord_dsl::pact::from_value(&doc, agent)?)
}

/// What a stand-in saw, as the verifier reads it.
fn call_of(dependency: &str, o: Observed) -> DownstreamCall {
    DownstreamCall {
        dependency: dependency.to_owned(),
        at: o.at,
        method: o.method,
        path: o.path,
        headers: o.headers,
        surface: match o.surface {
            accord_mock::Surface::Http => Surface::Http,
            accord_mock::Surface::A2a {
                operation,
                metadata,
            } => Surface::A2a {
                operation,
                metadata,
            },
            accord_mock::Surface::Mcp { method, tool } => Surface::Mcp { method, tool },
        },
        mismatch: o.mismatch.map(|m| m.line()),
    }
}

/// The environment a provider started by `accord verify -- COMMAND` gets:
/// `ACCORD_DEPENDENCY_URL_<NAME>`, `…_A2A_URL_<NAME>` (the card),
/// `…_MCP_URL_<NAME>`; NAME upper case, other characters `_`.
pub fn environment(dependencies: &[Dependency]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for d in dependencies {
        let suffix = super::mock_env::suffix(&d.name);
        out.push((format!("ACCORD_DEPENDENCY_URL_{suffix}"), d.url.clone()));
        if let Some(u) = &d.a2a_card_url {
            out.push((format!("ACCORD_DEPENDENCY_A2A_URL_{suffix}"), u.clone()));
        }
        if let Some(u) = &d.mcp_url {
            out.push((format!("ACCORD_DEPENDENCY_MCP_URL_{suffix}"), u.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependency_names_are_letters_digits_dashes_and_underscores() {
        assert_eq!(
            parse_dependency("tool-server_2=deps/tools.json"),
            Ok(("tool-server_2".into(), PathBuf::from("deps/tools.json")))
        );
        for bad in ["tools", "=x.json", "tool server=x.json", "tools="] {
            assert!(parse_dependency(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_environment_names_each_dependency_in_upper_case() {
        let d = Dependency {
            name: "tool-server".into(),
            url: "http://127.0.0.1:1".into(),
            a2a_card_url: None,
            mcp_url: Some("http://127.0.0.1:1/mcp".into()),
        };
        assert_eq!(
            environment(&[d]),
            [
                (
                    "ACCORD_DEPENDENCY_URL_TOOL_SERVER".to_owned(),
                    "http://127.0.0.1:1".to_owned()
                ),
                (
                    "ACCORD_DEPENDENCY_MCP_URL_TOOL_SERVER".to_owned(),
                    "http://127.0.0.1:1/mcp".to_owned()
                ),
            ]
        );
    }
}
