//! What a consumer allows an agent to do on its behalf downstream: the
//! delegation record of an `A2A/Task` interaction (`delegation`), checked by
//! the verifier against the calls the agent makes to the stand-ins it serves
//! for the agent's dependencies.
//!
//! The record also travels to the agent: the spec language writes it into
//! the send's `message.metadata.delegation` (its JSON form below), so the
//! consumer's mock judges that the orchestrator sends it and the verifier
//! sends it to the agent under test.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The key of the A2A message `metadata` entry that carries the record.
pub const DELEGATION_METADATA_KEY: &str = "delegation";

/// The delegation constraints of one interaction. Every attribute is
/// optional; an absent one constrains nothing.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delegation {
    /// The policy's name (e.g. `DRAFT_ONLY`), carried to the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The only MCP tools the agent may call (absent: any tool not
    /// forbidden). A call outside them is `DELEGATION_FORBIDDEN_ACTION`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_tools: Option<Vec<String>>,
    /// MCP tools the agent must not call: `DELEGATION_FORBIDDEN_ACTION`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden_tools: Vec<String>,
    /// Agents (by the dependency name or Agent Card URL) the agent must not
    /// delegate to: `DELEGATION_FORBIDDEN_ACTION`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbidden_agents: Vec<String>,
    /// How much downstream work one interaction may cost:
    /// `DELEGATION_BUDGET_EXCEEDED`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<DelegationBudget>,
    /// How many agent hops the chain may go below the agent: 0 forbids any
    /// re-delegation; with N > 0 each re-delegated message must carry a
    /// record whose `maxDepth` is at most N - 1. `DELEGATION_DEPTH_EXCEEDED`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    /// How many tasks the agent may delegate to other agents in one
    /// interaction: `DELEGATION_DEPTH_EXCEEDED` past it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_fan_out: Option<u32>,
    /// No downstream call later than this after the send:
    /// `DELEGATION_DEADLINE_EXCEEDED`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
    /// `propagate`: every downstream call continues the verifier's W3C trace
    /// (`TRACE_CONTEXT_BROKEN`, or `TRACE_ID_REUSED` for a trace id made
    /// from the task's or context's id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_context: Option<TraceRule>,
    /// `notForwarded`: the consumer's credential never reaches a
    /// dependency (token exchange or an audience-restricted token instead):
    /// `CREDENTIAL_FORWARDED`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credential: Option<CredentialRule>,
    /// Attributes this version does not know, kept for the round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The downstream budget of one interaction.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DelegationBudget {
    /// The most MCP tool calls the agent may make.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<u32>,
    /// The most cost units the tool calls may add up to (each tool's cost
    /// from `costs`; a tool not named there costs nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_units: Option<u64>,
    /// Each tool's cost in units per call.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub costs: BTreeMap<String, u64>,
}

/// What the trace context of downstream calls must do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TraceRule {
    /// Continue the caller's trace (same trace id, the caller's span as an
    /// ancestor).
    Propagate,
}

/// What may happen to the consumer's credential downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CredentialRule {
    /// It is never presented to a dependency.
    NotForwarded,
}

impl Delegation {
    /// The record as it travels in `message.metadata.delegation`.
    pub fn to_metadata(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The record a re-delegated message carries, read from its metadata
    /// (`None` when it carries none or an unreadable one).
    pub fn from_metadata(metadata: &Map<String, Value>) -> Option<Delegation> {
        let mut value = metadata.get(DELEGATION_METADATA_KEY)?.clone();
        integral_numbers(&mut value);
        serde_json::from_value(value).ok()
    }

    /// The cost of one call of `tool`.
    pub fn cost_of(&self, tool: &str) -> u64 {
        self.budget
            .as_ref()
            .and_then(|b| b.costs.get(tool).copied())
            .unwrap_or(0)
    }

    /// Whether `tool` may be called: not forbidden and, when an allowed set
    /// is given, in it.
    pub fn tool_allowed(&self, tool: &str) -> bool {
        !self.forbidden_tools.iter().any(|t| t == tool)
            && self
                .allowed_tools
                .as_ref()
                .is_none_or(|allowed| allowed.iter().any(|t| t == tool))
    }
}

/// Every integral floating-point number of `v` as an integer (`5.0` → `5`).
/// A record's numbers are counts, and a client whose metadata is a
/// protobuf `Struct` (the a2a-sdk's) can only send them as doubles: `5.0`
/// is the same count as `5`.
pub fn integral_numbers(v: &mut Value) {
    match v {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15) {
                // exact: |f| < 2^53
                *v = Value::from(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_numbers),
        Value::Object(map) => map.values_mut().for_each(integral_numbers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_record_round_trips_through_its_json_form() {
        let wire = json!({
            "mode": "DRAFT_ONLY",
            "allowedTools": ["meeting.search", "policy.check"],
            "forbiddenTools": ["ticket.create"],
            "forbiddenAgents": ["billing-agent"],
            "budget": {"toolCalls": 5, "costUnits": 10, "costs": {"meeting.search": 2}},
            "maxDepth": 1,
            "maxFanOut": 2,
            "deadlineMs": 30000,
            "traceContext": "propagate",
            "credential": "notForwarded",
            "x-future": true
        });
        let d: Delegation = serde_json::from_value(wire.clone()).expect("reads");
        assert_eq!(d.max_depth, Some(1));
        assert_eq!(d.trace_context, Some(TraceRule::Propagate));
        assert_eq!(d.credential, Some(CredentialRule::NotForwarded));
        assert_eq!(d.cost_of("meeting.search"), 2);
        assert_eq!(d.cost_of("policy.check"), 0);
        assert_eq!(d.to_metadata(), wire);
    }

    #[test]
    fn a_tool_is_allowed_only_when_not_forbidden_and_in_the_allowed_set() {
        let mut d = Delegation {
            forbidden_tools: vec!["ticket.create".into()],
            ..Delegation::default()
        };
        assert!(d.tool_allowed("anything"));
        assert!(!d.tool_allowed("ticket.create"));
        d.allowed_tools = Some(vec!["meeting.search".into()]);
        assert!(d.tool_allowed("meeting.search"));
        assert!(!d.tool_allowed("policy.check"));
    }

    #[test]
    fn a_message_without_a_readable_record_has_none() {
        let mut m = Map::new();
        assert_eq!(Delegation::from_metadata(&m), None);
        m.insert("delegation".into(), json!({"maxDepth": -1}));
        assert_eq!(Delegation::from_metadata(&m), None);
        m.insert("delegation".into(), json!({"maxDepth": 0}));
        assert_eq!(
            Delegation::from_metadata(&m).and_then(|d| d.max_depth),
            Some(0)
        );
        // a protobuf Struct (the a2a-sdk's metadata) sends counts as doubles
        m.insert(
            "delegation".into(),
            json!({"maxDepth": 1.0, "budget": {"costs": {"t": 2.0}}}),
        );
        let d = Delegation::from_metadata(&m).expect("read");
        assert_eq!((d.max_depth, d.cost_of("t")), (Some(1), 2));
        m.insert("delegation".into(), json!({"maxDepth": 0.5}));
        assert_eq!(Delegation::from_metadata(&m), None);
    }
}
