//! SQLite's WAL checkpoints, off the request path.
//!
//! By default SQLite checkpoints from the connection whose commit takes the
//! WAL past 1,000 pages, before that `COMMIT` returns: the request that
//! happens to cross the line pays for copying the WAL into the database
//! and two fsyncs (a publish's commit averaged 360–450 µs, most of it
//! this). A serving broker's pool connections set `wal_autocheckpoint = 0`
//! (`Checkpoints::Background`) and this task does it instead, with a
//! connection borrowed from the pool for each tick (no extra connection;
//! SQLite's write lock is what writers wait for, not the pool):
//!
//! - every `interval` a `PASSIVE` checkpoint copies what committed since
//!   (it takes no lock a writer waits for);
//! - when the WAL is longer than `restart_pages`, a `TRUNCATE` checkpoint
//!   starts it over from an empty file: under constant writes a passive
//!   checkpoint never catches up with the last frame, so no writer ever
//!   restarts the WAL, and it would grow without bound. It holds writers
//!   back while it copies the few frames the passive one just missed,
//!   syncs and waits for the readers of older frames, so it waits for its
//!   turn on the broker's `WriteLock` first, in line with the requests'
//!   writes (both `TRUNCATE`s do; the passive copy does not);
//! - once nothing was committed for a whole interval, a `TRUNCATE`
//!   checkpoint empties the WAL file: an empty file is how the next tick
//!   knows there is nothing to do without borrowing a connection.
//!
//! Durability is unchanged for a process crash (a commit is in the WAL
//! file when acknowledged, as before) and better for a power loss: the WAL
//! is synced within about one interval of a commit, where it used to wait
//! for the 1,000th page.

use std::path::PathBuf;
use std::time::Duration;

use diesel::sql_types::{BigInt, Text};
use diesel::{QueryableByName, RunQueryDsl};

use crate::store::StoreError;

/// When the checkpointer runs and how long the WAL may grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckpointPolicy {
    /// How often it copies what was committed meanwhile; also about the
    /// longest a commit waits to be synced.
    pub interval: Duration,
    /// WAL length (in pages) from which it is started over (emptied).
    pub restart_pages: i64,
}

impl Default for CheckpointPolicy {
    /// Every 100 ms; the WAL started over past 16,384 pages (64 MiB of
    /// 4 KiB pages).
    fn default() -> Self {
        CheckpointPolicy {
            interval: Duration::from_millis(100),
            restart_pages: 16_384,
        }
    }
}

/// What `PRAGMA wal_checkpoint(…)` answers.
#[derive(Debug, Clone, Copy, QueryableByName)]
struct Outcome {
    /// 1 when the checkpoint could not take a lock it needed.
    #[diesel(sql_type = BigInt)]
    busy: i64,
    /// Frames in the WAL.
    #[diesel(sql_type = BigInt)]
    log: i64,
    /// Frames of it copied into the database.
    #[diesel(sql_type = BigInt)]
    checkpointed: i64,
}

#[derive(QueryableByName)]
struct Attached {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    file: String,
}

/// What the copying half of a tick found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// The WAL file is empty: nothing to copy (no connection borrowed).
    Idle,
    /// Copied what was committed; the WAL is short enough to go on.
    Copied,
    /// Copied what was committed; the WAL is past `restart_pages`: start
    /// it over (`truncate`).
    Restart,
    /// Nothing was committed since the last tick: empty the WAL file
    /// (`truncate`).
    Settled,
}

/// The checkpointer's state between ticks.
#[derive(Debug)]
pub struct Checkpointer {
    pool: super::Pool,
    wal: PathBuf,
    policy: CheckpointPolicy,
    /// The WAL's length at the last tick (a commit changes it; -1: none).
    last_log: i64,
}

