//! Accord's extensions to the Pact model: A2A task interactions, MCP tool
//! calls, behavioural expectations, agent-card and MCP-tool expectations.
//!
//! Interface with the Pact reader/writer (`crate::pact`), which stays fixed:
//! - [`Expectations`] is (de)serialised with serde from/to the interaction
//!   attributes named in [`Expectations::JSON_KEYS`] (top-level keys of the
//!   interaction object: `sideEffects`, `temporal`, `auth`, `negative`,
//!   `repeat`, `retryable`);
//! - the A2A/MCP bodies ([`A2aTask`], [`McpToolCall`]) are (de)serialised
//!   with serde from/to the interaction object minus `type`, the common
//!   attributes (description, key, pending, providerStates, comments) and the
//!   expectation keys; attributes they do not know land in their `extra`;
//! - [`AgentCardExpectations`] is the top-level `agentCard`,
//!   [`McpToolExpectation`] each entry of the top-level `mcpTools`.
//!
//! Matching rules and generators embedded here (request bodies, artifact
//! parts, tool arguments and results) are in the V4 JSON form, category
//! `body`, with paths rooted at the JSON object that holds the
//! `matchingRules` attribute (see `docs/contract-format.md`).

mod a2a;
mod a2a_flow;
mod a2a_parts;
mod a2a_rest;
mod card;
mod delegation;
mod errors;
mod expectations;
mod mcp;
mod negative;
mod rules_serde;
mod task_state;

pub use a2a::{
    A2aMessage, A2aTask, A2aTaskInteraction, ArtifactExpectation, MessageStep, Part, PartContent,
    PartExpectation, ResponseKind, Role, SendConfiguration, SendRequest, StatusStep, TaskState,
    TaskStep, Transition, UnknownTaskState,
};
pub use a2a_flow::{A2aOperation, CancelScenario, FollowUp, FollowUpOutcome, PushScenario};
pub use a2a_rest::{RestRouteError, rest_operation};
pub use card::{
    AgentCapabilitiesExpectation, AgentCardExpectations, ExtensionExpectation,
    InterfaceExpectation, JsonType, McpToolExpectation, SkillExpectation,
    ToolAnnotationsExpectation, ToolApproval, ToolArgument, ToolResultField,
};
pub use delegation::{
    CredentialRule, DELEGATION_METADATA_KEY, Delegation, DelegationBudget, TraceRule,
    integral_numbers,
};
pub use errors::{A2aErrorReason, ActualError, ErrorExpectation};
pub use expectations::{
    Approval, Auth, CounterChange, Credential, Expectations, Probe, Repeat, RepeatJudgement,
    SideEffects, Temporal,
};
pub use mcp::{
    LOG_LEVELS, McpLog, McpProgress, McpResultExpectation, McpToolCall, McpToolCallInteraction,
    log_severity,
};
pub use negative::{Negative, RefusalKind};
pub use rules_serde::BodyRules;
