//! The durable queue: triggered webhooks (one row per event, webhook and
//! fan-out target) and their execution log (one row per attempt).
//!
//! A change records its events in the outbox (`outbox`), in its own
//! transaction, so a change and its events commit or vanish together; the
//! worker fans each event out into rows here. A worker claims due
//! rows by setting a lease; a row whose lease ran out (its broker died
//! mid-delivery) is due again: delivery is at-least-once.

use std::collections::BTreeMap;

use diesel::prelude::*;

use crate::db::AnyConnection;
use crate::schema::{triggered_webhooks as tw, webhook_executions as ex};
use crate::store::{StoreError, now};

/// Waiting for its next attempt.
pub const PENDING: &str = "pending";
/// Claimed by a worker (until its lease runs out).
pub const DELIVERING: &str = "delivering";
/// Delivered (a 200–206 answer).
pub const SUCCESS: &str = "success";
/// Every attempt failed or the request was refused.
pub const FAILURE: &str = "failure";

/// A queued event for one webhook.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = tw)]
pub struct Triggered {
    pub id: i64,
    pub uuid: String,
    pub webhook_id: i64,
    pub event_name: String,
    pub context: String,
    pub consumer_id: Option<i64>,
    pub provider_id: Option<i64>,
    pub pact_publication_id: Option<i64>,
    pub verification_id: Option<i64>,
    pub version_id: Option<i64>,
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: chrono::NaiveDateTime,
    pub lease_until: Option<chrono::NaiveDateTime>,
    pub created_at: chrono::NaiveDateTime,
    pub updated_at: chrono::NaiveDateTime,
}

impl Triggered {
    /// The template parameters captured when the event happened.
    pub fn parameters(&self) -> Result<BTreeMap<String, String>, StoreError> {
        serde_json::from_str(&self.context).map_err(|source| StoreError::CorruptJson {
            what: "triggered webhook context",
            source,
        })
    }
}

/// What caused a triggered webhook (for the links back to it).
#[derive(Debug, Clone, Default)]
pub struct Cause {
    pub consumer_id: Option<i64>,
    pub provider_id: Option<i64>,
    pub pact_publication_id: Option<i64>,
    pub verification_id: Option<i64>,
    pub version_id: Option<i64>,
}

/// Queues one delivery for each of `webhook_ids` of `event`, due now, in
/// one statement (a publish with many webhooks pays one round trip).
pub fn enqueue(
    conn: &mut AnyConnection,
    webhook_ids: &[i64],
    event: &str,
    parameters: &BTreeMap<String, String>,
    cause: &Cause,
) -> Result<(), StoreError> {
    let context = serde_json::to_string(parameters).map_err(|source| StoreError::CorruptJson {
        what: "triggered webhook context",
        source,
    })?;
    enqueue_context(conn, webhook_ids, event, &context, cause)
}

/// [`enqueue`] with the parameters already as JSON (the outbox's fan-out).
pub fn enqueue_context(
    conn: &mut AnyConnection,
    webhook_ids: &[i64],
    event: &str,
    context: &str,
    cause: &Cause,
) -> Result<(), StoreError> {
    if webhook_ids.is_empty() {
        return Ok(());
    }
    let at = now();
    let rows: Vec<_> = webhook_ids
        .iter()
        .map(|id| {
            (
                tw::uuid.eq(uuid::Uuid::new_v4().to_string()),
                tw::webhook_id.eq(*id),
                tw::event_name.eq(event),
                tw::context.eq(context),
                tw::consumer_id.eq(cause.consumer_id),
                tw::provider_id.eq(cause.provider_id),
                tw::pact_publication_id.eq(cause.pact_publication_id),
                tw::verification_id.eq(cause.verification_id),
                tw::version_id.eq(cause.version_id),
                (
                    tw::status.eq(PENDING),
                    tw::attempts.eq(0),
                    tw::next_attempt_at.eq(at),
                ),
                (tw::created_at.eq(at), tw::updated_at.eq(at)),
            )
        })
        .collect();
    let query = diesel::insert_into(tw::table).values(rows);
    match conn {
        AnyConnection::Postgresql(c) => query.execute(c)?,
        AnyConnection::Sqlite(c) => query.execute(c)?,
    };
    Ok(())
}

