//! The rule of the MCP verification: every attribute the contract language
//! accepts for `MCP/ToolCall` and `mcpTools` changes the verdict somewhere.
//! Each documented attribute has a pair of contracts that differ only in
//! it, run against the reference server (with a fault where the attribute
//! guards against one): the two verdicts must differ. An attribute added to
//! the list without a pair fails the walk.

use accord_fixtures::mcp::{McpFault, McpProvider};
use accord_verifier::{ContractSource, SourcedContract, Token, VerifyConfig, verify_blocking};
use serde_json::Value;

use crate::mcp_attribute_pairs::pairs;
use crate::walk::{Verdict, verdict_of, walk};

/// Every attribute of `MCP/ToolCall` (and the interaction attributes an MCP
/// call takes) and of `mcpTools`, as `docs/contract-format.md` lists them.
const DOCUMENTED: &[&str] = &[
    "tool",
    "arguments",
    "generators",
    "providerStates",
    "result.isError",
    "result.structuredContent",
    "result.content",
    "result.contentMatchesStructured",
    "result.matchingRules",
    "result.schema",
    "result.retryable",
    "error.code",
    "error.httpStatus",
    "error.retryable",
    "sideEffects",
    "auth.principal",
    "auth.credential",
    "auth.probes",
    "negative",
    "negative.kind",
    "repeat",
    "repeat.sameFields",
    "approval",
    "pending",
    "mcpTools.name",
    "mcpTools.profile",
    "mcpTools.arguments.type",
    "mcpTools.arguments.alwaysSent",
    "mcpTools.arguments.enum",
    "mcpTools.resultFields.path",
    "mcpTools.resultFields.type",
    "mcpTools.resultFields.enum",
    "mcpTools.annotations.readOnlyHint",
    "mcpTools.annotations.destructiveHint",
    "mcpTools.annotations.idempotentHint",
    "mcpTools.annotations.openWorldHint",
    "mcpTools.approval",
];

/// Attributes whose effect is elsewhere, with where.
const ELSEWHERE: &[(&str, &str)] = &[
    (
        "temporal",
        "judged by the engine for every driver from the send's timings (verifier/tests/it/http.rs); a loopback call is too fast to miss a limit reliably here",
    ),
    (
        "matchingRules (of arguments)",
        "how the consumer mock matches the consumer's request; the verifier sends the example",
    ),
    (
        "repeat.key",
        "keeps the key and generates the rest of the arguments anew, the engine's doing for every driver: verifier/tests/it/side_effects.rs (HTTP) and the A2A walk (a2a_attribute_pairs_repeat.rs)",
    ),
    (
        "error.message",
        "a regex on the JSON-RPC error message, judged by ErrorExpectation::disagreements (consumer-dsl unit tests); the reference server's errors here carry no message to vary",
    ),
];

/// What a run says: whether it passed, and every finding's and warning's
/// code with where it is.
fn verdict(d: &Value, fault: Option<McpFault>) -> Verdict {
    let server = McpProvider::start().expect("server");
    server.set_fault(fault);
    let contract = accord_dsl::pact::from_value(d, "walk").expect("a contract");
    let mut config = VerifyConfig::new(
        "planning-tools",
        server.base_url(),
        ContractSource::Loaded(vec![SourcedContract::new(contract, "walk")]),
    );
    config.state_change_url = Some(server.state_change_url());
    config.observe_url = Some(server.observe_url());
    for who in ["alice", "bob"] {
        let token = Token::new(format!("mcp-token-of-{who}"));
        config.principals.insert(who.into(), token);
    }
    let report = verify_blocking(&config).expect("no operational failure");
    verdict_of(&report)
}

#[test]
fn every_documented_mcp_attribute_changes_the_verdict() {
    walk(DOCUMENTED, ELSEWHERE, &pairs(), verdict);
}
