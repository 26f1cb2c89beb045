//! Lowering `agent_card:` and `mcp_tools:`.

use serde_json::Map;

use super::ast::{AgentCardSpec, InterfaceSpec, McpToolSpec};
use super::lower::Ctx;
use crate::DslError;
use crate::model::accord::{
    AgentCapabilitiesExpectation, AgentCardExpectations, ExtensionExpectation,
    InterfaceExpectation, McpToolExpectation, SkillExpectation, ToolAnnotationsExpectation,
    ToolApproval, ToolArgument, ToolResultField,
};

/// The core protocol bindings of A2A v1.0 (`AgentInterface.protocolBinding`);
/// any other binding is a URI.
pub const CORE_BINDINGS: [&str; 3] = ["JSONRPC", "GRPC", "HTTP+JSON"];

/// The agent-card expectations.
pub(crate) fn agent_card(
    cx: &Ctx<'_>,
    c: &AgentCardSpec,
) -> Result<AgentCardExpectations, DslError> {
    let interfaces = c
        .interfaces
        .iter()
        .enumerate()
        .map(|(i, f)| interface(cx, &format!("agent_card.interfaces[{i}]"), f))
        .collect::<Result<_, _>>()?;
    Ok(AgentCardExpectations {
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
        interfaces,
        extensions: c
            .extensions
            .iter()
            .map(|e| ExtensionExpectation {
                uri: e.uri.clone(),
                required: e.required,
            })
            .collect(),
        security_schemes: c.security_schemes.clone(),
        signed: c.signed,
        extra: Map::new(),
    })
}

/// An interface: a core binding in its canonical spelling or a custom
/// binding URI, and a `Major.Minor` protocol version (A2A v1.0 §4.4.6).
fn interface(
    cx: &Ctx<'_>,
    path: &str,
    i: &InterfaceSpec,
) -> Result<InterfaceExpectation, DslError> {
    let core = CORE_BINDINGS
        .into_iter()
        .find(|b| b.eq_ignore_ascii_case(&i.binding));
    let binding = match core {
        Some(b) => b.to_string(),
        None if i.binding.contains(':') => i.binding.clone(),
        None => {
            return Err(cx.err(
                &format!("{path}.binding"),
                format!(
                    "`{}` is not an A2A protocol binding: write JSONRPC, GRPC, HTTP+JSON or a custom binding's URI",
                    i.binding
                ),
            ));
        }
    };
    let major_minor = i.version.split_once('.').is_some_and(|(major, minor)| {
        [major, minor]
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    if !major_minor {
        return Err(cx.err(
            &format!("{path}.version"),
            format!(
                "protocolVersion is `Major.Minor` (e.g. \"1.0\"), not `{}`",
                i.version
            ),
        ));
    }
    Ok(InterfaceExpectation {
        protocol_binding: binding,
        protocol_version: i.version.clone(),
    })
}

/// One MCP tool expectation.
pub(crate) fn mcp_tool(t: &McpToolSpec) -> McpToolExpectation {
    let args = |m: &indexmap::IndexMap<String, super::ast::FieldSpec>, always: bool| {
        m.iter()
            .map(|(name, f)| ToolArgument {
                name: name.clone(),
                json_type: f.ty.json_type(),
                always_sent: always,
                values: f.values.clone(),
            })
            .collect::<Vec<_>>()
    };
    let mut arguments = args(&t.arguments, true);
    arguments.extend(args(&t.optional_arguments, false));
    McpToolExpectation {
        name: t.name.clone(),
        title: t.title.clone(),
        description: t.description.clone(),
        profile: t.profile.clone(),
        arguments,
        result_fields: t
            .reads
            .iter()
            .map(|(p, f)| ToolResultField {
                path: if p.starts_with('$') {
                    p.clone()
                } else {
                    format!("$.{p}")
                },
                json_type: f.ty.json_type(),
                values: f.values.clone(),
            })
            .collect(),
        annotations: t.annotations.map(|a| ToolAnnotationsExpectation {
            read_only_hint: a.read_only,
            destructive_hint: a.destructive,
            idempotent_hint: a.idempotent,
            open_world_hint: a.open_world,
        }),
        approval: t.approval.as_ref().map(|a| ToolApproval {
            counter: a.counter.clone(),
        }),
        extra: Map::new(),
    }
}
