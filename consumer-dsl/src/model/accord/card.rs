//! What a consumer relies on in a provider's declarations: the A2A Agent
//! Card (`agentCard`) and the MCP tools it calls (`mcpTools`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What the consumer relies on in the provider's Agent Card.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentCardExpectations {
    /// Skills used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<SkillExpectation>,
    /// Media types that must be among `defaultInputModes`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub default_input_modes: Vec<String>,
    /// Media types that must be among `defaultOutputModes`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub default_output_modes: Vec<String>,
    /// Capabilities relied on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<AgentCapabilitiesExpectation>,
    /// Interfaces of which at least one must be declared per entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interfaces: Vec<InterfaceExpectation>,
    /// Extensions used or tolerated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<ExtensionExpectation>,
    /// Names of security schemes the consumer can satisfy (one must be declared).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub security_schemes: Vec<String>,
    /// The card must carry a JWS signature (A2A v1.0 §8.4) by a key the
    /// consumer trusts (the verifier's `--trust-card-key`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub signed: bool,
    /// Attributes this version does not know, kept for the round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A skill the consumer uses.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillExpectation {
    /// The skill id.
    pub id: String,
    /// Media types the skill must accept (its `inputModes` or the card defaults).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_modes: Vec<String>,
    /// Media types the skill must produce.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub output_modes: Vec<String>,
    /// Tags the skill must carry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// Capabilities the consumer relies on, compared with the card's
/// `capabilities` (an absent flag is false): `Some(true)` must be declared;
/// `Some(false)` must not be (the consumer's refusal cases, e.g. a stream
/// refused with `UNSUPPORTED_OPERATION`, rely on it); `None` is not relied on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentCapabilitiesExpectation {
    /// `streaming`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streaming: Option<bool>,
    /// `pushNotifications`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_notifications: Option<bool>,
    /// `extendedAgentCard`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extended_agent_card: Option<bool>,
}

impl AgentCapabilitiesExpectation {
    /// The expectation on a capability by its card name (`streaming`,
    /// `pushNotifications`, `extendedAgentCard`).
    pub fn get(&self, name: &str) -> Option<bool> {
        match name {
            "streaming" => self.streaming,
            "pushNotifications" => self.push_notifications,
            "extendedAgentCard" => self.extended_agent_card,
            _ => None,
        }
    }
}

/// An interface the consumer can talk to.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InterfaceExpectation {
    /// `JSONRPC`, `HTTP+JSON`, `GRPC` or a custom binding URI.
    pub protocol_binding: String,
    /// `Major.Minor`, e.g. `1.0`.
    pub protocol_version: String,
}

/// An extension the consumer uses or tolerates.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionExpectation {
    /// The extension URI.
    pub uri: String,
    /// `Some(false)`: the consumer cannot satisfy it if the agent marks it required.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

/// One MCP tool the consumer depends on.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpToolExpectation {
    /// The name.
    pub name: String,
    /// The display name the consumer was written against (`title`): the
    /// consumer's mock lists the tool with it, as the real server would.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The description the consumer was written against (`description`;
    /// a model picks tools by it): the consumer's mock lists the tool with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The client/authorization profile the tool is listed under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The arguments the consumer sends.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<ToolArgument>,
    /// The fields of `structuredContent` the consumer reads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub result_fields: Vec<ToolResultField>,
    /// The annotations the consumer relies on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotationsExpectation>,
    /// The tool commits only with a granted approval; `counter` counts its
    /// commits (the default of the calls' `approval.counter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<ToolApproval>,
    /// Attributes this version does not know, kept for the round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A tool that commits only with a granted approval.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolApproval {
    /// The counter that counts the tool's commits.
    pub counter: String,
}

/// An argument the consumer sends.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolArgument {
    /// The name.
    pub name: String,
    /// Its JSON type, when relied on.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub json_type: Option<JsonType>,
    /// The consumer always sends it (false: sometimes omitted).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub always_sent: bool,
    /// The enum values the consumer sends (`enum`): the `inputSchema` must
    /// still accept each.
    #[serde(default, rename = "enum", skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
}

/// A result field the consumer reads.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolResultField {
    /// Pact path into `structuredContent` (`$.plan_id`, `$.items[*].title`).
    pub path: String,
    /// Its JSON type, when relied on.
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub json_type: Option<JsonType>,
    /// The enum values the consumer switches on (`enum`): the
    /// `outputSchema` must still promise each, and a result must carry
    /// one of them.
    #[serde(default, rename = "enum", skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
}

