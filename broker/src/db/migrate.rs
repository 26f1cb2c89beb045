//! Embedded migrations, one folder per backend with identical names.

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

/// Applies every pending migration; returns the versions applied now.
pub fn run_migrations(conn: &mut AnyConnection) -> Result<Vec<String>, StoreError> {
    let applied = match conn {
        AnyConnection::Postgresql(c) => c.run_pending_migrations(POSTGRES_MIGRATIONS),
        AnyConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS),
    }
    .map_err(StoreError::Migration)?;
    Ok(applied.iter().map(|v| v.to_string()).collect())
}
