//! Checks of a contract beyond its shape, and a summary by interaction type
//! (what `accord contract lint` prints).
//!
//! Problems are data: each names a stable code, the JSON path in the V4
//! form of the contract, and a readable sentence. Codes (never renamed):
//!
//! | code | severity | when |
//! | --- | --- | --- |
//! | `EMPTY_NAME` | error | the consumer or provider has no name |
//! | `DUPLICATE_INTERACTION` | error | same description and provider states (with params) as an earlier interaction |
//! | `DUPLICATE_KEY` | error | the V4 `key` of an earlier interaction |
//! | `EMPTY_DESCRIPTION` | error | no description |
//! | `EMPTY_PROVIDER_STATE` | error | a provider state without a name |
//! | `INVALID_STATUS` | error | an HTTP status outside 100..=599 |
//! | `EMPTY_METHOD` | error | an HTTP request without a method |
//! | `RELATIVE_PATH` | warning | an HTTP path not starting with `/` |
//! | `NO_RESPONSE_MESSAGE` | warning | a synchronous message without a response |
//! | `GENERATOR_UNUSABLE` | error | a generator that can never produce a value |
//! | `INVALID_GENERATOR_PATH` | error | a body generator key that is not a Pact path |
//! | `PROVIDER_STATE_GENERATOR_WITHOUT_STATE` | warning | a `ProviderState` generator in an interaction without provider states |
//! | `MISSING_PROTOCOL_PIN` | error | A2A tasks or an agent card without `metadata.accord.a2a`; MCP calls or tools without `metadata.accord.mcp` |
//! | `INVALID_SCHEMA` | error | an embedded JSON Schema that does not compile as 2020-12 (not a schema, or a `$ref` that cannot resolve offline) |
//! | `MCP_NO_EXPECTATION` | error | an `MCP/ToolCall` with neither `result` nor `error` (`result: null` counts as none) |
//! | `MCP_RESULT_AND_ERROR` | error | an `MCP/ToolCall` with both |
//! | `MCP_LOG_LEVEL` | error | an `MCP/ToolCall` relying on a log message (`logs`) at a level MCP does not have: no provider can send it |
//! | `NEGATIVE_KIND_CONFLICT` | error | `negative` names a kind of refusal the interaction cannot provoke (`unauthenticated` with a valid credential, `missing_approval` without `approval: {granted: false}`, …) |
//! | `INVALID_REPEAT_PATH` | error | `repeat.key` or a `repeat.sameFields` entry that is not a path, or a key that selects nothing in the request |
//! | `DELEGATION_TOOL_CONFLICT` | error | an `A2A/Task`'s `delegation` both allows and forbids a tool |
//! | `DELEGATION_COST_WITHOUT_COSTS` | error | `delegation.budget.costUnits` with no tool's cost (`costs`): the limit can never be crossed |
//! | `DELEGATION_CREDENTIAL_UNPRESENTED` | error | `delegation.credential` on an interaction that presents no credential (no principal, or `credential: none`) |
//! | `DELEGATION_METADATA_MISMATCH` | error | `delegation` and the record the send carries (`request.message.metadata.delegation`) differ, or only one is there |
//! | `DELEGATION_EMPTY` | warning | a `delegation` without any constraint |
//! | `DELEGATION_UNSPENDABLE_COST` | warning | a `budget.costs` entry for a tool that is forbidden or outside `allowedTools` |
//! | `DELEGATION_FAN_OUT_UNREACHABLE` | warning | `maxFanOut` with `maxDepth: 0` (no re-delegation at all) |
//! | `UNKNOWN_ATTRIBUTE` | warning | a key Accord does not know in an HTTP request or response, an MCP call, an `mcpTools` entry, the `agentCard` or an A2A task's `delegation` (kept, checks nothing; a close known name is suggested) |
//!
//! Some errors mean a verifier cannot run the contract at all
//! ([`BLOCKING`]): the broker refuses to store such a contract (422) and the
//! verifier refuses to load it, with the same problems ([`blocking`]). The
//! other errors make `accord contract lint` fail but are Pact-compatible
//! (the Pact Broker stores them, Pact's verifier runs them).

use std::collections::HashMap;
use std::fmt;

use indexmap::IndexMap;

use super::lint_accord::check_accord;
use super::lint_generators::check_generators;
use crate::model::{Contract, HttpInteraction, Interaction};

/// How serious a problem is: errors make `lint` fail, warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// One problem found in a contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintProblem {
    pub severity: Severity,
    /// A stable code, e.g. `DUPLICATE_INTERACTION`.
    pub code: &'static str,
    /// JSON path in the V4 form of the contract, e.g. `$.interactions[3].description`.
    pub path: String,
    pub message: String,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// `error DUPLICATE_KEY at $.interactions[3].key: key 'k' is already used by …`
