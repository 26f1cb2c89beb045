//! The typed configuration of a verification run.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use std::sync::{Arc, OnceLock};

use accord_dsl::Contract;
use accord_dsl::pact::LintProblem;
use regex::Regex;

use crate::error::VerifyError;

/// A bearer token. Its `Debug` form never shows the value.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// Wraps a token.
    pub fn new(value: impl Into<String>) -> Self {
        Token(value.into())
    }

    /// The secret value, for the `Authorization` header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(***)")
    }
}

/// A contract already in memory, with where it came from.
#[derive(Debug, Clone)]
pub struct SourcedContract {
    pub contract: Contract,
    /// A file name or URL, for the report.
    pub source: String,
    /// The whole contract is pending (its failures never fail the run).
    pub pending: bool,
    /// A work-in-progress contract (a broker's WIP pact; always pending).
    pub wip: bool,
    /// Its lint problems once asked for ([`SourcedContract::lint`]).
    pub linted: Linted,
}

impl SourcedContract {
    /// A contract that is neither pending nor WIP.
    pub fn new(contract: Contract, source: impl Into<String>) -> Self {
        SourcedContract {
            contract,
            source: source.into(),
            pending: false,
            wip: false,
            linted: Linted::default(),
        }
    }

    /// The contract's lint problems, found at the first call and kept: the
    /// CLI prints the warnings and the run refuses on the blocking ones
    /// from one lint. (Whoever changes `contract` afterwards resets
    /// `linted`.)
    pub fn lint(&self) -> &[LintProblem] {
        self.linted
            .0
            .get_or_init(|| accord_dsl::pact::lint(&self.contract).into())
    }
}

/// The kept lint problems of a [`SourcedContract`]; `Default` is none yet.
#[derive(Debug, Clone, Default)]
pub struct Linted(OnceLock<Arc<[LintProblem]>>);

/// Where the contracts to verify come from. The verifier knows no broker:
/// the CLI fetches a broker's pacts for verification and hands them over
/// as [`ContractSource::Loaded`], each with its pending and WIP flags.
#[derive(Debug, Clone)]
pub enum ContractSource {
    /// Contract or Pact files on disk.
    Files(Vec<PathBuf>),
    /// Contracts already loaded.
    Loaded(Vec<SourcedContract>),
}

/// Which interactions to replay.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only interactions whose description matches.
    pub description: Option<Regex>,
    /// Only interactions with a provider state whose name matches.
    pub state: Option<Regex>,
    /// Only interactions without provider states (Pact's `--filter-no-state`).
    pub no_state: bool,
    /// Only the contracts of these consumers (exact names); empty: all.
    pub consumers: Vec<String>,
    /// Only `A2A/Task` interactions (the second run of `--a2a-binding all`).
    pub a2a_only: bool,
}

impl Filter {
    /// Compiles the description and state patterns (regular expressions,
    /// matched anywhere in the text, as Pact's filters are).
    pub fn parse(description: Option<&str>, state: Option<&str>) -> Result<Self, VerifyError> {
        let compile = |which, pattern: Option<&str>| {
            pattern
                .map(|p| {
                    Regex::new(p).map_err(|source| VerifyError::InvalidFilter { which, source })
                })
                .transpose()
        };
        Ok(Filter {
            description: compile("description", description)?,
            state: compile("state", state)?,
            ..Filter::default()
        })
    }

    /// True when some interactions of a contract may be left out, so its
    /// results do not speak for the whole contract (they are not published).
    pub fn selects_interactions(&self) -> bool {
        self.description.is_some() || self.state.is_some() || self.no_state
    }

    /// True when the contracts of `consumer` are verified.
    pub fn keeps_consumer(&self, consumer: &str) -> bool {
        self.consumers.is_empty() || self.consumers.iter().any(|c| c == consumer)
    }
}

/// Bounds that keep a hostile provider from hanging or flooding the run.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Each request (send and whole body) must finish within this.
    pub request_timeout: Duration,
    /// Reading a response body stops past this many bytes.
    pub max_response_bytes: usize,
    /// Follow redirects (off by default: a redirect is an answer to judge;
    /// when on, only on the request's own origin).
    pub follow_redirects: bool,
    /// An event stream (A2A) must end within this, however busy it is
    /// (`--stream-timeout`); each event still waits at most
    /// `request_timeout`.
    pub stream_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            request_timeout: Duration::from_secs(30),
            max_response_bytes: 10 * 1024 * 1024,
            follow_redirects: false,
            stream_timeout: Duration::from_secs(120),
        }
    }
}

