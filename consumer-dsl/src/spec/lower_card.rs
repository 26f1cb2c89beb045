//! Lowering `agent_card:` and `mcp_tools:`.

use serde_json::Map;

use super::ast::{AgentCardSpec, McpToolSpec};
use crate::model::accord::{
    AgentCapabilitiesExpectation, AgentCardExpectations, ExtensionExpectation,
    InterfaceExpectation, McpToolExpectation, SkillExpectation, ToolAnnotationsExpectation,
    ToolArgument, ToolResultField,
};

/// The agent-card expectations.
pub(crate) fn agent_card(c: &AgentCardSpec) -> AgentCardExpectations {
    AgentCardExpectations {
        skills: c
            .skills
            .iter()
            .map(|s| SkillExpectation {
                id: s.id.clone(),
                input_modes: s.input_modes.clone(),
                output_modes: s.output_modes.clone(),
                tags: s.tags.clone(),
            })
            .collect(),
        default_input_modes: c.input_modes.clone(),
        default_output_modes: c.output_modes.clone(),
        capabilities: c.capabilities.map(|k| AgentCapabilitiesExpectation {
            streaming: k.streaming,
            push_notifications: k.push_notifications,
            extended_agent_card: k.extended_agent_card,
        }),
        interfaces: c
            .interfaces
            .iter()
            .map(|i| InterfaceExpectation {
                protocol_binding: i.binding.clone(),
                protocol_version: i.version.clone(),
            })
            .collect(),
        extensions: c
            .extensions
            .iter()
            .map(|e| ExtensionExpectation {
                uri: e.uri.clone(),
                required: e.required,
            })
            .collect(),
        security_schemes: c.security_schemes.clone(),
        extra: Map::new(),
    }
}

/// One MCP tool expectation.
pub(crate) fn mcp_tool(t: &McpToolSpec) -> McpToolExpectation {
    let args = |m: &indexmap::IndexMap<String, super::ast::TypeName>, always: bool| {
        m.iter()
            .map(|(name, ty)| ToolArgument {
                name: name.clone(),
                json_type: ty.json_type(),
                always_sent: always,
            })
            .collect::<Vec<_>>()
    };
    let mut arguments = args(&t.arguments, true);
    arguments.extend(args(&t.optional_arguments, false));
    McpToolExpectation {
        name: t.name.clone(),
        profile: t.profile.clone(),
        arguments,
        result_fields: t
            .reads
            .iter()
            .map(|(p, ty)| ToolResultField {
                path: if p.starts_with('$') {
                    p.clone()
                } else {
                    format!("$.{p}")
                },
                json_type: ty.json_type(),
            })
            .collect(),
        annotations: t.annotations.map(|a| ToolAnnotationsExpectation {
            read_only_hint: a.read_only,
            destructive_hint: a.destructive,
            idempotent_hint: a.idempotent,
            open_world_hint: a.open_world,
        }),
        extra: Map::new(),
    }
}