impl fmt::Display for LintProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LintProblem {
            severity,
            code,
            path,
            message,
        } = self;
        write!(f, "{severity} {code} at {path}: {message}")
    }
}

impl LintProblem {
    pub(super) fn new(
        severity: Severity,
        code: &'static str,
        path: String,
        message: String,
    ) -> Self {
        LintProblem {
            severity,
            code,
            path,
            message,
        }
    }
}

/// Counts of a contract's interactions by V4 `type`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// `type` → count, in the order types first appear.
    pub by_type: IndexMap<&'static str, usize>,
    pub total: usize,
    /// Whether the contract carries agent-card expectations.
    pub agent_card: bool,
    /// Number of MCP tool expectations.
    pub mcp_tools: usize,
}

/// Counts the interactions of `contract` by type.
pub fn summarize(contract: &Contract) -> Summary {
    let mut by_type = IndexMap::new();
    for i in &contract.interactions {
        *by_type.entry(i.type_name()).or_insert(0) += 1;
    }
    Summary {
        by_type,
        total: contract.interactions.len(),
        agent_card: contract.agent_card.is_some(),
        mcp_tools: contract.mcp_tools.len(),
    }
}

/// Every problem found in `contract`, errors and warnings, in document order.
pub fn lint(contract: &Contract) -> Vec<LintProblem> {
    let mut problems = Vec::new();
    for (key, p) in [
        ("consumer", &contract.consumer),
        ("provider", &contract.provider),
    ] {
        if p.name.trim().is_empty() {
            let msg = format!("the {key} has no name");
            problems.push(LintProblem::new(
                Severity::Error,
                "EMPTY_NAME",
                format!("$.{key}.name"),
                msg,
            ));
        }
    }
    check_duplicates(contract, &mut problems);
    for (i, interaction) in contract.interactions.iter().enumerate() {
        check_interaction(i, interaction, &mut problems);
        check_generators(i, interaction, &mut problems);
        check_accord(i, interaction, &mut problems);
        super::lint_delegation::check_delegation(i, interaction, &mut problems);
        super::lint_expectations::check_expectations(i, interaction, &mut problems);
    }
    check_protocol_pins(contract, &mut problems);
    super::lint_keys::check_keys(contract, &mut problems);
    problems
}

/// The problem codes that stop a verifier from running a contract: a
/// request it cannot build or send, a protocol version it cannot pick, an
/// expectation it cannot evaluate.
pub const BLOCKING: [&str; 14] = [
    "EMPTY_METHOD",
    "GENERATOR_UNUSABLE",
    "INVALID_GENERATOR_PATH",
    "MISSING_PROTOCOL_PIN",
    "INVALID_SCHEMA",
    "MCP_NO_EXPECTATION",
    "MCP_RESULT_AND_ERROR",
    "MCP_LOG_LEVEL",
    "NEGATIVE_KIND_CONFLICT",
    "INVALID_REPEAT_PATH",
    "DELEGATION_TOOL_CONFLICT",
    "DELEGATION_COST_WITHOUT_COSTS",
    "DELEGATION_CREDENTIAL_UNPRESENTED",
    "DELEGATION_METADATA_MISMATCH",
];

/// The problems of `contract` that stop a verifier from running it (the
/// broker's and the verifier's one rule for refusing a contract). A
/// generator blocks only where the verifier applies it, in a request: the
/// generators of responses and messages are the consumer's mock's.
pub fn blocking(contract: &Contract) -> Vec<LintProblem> {
    blocking_among(&lint(contract)).cloned().collect()
}

/// The blocking ones among problems [`lint`] already found (a caller that
/// prints the warnings too lints once).
pub fn blocking_among(problems: &[LintProblem]) -> impl Iterator<Item = &LintProblem> {
    problems
        .iter()
        .filter(|p| p.severity == Severity::Error && BLOCKING.contains(&p.code))
        .filter(|p| !p.code.contains("GENERATOR") || p.path.contains(".request.generators"))
}

/// A state's parameters written as the JSON object they are, without
/// copying them into a `Value`.
struct ParamsText<'a>(&'a serde_json::Map<String, serde_json::Value>);

impl std::fmt::Display for ParamsText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = serde_json::to_string(self.0).map_err(|_| std::fmt::Error)?;
        f.write_str(&text)
    }
}

