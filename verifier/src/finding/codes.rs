//! Stable reason codes the HTTP and message drivers produce. Published
//! codes are never renamed; other drivers add their own.

/// The response (or message) differs from the expected one.
pub const RESPONSE_MISMATCH: &str = "RESPONSE_MISMATCH";
/// A counter moved that the interaction did not declare.
pub const UNEXPECTED_SIDE_EFFECT: &str = "UNEXPECTED_SIDE_EFFECT";
/// A declared counter moved by a different amount.
pub const SIDE_EFFECT_DECLARATION_MISMATCH: &str = "SIDE_EFFECT_DECLARATION_MISMATCH";
/// The provider answered later than `acknowledgeWithinMs`.
pub const ACK_DEADLINE_MISSED: &str = "ACK_DEADLINE_MISSED";
/// The whole answer arrived later than `completionWithinMs`.
pub const COMPLETION_LATE: &str = "COMPLETION_LATE";
/// The provider did not answer within the per-request timeout.
pub const RESPONSE_TIMEOUT: &str = "RESPONSE_TIMEOUT";
/// The response body exceeded the size cap; reading stopped there.
pub const RESPONSE_TOO_LARGE: &str = "RESPONSE_TOO_LARGE";
/// The request could not be sent or the connection broke.
pub const REQUEST_FAILED: &str = "REQUEST_FAILED";
/// The contract cannot be run at all (what the broker refuses to
/// store: an MCP call expecting nothing, a schema that is not one, …);
/// nothing was sent.
pub const CONTRACT_UNRUNNABLE: &str = "CONTRACT_UNRUNNABLE";
/// The answer is not a JSON-RPC response (MCP, A2A JSON-RPC).
pub const MALFORMED_RESPONSE: &str = "MALFORMED_RESPONSE";
/// The recorded (valid) call was refused.
pub const VALID_INPUT_REJECTED: &str = "VALID_INPUT_REJECTED";
/// An expected failure came back as a success.
pub const ERROR_DISGUISED_AS_SUCCESS: &str = "ERROR_DISGUISED_AS_SUCCESS";
/// A tool execution error came back as a JSON-RPC protocol error.
pub const TOOL_ERROR_AS_PROTOCOL_ERROR: &str = "TOOL_ERROR_AS_PROTOCOL_ERROR";
/// No text block carries the JSON of `structuredContent`.
pub const STRUCTURED_CONTENT_DISAGREES: &str = "STRUCTURED_CONTENT_DISAGREES";
/// A result outside its declared output schema.
pub const OUTPUT_SCHEMA_VIOLATION: &str = "OUTPUT_SCHEMA_VIOLATION";
/// An MCP 2026-07-28 result type the verifier does not follow.
pub const RESULT_TYPE_UNSUPPORTED: &str = "RESULT_TYPE_UNSUPPORTED";
/// MCP 2026-07-28: a call answered with a task (tasks extension) that
/// ended without a result: still running when following it stopped
/// (without `completionWithinMs`), cancelled by the server, or lost.
pub const TASK_NOT_COMPLETED: &str = "TASK_NOT_COMPLETED";
/// An expected error came back with another code, status or message.
pub const ERROR_CODE_MISMATCH: &str = "ERROR_CODE_MISMATCH";
/// The tool now requires an argument the consumer does not always send.
pub const BREAKING_REQUIRED_INPUT_ADDED: &str = "BREAKING_REQUIRED_INPUT_ADDED";
/// A relied-on argument or result field changed type.
pub const BREAKING_TYPE_CHANGED: &str = "BREAKING_TYPE_CHANGED";
/// An argument the consumer sends is no longer accepted, or a result
/// field it reads is no longer declared or required.
pub const BREAKING_FIELD_REMOVED: &str = "BREAKING_FIELD_REMOVED";
/// An enum value the consumer sends or switches on is gone.
pub const BREAKING_ENUM_REMOVAL: &str = "BREAKING_ENUM_REMOVAL";
/// A tool annotation the consumer relies on changed.
pub const RISK_ANNOTATION_CHANGED: &str = "RISK_ANNOTATION_CHANGED";
/// An expectation of the contract could not be checked.
pub const EXPECTATION_UNCHECKED: &str = "EXPECTATION_UNCHECKED";
/// A tool the contract calls is not listed.
pub const TOOL_MISSING: &str = "TOOL_MISSING";
/// An MCP `tools/list` went past the listing's budget (pages, bytes,
/// tools, or one tool's size); reading stopped and none of its tools
/// was checked. One per endpoint.
pub const TOOL_LIST_TOO_LARGE: &str = "TOOL_LIST_TOO_LARGE";
/// No driver replays this interaction type (yet).
pub const INTERACTION_TYPE_UNSUPPORTED: &str = "INTERACTION_TYPE_UNSUPPORTED";
/// The provider-state change call failed.
pub const PROVIDER_STATE_FAILED: &str = "PROVIDER_STATE_FAILED";
/// A negative case sent without a credential was served.
pub const UNAUTHENTICATED_ACCESS: &str = "UNAUTHENTICATED_ACCESS";
/// A negative case sent with an expired credential was served.
pub const EXPIRED_CREDENTIAL_ACCEPTED: &str = "EXPIRED_CREDENTIAL_ACCEPTED";
/// A negative case sent as a principal of another tenant was served.
pub const CROSS_TENANT_ACCESS: &str = "CROSS_TENANT_ACCESS";
/// Another principal's probe is answered differently from a probe of
/// an id that does not exist: the answer tells that it exists.
pub const EXISTENCE_LEAK: &str = "EXISTENCE_LEAK";
/// A call declared idempotent (`idempotentHint`, `repeat`) had more
/// effect, or another result, the second time.
pub const IDEMPOTENCY_VIOLATION: &str = "IDEMPOTENCY_VIOLATION";
/// A call that breaks the tool's own `inputSchema` was served or moved
/// a counter.
pub const INVALID_INPUT_ACCEPTED: &str = "INVALID_INPUT_ACCEPTED";
/// A call sent without the approval it needs committed, or was served.
pub const APPROVAL_BYPASSED: &str = "APPROVAL_BYPASSED";
/// MCP 2026-07-28: a request whose routing headers disagree with its
/// body was served.
pub const HEADER_MISMATCH_ACCEPTED: &str = "HEADER_MISMATCH_ACCEPTED";
/// An MCP call sent with a progress token did not report the progress
/// the contract relies on (`progress`) before its answer.
pub const PROGRESS_NOT_REPORTED: &str = "PROGRESS_NOT_REPORTED";
/// An MCP call that asked for every log level did not send a log
/// message the contract relies on (`logs`) before its answer.
pub const LOG_MESSAGE_NOT_SENT: &str = "LOG_MESSAGE_NOT_SENT";
/// A tool's title or description changed between versions (a warning:
/// a model may pick it differently).
pub const TOOL_DESCRIPTION_CHANGED: &str = "TOOL_DESCRIPTION_CHANGED";
/// Between two declarations: an optional output field was added
/// (compatible; conditional for a consumer that reads strictly).
pub const COMPATIBLE_OPTIONAL_OUTPUT_ADDED: &str = "COMPATIBLE_OPTIONAL_OUTPUT_ADDED";
/// Between two declarations: an output enum gained a value (conditional:
/// a consumer switching on the values may not handle it).
pub const CONDITIONAL_ENUM_ADDED: &str = "CONDITIONAL_ENUM_ADDED";
/// Between two declarations: an output field's type was widened
/// (conditional: a consumer reading the old type may meet another).
pub const CONDITIONAL_TYPE_WIDENED: &str = "CONDITIONAL_TYPE_WIDENED";
/// Between two Agent Cards: a skill was removed or renamed.
pub const BREAKING_SKILL_REMOVED: &str = "BREAKING_SKILL_REMOVED";
/// Between two Agent Cards: the card's or a skill's description changed
/// (a warning: a model may route to it differently).
pub const DESCRIPTION_CHANGED: &str = "DESCRIPTION_CHANGED";
/// Between two Agent Cards: a skill no longer carries a tag (breaking
/// for a consumer whose `agentCard` expects the skill with that tag).
pub const BREAKING_SKILL_TAG_REMOVED: &str = "BREAKING_SKILL_TAG_REMOVED";
/// Between two Agent Cards: a skill carries a new tag (a warning: a
/// router or model selecting by tag may choose differently).
pub const SKILL_TAG_ADDED: &str = "SKILL_TAG_ADDED";
/// Between two Agent Cards: a new interface (binding and version).
pub const COMPATIBLE_INTERFACE_ADDED: &str = "COMPATIBLE_INTERFACE_ADDED";
/// Between two Agent Cards: an interface moved to another URL (a
/// warning: a client reading the card follows it, one that pinned the
/// URL does not).
pub const INTERFACE_URL_CHANGED: &str = "INTERFACE_URL_CHANGED";
/// Between two Agent Cards: an extension added that is not required, a
/// required one made optional, or its description or params changed.
pub const COMPATIBLE_EXTENSION_CHANGED: &str = "COMPATIBLE_EXTENSION_CHANGED";
/// Between two versions of a consumer's contract: an interaction that
/// expected an error (JSON-RPC code, A2A reason, HTTP status) now
/// expects another; the provider versions that answered the older one
/// fail it.
pub const BREAKING_ERROR_CODE_CHANGED: &str = "BREAKING_ERROR_CODE_CHANGED";
/// A skill the consumer uses is not on the Agent Card (or lacks a tag).
pub const SKILL_MISSING: &str = "SKILL_MISSING";
/// A media type the consumer relies on is not among the card's modes.
pub const CONTENT_MODE_CONFLICT: &str = "CONTENT_MODE_CONFLICT";
/// A capability or extension the consumer relies on is not declared.
pub const CAPABILITY_MISSING: &str = "CAPABILITY_MISSING";
/// A capability the consumer relies on being absent is now declared.
pub const FEATURE_CAPABILITY_ADDED: &str = "FEATURE_CAPABILITY_ADDED";
/// No interface of a binding and version the consumer speaks.
pub const UNSUPPORTED_PROTOCOL_BINDING: &str = "UNSUPPORTED_PROTOCOL_BINDING";
/// The card requires an extension the consumer does not support.
pub const REQUIRED_EXTENSION_UNSUPPORTED: &str = "REQUIRED_EXTENSION_UNSUPPORTED";
/// No usable security scheme, or a requirement naming an undeclared one.
pub const SECURITY_SCHEME_UNDEFINED: &str = "SECURITY_SCHEME_UNDEFINED";
/// Two skills on the card share an id.
pub const DUPLICATE_SKILL_ID: &str = "DUPLICATE_SKILL_ID";
/// The card is not an A2A v1.0 Agent Card (not JSON, required fields missing).
pub const CARD_SCHEMA_INVALID: &str = "CARD_SCHEMA_INVALID";
/// A credential the verifier holds came back in an error.
pub const SENSITIVE_DATA_IN_ERROR: &str = "SENSITIVE_DATA_IN_ERROR";
/// A token the verifier presented came back in an answer.
pub const CREDENTIAL_LEAKED: &str = "CREDENTIAL_LEAKED";
/// A2A: a terminal task reported a non-terminal state again.
pub const TERMINAL_STATE_REOPENED: &str = "TERMINAL_STATE_REOPENED";
/// A2A: a move the task state machine forbids (back to SUBMITTED, one
/// terminal state to another).
pub const ILLEGAL_TRANSITION: &str = "ILLEGAL_TRANSITION";
/// A2A: a status timestamp earlier than the one before it.
pub const TIMESTAMP_REGRESSED: &str = "TIMESTAMP_REGRESSED";
/// A2A: the same event twice in one stream.
pub const DUPLICATE_EVENT: &str = "DUPLICATE_EVENT";
/// A2A: an expected status or message never came, in order.
pub const EXPECTED_EVENT_MISSING: &str = "EXPECTED_EVENT_MISSING";
/// A2A: no artifact answers an expected one.
pub const MISSING_REQUIRED_ARTIFACT: &str = "MISSING_REQUIRED_ARTIFACT";
/// A2A: the task ended in another state than `terminalState`.
pub const TERMINAL_STATE_MISMATCH: &str = "TERMINAL_STATE_MISMATCH";
/// A2A: a part of another kind or media type than promised (prose
/// where JSON was expected, a mode the card does not declare).
pub const CONTENT_MODE_MISMATCH: &str = "CONTENT_MODE_MISMATCH";
/// A2A: the stream stayed open after the terminal state.
pub const STREAM_NOT_CLOSED_AT_TERMINAL: &str = "STREAM_NOT_CLOSED_AT_TERMINAL";
/// A2A: a message to a terminal task was served.
pub const TERMINAL_TASK_ACCEPTED_MESSAGE: &str = "TERMINAL_TASK_ACCEPTED_MESSAGE";
/// A2A: a request with a missing or unsupported `A2A-Version` was served.
pub const VERSION_NOT_REJECTED: &str = "VERSION_NOT_REJECTED";
/// A2A: an operation whose capability the card does not declare was served.
pub const UNDECLARED_CAPABILITY_ACCEPTED: &str = "UNDECLARED_CAPABILITY_ACCEPTED";
/// A2A: an operation whose capability the card declares does not work.
pub const DECLARED_CAPABILITY_BROKEN: &str = "DECLARED_CAPABILITY_BROKEN";
/// A2A: the first WORKING came later than `firstProgressWithinMs`.
pub const FIRST_PROGRESS_LATE: &str = "FIRST_PROGRESS_LATE";
/// A2A: the task reached the cancel's state later than
/// `cancellationEffectWithinMs`.
pub const CANCEL_EFFECT_LATE: &str = "CANCEL_EFFECT_LATE";
/// A2A: after an acknowledged cancel the task never reached the
/// expected state (it went on, or ended otherwise).
pub const CANCEL_NOT_EFFECTIVE: &str = "CANCEL_NOT_EFFECTIVE";
/// A2A: a counter moved after the cancel was acknowledged.
pub const SIDE_EFFECT_AFTER_CANCEL: &str = "SIDE_EFFECT_AFTER_CANCEL";
/// A2A: an effect committed before the cancel was undone by it.
pub const CANCELED_HIDES_COMMITTED_EFFECT: &str = "CANCELED_HIDES_COMMITTED_EFFECT";
/// A2A: the card carries no signature a trusted key verifies, where
/// the contract requires a signed card.
pub const CARD_SIGNATURE_INVALID: &str = "CARD_SIGNATURE_INVALID";
/// A2A: an interface on plain HTTP off loopback.
pub const INTERFACE_URL_NOT_HTTPS: &str = "INTERFACE_URL_NOT_HTTPS";
/// A2A: an Agent Card interface on another origin than the ones the
/// user gave (`--provider-base-url`, `--agent-card-url`,
/// `--allow-origin`): never sent credentials; not used at all unless
/// allowed, nor when it names an internal address.
pub const INTERFACE_URL_OTHER_ORIGIN: &str = "INTERFACE_URL_OTHER_ORIGIN";
/// A2A: an expected push notification did not arrive (or without its
/// credentials).
pub const PUSH_NOT_DELIVERED: &str = "PUSH_NOT_DELIVERED";
/// A2A: a push notification arrived after its config was deleted.
pub const PUSH_AFTER_CONFIG_DELETED: &str = "PUSH_AFTER_CONFIG_DELETED";

