//! The demo's world: the consumer versions and their contracts (the specs
//! of `examples/demo/`, carried in the binary so that it runs anywhere),
//! the provider versions and the fault each one runs with.

use accord_fixtures::a2a::A2aFault;
use accord_fixtures::mcp::McpFault;
use anyhow::Context;
use serde_json::Value;

/// The environment deployments are recorded to and asked about.
pub const ENVIRONMENT: &str = "production";

/// The branch every provider version is built from.
pub const PROVIDER_BRANCH: &str = "main";

/// The spec files are compiled as if they were read from here.
const SPEC_DIR: &str = "examples/demo/";

/// A spec of `examples/demo/`, carried in the binary.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// Its path under `examples/demo/`.
    pub path: &'static str,
    pub text: &'static str,
}

macro_rules! spec {
    ($path:literal) => {
        Spec {
            path: $path,
            text: include_str!(concat!("../../../examples/demo/", $path)),
        }
    };
}

/// The JSON Schema the planning agent's artifact is checked against.
const WORK_PLAN_SCHEMA: &str = include_str!("../../../examples/demo/schemas/work-plan.json");

const ORCHESTRATOR_PLANNING: Spec = spec!("release-orchestrator/planning-agent.yaml");
const ORCHESTRATOR_CANCEL: Spec = spec!("release-orchestrator/cancel-plans.yaml");
const ORCHESTRATOR_TOOLS: Spec = spec!("release-orchestrator/plan-tools.yaml");
const CONSOLE_TOOLS: Spec = spec!("ops-console/plan-tools.yaml");
const ORCHESTRATOR_WORK_PLANNER: Spec = spec!("release-orchestrator/work-planner.yaml");
/// The work planner's own contract with its tool server, served as its
/// `tools` stand-in while it is verified (not published: the demo runs no
/// tool server, and a contract nobody verifies would make every planner
/// version's can-i-deploy answer "unknown").
pub const WORK_PLANNER_TOOLS: Spec = spec!("work-planner/tool-server.yaml");

/// A consumer version and the specs it publishes.
#[derive(Debug, Clone, Copy)]
pub struct ConsumerVersion {
    pub name: &'static str,
    pub version: &'static str,
    pub branch: &'static str,
    pub specs: &'static [Spec],
    /// Whether it runs in [`ENVIRONMENT`] (its deployment is recorded).
    pub deployed: bool,
}

/// The consumer versions, in the order they publish.
pub const CONSUMERS: [ConsumerVersion; 3] = [
    ConsumerVersion {
        name: "release-orchestrator",
        version: "1.4.0",
        branch: "main",
        specs: &[
            ORCHESTRATOR_PLANNING,
            ORCHESTRATOR_TOOLS,
            ORCHESTRATOR_WORK_PLANNER,
        ],
        deployed: true,
    },
    ConsumerVersion {
        name: "ops-console",
        version: "2.3.0",
        branch: "main",
        specs: &[CONSOLE_TOOLS],
        deployed: true,
    },
    ConsumerVersion {
        name: "release-orchestrator",
        version: "1.5.0",
        branch: "feature/cancel-plans",
        specs: &[
            ORCHESTRATOR_PLANNING,
            ORCHESTRATOR_CANCEL,
            ORCHESTRATOR_TOOLS,
            ORCHESTRATOR_WORK_PLANNER,
        ],
        deployed: false,
    },
];

/// Which reference provider a version runs, and with which fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Build {
    /// The reference A2A agent.
    A2a(Option<A2aFault>),
    /// The reference MCP server.
    Mcp(Option<McpFault>),
}

/// A provider version: the build it runs and what is wrong with it.
#[derive(Debug, Clone, Copy)]
pub struct ProviderVersion {
    pub name: &'static str,
    pub version: &'static str,
    pub build: Build,
    /// What a release manager would say about it.
    pub story: &'static str,
    /// Its own contracts with its dependencies, each served as a stand-in
    /// under its name while it is verified (`accord verify --dependency`).
    pub dependencies: &'static [(&'static str, Spec)],
}

