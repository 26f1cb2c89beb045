//! The outbox: a change writes one row per event it causes (the event name
//! and the ids of its cause, with what cannot be read again later — a
//! `events::Capture` —, or for Accord's own events the template
//! parameters of that moment), in its own transaction, whatever the number
//! of webhooks — so a publish with fifty matching webhooks costs what one
//! without does. The worker fans each row out into the queue
//! (`queue::enqueue`: one triggered webhook per matching, enabled webhook
//! and parameter set, matched and rendered at fan-out by
//! `events::expand`) in one transaction that also marks the row consumed
//! (`retention` deletes consumed rows past the retention); on PostgreSQL the rows are locked `FOR UPDATE SKIP LOCKED`, on
//! SQLite the write transaction holds the one write lock, so two replicas
//! never fan one event out twice.

use std::collections::BTreeMap;

use diesel::prelude::*;

use super::events::{Capture, expand};
use super::queue::{self, Cause};
use super::store::{self, Party, Webhook};
use crate::db::AnyConnection;
use crate::schema::webhook_events as we;
use crate::store::labels;
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::{StoreError, now};

/// Matched against a webhook's consumer and provider selectors.
pub const PAIR: &str = "pair";
/// Matched by a webhook with no selector or one selecting the pacticipant.
pub const PACTICIPANT: &str = "pacticipant";

/// One recorded event.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = we)]
pub struct Event {
    pub id: i64,
    pub event_name: String,
    pub context: String,
    pub matching: String,
    pub consumer_id: Option<i64>,
    pub provider_id: Option<i64>,
    pub pact_publication_id: Option<i64>,
    pub verification_id: Option<i64>,
    pub version_id: Option<i64>,
    pub created_at: chrono::NaiveDateTime,
    pub consumed_at: Option<chrono::NaiveDateTime>,
}

impl Event {
    fn cause(&self) -> Cause {
        Cause {
            consumer_id: self.consumer_id,
            provider_id: self.provider_id,
            pact_publication_id: self.pact_publication_id,
            verification_id: self.verification_id,
            version_id: self.version_id,
        }
    }
}

/// Records `event` with `parameters`, in the caller's transaction.
pub fn record(
    conn: &mut AnyConnection,
    event: &str,
    parameters: &BTreeMap<String, String>,
    cause: &Cause,
    matching: &str,
) -> Result<(), StoreError> {
    let context = json(parameters)?;
    insert(conn, &[event], &context, cause, matching)
}

/// Records each of `events` with `capture` (expanded at fan-out), in one
/// statement, in the caller's transaction.
pub fn record_captured(
    conn: &mut AnyConnection,
    events: &[&str],
    capture: &Capture,
    cause: &Cause,
    matching: &str,
) -> Result<(), StoreError> {
    let context = json(capture)?;
    insert(conn, events, &context, cause, matching)
}

fn json(value: &impl serde::Serialize) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|source| StoreError::CorruptJson {
        what: "webhook event context",
        source,
    })
}

fn insert(
    conn: &mut AnyConnection,
    events: &[&str],
    context: &str,
    cause: &Cause,
    matching: &str,
) -> Result<(), StoreError> {
    let at = now();
    let rows: Vec<_> = events
        .iter()
        .map(|event| {
            (
                we::event_name.eq(*event),
                we::context.eq(context),
                we::matching.eq(matching),
                we::consumer_id.eq(cause.consumer_id),
                we::provider_id.eq(cause.provider_id),
                we::pact_publication_id.eq(cause.pact_publication_id),
                we::verification_id.eq(cause.verification_id),
                we::version_id.eq(cause.version_id),
                we::created_at.eq(at),
            )
        })
        .collect();
    let query = diesel::insert_into(we::table).values(rows);
    match conn {
        AnyConnection::Postgresql(c) => query.execute(c)?,
        AnyConnection::Sqlite(c) => query.execute(c)?,
    };
    Ok(())
}

/// Fans out up to `limit` unconsumed events, oldest first; their number.
/// Call inside `db::write_transaction`.
pub fn fan_out(conn: &mut AnyConnection, limit: i64) -> Result<usize, StoreError> {
    let due = we::table
        .filter(we::consumed_at.is_null())
        .order(we::id.asc())
        .select(we::id)
        .limit(limit);
    let ids: Vec<i64> = match conn {
        AnyConnection::Postgresql(c) => due.for_update().skip_locked().load(c)?,
        AnyConnection::Sqlite(c) => due.load(c)?,
    };
    if ids.is_empty() {
        return Ok(0);
    }
    let events: Vec<Event> = we::table
        .filter(we::id.eq_any(&ids))
        .order(we::id.asc())
        .select(Event::as_select())
        .load(conn)?;
    let mut subscribed: BTreeMap<String, Vec<Webhook>> = BTreeMap::new();
    for event in &events {
        if !subscribed.contains_key(&event.event_name) {
            let hooks = store::subscribed_any(conn, &event.event_name)?;
            subscribed.insert(event.event_name.clone(), hooks);
        }
        let hooks = subscribed.get(&event.event_name).map_or(&[][..], |h| h);
        let matching = matching(conn, event, hooks)?;
        if matching.is_empty() {
            continue;
        }
        for context in expand(conn, event)? {
            queue::enqueue_context(conn, &matching, &event.event_name, &context, &event.cause())?;
        }
    }
    diesel::update(we::table.filter(we::id.eq_any(&ids)))
        .set(we::consumed_at.eq(now()))
        .execute(conn)?;
    Ok(events.len())
}

/// The ids of `hooks` (subscribed to the event) that select it, by the
/// names and labels its pacticipants have now.
fn matching(
    conn: &mut AnyConnection,
    event: &Event,
    hooks: &[Webhook],
) -> Result<Vec<i64>, StoreError> {
    let consumer = party(conn, event.consumer_id)?;
    let provider = party(conn, event.provider_id)?;
    let (c, p) = (view(&consumer), view(&provider));
    let selects = |w: &Webhook| {
        if event.matching == PACTICIPANT {
            c.is_some_and(|c| w.names(c))
        } else {
            w.matches(c, p)
        }
    };
    Ok(hooks.iter().filter(|w| selects(w)).map(|w| w.id).collect())
}

fn view(p: &Option<(Pacticipant, Vec<String>)>) -> Option<Party<'_>> {
    p.as_ref().map(|(p, labels)| Party {
        name: &p.name,
        labels,
    })
}

fn party(
    conn: &mut AnyConnection,
    id: Option<i64>,
) -> Result<Option<(Pacticipant, Vec<String>)>, StoreError> {
    let Some(id) = id else {
        return Ok(None);
    };
    let Some(p) = pacticipants::find_by_id(conn, id)? else {
        return Ok(None);
    };
    let labels = labels::names_of(conn, p.id)?;
    Ok(Some((p, labels)))
}
