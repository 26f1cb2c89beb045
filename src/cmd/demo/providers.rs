//! The provider versions, each a reference provider of `accord-fixtures`
//! on its own loopback port, with its version's fault switched on.

use accord_fixtures::a2a::A2aAgent;
use accord_fixtures::mcp::McpProvider;
use accord_verifier::{ContractSource, VerifyConfig};
use anyhow::Context;

use super::scenario::{self, Build, ProviderVersion};
use crate::cmd::verify_standins::{self, StandIns};

/// The server a provider version runs.
#[derive(Debug)]
enum Server {
    A2a(A2aAgent),
    Mcp(McpProvider),
}

/// A provider version that is serving. Dropping it stops it.
pub struct RunningProvider {
    pub version: ProviderVersion,
    server: Server,
    /// The stand-ins of its dependencies, served while it runs.
    standins: Option<StandIns>,
}

impl std::fmt::Debug for RunningProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let standins = self.standins.iter().flat_map(|s| s.dependencies());
        f.debug_struct("RunningProvider")
            .field("version", &self.version)
            .field("server", &self.server)
            .field("standins", &standins.map(|d| &d.name).collect::<Vec<_>>())
            .finish()
    }
}

impl RunningProvider {
    /// Starts `version`'s reference provider with its fault.
    pub fn start(version: ProviderVersion) -> anyhow::Result<RunningProvider> {
        let server = match version.build {
            Build::A2a(fault) => {
                let agent = A2aAgent::start()?;
                agent.set_fault(fault);
                Server::A2a(agent)
            }
            Build::Mcp(fault) => {
                let server = McpProvider::start()?;
                server.set_fault(fault);
                Server::Mcp(server)
            }
        };
        let standins = standins(&version)?;
        Ok(RunningProvider {
            version,
            server,
            standins,
        })
    }

    /// `A2A` or `MCP`.
    pub fn protocol(&self) -> &'static str {
        match self.server {
            Server::A2a(_) => "A2A",
            Server::Mcp(_) => "MCP",
        }
    }

    /// Where a client finds it: the Agent Card or the MCP endpoint.
    pub fn entry_url(&self) -> String {
        match &self.server {
            Server::A2a(agent) => agent.card_url(),
            Server::Mcp(server) => server.mcp_url(),
        }
    }

    /// The verifier's configuration for this provider (as `accord verify`'s
    /// `--provider-base-url`, `--state-change-url`, `--observe-url` and
    /// `--mcp-url` make it), replaying `source` for this version.
    pub fn verify_config(&self, source: ContractSource) -> VerifyConfig {
        let (base, state, observe, mcp) = match &self.server {
            Server::A2a(a) => (a.base_url(), a.state_change_url(), a.observe_url(), None),
            Server::Mcp(m) => (
                m.base_url(),
                m.state_change_url(),
                m.observe_url(),
                Some(m.mcp_url()),
            ),
        };
        let mut config = VerifyConfig::new(self.version.name, base, source);
        config.provider_version = Some(self.version.version.to_owned());
        config.state_change_url = Some(state);
        config.observe_url = Some(observe);
        config.mcp_url = mcp;
        config.downstream = self.standins.as_ref().map(|s| s.downstream.clone());
        config
    }
}

/// Serves `version`'s dependencies as `accord verify --dependency` does
/// (from the demo's own specs instead of files).
fn standins(version: &ProviderVersion) -> anyhow::Result<Option<StandIns>> {
    let mut contracts = Vec::new();
    for (name, spec) in version.dependencies {
        contracts.push(((*name).to_owned(), scenario::contract(spec)?));
    }
    if contracts.is_empty() {
        return Ok(None);
    }
    let args = verify_standins::StandInArgs::default();
    verify_standins::serve(&args, version.name, &[], contracts)
        .with_context(|| format!("cannot serve the dependencies of {}", version.label()))
}

/// Starts every provider version of `versions`.
pub fn start_all(versions: &[ProviderVersion]) -> anyhow::Result<Vec<RunningProvider>> {
    versions
        .iter()
        .map(|v| RunningProvider::start(*v).with_context(|| format!("cannot start {}", v.label())))
        .collect()
}
