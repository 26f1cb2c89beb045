//! Consumer-side steps shared by the HTTP, message and synchronous-message
//! features: defining interactions, their key, pending flag, comments and
//! provider states, writing the Pact file, and checks of what it holds.

use serde_json::{Map, Value, json};

use accord_dsl::model::{
    Contract, HttpInteraction, HttpRequest, HttpResponse, Interaction, InteractionMeta,
    MessageInteraction, Pacticipant, ProviderState, SyncMessageInteraction,
};

use super::{Args, Registry};
use crate::api;
use crate::cells;
use crate::world::World;

pub fn register(r: &mut Registry) {
    r.add(
        "an integration is being defined for a consumer test",
        define_http,
    );
    r.add(
        "an HTTP interaction is being defined for a consumer test",
        define_http,
    );
    r.add(
        "a key of {string} is specified for the {kind} interaction",
        key,
    );
    r.add("the {kind} interaction is marked as pending", pending);
    r.add(
        "a comment {string} is added to the {kind} interaction",
        comment,
    );
    r.add("a provider state {string} is specified", state);
    r.add(
        "a provider state {string} is specified with the following data:",
        state_with_data,
    );
    r.add(
        "a provider state {string} for the {kind} is specified",
        state_for,
    );
    r.add(
        "a provider state {string} for the {kind} is specified with the following data:",
        state_for_with_data,
    );
    r.add("the Pact file for the test is generated", generate_pact);
    r.add(
        "the interaction in the Pact file will contain {int} provider state(s)",
        state_count,
    );
    r.add(
        "the first message in the pact file will contain {int} provider state(s)",
        state_count,
    );
    r.add(
        "the interaction in the Pact file will contain provider state {string}",
        has_state,
    );
    r.add(
        "the first message in the Pact file will contain provider state {string}",
        has_state,
    );
    r.add(
        "the provider state {string} in the Pact file will contain the following parameters:",
        state_params,
    );
    r.add(
        "the provider state {string} for the message will contain the following parameters:",
        state_params,
    );
    r.add(
        "the first interaction in the Pact file will have a type of {string}",
        first_type,
    );
    r.add(
        "the first interaction in the Pact file will have {string} = {quoted}",
        first_attribute,
    );
    r.add(
        "there will be an interaction in the Pact file with a type of {string}",
        some_type,
    );
    r.add(
        "the pact file will contain {int} interaction(s)",
        interaction_count,
    );
}

/// The interaction kind a phrase names, as its V4 type.
fn type_of_kind(kind: &str) -> &'static str {
    match kind {
        "HTTP" => "Synchronous/HTTP",
        "message" => "Asynchronous/Messages",
        _ => "Synchronous/Messages",
    }
}

fn meta(description: &str) -> InteractionMeta {
    InteractionMeta {
        description: description.into(),
        ..InteractionMeta::default()
    }
}

fn define_http(w: &mut World, _: &Args) -> Result<(), String> {
    w.interactions.push(Interaction::Http(HttpInteraction {
        meta: meta("an HTTP interaction"),
        request: HttpRequest {
            method: "GET".into(),
            path: "/".into(),
            ..HttpRequest::default()
        },
        response: HttpResponse {
            status: 200,
            ..HttpResponse::default()
        },
    }));
    Ok(())
}

/// Starts an `Asynchronous/Messages` interaction.
pub(super) fn define_message(w: &mut World) {
    w.interactions
        .push(Interaction::AsyncMessage(MessageInteraction {
            meta: meta("a message"),
            ..MessageInteraction::default()
        }));
}

/// Starts a `Synchronous/Messages` interaction.
pub(super) fn define_sync_message(w: &mut World) {
    w.interactions
        .push(Interaction::SyncMessage(SyncMessageInteraction {
            meta: meta("a synchronous message"),
            ..SyncMessageInteraction::default()
        }));
}

/// The interaction of that kind defined last.
fn last_of<'w>(w: &'w mut World, kind: &str) -> Result<&'w mut InteractionMeta, String> {
    let ty = type_of_kind(kind);
    w.interactions
        .iter_mut()
        .rev()
        .find(|i| i.type_name() == ty)
        .map(Interaction::meta_mut)
        .ok_or_else(|| format!("no {kind} interaction is being defined"))
}

fn key(w: &mut World, a: &Args) -> Result<(), String> {
    last_of(w, a.get(1))?.key = Some(a.get(0).to_string());
    Ok(())
}

fn pending(w: &mut World, a: &Args) -> Result<(), String> {
    last_of(w, a.get(0))?.pending = true;
    Ok(())
}

/// Comments are `{"text": [..]}`, one entry per comment added.
fn comment(w: &mut World, a: &Args) -> Result<(), String> {
    let m = last_of(w, a.get(1))?;
    let comments = m.comments.get_or_insert_with(|| json!({}));
    let texts = comments
        .as_object_mut()
        .ok_or("comments are not an object")?
        .entry("text")
        .or_insert_with(|| json!([]));
    texts
        .as_array_mut()
        .ok_or("comments.text is not a list")?
        .push(Value::String(a.get(0).to_string()));
    Ok(())
}

