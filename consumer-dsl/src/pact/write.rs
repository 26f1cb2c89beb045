//! Writing a contract as a Pact V4 file with Accord's extensions.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::read::JSON_SCHEMA_VERSION;
use super::write_parts::{
    append_extra, message_into_v4, message_to_v4, request_to_v4, response_to_v4,
};
use crate::model::{AccordMetadata, Contract, Interaction, InteractionMeta, Pacticipant};

/// The contract as a Pact V4 JSON document (`metadata.pactSpecification.version = "4.0"`).
pub fn to_v4_json(contract: &Contract) -> Value {
    let mut out = Map::new();
    out.insert("consumer".into(), pacticipant(&contract.consumer));
    out.insert("provider".into(), pacticipant(&contract.provider));
    let interactions = contract
        .interactions
        .iter()
        .map(interaction_to_v4)
        .collect();
    out.insert("interactions".into(), Value::Array(interactions));
    if let Some(card) = &contract.agent_card {
        out.insert("agentCard".into(), to_json(card));
    }
    if !contract.mcp_tools.is_empty() {
        out.insert("mcpTools".into(), to_json(&contract.mcp_tools));
    }
    out.insert("metadata".into(), metadata(contract));
    append_extra(&mut out, &contract.extra);
    Value::Object(out)
}

/// The contract as pretty-printed Pact V4 JSON text.
pub fn write_contract(contract: &Contract) -> String {
    let value = to_v4_json(contract);
    serde_json::to_string_pretty(&value).expect("a serde_json::Value always serialises")
}

/// The contract's digest: sha256 over the RFC 8785 canonical form of its
/// V4 JSON ([`crate::canonical::digest`]). Two contracts that write the
/// same V4 document have the same digest, whatever file they were read from.
pub fn contract_digest(contract: &Contract) -> String {
    crate::canonical::digest(&to_v4_json(contract))
}

/// Serialises a model type whose `Serialize` is derived over string-keyed
/// maps and plain values, which cannot fail.
fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("model types serialise to JSON")
}

fn pacticipant(p: &Pacticipant) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(p.name));
    append_extra(&mut out, &p.extra);
    Value::Object(out)
}

fn metadata(contract: &Contract) -> Value {
    let mut out = Map::new();
    out.insert("pactSpecification".into(), json!({"version": "4.0"}));
    if let Some(accord) = &contract.accord {
        out.insert("accord".into(), accord_metadata(accord));
    }
    append_extra(&mut out, &contract.metadata);
    Value::Object(out)
}

/// `metadata.accord`: `{"formatVersion", "a2a", "mcp", "jsonSchema"}`
/// (pins that are not set are left out; `jsonSchema` is always written).
pub fn accord_metadata(a: &AccordMetadata) -> Value {
    let mut out = Map::new();
    out.insert("formatVersion".into(), json!(a.format_version));
    if let Some(v) = &a.a2a {
        out.insert("a2a".into(), json!(v));
    }
    if let Some(v) = &a.mcp {
        out.insert("mcp".into(), json!(v));
    }
    let schema = if a.json_schema.is_empty() {
        JSON_SCHEMA_VERSION
    } else {
        &a.json_schema
    };
    out.insert("jsonSchema".into(), json!(schema));
    append_extra(&mut out, &a.extra);
    Value::Object(out)
}

/// One interaction in its V4 form.
pub fn interaction_to_v4(interaction: &Interaction) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), json!(interaction.type_name()));
    meta_into(interaction.meta(), &mut out);
    match interaction {
        Interaction::Http(i) => {
            out.insert("request".into(), request_to_v4(&i.request));
            out.insert("response".into(), response_to_v4(&i.response));
        }
        Interaction::AsyncMessage(i) => message_into_v4(&i.message, &mut out),
        Interaction::SyncMessage(i) => {
            out.insert("request".into(), message_to_v4(&i.request));
            let responses = i.response.iter().map(message_to_v4).collect();
            out.insert("response".into(), Value::Array(responses));
        }
        Interaction::A2aTask(i) => merge(&mut out, to_json(&i.task)),
        Interaction::McpToolCall(i) => merge(&mut out, to_json(&i.call)),
    }
    append_extra(&mut out, &interaction.meta().extra);
    Value::Object(out)
}

fn meta_into(meta: &InteractionMeta, out: &mut Map<String, Value>) {
    out.insert("description".into(), json!(meta.description));
    if let Some(key) = &meta.key {
        out.insert("key".into(), json!(key));
    }
    out.insert("pending".into(), json!(meta.pending));
    if !meta.provider_states.is_empty() {
        out.insert("providerStates".into(), to_json(&meta.provider_states));
    }
    if let Some(comments) = &meta.comments {
        out.insert("comments".into(), comments.clone());
    }
    merge(out, to_json(&meta.expectations));
}

/// Adds the attributes of a serialised object that are not already written.
fn merge(out: &mut Map<String, Value>, value: Value) {
    if let Value::Object(map) = value {
        append_extra(out, &map);
    }
}
