//! One connection type over SQLite and PostgreSQL, pooled, chosen by URL.
//!
//! `AnyConnection` is diesel's `MultiConnection` (PostgreSQL listed first so
//! that diesel never mistakes a postgres URL for a SQLite file name).
//! `AnyManager` replaces diesel's r2d2 manager because the derived
//! `establish` swallows the real connection error; ours dispatches on the
//! scheme and keeps it. SQLite connections get WAL, a busy timeout and
//! foreign keys on connect; a serving broker's checkpoint the WAL in the
//! background (`checkpoint`).

pub mod checkpoint;
mod migrate;
mod token_probe;
mod write_lock;

use std::time::Duration;

use diesel::connection::{AnsiTransactionManager, SimpleConnection, TransactionManager};
use diesel::r2d2::{self, ManageConnection, R2D2Connection};
use diesel::{Connection, ConnectionError, PgConnection, SqliteConnection};

pub use checkpoint::CheckpointPolicy;
pub use migrate::{Backend, run_migrations};
pub use token_probe::TokenProbe;
pub use write_lock::{WriteLock, WriteTurn};

use crate::store::StoreError;

/// A connection to whichever database the URL named.
#[derive(diesel::MultiConnection)]
pub enum AnyConnection {
    Postgresql(PgConnection),
    Sqlite(SqliteConnection),
}

impl std::fmt::Debug for AnyConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AnyConnection::Postgresql(_) => "AnyConnection::Postgresql",
            AnyConnection::Sqlite(_) => "AnyConnection::Sqlite",
        })
    }
}

/// Runs a query on the backend's own connection: for SQL diesel's
/// `MultiConnection` does not build (`UNION`), written once for both.
#[macro_export]
macro_rules! on_backend {
    ($conn:expr, |$c:ident| $query:expr) => {
        match $conn {
            $crate::db::AnyConnection::Postgresql($c) => $query,
            $crate::db::AnyConnection::Sqlite($c) => $query,
        }
    };
}

/// The pool every handler and command draws from.
pub type Pool = r2d2::Pool<AnyManager>;
/// A connection borrowed from the pool.
pub type PooledConn = r2d2::PooledConnection<AnyManager>;

/// How long a SQLite writer waits for the lock before giving up.
const SQLITE_BUSY_TIMEOUT_MS: u32 = 10_000;

/// Who checkpoints a SQLite connection's WAL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Checkpoints {
    /// SQLite itself, from the commit that takes the WAL past 1,000 pages
    /// (its default: for commands that write a little and exit).
    #[default]
    OnCommit,
    /// Not the connection (`wal_autocheckpoint = 0`): a serving broker's
    /// `checkpoint::Checkpointer` does it off the request path.
    Background,
}

/// r2d2 manager that opens PostgreSQL for `postgres://`/`postgresql://`
/// URLs and SQLite for anything else (`sqlite://x` and `sqlite:x` mean the
/// file `x`).
#[derive(Debug, Clone)]
pub struct AnyManager {
    url: String,
    checkpoints: Checkpoints,
}

impl AnyManager {
    /// A manager for `url` (SQLite checkpointing on commit).
    pub fn new(url: impl Into<String>) -> Self {
        AnyManager {
            url: url.into(),
            checkpoints: Checkpoints::OnCommit,
        }
    }

    /// Which backend the URL selects.
    pub fn backend(&self) -> Backend {
        Backend::of_url(&self.url)
    }
}

/// The SQLite file name a URL names.
pub fn sqlite_path(url: &str) -> &str {
    url.strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url)
}

impl ManageConnection for AnyManager {
    type Connection = AnyConnection;
    type Error = ConnectionError;

    fn connect(&self) -> Result<AnyConnection, ConnectionError> {
        match self.backend() {
            Backend::Postgres => connect_postgres(&self.url).map(AnyConnection::Postgresql),
            Backend::Sqlite => {
                connect_sqlite(sqlite_path(&self.url), self.checkpoints).map(AnyConnection::Sqlite)
            }
        }
    }

    fn is_valid(&self, conn: &mut AnyConnection) -> Result<(), ConnectionError> {
        conn.ping()
            .map_err(ConnectionError::CouldntSetupConfiguration)
    }

    fn has_broken(&self, conn: &mut AnyConnection) -> bool {
        conn.is_broken()
    }
}

/// Opens a PostgreSQL connection with JIT compilation off and generic plans
/// for its prepared statements, for its session only (the server's other
/// clients keep their settings).
///
/// The broker's statements are short index probes whose parameters are
/// ids, names and numbers, so one plan fits every value:
/// - JIT: PostgreSQL decides to compile from the planner's estimated cost,
///   and an estimate wrong by orders of magnitude (it cannot see how few
///   rows a CTE holds) turned a 3 ms can-i-deploy into 1.5 s of compiling.
/// - Plans: by default a prepared statement is planned anew for its first
///   five executions and then keeps re-planning whenever the generic
///   plan's estimate looks dearer than those five; for can-i-deploy's one
///   statement (dozens of relations) planning costs ~2.5 ms of a 1 ms
///   answer, and which way it went depended on the first five requests of
///   each connection (p50 0.96-2.17 ms from run to run at 1M
///   verifications; 0.93-1.05 ms with generic plans).
fn connect_postgres(url: &str) -> Result<PgConnection, ConnectionError> {
    let mut conn = PgConnection::establish(url)?;
    conn.batch_execute("SET jit = off; SET plan_cache_mode = force_generic_plan")
        .map_err(ConnectionError::CouldntSetupConfiguration)?;
    Ok(conn)
}

