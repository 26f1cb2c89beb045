//! The Agent Card the mock serves, assembled from the contract: the
//! `agentCard` expectations (skills, modes, capabilities, interfaces,
//! extensions, security schemes) and what the `A2A/Task` interactions use
//! (their skills, streaming, push, follow-up operations). Interfaces carry
//! the mock's own URLs: JSON-RPC at `/a2a`, HTTP+JSON under `/a2a/rest`.
//!
//! A capability the contract relies on being absent (`false`) is left
//! undeclared, and the mock refuses its operations as A2A v1.0 §3.3.4
//! says. The card is not signed: the mock has no key the consumer trusts.

use accord_dsl::Contract;
use accord_dsl::model::accord::{A2aOperation, A2aTaskInteraction, PartContent, TaskStep};
use serde_json::{Value, json};

/// The JSON-RPC endpoint.
pub(crate) const JSONRPC_PATH: &str = "/a2a";
/// The HTTP+JSON interface's base path.
pub(crate) const REST_PATH: &str = "/a2a/rest";

/// The capabilities the card declares (and the mock honours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Caps {
    pub streaming: bool,
    pub push: bool,
    pub extended: bool,
}

/// The card, less the interface URLs (known once the port is).
#[derive(Debug, Clone)]
pub(crate) struct Card {
    template: Value,
    /// `(protocolBinding, path)` in the card's order (the first is preferred).
    bindings: Vec<(&'static str, &'static str)>,
    pub caps: Caps,
}

impl Card {
    pub(crate) fn of(contract: &Contract, tasks: &[(usize, A2aTaskInteraction)]) -> Card {
        let expect = contract.agent_card.clone().unwrap_or_default();
        let relied = expect.capabilities.unwrap_or_default();
        let uses = |op: A2aOperation| {
            tasks
                .iter()
                .any(|(_, t)| t.task.follow_ups.iter().any(|f| f.operation == op))
        };
        let caps = Caps {
            streaming: relied.streaming.unwrap_or_else(|| {
                tasks.iter().any(|(_, t)| t.task.streaming)
                    || uses(A2aOperation::SubscribeToTask)
                    || uses(A2aOperation::SendStreamingMessage)
            }),
            push: relied.push_notifications.unwrap_or_else(|| {
                tasks.iter().any(|(_, t)| t.task.push.is_some())
                    || uses(A2aOperation::CreateTaskPushNotificationConfig)
            }),
            extended: relied
                .extended_agent_card
                .unwrap_or_else(|| uses(A2aOperation::GetExtendedAgentCard)),
        };
        let mut skills: Vec<Value> = expect
            .skills
            .iter()
            .map(|s| {
                let mut skill = skill(&s.id, &s.tags);
                if !s.input_modes.is_empty() {
                    skill["inputModes"] = json!(s.input_modes);
                }
                if !s.output_modes.is_empty() {
                    skill["outputModes"] = json!(s.output_modes);
                }
                skill
            })
            .collect();
        for id in tasks.iter().filter_map(|(_, t)| t.task.skill.as_deref()) {
            if !skills.iter().any(|s| s["id"] == id) {
                skills.push(skill(id, &[]));
            }
        }
        if skills.is_empty() {
            skills.push(skill("default", &[]));
        }
        let input = modes(
            &expect.default_input_modes,
            || sent_modes(tasks),
            "text/plain",
        );
        let output = modes(
            &expect.default_output_modes,
            || answered_modes(tasks),
            "text/plain",
        );
        let mut template = json!({
            "name": contract.provider.name,
            "description": format!("The mock of {} that accord mock built from the contract of {}.",
                contract.provider.name, contract.consumer.name),
            "version": "0.0.0-mock",
            "capabilities": {"streaming": caps.streaming, "pushNotifications": caps.push,
                "extendedAgentCard": caps.extended},
            "defaultInputModes": input,
            "defaultOutputModes": output,
            "skills": skills,
        });
        if !expect.extensions.is_empty() {
            template["capabilities"]["extensions"] = expect
                .extensions
                .iter()
                .map(|e| json!({"uri": e.uri, "required": e.required.unwrap_or(false)}))
                .collect();
        }
        let mut schemes = expect.security_schemes.clone();
        let principals = tasks
            .iter()
            .any(|(_, t)| t.meta.expectations.auth.is_some());
        if schemes.is_empty() && principals {
            schemes.push("bearer".into());
        }
        if !schemes.is_empty() {
            template["securitySchemes"] = schemes
                .iter()
                .map(|name| {
                    (
                        name.clone(),
                        json!({"httpAuthSecurityScheme": {"scheme": "Bearer"}}),
                    )
                })
                .collect::<serde_json::Map<_, _>>()
                .into();
            template["securityRequirements"] = schemes
                .iter()
                .map(|name| json!({"schemes": {name: {"list": []}}}))
                .collect();
        }
        let mut bindings: Vec<(&'static str, &'static str)> = expect
            .interfaces
            .iter()
            .filter(|i| i.protocol_version.starts_with("1."))
            .filter_map(|i| match i.protocol_binding.as_str() {
                "JSONRPC" => Some(("JSONRPC", JSONRPC_PATH)),
                "HTTP+JSON" => Some(("HTTP+JSON", REST_PATH)),
                _ => None,
            })
            .collect();
        bindings.dedup();
        if bindings.is_empty() {
            bindings = vec![("JSONRPC", JSONRPC_PATH), ("HTTP+JSON", REST_PATH)];
        }
        Card {
            template,
            bindings,
            caps,
        }
    }