/// The tool annotations the consumer relies on (`None`: not relied on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotationsExpectation {
    /// `readOnlyHint`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// `destructiveHint`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// `idempotentHint`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// `openWorldHint`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotationsExpectation {
    /// MCP's value of each hint when a tool does not declare it:
    /// `readOnlyHint` false, `destructiveHint` **true**, `idempotentHint`
    /// false, `openWorldHint` **true**.
    pub const DEFAULTS: [(&'static str, bool); 4] = [
        ("readOnlyHint", false),
        ("destructiveHint", true),
        ("idempotentHint", false),
        ("openWorldHint", true),
    ];

    /// The hints relied on, by their MCP names.
    pub fn relied_on(&self) -> Vec<(&'static str, bool)> {
        let values = [
            self.read_only_hint,
            self.destructive_hint,
            self.idempotent_hint,
            self.open_world_hint,
        ];
        Self::DEFAULTS
            .iter()
            .zip(values)
            .filter_map(|((name, _), v)| v.map(|v| (*name, v)))
            .collect()
    }

    /// The ways a tool's declared `annotations` object disagrees with the
    /// hints relied on, as sentences. An undeclared hint takes its MCP
    /// default: a tool without annotations is destructive and open-world.
    /// `destructiveHint` and `idempotentHint` mean something only when the
    /// tool is not read-only (MCP): a read-only tool destroys nothing and
    /// repeats harmlessly, whatever it leaves undeclared.
    pub fn disagreements(&self, declared: Option<&Map<String, Value>>) -> Vec<String> {
        let given = |name: &str| declared.and_then(|a| a.get(name)).and_then(Value::as_bool);
        let read_only = given("readOnlyHint").unwrap_or(false);
        self.relied_on()
            .into_iter()
            .filter_map(|(name, want)| {
                let default = Self::DEFAULTS.iter().find(|(n, _)| *n == name)?.1;
                let got = match name {
                    "destructiveHint" if read_only => false,
                    "idempotentHint" if read_only => true,
                    _ => given(name).unwrap_or(default),
                };
                (got != want).then(|| format!("expected {name} {want}, the tool declares {got}"))
            })
            .collect()
    }
}

/// JSON Schema primitive types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonType {
    /// JSON Schema `string`.
    String,
    /// JSON Schema `number`.
    Number,
    /// JSON Schema `integer`.
    Integer,
    /// JSON Schema `boolean`.
    Boolean,
    /// JSON Schema `object`.
    Object,
    /// JSON Schema `array`.
    Array,
    /// JSON Schema `null`.
    Null,
}

impl JsonType {
    /// The JSON Schema name (`string`, `integer`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            JsonType::String => "string",
            JsonType::Number => "number",
            JsonType::Integer => "integer",
            JsonType::Boolean => "boolean",
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::Null => "null",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn undeclared_hints_take_the_mcp_defaults() {
        let relied = ToolAnnotationsExpectation {
            destructive_hint: Some(false),
            open_world_hint: Some(true),
            read_only_hint: Some(false),
            idempotent_hint: None,
        };
        // No annotations at all: destructiveHint defaults to true.
        let d = relied.disagreements(None);
        assert_eq!(
            d,
            ["expected destructiveHint false, the tool declares true"]
        );
        let declared = json!({"destructiveHint": false});
        assert!(relied.disagreements(declared.as_object()).is_empty());
    }

    #[test]
    fn a_read_only_tool_is_not_destructive_and_is_idempotent_whatever_it_leaves_out() {
        let relied = ToolAnnotationsExpectation {
            read_only_hint: Some(true),
            destructive_hint: Some(false),
            idempotent_hint: Some(true),
            open_world_hint: None,
        };
        let declared = json!({"readOnlyHint": true});
        assert!(relied.disagreements(declared.as_object()).is_empty());
        let writes = json!({"readOnlyHint": false});
        assert_eq!(relied.disagreements(writes.as_object()).len(), 3);
    }

    #[test]
    fn hints_serialise_under_their_mcp_names() {
        let a = ToolAnnotationsExpectation {
            read_only_hint: Some(true),
            destructive_hint: Some(false),
            idempotent_hint: Some(true),
            open_world_hint: Some(false),
        };
        let v = serde_json::to_value(a).expect("serialisable");
        let names: Vec<&str> = ToolAnnotationsExpectation::DEFAULTS
            .iter()
            .map(|(n, _)| *n)
            .collect();
        let keys: Vec<&str> = v
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, names);
        assert_eq!(a.relied_on().len(), 4);
    }
}
