//! Step definitions of the message provider feature: the stub produces
//! canned messages; Pact files hold one `Asynchronous/Messages` interaction.

use accord_dsl::Interaction;
use accord_dsl::model::{Body, InteractionMeta, Message, MessageInteraction};
use accord_fixtures::stub::Canned;
use accord_verifier::body::body_to_bytes;
use base64::Engine;
use gherkin::Step;
use regex::Captures;
use serde_json::{Map, Value};

use crate::cells::{self, Record};
use crate::parts;
use crate::steps::{apply_suffix, pact};
use crate::world::World;

/// `key | value` rows (values `JSON: …` or text) as metadata.
fn metadata_table(step: &Step) -> Result<Map<String, Value>, String> {
    let mut map = Map::new();
    for rec in cells::records(step.table.as_ref())? {
        let key = rec.get("key").map_or("", |s| s.trim()).to_string();
        let value = rec.get("value").map_or("", |s| s.trim());
        map.insert(key, cells::text_or_json(value)?);
    }
    Ok(map)
}

fn body_cell(w: &World, cell: &str) -> Result<Body, String> {
    w.fx.body(&cell.replace("\\\"", "\""), None)
}

pub fn message_provider(w: &mut World, caps: &Captures, step: &Step) -> Result<(), String> {
    let body = body_cell(w, &caps[2])?;
    let (bytes, content_type) = body_to_bytes(&body).unwrap_or_default();
    let mut headers = Vec::new();
    if let Some(ct) = content_type {
        headers.push(("Content-Type".to_string(), ct));
    }
    if caps.get(3).is_some() {
        let meta = Value::Object(metadata_table(step)?).to_string();
        let encoded = base64::engine::general_purpose::STANDARD.encode(meta);
        headers.push(("Pact-Message-Metadata".to_string(), encoded));
    }
    let canned = Canned {
        status: 200,
        headers,
        body: bytes,
    };
    w.stub.messages.insert(caps[1].to_string(), canned);
    Ok(())
}

fn message_interaction(name: &str, message: Message) -> MessageInteraction {
    MessageInteraction {
        meta: InteractionMeta {
            description: name.to_string(),
            ..InteractionMeta::default()
        },
        message,
    }
}

pub fn message_pact(w: &mut World, caps: &Captures, step: &Step) -> Result<(), String> {
    let contents = body_cell(w, &caps[2])?;
    let mut m = message_interaction(
        &caps[1],
        Message {
            contents,
            ..Message::default()
        },
    );
    let suffix = &caps[3];
    apply_suffix(&mut m.meta, suffix, step)?;
    if suffix.contains("following metadata") {
        m.message.metadata = metadata_table(step)?;
    }
    w.pacts.push(pact(Interaction::AsyncMessage(m)));
    Ok(())
}

pub fn message_pact_table(w: &mut World, caps: &Captures, step: &Step) -> Result<(), String> {
    let table = step.table.as_ref().ok_or("the step has no table")?;
    let mut rec = Record::new();
    let mut metadata = Map::new();
    for row in &table.rows {
        let (Some(key), Some(value)) = (row.first(), row.get(1)) else {
            continue;
        };
        if key.trim() == "metadata" {
            for pair in value.split("; ") {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                metadata.insert(k.trim().to_string(), cells::text_or_json(v.trim())?);
            }
        } else {
            rec.insert(key.trim().to_string(), value.clone());
        }
    }
    let mut message = parts::message(&rec, &w.fx, Message::default())?;
    message.metadata.extend(metadata);
    let m = message_interaction(&caps[1], message);
    w.pacts.push(pact(Interaction::AsyncMessage(m)));
    Ok(())
}
