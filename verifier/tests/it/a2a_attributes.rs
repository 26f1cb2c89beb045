//! The rule of the A2A verification: every attribute the contract language
//! accepts for `A2A/Task` changes the verdict somewhere. Each documented
//! attribute has a pair of interactions that differ only in it, run against
//! a fresh reference agent (with a fault where the attribute guards against
//! one): the two verdicts must differ. An attribute listed without a pair
//! fails the walk.

use std::time::Duration;

use accord_fixtures::a2a::{A2aAgent, A2aFault};
use accord_verifier::{ContractSource, SourcedContract, VerifyConfig, verify_blocking};
use serde_json::{Value, json};

use crate::a2a_attribute_pairs::pairs;
use crate::walk::{Verdict, verdict_of, walk};

/// Every attribute of `A2A/Task` (and the interaction attributes a task
/// takes), as `docs/contract-format.md` lists them.
const DOCUMENTED: &[&str] = &[
    "skill",
    "request",
    "request.generators",
    "request.configuration.acceptedOutputModes",
    "streaming",
    "a2aVersion",
    "response",
    "steps.status.state",
    "steps.status.messageParts",
    "steps.status.optional",
    "steps.artifact.name",
    "steps.artifact.parts",
    "steps.message",
    "part.text",
    "part.data",
    "part.url",
    "part.raw",
    "part.mediaType",
    "part.filename",
    "part.schema",
    "part.matchingRules",
    "terminalState",
    "error.code",
    "error.reason",
    "error.httpStatus",
    "error.message",
    "error.retryable",
    "cancel.at",
    "cancel.expectState",
    "cancel.error",
    "cancel.observeMs",
    "push.expectStates",
    "push.error",
    "followUps.operation",
    "followUps.after",
    "followUps.auth",
    "followUps.request",
    "followUps.params",
    "followUps.expect.state",
    "followUps.expect.steps",
    "followUps.expect.containsTask",
    "followUps.expect.newTask",
    "followUps.error",
    "followUps.sideEffects",
    "followUps.temporal",
    "temporal.acknowledgeWithinMs",
    "temporal.firstProgressWithinMs",
    "temporal.completionWithinMs",
    "temporal.cancellationEffectWithinMs",
    "temporal.noNewSideEffectAfterCancelAck",
    "auth.principal",
    "auth.credential",
    "auth.probes",
    "auth.probes.operations",
    "auth.probes.after",
    "negative",
    "negative.kind",
    "repeat",
    "repeat.key",
    "repeat.sameFields",
    "sideEffects",
    "approval",
    "providerStates",
    "pending",
];

/// Attributes whose effect is shown elsewhere, with where.
const ELSEWHERE: &[(&str, &str)] = &[
    (
        "push.token, push.scheme",
        "what the notifications must carry (X-A2A-Notification-Token, Authorization: <scheme> <secret>); a correct agent echoes what was registered, so only a fault that echoes something else tells them apart: a2a::push unit tests",
    ),
    (
        "request.matchingRules, part.generators",
        "how the consumer mock matches the consumer's request and fills its answers; the verifier sends the example with the request's generators applied",
    ),
    (
        "agentCard",
        "judged against the agent's card: verifier/tests/it/a2a_card.rs, the a2a::card unit tests, and `signed` in a2a_task.rs (a_card_that_must_be_signed_…)",
    ),
];

/// Whether a run passed, and every finding's and warning's code and path.
fn verdict(interaction: &Value, fault: Option<A2aFault>) -> Verdict {
    let agent = A2aAgent::start().expect("the agent starts");
    agent.set_fault(fault);
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [interaction],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let contract = accord_dsl::pact::from_value(&doc, "walk").expect("a contract");
    let mut config = VerifyConfig::new(
        "planning-agent",
        agent.base_url(),
        ContractSource::Loaded(vec![SourcedContract::new(contract, "walk")]),
    );
    config.state_change_url = Some(agent.state_change_url());
    config.observe_url = Some(agent.observe_url());
    config.limits.request_timeout = Duration::from_secs(5);
    let report = verify_blocking(&config).expect("no operational failure");
    verdict_of(&report)
}

#[test]
fn every_documented_a2a_attribute_changes_the_verdict() {
    walk(DOCUMENTED, ELSEWHERE, &pairs(), verdict);
}