fn add_state(w: &mut World, kind: Option<&str>, state: ProviderState) -> Result<(), String> {
    let m = match kind {
        Some(kind) => last_of(w, kind)?,
        None => w
            .interactions
            .last_mut()
            .map(Interaction::meta_mut)
            .ok_or("no interaction is being defined")?,
    };
    m.provider_states.push(state);
    Ok(())
}

/// Parameters from a table whose cells are JSON values.
fn params(a: &Args) -> Result<Map<String, Value>, String> {
    let rec = cells::single_record(a.table)?;
    rec.iter()
        .map(|(k, v)| Ok((k.clone(), cells::json_cell(v)?)))
        .collect()
}

fn state(w: &mut World, a: &Args) -> Result<(), String> {
    add_state(w, None, ProviderState::named(a.get(0)))
}

fn state_with_data(w: &mut World, a: &Args) -> Result<(), String> {
    let s = ProviderState {
        params: params(a)?,
        ..ProviderState::named(a.get(0))
    };
    add_state(w, None, s)
}

fn state_for(w: &mut World, a: &Args) -> Result<(), String> {
    add_state(w, Some(a.get(1)), ProviderState::named(a.get(0)))
}

fn state_for_with_data(w: &mut World, a: &Args) -> Result<(), String> {
    let s = ProviderState {
        params: params(a)?,
        ..ProviderState::named(a.get(0))
    };
    add_state(w, Some(a.get(1)), s)
}

/// Writes the Pact file of the interactions defined (consumer `C`,
/// provider `P`) with the V4 writer, then reads it back as a Pact user would.
pub(super) fn write_pact(w: &mut World) -> Result<(), String> {
    let contract = Contract {
        consumer: Pacticipant {
            name: "C".into(),
            ..Pacticipant::default()
        },
        provider: Pacticipant {
            name: "P".into(),
            ..Pacticipant::default()
        },
        interactions: w.interactions.clone(),
        ..Contract::default()
    };
    let text = api::write_pact(&contract);
    let json: Value = serde_json::from_str(&text).map_err(|e| format!("the Pact file: {e}"))?;
    w.pact = Some(api::read_pact(&text)?);
    w.pact_json = Some(json);
    Ok(())
}

fn generate_pact(w: &mut World, _: &Args) -> Result<(), String> {
    write_pact(w)
}

fn first_interaction(w: &World) -> Result<&Interaction, String> {
    w.pact()?
        .interactions
        .first()
        .ok_or_else(|| "the Pact file has no interaction".to_string())
}

fn state_count(w: &mut World, a: &Args) -> Result<(), String> {
    let n = first_interaction(w)?.meta().provider_states.len();
    let want = usize::try_from(a.int(0)?).map_err(|e| e.to_string())?;
    if n == want {
        Ok(())
    } else {
        Err(format!("the interaction has {n} provider states"))
    }
}

fn find_state<'w>(w: &'w World, name: &str) -> Result<&'w ProviderState, String> {
    first_interaction(w)?
        .meta()
        .provider_states
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| format!("the interaction has no provider state {name:?}"))
}

fn has_state(w: &mut World, a: &Args) -> Result<(), String> {
    find_state(w, a.get(0)).map(|_| ())
}

fn state_params(w: &mut World, a: &Args) -> Result<(), String> {
    let rec = cells::single_record(a.table)?;
    let want = cells::json_cell(rec.get("parameters").ok_or("no parameters column")?)?;
    let got = Value::Object(find_state(w, a.get(0))?.params.clone());
    if got == want {
        Ok(())
    } else {
        Err(format!("parameters are {got}, expected {want}"))
    }
}

fn first_type(w: &mut World, a: &Args) -> Result<(), String> {
    let json = w.first_pact_interaction_json()?;
    let got = json.get("type").and_then(Value::as_str).unwrap_or_default();
    crate::values::expect_eq(got, a.get(0))?;
    crate::values::expect_eq(first_interaction(w)?.type_name(), a.get(0))
}

fn first_attribute(w: &mut World, a: &Args) -> Result<(), String> {
    let want: Value = serde_json::from_str(a.get(1)).map_err(|e| format!("{:?}: {e}", a.get(1)))?;
    let got = w.first_pact_interaction_json()?.get(a.get(0));
    if got == Some(&want) {
        Ok(())
    } else {
        Err(format!("{:?} is {got:?}, expected {want}", a.get(0)))
    }
}

fn some_type(w: &mut World, a: &Args) -> Result<(), String> {
    if w.pact()?
        .interactions
        .iter()
        .any(|i| i.type_name() == a.get(0))
    {
        Ok(())
    } else {
        Err(format!("no interaction of type {:?}", a.get(0)))
    }
}

fn interaction_count(w: &mut World, a: &Args) -> Result<(), String> {
    let n = w.pact()?.interactions.len();
    let want = usize::try_from(a.int(0)?).map_err(|e| e.to_string())?;
    if n == want {
        Ok(())
    } else {
        Err(format!("the Pact file has {n} interactions"))
    }
}
