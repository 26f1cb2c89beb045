//! The driver trait: one implementation per interaction family. The engine
//! sets up provider states and observations around it; a driver sends the
//! interaction and judges the answer. The A2A and MCP drivers implement it
//! in their own modules.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use accord_dsl::Interaction;
use accord_dsl::generators::{GeneratorContext, GeneratorMode, Generators, apply_to_json};
use accord_dsl::model::accord::Probe;
use serde_json::{Map, Value};

use crate::config::Token;
use crate::error::VerifyError;
use crate::finding::{Finding, Layer, codes};
use crate::observe::{Counters, observe};
use crate::transport::Transport;

/// A boxed future, so drivers can be trait objects.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a driver gets for one send.
#[derive(Debug)]
pub struct Exchange<'a> {
    pub transport: &'a Transport,
    /// Base URL of the provider's HTTP interface.
    pub base_url: &'a str,
    /// The same, parsed once where a plain path can be joined to it
    /// without parsing the whole URL again (see [`crate::request_url`]).
    pub base_at: Option<&'a crate::request_url::BaseUrl>,
    /// Pact's message endpoint (the provider produces a message on POST).
    pub message_url: &'a str,
    /// Values the state-change calls returned (for `ProviderState` generators).
    pub state_values: &'a Map<String, Value>,
    /// The credential to present. Never logged.
    pub authorization: Authorization<'a>,
    /// Every principal's token, for drivers that probe as another
    /// principal (A2A, MCP). Never logged.
    pub principals: &'a BTreeMap<String, Token>,
    /// Headers for every request to the provider (`--header`). Never logged.
    pub custom_headers: &'a [(String, Token)],
    /// The observation endpoint, for drivers that read the counters at
    /// extra points (after a cancel acknowledgement, …).
    pub observe_url: Option<&'a str>,
    /// The same, parsed once (the counters are read twice per observed
    /// interaction); `None` reads parse `observe_url` each time.
    pub observe_at: Option<&'a reqwest::Url>,
    /// The counters the engine read right before this send (`None`: not
    /// read, or read before earlier sends): a driver that needs them
    /// uses these instead of reading again.
    pub observed: Option<&'a Counters>,
    /// The MCP endpoint (`--mcp-url`, default `{base}/mcp`).
    pub mcp_url: &'a str,
    /// The same, parsed once (every call posts to it); `None`: parsed per
    /// request.
    pub mcp_at: Option<&'a reqwest::Url>,
    /// How an unknown tool's answer is graded (`--mcp-unknown-tool`).
    pub mcp_unknown_tool: crate::config::UnknownTool,
    /// The contract's pinned MCP version (`metadata.accord.mcp`).
    pub mcp_version: Option<&'a str>,
    /// The contract's `mcpTools`: what the consumer relies on of each tool.
    pub mcp_tools: &'a [accord_dsl::model::accord::McpToolExpectation],
    /// The contract's interactions, for what a driver reads of the
    /// contract beyond this one (MCP: the tools the consumer relies on).
    pub interactions: &'a [Interaction],
    /// The Agent Card (`--agent-card-url`), for the A2A driver's interfaces.
    pub agent_card_url: &'a str,
    /// Where credentials may go: an Agent Card interface on another
    /// origin never gets them.
    pub origins: &'a crate::origin::Origins,
    /// Which A2A binding to replay on (`--a2a-binding`).
    pub a2a_binding: crate::config::A2aBinding,
    /// Which A2A HTTP status mapping errors must follow (`--a2a-status-mapping`).
    pub a2a_status_mapping: crate::config::A2aStatusMapping,
    /// The contract's `agentCard`: the interfaces and modes it relies on.
    pub agent_card: Option<&'a accord_dsl::model::accord::AgentCardExpectations>,
    /// How the generated values of this send relate to the other repeats.
    pub generation: Generation<'a>,
    /// Fired by the driver once this send's answer is in and nothing more
    /// of the interaction reaches the provider: its teardown goes out
    /// while the answer is judged ([`crate::release`]). Only on the
    /// interaction's last send, and only when the engine reaches nothing
    /// after it.
    pub release: Option<&'a crate::release::Release>,
}

