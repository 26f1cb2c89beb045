//! Steps of the message consumer features (V3, V4 `Asynchronous/Messages`):
//! a message defined, handed to the consumer's code (generators applied),
//! and the Pact file written when the code succeeds.

use serde_json::{Map, Value};

use accord_dsl::model::{Interaction, Message};

use super::{Args, Registry, consumer};
use crate::api::{self, GenContext, GenMode};
use crate::cells;
use crate::parts;
use crate::values;
use crate::world::World;

pub fn register(r: &mut Registry) {
    r.add(
        "a message integration is being defined for a consumer test",
        define,
    );
    r.add(
        "a message interaction is being defined for a consumer test",
        define,
    );
    r.add("a message is defined", defined);
    r.add(
        "the message payload contains the {string} JSON document",
        payload,
    );
    r.add("the message contains the following metadata:", metadata);
    r.add("the message is configured with the following:", configure);
    r.add("the message is successfully processed", processed);
    r.add(
        "the message is NOT successfully processed with a {string} exception",
        not_processed,
    );
    r.add("the consumer test will have passed", passed);
    r.add("the consumer test will have failed", failed);
    r.add("the consumer test error will be {string}", error_is);
    r.add(
        "a Pact file for the message interaction will have been written",
        written,
    );
    r.add(
        "a Pact file for the message interaction will NOT have been written",
        not_written,
    );
    r.add(
        "the pact file will contain {int} message interaction(s)",
        message_count,
    );
    r.add(
        "the received message payload will contain the {string} JSON document",
        received_payload,
    );
    r.add(
        "the received message content type will be {string}",
        received_content_type,
    );
    r.add(
        "the received message metadata will contain {string} == {string}",
        received_metadata,
    );
    r.add(
        "the received message metadata will contain {string} replaced with a(n) {string}",
        received_metadata_kind,
    );
    r.add(
        "the first message in the pact file will contain the {string} document",
        pact_payload,
    );
    r.add(
        "the first message in the pact file content type will be {string}",
        pact_content_type,
    );
    r.add(
        "the first message in the pact file will contain the message metadata {string} == {string}",
        pact_metadata,
    );
    r.add(
        "the message contents for {string} will have been replaced with a(n) {string}",
        contents_kind,
    );
}

fn define(w: &mut World, _: &Args) -> Result<(), String> {
    consumer::define_message(w);
    Ok(())
}

/// The message being defined.
fn message_mut(w: &mut World) -> Result<&mut Message, String> {
    w.interactions
        .iter_mut()
        .rev()
        .find_map(|i| match i {
            Interaction::AsyncMessage(m) => Some(&mut m.message),
            _ => None,
        })
        .ok_or_else(|| "no message interaction is being defined".to_string())
}

fn defined(w: &mut World, _: &Args) -> Result<(), String> {
    message_mut(w).map(|_| ())
}

fn payload(w: &mut World, a: &Args) -> Result<(), String> {
    let body = w.fixtures.body(&format!("file: {}.json", a.get(0)), None)?;
    message_mut(w)?.contents = body;
    Ok(())
}

/// Metadata from a `| key | value |` table (values are text or `JSON: …`).
pub(super) fn metadata_table(a: &Args) -> Result<Map<String, Value>, String> {
    cells::records(a.table)?
        .iter()
        .map(|rec| {
            let key = rec.get("key").ok_or("no key column")?;
            let value = rec.get("value").ok_or("no value column")?;
            Ok((key.clone(), cells::text_or_json(value)?))
        })
        .collect()
}

fn metadata(w: &mut World, a: &Args) -> Result<(), String> {
    let meta = metadata_table(a)?;
    message_mut(w)?.metadata.extend(meta);
    Ok(())
}

fn configure(w: &mut World, a: &Args) -> Result<(), String> {
    let rec = cells::single_record(a.table)?;
    let fixtures = w.fixtures.clone();
    let msg = message_mut(w)?;
    *msg = parts::message(&rec, &fixtures, std::mem::take(msg))?;
    Ok(())
}

/// Hands every interaction to the consumer's code as it would receive it
/// (generators applied, consumer side), then writes the Pact file.
fn processed(w: &mut World, _: &Args) -> Result<(), String> {
    let cx = GenContext::default();
    let mut received = Vec::new();
    for i in &w.interactions {
        received.push(match i {
            Interaction::AsyncMessage(m) => {
                let mut m = m.clone();
                m.message = api::generate_message(&m.message, GenMode::Consumer, &cx)?;
                Interaction::AsyncMessage(m)
            }
            Interaction::SyncMessage(m) => {
                let mut m = m.clone();
                m.request = api::generate_message(&m.request, GenMode::Consumer, &cx)?;
                for r in &mut m.response {
                    *r = api::generate_message(r, GenMode::Consumer, &cx)?;
                }
                Interaction::SyncMessage(m)
            }
            other => other.clone(),
        });
    }
    w.received = received;
    consumer::write_pact(w)
}

