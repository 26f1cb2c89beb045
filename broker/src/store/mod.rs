//! Storage: one module per aggregate, each exposing `find_by_*`, `list_*`,
//! `insert`, `update_*` over an `&mut AnyConnection`. Handlers never import
//! diesel; they call these functions inside `AppState::run`.
//!
//! Rows (`Queryable` structs and `New*` insertables) live here and nowhere
//! else; the API converts them into wire types.

pub mod admission;
pub mod admission_holds;
pub mod branches;
pub mod coverage;
pub mod declarations;
pub mod deployments;
pub mod directory;
pub mod drift_actions;
pub mod drift_policies;
pub mod drift_reports;
pub mod environments;
pub mod evaluations;
pub mod evidence;
pub mod history;
pub mod integrations;
pub mod labels;
pub mod matrix;
pub mod matrix_details;
pub mod matrix_env;
pub mod overview;
pub mod pacticipants;
pub mod pacts;
pub mod releases;
pub mod selection;
pub mod static_checks;
pub mod tags;
pub mod tokens;
pub mod verifications;
pub mod versions;

use diesel::result::{DatabaseErrorKind, Error as DieselError};

/// How many ids one `IN (…)` query binds at most (SQLite builds before
/// 3.32 allow 999 parameters).
pub const ID_CHUNK: usize = 500;

/// Current time as stored in `TIMESTAMP` columns (UTC, microseconds, so both
/// backends round-trip it exactly).
pub fn now() -> chrono::NaiveDateTime {
    let now = chrono::Utc::now().naive_utc();
    chrono::DurationRound::duration_trunc(now, chrono::TimeDelta::microseconds(1)).unwrap_or(now)
}

/// What can go wrong talking to the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database query failed")]
    Query(#[from] DieselError),
    #[error("cannot connect to the database")]
    Connect(#[source] diesel::ConnectionError),
    #[error("no database connection available")]
    Pool(#[from] diesel::r2d2::PoolError),
    #[error("database migration failed")]
    Migration(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A row a foreign key guarantees is not there: the database was
    /// changed behind the broker's back.
    #[error("stored {what} {id} is missing")]
    MissingRow { what: &'static str, id: i64 },
    /// A stored value the broker never writes (an unknown state name).
    #[error("stored {what} {value:?} is not one the broker writes")]
    CorruptValue { what: &'static str, value: String },
    #[error("stored {what} is not valid JSON")]
    CorruptJson {
        what: &'static str,
        #[source]
        source: serde_json::Error,
    },
}

impl StoreError {
    /// True when a UNIQUE constraint refused the write (someone else, maybe
    /// another replica, wrote the same key first).
    pub fn is_unique_violation(&self) -> bool {
        matches!(
            self,
            StoreError::Query(DieselError::DatabaseError(
                DatabaseErrorKind::UniqueViolation,
                _
            ))
        )
    }
}

impl StoreError {
    /// True when PostgreSQL rolled the transaction back to break a deadlock
    /// or a serialization conflict: nothing was stored, a retry may succeed.
    pub fn is_contention(&self) -> bool {
        match self {
            StoreError::Query(DieselError::DatabaseError(
                DatabaseErrorKind::SerializationFailure,
                _,
            )) => true,
            StoreError::Query(DieselError::DatabaseError(_, info)) => {
                info.message().contains("deadlock detected")
            }
            _ => false,
        }
    }
}

/// One round trip to the database.
pub fn ping(conn: &mut crate::db::AnyConnection) -> Result<(), StoreError> {
    use diesel::connection::SimpleConnection;
    conn.batch_execute("SELECT 1")?;
    Ok(())
}

/// Runs an insert that may lose a race to a concurrent writer (another
/// request or replica inserting the same unique key), so that the caller can
/// read the winner's row afterwards.
///
/// On PostgreSQL a failed statement aborts the whole transaction, so the
/// insert runs in a savepoint there. SQLite keeps its transaction usable
/// after a failed statement (and `db::write_transaction` holds the write
/// lock from the start, so the race cannot even happen): the savepoint's two
/// extra statements are skipped.
pub fn racing_insert<T, E, F>(conn: &mut crate::db::AnyConnection, insert: F) -> Result<T, E>
where
    F: FnOnce(&mut crate::db::AnyConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    use diesel::Connection;
    match conn {
        crate::db::AnyConnection::Postgresql(_) => conn.transaction(insert),
        crate::db::AnyConnection::Sqlite(_) => insert(conn),
    }
}
