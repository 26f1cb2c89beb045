//! Steps of the V4 synchronous message consumer feature: a request message
//! and its response messages.

use accord_dsl::model::{Interaction, Message, SyncMessageInteraction};

use super::message::{metadata_is, metadata_replaced, metadata_table};
use super::{Args, Registry, consumer};
use crate::cells;
use crate::parts;
use crate::values;
use crate::world::World;

pub fn register(r: &mut Registry) {
    r.add(
        "a synchronous message interaction is being defined for a consumer test",
        define,
    );
    r.add(
        "the message request payload contains the {string} JSON document",
        request_payload,
    );
    r.add(
        "the message response payload contains the {string} document",
        response_payload,
    );
    r.add(
        "the message request contains the following metadata:",
        request_metadata,
    );
    r.add(
        "the message request is configured with the following:",
        configure_request,
    );
    r.add(
        "the message response is configured with the following:",
        configure_response,
    );
    r.add(
        "the received message payload will contain the {string} document",
        received_payload,
    );
    r.add(
        "the received message {word} metadata will contain {string} == {string}",
        received_metadata,
    );
    r.add(
        "the received message {word} metadata will contain {string} replaced with a(n) {string}",
        received_metadata_kind,
    );
    r.add(
        "the first interaction in the pact file will contain the {string} document as the request",
        pact_request,
    );
    r.add(
        "the first interaction in the pact file request content type will be {string}",
        pact_request_type,
    );
    r.add(
        "the first interaction in the pact file will contain the {string} document as a response",
        pact_response,
    );
    r.add(
        "the first interaction in the pact file response content type will be {string}",
        pact_response_type,
    );
    r.add(
        "the first interaction in the pact file will contain {int} response messages",
        response_count,
    );
    r.add("the first interaction in the pact file will contain the {string} document as the {word} response message", pact_nth_response);
    r.add("the first message in the pact file will contain the request message metadata {string} == {string}", pact_request_metadata);
    r.add(
        "the message {word} contents for {string} will have been replaced with a(n) {string}",
        contents_kind,
    );
}

fn define(w: &mut World, _: &Args) -> Result<(), String> {
    consumer::define_sync_message(w);
    Ok(())
}

fn sync_mut(w: &mut World) -> Result<&mut SyncMessageInteraction, String> {
    w.interactions
        .iter_mut()
        .rev()
        .find_map(|i| match i {
            Interaction::SyncMessage(m) => Some(m),
            _ => None,
        })
        .ok_or_else(|| "no synchronous message interaction is being defined".to_string())
}

fn request_payload(w: &mut World, a: &Args) -> Result<(), String> {
    let body = w.fixtures.body(&format!("file: {}.json", a.get(0)), None)?;
    sync_mut(w)?.request.contents = body;
    Ok(())
}

fn response_payload(w: &mut World, a: &Args) -> Result<(), String> {
    let contents = w.fixtures.body(a.get(0), None)?;
    sync_mut(w)?.response.push(Message {
        contents,
        ..Message::default()
    });
    Ok(())
}

fn request_metadata(w: &mut World, a: &Args) -> Result<(), String> {
    let meta = metadata_table(a)?;
    sync_mut(w)?.request.metadata.extend(meta);
    Ok(())
}

fn configure_request(w: &mut World, a: &Args) -> Result<(), String> {
    let rec = cells::single_record(a.table)?;
    let fixtures = w.fixtures.clone();
    let m = sync_mut(w)?;
    m.request = parts::message(&rec, &fixtures, std::mem::take(&mut m.request))?;
    Ok(())
}

fn configure_response(w: &mut World, a: &Args) -> Result<(), String> {
    let rec = cells::single_record(a.table)?;
    let msg = parts::message(&rec, &w.fixtures, Message::default())?;
    sync_mut(w)?.response.push(msg);
    Ok(())
}