// Delegation (issue 29): what the provider did downstream, as the stand-ins
// of its dependencies saw it (verifier/src/downstream).
/// A tool call to a forbidden tool or one outside `allowedTools`, or a send
/// to a forbidden agent (behavior).
pub const DELEGATION_FORBIDDEN_ACTION: &str = "DELEGATION_FORBIDDEN_ACTION";
/// More tool calls or cost units than the budget (behavior).
pub const DELEGATION_BUDGET_EXCEEDED: &str = "DELEGATION_BUDGET_EXCEEDED";
/// A re-delegation past `maxDepth`, or more downstream tasks than
/// `maxFanOut` (behavior).
pub const DELEGATION_DEPTH_EXCEEDED: &str = "DELEGATION_DEPTH_EXCEEDED";
/// A downstream call later than `deadlineMs` after the send (temporal).
pub const DELEGATION_DEADLINE_EXCEEDED: &str = "DELEGATION_DEADLINE_EXCEEDED";
/// A credential the verifier holds presented to a dependency (authorization).
pub const CREDENTIAL_FORWARDED: &str = "CREDENTIAL_FORWARDED";
/// A downstream call whose `traceparent` does not continue the
/// interaction's trace (trace).
pub const TRACE_CONTEXT_BROKEN: &str = "TRACE_CONTEXT_BROKEN";
/// A downstream trace id made from the task's or context's id (trace).
pub const TRACE_ID_REUSED: &str = "TRACE_ID_REUSED";
/// A downstream call the dependency's own contract does not allow
/// (behavior).
pub const DOWNSTREAM_CONTRACT_BROKEN: &str = "DOWNSTREAM_CONTRACT_BROKEN";
/// A warning, never failing: downstream calls that arrived outside any
/// interaction (during a state setup, between interactions).
pub const DOWNSTREAM_OUTSIDE_INTERACTION: &str = "DOWNSTREAM_OUTSIDE_INTERACTION";
