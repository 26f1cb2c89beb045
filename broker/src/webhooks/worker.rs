//! The delivery worker every `accord serve` runs: fans the outbox's events
//! out into the queue (`outbox::fan_out`), claims due rows of the queue
//! under a lease, renders each request from the webhook as it is now
//! and the parameters captured with the event, sends it with
//! `outbound::deliver`, logs the attempt and settles the row — success,
//! a retry after the next step of the schedule, or failure once the
//! schedule is spent or the request was refused. Never on a request's path.

use std::sync::Arc;
use std::time::Duration;

use super::outbound::{self, Attempt};
use super::queue::{self, NewExecution, Triggered};
use super::{outbox, store, template};
use crate::config::BrokerConfig;
use crate::db::{self, Pool};
use crate::store::{StoreError, now};

/// How many rows one claim takes (and sends at once).
const BATCH: i64 = 64;

/// Starts the worker on the current actix runtime; it stops with it.
pub fn spawn(pool: Pool, config: Arc<BrokerConfig>) {
    actix_web::rt::spawn(async move {
        loop {
            let fanned = match fan_out(&pool).await {
                Ok(n) => n,
                Err(e) => {
                    tracing::warn!(error = %e, "webhook worker: cannot fan out events");
                    0
                }
            };
            let claimed = match claim(&pool, &config).await {
                Ok(rows) => rows,
                Err(e) => {
                    tracing::warn!(error = %e, "webhook worker: cannot claim deliveries");
                    Vec::new()
                }
            };
            if claimed.is_empty() && fanned == 0 {
                actix_web::rt::time::sleep(config.webhook_poll).await;
                continue;
            }
            let mut running = tokio::task::JoinSet::new();
            for row in claimed {
                let (pool, config) = (pool.clone(), config.clone());
                running.spawn(async move { deliver_one(pool, config, row).await });
            }
            while running.join_next().await.is_some() {}
        }
    });
}

async fn blocking<T: Send + 'static>(
    pool: &Pool,
    work: impl FnOnce(&mut db::AnyConnection) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let pool = pool.clone();
    tokio::task::spawn_blocking(move || {
        let mut conn = pool.get().map_err(StoreError::Pool)?;
        work(&mut conn)
    })
    .await
    .unwrap_or_else(|e| Err(StoreError::Migration(Box::new(e))))
}

/// Fans out a batch of the outbox's events into the queue (one
/// transaction: the triggered webhooks and the events marked consumed).
async fn fan_out(pool: &Pool) -> Result<usize, StoreError> {
    blocking(pool, |conn| {
        db::write_transaction(conn, |conn| outbox::fan_out(conn, BATCH))
    })
    .await
}

async fn claim(pool: &Pool, config: &BrokerConfig) -> Result<Vec<Triggered>, StoreError> {
    let lease =
        chrono::TimeDelta::from_std(config.webhook_lease).unwrap_or(chrono::TimeDelta::seconds(60));
    blocking(pool, move |conn| {
        db::write_transaction(conn, |conn| queue::claim_due(conn, BATCH, lease))
    })
    .await
}

async fn deliver_one(pool: Pool, config: Arc<BrokerConfig>, row: Triggered) {
    let id = row.id;
    if let Err(e) = attempt(&pool, &config, row).await {
        tracing::warn!(error = %e, triggered = id, "webhook worker: a delivery could not be recorded");
    }
}

async fn attempt(pool: &Pool, config: &BrokerConfig, row: Triggered) -> Result<(), StoreError> {
    let webhook_id = row.webhook_id;
    let Some(webhook) = blocking(pool, move |conn| store::find_by_id(conn, webhook_id)).await?
    else {
        return Ok(()); // deleted meanwhile: its rows went with it
    };
    let request = template::render(&webhook.template()?, &row.parameters()?);
    let started_at = now();
    let result = outbound::deliver(&config.webhook_policy, &request).await;
    let number = row.attempts + 1;
    let (status, next) = next_step(config, &result, number);
    let log = execution(number, started_at, &template::shown(&request), &result);
    blocking(pool, move |conn| {
        db::write_transaction(conn, |conn| {
            queue::log(conn, row.id, &log)?;
            queue::settle(conn, row.id, status, number, next)
        })
    })
    .await
}

/// Where a row goes after attempt `number`: success, a retry after the
/// schedule's next step, or failure (refused, or the schedule is spent).
fn next_step(
    config: &BrokerConfig,
    result: &Attempt,
    number: i64,
) -> (&'static str, chrono::NaiveDateTime) {
    if result.succeeded() {
        return (queue::SUCCESS, now());
    }
    if result.refused.is_some() {
        return (queue::FAILURE, now());
    }
    let step = usize::try_from(number - 1)
        .ok()
        .and_then(|i| config.webhook_retry_schedule.get(i));
    match step {
        Some(wait) => {
            let wait = chrono::TimeDelta::from_std(*wait).unwrap_or(chrono::TimeDelta::seconds(10));
            (queue::PENDING, now() + wait)
        }
        None => (queue::FAILURE, now()),
    }
}

fn execution(
    number: i64,
    started_at: chrono::NaiveDateTime,
    request: &serde_json::Value,
    a: &Attempt,
) -> NewExecution {
    NewExecution {
        attempt: number,
        started_at,
        duration_ms: i64::try_from(a.duration.as_millis()).unwrap_or(i64::MAX),
        status: a.status.map(i64::from),
        success: a.succeeded(),
        request: request.to_string(),
        response_excerpt: a.body_excerpt.clone(),
        error: a.error.clone(),
        refusal: a.refused.as_ref().map(|r| r.reason.clone()),
    }
}

/// The Pact Broker's retry schedule: 7 attempts in all.
pub fn default_schedule() -> Vec<Duration> {
    [10, 60, 120, 300, 600, 1200]
        .into_iter()
        .map(Duration::from_secs)
        .collect()
}