/// How a send's generated values relate to the other repeats of its
/// interaction (`repeat`). Without `repeat.key` every repeat is the same
/// request: the same seed, so the same generated values. With a key every
/// repeat draws new values and the key keeps the first send's value, so
/// the provider is tested on its business key, not on a byte-identical
/// request (protocol ids — JSON-RPC ids, A2A `messageId`s — are always
/// new).
#[derive(Debug, Clone, Copy)]
pub struct Generation<'a> {
    /// Seed of the generators' random values.
    pub seed: u64,
    /// `repeat.key` and the value the first send carried there.
    pub pin: Option<(&'a str, &'a Value)>,
    /// The engine reads the request and answer views of this send
    /// (`repeat.key`, `repeat.sameFields`): the driver fills
    /// [`Sent::request`] and [`Sent::answer`]; otherwise it need not build
    /// them.
    pub views: bool,
}

impl Generation<'_> {
    /// The random source of this send's generators.
    pub fn rng(&self) -> rand::rngs::StdRng {
        rand::SeedableRng::seed_from_u64(self.seed)
    }

    /// The context a send's generators run in: the provider's side, with
    /// the values its provider state returned.
    pub fn provider_context(state_values: &Map<String, Value>) -> GeneratorContext {
        GeneratorContext {
            provider_state_values: state_values.clone(),
            mode: GeneratorMode::Provider,
            ..GeneratorContext::default()
        }
    }

    /// Applies `generators` to a JSON request of this send (its seed, the
    /// provider's side, the state's values); the pinned key is the
    /// caller's to write ([`Self::pin_into`]).
    pub fn generate_json(
        &self,
        root: &mut Value,
        generators: &Generators,
        state_values: &Map<String, Value>,
    ) {
        let ctx = Self::provider_context(state_values);
        apply_to_json(root, generators, &ctx, &mut self.rng());
    }

    /// Writes the pinned key into a request view (see
    /// `accord_dsl::model::views`).
    pub fn pin_into(&self, view: &mut Value) {
        if let Some((path, value)) = self.pin {
            accord_dsl::generators::replace_at(view, path, value);
        }
    }
}

impl Exchange<'_> {
    /// Reads the provider's counters now; `None` without an observation URL.
    pub async fn observe(&self) -> Result<Option<Counters>, VerifyError> {
        match self.observe_url {
            Some(url) => observe(self.transport, url, self.observe_at)
                .await
                .map(Some),
            None => Ok(None),
        }
    }
}

/// Which `Authorization` the request carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Authorization<'a> {
    /// The interaction has no `auth` expectation: headers as written.
    AsWritten,
    /// `Bearer <token>`, replacing any written `Authorization`.
    Bearer(&'a str),
    /// No credential at all: a written `Authorization` is dropped.
    Without,
}

/// What one send produced.
#[derive(Debug, Clone, Default)]
pub struct Sent {
    pub findings: Vec<Finding>,
    /// What is reported without failing the interaction (a behaviour the
    /// official SDKs share where the spec says otherwise; a check that
    /// could not be made).
    pub warnings: Vec<Finding>,
    /// Time to the provider's acknowledgement (response head).
    pub ack: Option<Duration>,
    /// Time to the complete answer.
    pub total: Option<Duration>,
    /// The provider served the request (2xx) where the contract expected a
    /// refusal; set by drivers that can tell, for negative cases.
    pub served_unexpectedly: bool,
    /// Why the served request had to be refused, when the driver can tell
    /// (MCP: arguments the tool's `inputSchema` forbids): the layer and
    /// code of the finding. `None`: the engine derives it from the
    /// credential and approval, else another principal's resource.
    pub refused_because: Option<(crate::finding::Layer, &'static str)>,
    /// Calls the driver derived and made besides the recorded one (MCP
    /// invalid-input variants), one line each, for the report.
    pub checks: Vec<String>,
    /// The counters the driver read after its last request, if it did:
    /// the engine takes them as its after-observation.
    pub after: Option<Counters>,
    /// The driver measured the task-progress limits itself
    /// (`firstProgressWithinMs`, cancellation): the engine does not report
    /// them unchecked.
    pub temporal_measured: bool,
    /// Counters whose change the driver accounts for in a finding of its
    /// own on another layer than behavior (a side effect after a cancel,
    /// work a cancel did not stop): the engine does not judge them again.
    pub counters_judged: Vec<String>,
    /// The answer's own finding explains the counters: a request that had
    /// to be refused was served (whatever the counters did is its work),
    /// or one that had to be served was refused (nothing was done). The
    /// engine does not judge them again; it adds the served negative case
    /// itself (`verdicts::explains_counters`).
    pub counters_explained: bool,
    /// Nothing reached the provider: the driver could not make the request
    /// (no Agent Card to find the interface on, no interface it may use);
    /// its finding says why. Like a request that failed on the way
    /// (REQUEST_FAILED), no counter is judged for it and no probe is made:
    /// they would only repeat that finding.
    pub not_sent: bool,
    /// The request as sent, in the view `repeat.key` points into
    /// (`accord_dsl::model::views`), when [`Generation::views`] asks.
    pub request: Option<Value>,
    /// The answer, in the view `repeat.sameFields` point into.
    pub answer: Option<Value>,
}

/// An expectation of a whole contract, judged once per run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContractPart {
    /// `agentCard`.
    AgentCard,
    /// `mcpTools`.
    McpTools,
}