/// Opens a SQLite file with WAL, a busy timeout and foreign keys, its
/// checkpoints made as `checkpoints` says.
///
/// Temporary tables live in memory: SQLite's default (a temporary file
/// per materialized sub-query, `DISTINCT`, `UNION` or automatic index,
/// each with its own pager) made the one statement of can-i-deploy 4-8x
/// slower than the same plan in memory; the broker's temporary tables are
/// small (a request's rows), so the memory is bounded by what it answers.
///
/// Switching a file to WAL needs an exclusive lock, and SQLite answers
/// `SQLITE_BUSY` at once, without consulting the busy timeout, when another
/// connection holds or is taking it — which is what happens when two
/// replicas start together on a new file (one exited with "database is
/// locked" in 9 of 10 tries). Such a setup is retried, with backoff, for
/// as long as the busy timeout.
fn connect_sqlite(
    path: &str,
    checkpoints: Checkpoints,
) -> Result<SqliteConnection, ConnectionError> {
    let started = std::time::Instant::now();
    let mut pause = Duration::from_millis(10);
    let autocheckpoint = match checkpoints {
        Checkpoints::OnCommit => 1000,
        Checkpoints::Background => 0,
    };
    loop {
        let attempt = SqliteConnection::establish(path).and_then(|mut conn| {
            conn.batch_execute(&format!(
                "PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; \
                 PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY; \
                 PRAGMA wal_autocheckpoint = {autocheckpoint};"
            ))
            .map_err(ConnectionError::CouldntSetupConfiguration)?;
            Ok(conn)
        });
        match attempt {
            Err(e)
                if is_busy(&e)
                    && started.elapsed() < Duration::from_millis(SQLITE_BUSY_TIMEOUT_MS.into()) =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            other => return other,
        }
    }
}

/// True for SQLite's "database is locked" / "database table is locked".
fn is_busy(e: &ConnectionError) -> bool {
    let text = match e {
        ConnectionError::CouldntSetupConfiguration(inner) => inner.to_string(),
        other => other.to_string(),
    };
    text.contains("is locked") || text.contains("database is busy")
}

/// Opens a pool of up to `size` connections to `url` (one at once, more on
/// demand), failing with the database's own message when the first
/// connection cannot be made. SQLite connections checkpoint on commit.
pub fn connect(url: &str, size: u32) -> Result<Pool, StoreError> {
    connect_with(url, size, Checkpoints::OnCommit)
}

/// `connect`, with SQLite's checkpoints made as `checkpoints` says
/// (`Background`: start a `checkpoint::Checkpointer` too).
pub fn connect_with(url: &str, size: u32, checkpoints: Checkpoints) -> Result<Pool, StoreError> {
    let manager = AnyManager {
        url: url.to_owned(),
        checkpoints,
    };
    // SQLite allows one writer at a time; more connections only queue on the lock.
    let size = match manager.backend() {
        Backend::Sqlite => size.clamp(1, 8),
        Backend::Postgres => size.max(1),
    };
    let first = manager.connect().map_err(StoreError::Connect)?;
    drop(first);
    r2d2::Pool::builder()
        .max_size(size)
        // one connection opened before serving, the rest when a request
        // needs them: start-up and an idle broker pay for one, not `size`
        .min_idle(Some(1))
        .connection_timeout(Duration::from_secs(30))
        // no `SELECT 1` before every checkout: a request pays one round trip
        // less, and a connection that broke is dropped on return (has_broken)
        .test_on_check_out(false)
        .build(manager)
        .map_err(StoreError::Pool)
}

/// Runs `work` in one transaction that is ready to write: an error rolls
/// everything back.
///
/// SQLite starts a transaction deferred: one that reads first and writes
/// later fails at once with SQLITE_BUSY when another writer committed in
/// between (the busy timeout is not consulted for that upgrade). The
/// transaction is begun `IMMEDIATE`, which takes the write lock up front
/// (waiting out the busy timeout), so concurrent writers queue instead of
/// failing — one statement, where a no-op write after `BEGIN` used to be
/// two. Inside a transaction already, `work` runs in a savepoint.
pub fn write_transaction<T, E, F>(conn: &mut AnyConnection, work: F) -> Result<T, E>
where
    F: FnOnce(&mut AnyConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    let AnyConnection::Sqlite(sqlite) = conn else {
        return conn.transaction(work);
    };
    let status = AnsiTransactionManager::transaction_manager_status_mut(sqlite);
    if status.transaction_depth()?.is_some() {
        return conn.transaction(work);
    }
    AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")?;
    // from here on as diesel's own `TransactionManager::transaction`
    match work(conn) {
        Ok(value) => {
            <AnyConnection as Connection>::TransactionManager::commit_transaction(conn)?;
            Ok(value)
        }
        Err(failed) => {
            match <AnyConnection as Connection>::TransactionManager::rollback_transaction(conn) {
                Ok(()) | Err(diesel::result::Error::BrokenTransactionManager) => Err(failed),
                Err(rollback) => Err(rollback.into()),
            }
        }
    }
}
