//! Pruning: a sweep in every `accord serve` deletes the outbox's consumed
//! events and the triggered webhooks settled (delivered or failed for
//! good) longer ago than the retention (`accord serve
//! --webhook-retention-days`, 30 by default), with their logs. A row
//! still waiting for an attempt, or being delivered, is never deleted.
//! Batched, one transaction a batch; on PostgreSQL the rows are locked
//! `FOR UPDATE SKIP LOCKED`, so two replicas sweeping at once each delete
//! other rows (and a row another transaction holds is left for the next
//! round).

use std::sync::Arc;

use diesel::prelude::*;

use super::queue::{FAILURE, SUCCESS};
use crate::config::BrokerConfig;
use crate::db::{self, AnyConnection, Pool};
use crate::schema::{triggered_webhooks as tw, webhook_events as we, webhook_executions as ex};
use crate::store::{StoreError, now};

/// Rows one transaction deletes, of each table.
pub const BATCH: i64 = 500;

/// Starts the sweep on the current actix runtime; it stops with it.
pub fn spawn(pool: Pool, config: Arc<BrokerConfig>) {
    actix_web::rt::spawn(async move {
        loop {
            actix_web::rt::time::sleep(config.webhook_sweep).await;
            let pool = pool.clone();
            let retention = config.webhook_retention;
            let swept = tokio::task::spawn_blocking(move || {
                let mut conn = pool.get().map_err(StoreError::Pool)?;
                let keep =
                    chrono::TimeDelta::from_std(retention).unwrap_or(chrono::TimeDelta::days(30));
                run(&mut conn, now() - keep)
            })
            .await;
            match swept {
                Ok(Err(e)) => tracing::warn!(error = %e, "webhook retention sweep failed"),
                Err(e) => tracing::warn!(error = %e, "webhook retention sweep stopped"),
                Ok(Ok(_)) => {}
            }
        }
    });
}

/// What one sweep deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    pub events: usize,
    pub triggered: usize,
}

/// Deletes, batch by batch, every consumed event and settled triggered
/// webhook (with its logs) from before `cutoff`.
pub fn run(conn: &mut AnyConnection, cutoff: chrono::NaiveDateTime) -> Result<Swept, StoreError> {
    let mut swept = Swept::default();
    loop {
        let batch = db::write_transaction(conn, |conn| one_batch(conn, cutoff))?;
        swept.events += batch.events;
        swept.triggered += batch.triggered;
        if batch.events < BATCH as usize && batch.triggered < BATCH as usize {
            return Ok(swept);
        }
    }
}

fn one_batch(conn: &mut AnyConnection, cutoff: chrono::NaiveDateTime) -> Result<Swept, StoreError> {
    let events = we::table
        .filter(we::consumed_at.lt(cutoff))
        .select(we::id)
        .limit(BATCH);
    // a settled row's next_attempt_at is when it settled (`queue::settle`)
    let triggered = tw::table
        .filter(tw::status.eq_any([SUCCESS, FAILURE]))
        .filter(tw::next_attempt_at.lt(cutoff))
        .select(tw::id)
        .limit(BATCH);
    let (events, triggered): (Vec<i64>, Vec<i64>) = match conn {
        AnyConnection::Postgresql(c) => (
            events.for_update().skip_locked().load(c)?,
            triggered.for_update().skip_locked().load(c)?,
        ),
        AnyConnection::Sqlite(c) => (events.load(c)?, triggered.load(c)?),
    };
    diesel::delete(we::table.filter(we::id.eq_any(&events))).execute(conn)?;
    diesel::delete(ex::table.filter(ex::triggered_webhook_id.eq_any(&triggered))).execute(conn)?;
    // re-checked in the delete: a row claimed again meanwhile stays
    diesel::delete(
        tw::table
            .filter(tw::id.eq_any(&triggered))
            .filter(tw::status.eq_any([SUCCESS, FAILURE])),
    )
    .execute(conn)?;
    Ok(Swept {
        events: events.len(),
        triggered: triggered.len(),
    })
}