    /// The card with interfaces at `base`.
    pub(crate) fn render(&self, base: &str) -> Value {
        let mut card = self.template.clone();
        card["supportedInterfaces"] = self
            .bindings
            .iter()
            .map(|(binding, path)| {
                json!({"url": format!("{base}{path}"), "protocolBinding": binding,
                    "protocolVersion": "1.0"})
            })
            .collect();
        card
    }

    /// Whether the card offers `binding`.
    pub(crate) fn offers(&self, binding: &str) -> bool {
        self.bindings.iter().any(|(b, _)| *b == binding)
    }
}

fn skill(id: &str, tags: &[String]) -> Value {
    let tags = if tags.is_empty() {
        vec![id.to_owned()]
    } else {
        tags.to_vec()
    };
    json!({"id": id, "name": id, "description": format!("The skill {id} of the contract."),
        "tags": tags})
}

/// The declared modes, else those the interactions use, else `fallback`.
fn modes(declared: &[String], used: impl FnOnce() -> Vec<String>, fallback: &str) -> Vec<String> {
    if !declared.is_empty() {
        return declared.to_vec();
    }
    let used = used();
    if used.is_empty() {
        vec![fallback.to_owned()]
    } else {
        used
    }
}

/// The media types of the parts the consumer sends.
fn sent_modes(tasks: &[(usize, A2aTaskInteraction)]) -> Vec<String> {
    let mut out = Vec::new();
    for (_, t) in tasks {
        for p in &t.task.request.message.parts {
            push_unique(&mut out, p.media_type.as_deref(), &p.content);
        }
    }
    out
}

/// The media types of the parts the agent answers with.
fn answered_modes(tasks: &[(usize, A2aTaskInteraction)]) -> Vec<String> {
    let mut out = Vec::new();
    for (_, t) in tasks {
        for step in &t.task.steps {
            let parts = match step {
                TaskStep::Artifact(a) => &a.parts,
                TaskStep::Message(m) => &m.parts,
                TaskStep::Status(s) => &s.message_parts,
            };
            for p in parts {
                push_unique(&mut out, p.media_type.as_deref(), &p.content);
            }
        }
    }
    out
}

fn push_unique(out: &mut Vec<String>, media_type: Option<&str>, content: &PartContent) {
    let mode = media_type.map(str::to_owned).unwrap_or_else(|| {
        match content {
            PartContent::Text(_) => "text/plain",
            PartContent::Data(_) => "application/json",
            PartContent::Url(_) | PartContent::Raw(_) => "application/octet-stream",
        }
        .to_owned()
    });
    if !out.contains(&mode) {
        out.push(mode);
    }
}