fn check_duplicates(contract: &Contract, problems: &mut Vec<LintProblem>) {
    let mut seen: HashMap<(&str, Vec<String>), usize> = HashMap::new();
    let mut keys: HashMap<&str, usize> = HashMap::new();
    for (i, interaction) in contract.interactions.iter().enumerate() {
        let meta = interaction.meta();
        let states = meta
            .provider_states
            .iter()
            .map(|s| format!("{}{}", s.name, ParamsText(&s.params)))
            .collect();
        if let Some(first) = seen.insert((meta.description.as_str(), states), i) {
            let msg = format!(
                "same description and provider states as $.interactions[{first}]: a verifier cannot tell them apart"
            );
            problems.push(LintProblem::new(
                Severity::Error,
                "DUPLICATE_INTERACTION",
                format!("$.interactions[{i}]"),
                msg,
            ));
        }
        if let Some(key) = meta.key.as_deref()
            && let Some(first) = keys.insert(key, i)
        {
            let msg = format!("key '{key}' is already used by $.interactions[{first}]");
            problems.push(LintProblem::new(
                Severity::Error,
                "DUPLICATE_KEY",
                format!("$.interactions[{i}].key"),
                msg,
            ));
        }
    }
}

fn check_interaction(i: usize, interaction: &Interaction, problems: &mut Vec<LintProblem>) {
    let at = format!("$.interactions[{i}]");
    let meta = interaction.meta();
    let mut push = |severity, code: &'static str, suffix: &str, message: String| {
        problems.push(LintProblem::new(
            severity,
            code,
            format!("{at}{suffix}"),
            message,
        ));
    };
    if meta.description.trim().is_empty() {
        push(
            Severity::Error,
            "EMPTY_DESCRIPTION",
            ".description",
            "the interaction has no description".into(),
        );
    }
    for (s, state) in meta.provider_states.iter().enumerate() {
        if state.name.trim().is_empty() {
            let suffix = format!(".providerStates[{s}].name");
            push(
                Severity::Error,
                "EMPTY_PROVIDER_STATE",
                &suffix,
                "a provider state has no name".into(),
            );
        }
    }
    match interaction {
        Interaction::Http(h) => check_http(h, &mut push),
        Interaction::SyncMessage(m) if m.response.is_empty() => {
            let msg = "a synchronous message expects no response".to_string();
            push(Severity::Warning, "NO_RESPONSE_MESSAGE", ".response", msg);
        }
        _ => {}
    }
}

type Push<'a> = dyn FnMut(Severity, &'static str, &str, String) + 'a;

fn check_http(h: &HttpInteraction, push: &mut Push<'_>) {
    if !(100..=599).contains(&h.response.status) {
        let msg = format!("{} is not an HTTP status code", h.response.status);
        push(Severity::Error, "INVALID_STATUS", ".response.status", msg);
    }
    if h.request.method.trim().is_empty() {
        let msg = "the request has no method".to_string();
        push(Severity::Error, "EMPTY_METHOD", ".request.method", msg);
    }
    if !h.request.path.starts_with('/') {
        let msg = format!("path '{}' does not start with '/'", h.request.path);
        push(Severity::Warning, "RELATIVE_PATH", ".request.path", msg);
    }
}

fn check_protocol_pins(contract: &Contract, problems: &mut Vec<LintProblem>) {
    let count = |name: &str| {
        contract
            .interactions
            .iter()
            .filter(|i| i.type_name() == name)
            .count()
    };
    let (a2a, mcp) = (count("A2A/Task"), count("MCP/ToolCall"));
    let pins = contract.accord.as_ref();
    let a2a_pinned = pins.and_then(|a| a.a2a.as_ref()).is_some();
    let mcp_pinned = pins.and_then(|a| a.mcp.as_ref()).is_some();
    if (a2a > 0 || contract.agent_card.is_some()) && !a2a_pinned {
        let msg = format!(
            "{a2a} A2A/Task interaction(s){} but metadata.accord pins no A2A protocol version",
            if contract.agent_card.is_some() {
                " and agent-card expectations"
            } else {
                ""
            }
        );
        problems.push(LintProblem::new(
            Severity::Error,
            "MISSING_PROTOCOL_PIN",
            "$.metadata.accord.a2a".into(),
            msg,
        ));
    }
    if (mcp > 0 || !contract.mcp_tools.is_empty()) && !mcp_pinned {
        let msg = format!(
            "{mcp} MCP/ToolCall interaction(s) and {} MCP tool expectation(s) but metadata.accord pins no MCP protocol version",
            contract.mcp_tools.len()
        );
        problems.push(LintProblem::new(
            Severity::Error,
            "MISSING_PROTOCOL_PIN",
            "$.metadata.accord.mcp".into(),
            msg,
        ));
    }
}

#[cfg(test)]
#[path = "lint_tests.rs"]
mod tests;