fn received_sync(w: &World) -> Result<&SyncMessageInteraction, String> {
    w.received
        .iter()
        .find_map(|i| match i {
            Interaction::SyncMessage(m) => Some(m),
            _ => None,
        })
        .ok_or_else(|| "the consumer received no synchronous message".to_string())
}

fn pact_sync(w: &World) -> Result<&SyncMessageInteraction, String> {
    match w.pact()?.interactions.first() {
        Some(Interaction::SyncMessage(m)) => Ok(m),
        Some(other) => Err(format!("the first interaction is a {}", other.type_name())),
        None => Err("the Pact file has no interaction".into()),
    }
}

/// `request` or `response` (the first response message) of an interaction.
fn side<'m>(m: &'m SyncMessageInteraction, which: &str) -> Result<&'m Message, String> {
    match which {
        "request" => Ok(&m.request),
        "response" => m
            .response
            .first()
            .ok_or("there is no response message".into()),
        other => Err(format!("unknown message side {other:?}")),
    }
}

fn received_payload(w: &mut World, a: &Args) -> Result<(), String> {
    let want = w.fixtures.body(a.get(0), None)?;
    let got = side(received_sync(w)?, "response")?;
    values::expect_same(&got.contents, &want, "the received response payload")
}

fn received_metadata(w: &mut World, a: &Args) -> Result<(), String> {
    let got = side(received_sync(w)?, a.get(0))?;
    metadata_is(&got.metadata, a.get(1), a.get(2))
}

fn received_metadata_kind(w: &mut World, a: &Args) -> Result<(), String> {
    let before = &side(pact_sync(w)?, a.get(0))?.metadata;
    let after = &side(received_sync(w)?, a.get(0))?.metadata;
    metadata_replaced(before, after, a.get(1), a.get(2))
}

fn pact_request(w: &mut World, a: &Args) -> Result<(), String> {
    let want = w.fixtures.body(a.get(0), None)?;
    values::expect_same(
        &pact_sync(w)?.request.contents,
        &want,
        "the request message",
    )
}

fn pact_request_type(w: &mut World, a: &Args) -> Result<(), String> {
    values::expect_content_type(&pact_sync(w)?.request.contents, a.get(0))
}

fn pact_response(w: &mut World, a: &Args) -> Result<(), String> {
    let want = w.fixtures.body(a.get(0), None)?;
    let got = side(pact_sync(w)?, "response")?;
    values::expect_same(&got.contents, &want, "the response message")
}

fn pact_response_type(w: &mut World, a: &Args) -> Result<(), String> {
    values::expect_content_type(&side(pact_sync(w)?, "response")?.contents, a.get(0))
}

fn response_count(w: &mut World, a: &Args) -> Result<(), String> {
    let n = pact_sync(w)?.response.len();
    let want = usize::try_from(a.int(0)?).map_err(|e| e.to_string())?;
    if n == want {
        Ok(())
    } else {
        Err(format!("the interaction has {n} response messages"))
    }
}

fn pact_nth_response(w: &mut World, a: &Args) -> Result<(), String> {
    let want = w.fixtures.body(a.get(0), None)?;
    let i = cells::ordinal(a.get(1))?;
    let got = pact_sync(w)?
        .response
        .get(i)
        .ok_or(format!("there is no {} response message", a.get(1)))?;
    values::expect_same(&got.contents, &want, "the response message")
}

fn pact_request_metadata(w: &mut World, a: &Args) -> Result<(), String> {
    metadata_is(&pact_sync(w)?.request.metadata, a.get(0), a.get(1))
}

fn contents_kind(w: &mut World, a: &Args) -> Result<(), String> {
    let before = values::json_at(&side(pact_sync(w)?, a.get(0))?.contents, a.get(1))?;
    let after = values::json_at(&side(received_sync(w)?, a.get(0))?.contents, a.get(1))?;
    values::replaced_with_kind(&before, &after, a.get(2))
}