/// Everything a verification run needs.
#[derive(Debug, Clone)]
pub struct VerifyConfig {
    /// The provider's name; contracts for another provider are refused.
    pub provider: String,
    pub provider_version: Option<String>,
    /// Base URL the HTTP interactions are sent to.
    pub provider_base_url: String,
    /// Where message interactions are produced (Pact's message endpoint);
    /// `None` means the provider base URL, as Pact does.
    pub message_url: Option<String>,
    /// The MCP endpoint (Streamable HTTP); `None` means `{base}/mcp`.
    pub mcp_url: Option<String>,
    /// How an unknown tool's answer is graded (`--mcp-unknown-tool`).
    pub mcp_unknown_tool: UnknownTool,
    /// The Agent Card; `None` means `{base}/.well-known/agent-card.json`.
    pub agent_card_url: Option<String>,
    /// Which A2A binding `A2A/Task` interactions are replayed on (`--a2a-binding`).
    pub a2a_binding: A2aBinding,
    /// Which A2A HTTP status mapping an HTTP+JSON error must follow
    /// (`--a2a-status-mapping`).
    pub a2a_status_mapping: A2aStatusMapping,
    /// Public keys (JWK) the consumers trust to sign Agent Cards
    /// (`--trust-card-key`).
    pub trusted_card_keys: Vec<serde_json::Value>,
    pub source: ContractSource,
    /// Pact-compatible provider-state change endpoint.
    pub state_change_url: Option<String>,
    /// Observation endpoint: a flat JSON object of integer counters.
    pub observe_url: Option<String>,
    /// Bearer tokens by principal name.
    pub principals: BTreeMap<String, Token>,
    /// Headers added to every request sent to the provider (Pact's
    /// `--header`), replacing the interaction's own of the same name;
    /// values never logged. An `Authorization` here is not sent with
    /// interactions whose credential Accord decides (`auth` expectations).
    pub custom_headers: Vec<(String, Token)>,
    /// Origins besides the provider base URL's (and the Agent Card URL's)
    /// that credentials and custom headers may go to (`--allow-origin`):
    /// an Agent Card interface elsewhere never gets them.
    pub allowed_origins: Vec<crate::origin::Origin>,
    /// What to do with an Agent Card interface on another origin
    /// (`--other-origin-interface`).
    pub other_origin: crate::origin::OtherOrigin,
    /// Contracts replayed in parallel (at least 1).
    pub jobs: usize,
    pub filter: Filter,
    pub limits: Limits,
    /// The run's id, in every request's `tracestate` (`accord=<run id>`).
    pub run_id: String,
    /// The stand-ins served for the provider's dependencies and the log
    /// of what they saw (`None`: no stand-ins, nothing observed
    /// downstream).
    pub downstream: Option<crate::downstream::Downstream>,
}

impl VerifyConfig {
    /// A configuration with defaults: one job, no states, no observations.
    pub fn new(
        provider: impl Into<String>,
        base_url: impl Into<String>,
        source: ContractSource,
    ) -> Self {
        VerifyConfig {
            provider: provider.into(),
            provider_version: None,
            provider_base_url: base_url.into(),
            message_url: None,
            mcp_url: None,
            mcp_unknown_tool: UnknownTool::default(),
            agent_card_url: None,
            a2a_binding: A2aBinding::default(),
            trusted_card_keys: Vec::new(),
            a2a_status_mapping: A2aStatusMapping::default(),
            source,
            state_change_url: None,
            observe_url: None,
            principals: BTreeMap::new(),
            custom_headers: Vec::new(),
            allowed_origins: Vec::new(),
            other_origin: crate::origin::OtherOrigin::default(),
            jobs: 1,
            filter: Filter::default(),
            limits: Limits::default(),
            run_id: crate::trace::new_run_id(),
            downstream: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_compile_or_name_the_bad_pattern() {
        let f = Filter::parse(Some("^get"), None).expect("valid");
        assert!(f.description.is_some_and(|r| r.is_match("get item")));
        let err = Filter::parse(None, Some("(")).expect_err("invalid");
        assert!(err.to_string().contains("state"));
    }

    #[test]
    fn a_token_never_shows_in_debug_output() {
        let t = Token::new("s3cret");
        assert!(!format!("{t:?}").contains("s3cret"));
        assert_eq!(t.expose(), "s3cret");
    }
}

/// How the answer to a call of a tool the server does not list is graded:
/// MCP says a JSON-RPC error (-32602), both official SDKs answer a tool
/// result with `isError: true`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownTool {
    /// Either answer passes; the one the contract did not expect is a
    /// warning.
    #[default]
    Warn,
    /// The spec's answer is required: `isError` where -32602 was expected
    /// fails, -32602 where `isError` was expected passes silently.
    Spec,
    /// The SDKs' answer is accepted silently where -32602 was expected.
    Sdk,
}

/// Which of the card's interfaces `A2A/Task` interactions are replayed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum A2aBinding {
    /// The binding the contract's `agentCard.interfaces` relies on (both,
    /// replayed as with `All`, when it names both), else the card's first
    /// interface the verifier speaks.
    #[default]
    Auto,
    /// The card's JSON-RPC interface.
    JsonRpc,
    /// The card's HTTP+JSON interface.
    HttpJson,
    /// Every interface of a binding the verifier speaks that the card
    /// offers: each A2A interaction replayed once per binding (see
    /// `bindings.rs`).
    All,
}

/// The HTTP statuses A2A errors map to on HTTP+JSON: v1.0.1 follows
/// `google.rpc.Code` (400 for TASK_NOT_CANCELABLE), v1.0.0 differed for four
/// reasons (409, 415, 502 and 400); the SDKs follow v1.0.1, the TCK v1.0.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum A2aStatusMapping {
    /// Either mapping passes.
    #[default]
    Either,
    /// v1.0.1's statuses only.
    V1_0_1,
    /// v1.0.0's statuses only.
    V1_0_0,
}