/// Claims up to `limit` due rows (pending and due, or delivering with a
/// lapsed lease) until `lease`: on PostgreSQL the due rows are locked
/// `FOR UPDATE SKIP LOCKED`, so two replicas never claim the same row; on
/// SQLite the caller's write transaction holds the database's one write
/// lock. Call inside `db::write_transaction`.
pub fn claim_due(
    conn: &mut AnyConnection,
    limit: i64,
    lease: chrono::TimeDelta,
) -> Result<Vec<Triggered>, StoreError> {
    let at = now();
    let due = tw::table
        .filter(
            (tw::status.eq(PENDING).and(tw::next_attempt_at.le(at)))
                .or(tw::status.eq(DELIVERING).and(tw::lease_until.lt(at))),
        )
        .order((tw::next_attempt_at.asc(), tw::id.asc()))
        .select(tw::id)
        .limit(limit);
    let ids: Vec<i64> = match conn {
        AnyConnection::Postgresql(c) => due.for_update().skip_locked().load(c)?,
        AnyConnection::Sqlite(c) => due.load(c)?,
    };
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(diesel::update(tw::table.filter(tw::id.eq_any(&ids)))
        .set((
            tw::status.eq(DELIVERING),
            tw::lease_until.eq(at + lease),
            tw::updated_at.eq(at),
        ))
        .returning(tw::all_columns)
        .get_results(conn)?)
}

/// Records where a row stands after an attempt.
pub fn settle(
    conn: &mut AnyConnection,
    id: i64,
    status: &str,
    attempts: i64,
    next_attempt_at: chrono::NaiveDateTime,
) -> Result<(), StoreError> {
    diesel::update(tw::table.find(id))
        .set((
            tw::status.eq(status),
            tw::attempts.eq(attempts),
            tw::next_attempt_at.eq(next_attempt_at),
            tw::lease_until.eq(None::<chrono::NaiveDateTime>),
            tw::updated_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(())
}

/// Which triggered webhooks to list.
#[derive(Debug, Clone, Copy)]
pub enum Filter {
    Publication(i64),
    Verification(i64),
    Webhook(i64),
    Pacticipant(i64),
    /// A consumer and a provider, by id.
    Pair(i64, i64),
}

/// The triggered webhooks of a publication, a verification, a webhook, a
/// pacticipant or a pair, newest first (at most `limit`).
pub fn list(
    conn: &mut AnyConnection,
    filter: Filter,
    limit: i64,
) -> Result<Vec<Triggered>, StoreError> {
    let query = tw::table
        .select(Triggered::as_select())
        .order(tw::id.desc())
        .limit(limit);
    Ok(match filter {
        Filter::Publication(id) => query.filter(tw::pact_publication_id.eq(id)).load(conn)?,
        Filter::Verification(id) => query.filter(tw::verification_id.eq(id)).load(conn)?,
        Filter::Webhook(id) => query.filter(tw::webhook_id.eq(id)).load(conn)?,
        Filter::Pacticipant(id) => query
            .filter(tw::consumer_id.eq(id).or(tw::provider_id.eq(id)))
            .load(conn)?,
        Filter::Pair(c, p) => query
            .filter(tw::consumer_id.eq(c).and(tw::provider_id.eq(p)))
            .load(conn)?,
    })
}

/// The triggered webhook with this uuid.
pub fn find_by_uuid(conn: &mut AnyConnection, uuid: &str) -> Result<Option<Triggered>, StoreError> {
    Ok(tw::table
        .filter(tw::uuid.eq(uuid))
        .select(Triggered::as_select())
        .first(conn)
        .optional()?)
}

/// One logged attempt.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = ex)]
pub struct Execution {
    pub id: i64,
    pub triggered_webhook_id: i64,
    pub attempt: i64,
    pub started_at: chrono::NaiveDateTime,
    pub duration_ms: i64,
    pub status: Option<i64>,
    pub success: bool,
    pub request: String,
    pub response_excerpt: String,
    pub error: Option<String>,
    pub refusal: Option<String>,
}

/// An attempt to log.
#[derive(Debug, Clone)]
pub struct NewExecution {
    pub attempt: i64,
    pub started_at: chrono::NaiveDateTime,
    pub duration_ms: i64,
    pub status: Option<i64>,
    pub success: bool,
    pub request: String,
    pub response_excerpt: String,
    pub error: Option<String>,
    pub refusal: Option<String>,
}

/// Logs an attempt.
pub fn log(
    conn: &mut AnyConnection,
    triggered_id: i64,
    e: &NewExecution,
) -> Result<(), StoreError> {
    diesel::insert_into(ex::table)
        .values((
            ex::triggered_webhook_id.eq(triggered_id),
            ex::attempt.eq(e.attempt),
            ex::started_at.eq(e.started_at),
            ex::duration_ms.eq(e.duration_ms),
            ex::status.eq(e.status),
            ex::success.eq(e.success),
            ex::request.eq(&e.request),
            ex::response_excerpt.eq(&e.response_excerpt),
            ex::error.eq(e.error.as_deref()),
            ex::refusal.eq(e.refusal.as_deref()),
        ))
        .execute(conn)?;
    Ok(())
}

/// The attempts of a triggered webhook, first first.
pub fn executions(
    conn: &mut AnyConnection,
    triggered_id: i64,
) -> Result<Vec<Execution>, StoreError> {
    Ok(ex::table
        .filter(ex::triggered_webhook_id.eq(triggered_id))
        .order(ex::attempt.asc())
        .select(Execution::as_select())
        .load(conn)?)
}