impl Checkpointer {
    /// A checkpointer for the SQLite database `pool` opens; `None` for a
    /// database without a file (in memory), which has no WAL.
    pub fn new(
        pool: super::Pool,
        policy: CheckpointPolicy,
    ) -> Result<Option<Checkpointer>, StoreError> {
        let mut conn = pool.get().map_err(StoreError::Pool)?;
        let main = diesel::sql_query("PRAGMA database_list")
            .load::<Attached>(&mut *conn)?
            .into_iter()
            .find(|a| a.name == "main");
        drop(conn);
        let Some(file) = main.map(|a| a.file).filter(|f| !f.is_empty()) else {
            return Ok(None);
        };
        Ok(Some(Checkpointer {
            pool,
            wal: PathBuf::from(format!("{file}-wal")),
            policy,
            last_log: -1,
        }))
    }

    /// Looks at the WAL once and copies what was committed (`PASSIVE`:
    /// no writer waits for it); says whether a `truncate` should follow.
    pub fn copy(&mut self) -> Result<Tick, StoreError> {
        if self.last_log < 0 && wal_is_empty(&self.wal) {
            return Ok(Tick::Idle);
        }
        let mut conn = self.pool.get().map_err(StoreError::Pool)?;
        let passive = checkpoint(&mut conn, "PASSIVE")?;
        let settled = passive.busy == 0 && passive.log == passive.checkpointed;
        if settled && passive.log == self.last_log {
            return Ok(Tick::Settled);
        }
        self.last_log = passive.log;
        if passive.log >= self.policy.restart_pages {
            return Ok(Tick::Restart);
        }
        Ok(Tick::Copied)
    }

    /// A `TRUNCATE` checkpoint: the WAL copied to its last frame and the
    /// file emptied. It holds SQLite's write lock while it runs, so the
    /// caller takes the broker's `WriteLock` first.
    pub fn truncate(&mut self, after: Tick) -> Result<(), StoreError> {
        let mut conn = self.pool.get().map_err(StoreError::Pool)?;
        checkpoint(&mut conn, "TRUNCATE")?;
        if after == Tick::Settled {
            self.last_log = -1;
        }
        Ok(())
    }
}

/// Runs the checkpointer on the current actix runtime, one tick every
/// `interval`, until the runtime stops (as the broker's other sweeps). Its
/// `TRUNCATE` waits for its turn on `writes`, as the requests' writes do.
pub fn spawn(mut checkpointer: Checkpointer, writes: super::WriteLock) {
    let interval = checkpointer.policy.interval;
    actix_web::rt::spawn(async move {
        let mut failing = false;
        loop {
            actix_web::rt::time::sleep(interval).await;
            let Some((back, ticked)) = blocking(checkpointer, Checkpointer::copy).await else {
                return;
            };
            checkpointer = back;
            let done = match ticked {
                Ok(tick @ (Tick::Restart | Tick::Settled)) => {
                    let turn = writes.turn().await;
                    let Some((back, truncated)) = blocking(checkpointer, move |c| {
                        let done = c.truncate(tick);
                        drop(turn);
                        done
                    })
                    .await
                    else {
                        return;
                    };
                    checkpointer = back;
                    truncated
                }
                other => other.map(|_| ()),
            };
            match done {
                Err(e) if !failing => {
                    tracing::warn!(error = %e, "SQLite checkpoint failed; retrying");
                    failing = true;
                }
                Err(_) => {}
                Ok(()) => failing = false,
            }
        }
    });
}

/// Runs `step` on a blocking thread; `None` when the runtime stops.
async fn blocking<T: Send + 'static>(
    mut checkpointer: Checkpointer,
    step: impl FnOnce(&mut Checkpointer) -> Result<T, StoreError> + Send + 'static,
) -> Option<(Checkpointer, Result<T, StoreError>)> {
    let ran = tokio::task::spawn_blocking(move || {
        let done = step(&mut checkpointer);
        (checkpointer, done)
    })
    .await;
    if ran.is_err() {
        tracing::warn!("the SQLite checkpointer stopped");
    }
    ran.ok()
}

/// True when the WAL file is missing or empty (nothing committed since it
/// was last truncated).
fn wal_is_empty(wal: &std::path::Path) -> bool {
    match std::fs::metadata(wal) {
        Ok(meta) => meta.len() == 0,
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

fn checkpoint(conn: &mut super::AnyConnection, mode: &str) -> Result<Outcome, StoreError> {
    Ok(diesel::sql_query(format!("PRAGMA wal_checkpoint({mode})")).get_result(conn)?)
}