impl ProviderVersion {
    /// A good version: verified first, then deployed.
    pub fn is_good(&self) -> bool {
        matches!(self.build, Build::A2a(None) | Build::Mcp(None))
    }

    /// `name version`.
    pub fn label(&self) -> String {
        format!("{} {}", self.name, self.version)
    }
}

/// The provider versions: a good and a faulty one of each provider.
pub const PROVIDERS: [ProviderVersion; 6] = [
    ProviderVersion {
        name: "planning-agent",
        version: "2.0.0",
        build: Build::A2a(None),
        story: "good",
        dependencies: &[],
    },
    ProviderVersion {
        name: "planning-agent",
        version: "2.1.0",
        build: Build::A2a(Some(A2aFault::ProseArtifact)),
        story: "faulty: the work plan comes back as prose instead of JSON",
        dependencies: &[],
    },
    ProviderVersion {
        name: "plan-tools",
        version: "3.2.0",
        build: Build::Mcp(None),
        story: "good",
        dependencies: &[],
    },
    ProviderVersion {
        name: "plan-tools",
        version: "3.3.0",
        build: Build::Mcp(Some(McpFault::ReadOnlyWrites)),
        story: "faulty: the read-only lookup tool writes a record",
        dependencies: &[],
    },
    ProviderVersion {
        name: "work-planner",
        version: "1.0.0",
        build: Build::A2a(None),
        story: "good",
        dependencies: &[("tools", WORK_PLANNER_TOOLS)],
    },
    ProviderVersion {
        name: "work-planner",
        version: "1.1.0",
        build: Build::A2a(Some(A2aFault::DownstreamSynthetic)),
        story: "faulty: it \"may register tasks if needed\": under DRAFT_ONLY it calls ticket.create, \
                forwards the orchestrator's token to its tool server and drops the trace",
        dependencies: &[("tools", WORK_PLANNER_TOOLS)],
    },
];

/// Compiles `spec` as `accord contract compile` does: the Pact V4 +
/// Accord document, and its interaction count.
pub fn compile(spec: &Spec) -> anyhow::Result<(Value, usize)> {
    let origin = format!("{SPEC_DIR}{}", spec.path);
    let resolver = |reference: &str| -> Result<Value, accord_dsl::spec::ResolveError> {
        if !reference.ends_with("schemas/work-plan.json") {
            return Err(format!("the demo carries no schema {reference}").into());
        }
        Ok(serde_json::from_str(WORK_PLAN_SCHEMA)?)
    };
    let contract = accord_dsl::spec::compile_spec(spec.text, &origin, &resolver)
        .with_context(|| format!("cannot compile {origin}"))?;
    let total = accord_dsl::pact::summarize(&contract).total;
    Ok((accord_dsl::pact::to_v4_json(&contract), total))
}

/// Compiles `spec` into the contract model (a stand-in's contract).
pub fn contract(spec: &Spec) -> anyhow::Result<accord_dsl::Contract> {
    let (document, _) = compile(spec)?;
    Ok(accord_dsl::pact::from_value(&document, &origin(spec))?)
}

/// The path a spec is shown and published under.
pub fn origin(spec: &Spec) -> String {
    format!("{SPEC_DIR}{}", spec.path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spec_the_demo_carries_compiles() {
        for consumer in CONSUMERS {
            for spec in consumer.specs {
                let (document, total) = compile(spec).expect("compiles");
                assert!(total > 0, "{}", spec.path);
                assert_eq!(document["consumer"]["name"], consumer.name);
            }
        }
    }

    #[test]
    fn each_provider_has_a_good_and_a_faulty_version() {
        for name in ["planning-agent", "plan-tools", "work-planner"] {
            let versions: Vec<_> = PROVIDERS.iter().filter(|p| p.name == name).collect();
            assert_eq!(versions.iter().filter(|p| p.is_good()).count(), 1);
            assert_eq!(versions.iter().filter(|p| !p.is_good()).count(), 1);
        }
    }
}