impl ContractPart {
    /// The contract attribute.
    pub fn as_str(self) -> &'static str {
        match self {
            ContractPart::AgentCard => "agentCard",
            ContractPart::McpTools => "mcpTools",
        }
    }

    /// The parts `contract` has expectations for.
    pub fn of(contract: &accord_dsl::Contract) -> Vec<ContractPart> {
        let mut parts = Vec::new();
        if contract.agent_card.is_some() {
            parts.push(ContractPart::AgentCard);
        }
        if !contract.mcp_tools.is_empty() {
            parts.push(ContractPart::McpTools);
        }
        parts
    }
}

/// What a contract-level check gets.
#[derive(Debug)]
pub struct ContractCheck<'a> {
    pub transport: &'a Transport,
    pub base_url: &'a str,
    pub mcp_url: &'a str,
    /// The Agent Card (`--agent-card-url`, default
    /// `{base}/.well-known/agent-card.json`).
    pub agent_card_url: &'a str,
    /// Every principal's token (a profile is a principal). Never logged.
    pub principals: &'a BTreeMap<String, Token>,
    pub custom_headers: &'a [(String, Token)],
    /// Keys trusted to sign the Agent Card (`--trust-card-key`).
    pub trusted_card_keys: &'a [serde_json::Value],
}

/// One interaction family's way of replaying and judging.
pub trait Driver: Send + Sync + std::fmt::Debug {
    /// True when this driver replays `interaction`.
    fn handles(&self, interaction: &Interaction) -> bool;

    /// Sends the interaction once and judges the answer. `Err` only for an
    /// operational failure; a wrong answer is findings.
    fn send<'a>(
        &'a self,
        interaction: &'a Interaction,
        exchange: &'a Exchange<'a>,
    ) -> BoxFuture<'a, Result<Sent, VerifyError>>;

    /// The contract-level expectations this driver judges.
    fn contract_parts(&self) -> &'static [ContractPart] {
        &[]
    }

    /// Judges the contract-level expectations of `contract` it handles
    /// (see [`Driver::contract_parts`]); a check it cannot make is a finding.
    fn check_contract<'a>(
        &'a self,
        _contract: &'a accord_dsl::Contract,
        _cx: &'a ContractCheck<'a>,
    ) -> BoxFuture<'a, Vec<Finding>> {
        Box::pin(async { Vec::new() })
    }

    /// Makes probe `index` of the interaction's `auth.probes`: what the
    /// interaction created, accessed as `probe.principal` (whose
    /// credential `exchange` presents), compared with the same access to
    /// an unknown id. A driver that cannot probe says so with a finding:
    /// a probe is never passed unmade.
    fn probe<'a>(
        &'a self,
        interaction: &'a Interaction,
        _exchange: &'a Exchange<'a>,
        _probe: &'a Probe,
        index: usize,
    ) -> BoxFuture<'a, Result<Vec<Finding>, VerifyError>> {
        let detail = format!(
            "probes of {} interactions are not replayed yet: the access of another principal was not checked",
            interaction.type_name()
        );
        let f = Finding::new(
            Layer::Authorization,
            codes::EXPECTATION_UNCHECKED,
            format!("auth.probes[{index}]"),
            detail,
        );
        Box::pin(async move { Ok(vec![f]) })
    }

    /// Checks the driver derives from what it learned (MCP: invalid inputs
    /// from the tool's `inputSchema`), made after an interaction that
    /// passed, outside its observed window; the engine judges the counters
    /// around them (any move is INVALID_INPUT_ACCEPTED).
    fn derived_checks<'a>(
        &'a self,
        _interaction: &'a Interaction,
        _exchange: &'a Exchange<'a>,
    ) -> BoxFuture<'a, Result<Sent, VerifyError>> {
        Box::pin(async { Ok(Sent::default()) })
    }

    /// The provider's declarations the driver read during the run (MCP
    /// listings by digest), for the report and the published results.
    fn declarations(&self) -> Vec<crate::report::Declaration> {
        Vec::new()
    }

    /// Called once after the run: close what the driver kept open (MCP
    /// sessions).
    fn finish<'a>(&'a self, _transport: &'a Transport) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}
