//! Embedded migrations, one folder per backend with identical names.

use diesel::Connection;
use diesel::connection::SimpleConnection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use super::AnyConnection;
use crate::store::StoreError;

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/postgres");

/// The two databases Accord runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// PostgreSQL for `postgres://` and `postgresql://` URLs, SQLite otherwise.
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    /// The name printed in logs and `accord migrate`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }
}

/// Key of the PostgreSQL advisory lock that serialises migrations, so that
/// several replicas starting at once do not race to create the same tables.
const MIGRATION_LOCK_KEY: i64 = 0x6163_636f_7264; // "accord"

/// Applies every pending migration; returns the versions applied now.
pub fn run_migrations(conn: &mut AnyConnection) -> Result<Vec<String>, StoreError> {
    let names = |applied: Vec<diesel::migration::MigrationVersion<'_>>| -> Vec<String> {
        applied.iter().map(|v| v.to_string()).collect()
    };
    match conn {
        AnyConnection::Postgresql(c) => {
            c.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})"))?;
            // one transaction for all of them: one commit (one WAL flush)
            // instead of one per migration, and a failure leaves none applied
            let result =
                c.transaction(|c| c.run_pending_migrations(POSTGRES_MIGRATIONS).map(names));
            c.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"))?;
            result.map_err(StoreError::Migration)
        }
        // An immediate transaction takes SQLite's write lock before looking
        // for pending migrations, so concurrent starters apply them once;
        // the migrations are its savepoints: one commit for all of them.
        AnyConnection::Sqlite(c) => c
            .immediate_transaction(|c| c.run_pending_migrations(SQLITE_MIGRATIONS).map(names))
            .map_err(StoreError::Migration),
    }
}
