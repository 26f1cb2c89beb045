//! `MCP/ToolCall` interactions (tool, arguments, expected result or
//! protocol error, progress, log messages) and the contract's declarations the consumer
//! relies on: the tools it calls (`mcpTools`: arguments, result fields,
//! annotations, approval) and the Agent Card (`agentCard`).

use accord_dsl::model::accord::{
    AgentCardExpectations, McpToolCallInteraction, McpToolExpectation,
};
use serde_json::Value;

use super::a2a::object_fields;
use super::fields::{BodyView, Field, RuleRow, rule_rows};
use super::http::generated;
use super::redact;

/// The MCP part of an interaction.
#[derive(Debug, Clone)]
pub struct McpView {
    pub tool: String,
    pub arguments: BodyView,
    pub rules: Vec<RuleRow>,
    /// `true`: the call must end in a protocol error, not a result.
    pub expects_error: bool,
    pub result: Vec<Field>,
    pub error: Vec<Field>,
    pub progress: Vec<Field>,
    /// The log messages (`notifications/message`) the call must send.
    pub logs: Vec<Field>,
    pub extra: Vec<Field>,
    /// What the contract's `mcpTools` says of this tool.
    pub declared: Option<ToolView>,
}

impl McpView {
    /// The call `i`, with its tool's entry in `tools`.
    pub fn of(i: &McpToolCallInteraction, tools: &[McpToolExpectation]) -> McpView {
        let c = &i.call;
        let mut rules = rule_rows(&c.rules.matching_rules);
        rules.extend(generated(&c.rules.generators.to_v4_json()));
        if let Some(r) = &c.result {
            rules.extend(rule_rows(&r.rules.matching_rules));
            rules.extend(generated(&r.rules.generators.to_v4_json()));
        }
        let mut result = object_fields(&c.result);
        result.retain(|f| f.name != "matchingRules" && f.name != "generators");
        McpView {
            tool: redact::redact_text(&c.tool),
            arguments: BodyView::json(&Value::Object(c.arguments.clone())),
            rules,
            expects_error: c.error.is_some(),
            result,
            error: object_fields(&c.error),
            progress: c
                .progress
                .iter()
                .enumerate()
                .map(|(n, p)| {
                    let v = serde_json::to_value(p).unwrap_or(Value::Null);
                    Field::json(format!("notification {}", n + 1), &v)
                })
                .collect(),
            logs: c
                .logs
                .iter()
                .enumerate()
                .map(|(n, l)| {
                    let v = serde_json::to_value(l).unwrap_or(Value::Null);
                    Field::json(format!("message {}", n + 1), &v)
                })
                .collect(),
            extra: c
                .extra
                .iter()
                .filter(|(k, _)| k.as_str() != "_id")
                .map(|(k, v)| Field::json(k, v))
                .collect(),
            declared: tools.iter().find(|t| t.name == c.tool).map(ToolView::from),
        }
    }
}

/// A tool the consumer relies on (`mcpTools[]`).
#[derive(Debug, Clone)]
pub struct ToolView {
    pub name: String,
    pub fields: Vec<Field>,
    pub arguments: Vec<Field>,
    pub result_fields: Vec<Field>,
    /// `readOnlyHint: true`, … (the hints relied on).
    pub annotations: Vec<Field>,
}

impl From<&McpToolExpectation> for ToolView {
    fn from(t: &McpToolExpectation) -> Self {
        let mut fields = Vec::new();
        let texts = [
            ("title", &t.title),
            ("description", &t.description),
            ("profile", &t.profile),
        ];
        for (name, value) in texts {
            if let Some(v) = value {
                fields.push(Field::text(name, v.clone()));
            }
        }
        if let Some(a) = &t.approval {
            fields.push(Field::text("approval counter", a.counter.clone()));
        }
        fields.extend(t.extra.iter().map(|(k, v)| Field::json(k, v)));
        let typed = |json_type: Option<&str>, values: &[Value], more: &str, name: &str| {
            let mut s = json_type.unwrap_or("any type").to_owned();
            if !values.is_empty() {
                let listed = redact::compact_named(name, &Value::Array(values.to_vec()));
                s.push_str(&format!(", one of {listed}"));
            }
            s.push_str(more);
            s
        };
        ToolView {
            name: redact::redact_text(&t.name),
            fields,
            arguments: t
                .arguments
                .iter()
                .map(|a| {
                    let more = if a.always_sent {
                        ", always sent"
                    } else {
                        ", sometimes sent"
                    };
                    let shown = typed(a.json_type.map(|j| j.as_str()), &a.values, more, &a.name);
                    Field::text(a.name.clone(), shown)
                })
                .collect(),
            result_fields: t
                .result_fields
                .iter()
                .map(|r| {
                    Field::text(
                        r.path.clone(),
                        typed(
                            r.json_type.map(|j| j.as_str()),
                            &r.values,
                            "",
                            redact::last_step(&r.path),
                        ),
                    )
                })
                .collect(),
            annotations: t
                .annotations
                .map(|a| a.relied_on())
                .unwrap_or_default()
                .into_iter()
                .map(|(name, v)| Field::text(name, v.to_string()))
                .collect(),
        }
    }
}

/// The Agent Card expectations, one field per attribute.
pub fn card_fields(card: &AgentCardExpectations) -> Vec<Field> {
    match serde_json::to_value(card) {
        Ok(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| match v {
                Value::Array(items) if items.iter().all(Value::is_string) => {
                    let list: Vec<String> =
                        items.iter().map(|i| redact::compact_named(k, i)).collect();
                    Field::text(k, list.join(", "))
                }
                other => Field::json(k, other),
            })
            .collect(),
        _ => Vec::new(),
    }
}