/// The consumer's code fails: the test fails and no Pact file is written.
fn not_processed(w: &mut World, a: &Args) -> Result<(), String> {
    w.test_error = Some(a.get(0).to_string());
    Ok(())
}

fn passed(w: &mut World, _: &Args) -> Result<(), String> {
    match &w.test_error {
        None => Ok(()),
        Some(e) => Err(format!("the consumer test failed: {e}")),
    }
}

fn failed(w: &mut World, _: &Args) -> Result<(), String> {
    match &w.test_error {
        Some(_) => Ok(()),
        None => Err("the consumer test passed".into()),
    }
}

fn error_is(w: &mut World, a: &Args) -> Result<(), String> {
    values::expect_eq(w.test_error.as_deref().unwrap_or_default(), a.get(0))
}

fn written(w: &mut World, _: &Args) -> Result<(), String> {
    let pact = w.pact()?;
    let version = w
        .pact_json
        .as_ref()
        .and_then(|j| j.pointer("/metadata/pactSpecification/version"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    if pact.interactions.is_empty() {
        return Err("the Pact file has no interaction".into());
    }
    values::expect_eq(version, "4.0")
}

fn not_written(w: &mut World, _: &Args) -> Result<(), String> {
    match w.pact {
        None => Ok(()),
        Some(_) => Err("a Pact file was written".into()),
    }
}

fn message_count(w: &mut World, a: &Args) -> Result<(), String> {
    let pact = w.pact()?;
    let n = pact
        .interactions
        .iter()
        .filter(|i| matches!(i, Interaction::AsyncMessage(_)))
        .count();
    let want = usize::try_from(a.int(0)?).map_err(|e| e.to_string())?;
    if n == want {
        Ok(())
    } else {
        Err(format!("the Pact file has {n} message interactions"))
    }
}

fn received_message(w: &World) -> Result<&Message, String> {
    w.received
        .iter()
        .find_map(|i| match i {
            Interaction::AsyncMessage(m) => Some(&m.message),
            Interaction::SyncMessage(m) => m.response.first(),
            _ => None,
        })
        .ok_or_else(|| "the consumer received no message".to_string())
}

fn pact_message(w: &World) -> Result<&Message, String> {
    match w.pact()?.interactions.first() {
        Some(Interaction::AsyncMessage(m)) => Ok(&m.message),
        Some(other) => Err(format!("the first interaction is a {}", other.type_name())),
        None => Err("the Pact file has no interaction".into()),
    }
}

fn received_payload(w: &mut World, a: &Args) -> Result<(), String> {
    let want = w.fixtures.body(&format!("file: {}.json", a.get(0)), None)?;
    values::expect_same(
        &received_message(w)?.contents,
        &want,
        "the received payload",
    )
}

fn received_content_type(w: &mut World, a: &Args) -> Result<(), String> {
    values::expect_content_type(&received_message(w)?.contents, a.get(0))
}

/// Metadata value `key` is `value` (text, or `JSON: …`).
pub(super) fn metadata_is(meta: &Map<String, Value>, key: &str, value: &str) -> Result<(), String> {
    let want = cells::text_or_json(value)?;
    match meta.get(key) {
        Some(got) if *got == want => Ok(()),
        got => Err(format!("metadata {key:?} is {got:?}, expected {want}")),
    }
}

/// Metadata value `key` was replaced by a generated value of `kind`.
pub(super) fn metadata_replaced(
    before: &Map<String, Value>,
    after: &Map<String, Value>,
    key: &str,
    kind: &str,
) -> Result<(), String> {
    let get = |m: &Map<String, Value>| m.get(key).cloned().ok_or(format!("no metadata {key:?}"));
    values::replaced_with_kind(&get(before)?, &get(after)?, kind)
}

fn received_metadata(w: &mut World, a: &Args) -> Result<(), String> {
    metadata_is(&received_message(w)?.metadata, a.get(0), a.get(1))
}

fn received_metadata_kind(w: &mut World, a: &Args) -> Result<(), String> {
    let before = &pact_message(w)?.metadata;
    metadata_replaced(before, &received_message(w)?.metadata, a.get(0), a.get(1))
}

fn pact_payload(w: &mut World, a: &Args) -> Result<(), String> {
    let want = w.fixtures.body(&format!("file: {}", a.get(0)), None)?;
    values::expect_same(
        &pact_message(w)?.contents,
        &want,
        "the message in the Pact file",
    )
}

fn pact_content_type(w: &mut World, a: &Args) -> Result<(), String> {
    values::expect_content_type(&pact_message(w)?.contents, a.get(0))
}

fn pact_metadata(w: &mut World, a: &Args) -> Result<(), String> {
    metadata_is(&pact_message(w)?.metadata, a.get(0), a.get(1))
}

fn contents_kind(w: &mut World, a: &Args) -> Result<(), String> {
    let before = values::json_at(&pact_message(w)?.contents, a.get(0))?;
    let after = values::json_at(&received_message(w)?.contents, a.get(0))?;
    values::replaced_with_kind(&before, &after, a.get(1))
}
