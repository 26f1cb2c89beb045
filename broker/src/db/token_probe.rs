//! Whether any token exists, asked of SQLite on the caller's thread.
//!
//! Every request to an open broker (no tokens, no accounts) asks the
//! database whether a token exists now, so that a token created through
//! another replica or `accord token create` closes this broker at its next
//! request. Through `AppState::run` that one-row read pays a hand-off to the
//! blocking pool and back, more than the read itself: the publish bench on
//! an open broker went from a median of 2,108 to 2,468 publications/s (p50
//! 424 → 361 µs) with the read made here. On SQLite it is made on the caller's
//! thread, an async worker, with a connection of its own that never waits:
//! taken with `try_lock`, `busy_timeout = 0`, `query_only`. When another
//! worker holds it, or the read is busy or fails, the caller asks through
//! the pool as before, so a wait or an error is never the worker's.
//! PostgreSQL has no such probe (its read is a network round trip).

use std::sync::Mutex;

use diesel::connection::SimpleConnection;
use diesel::{Connection, SqliteConnection};

use super::AnyConnection;
use crate::store::tokens;

pub struct TokenProbe {
    path: String,
    conn: Mutex<Option<AnyConnection>>,
}

impl std::fmt::Debug for TokenProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenProbe")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl TokenProbe {
    /// A probe of the SQLite file `path`; it connects at its first use.
    pub fn new(path: &str) -> TokenProbe {
        TokenProbe {
            path: path.to_owned(),
            conn: Mutex::new(None),
        }
    }

    /// Some(whether an unrevoked token exists), read here and now; None
    /// when the read could not be made without waiting (ask the pool).
    pub fn any_active(&self) -> Option<bool> {
        let mut held = self.conn.try_lock().ok()?;
        if held.is_none() {
            *held = open(&self.path).map(AnyConnection::Sqlite);
        }
        let conn = held.as_mut()?;
        match tokens::any_active(conn) {
            Ok(found) => Some(found),
            Err(e) => {
                tracing::debug!(error = %e, "token probe: asking through the pool");
                *held = None;
                None
            }
        }
    }
}

/// A read-only connection that answers busy at once instead of waiting.
fn open(path: &str) -> Option<SqliteConnection> {
    let mut conn = SqliteConnection::establish(path).ok()?;
    conn.batch_execute("PRAGMA busy_timeout = 0; PRAGMA query_only = 1;")
        .ok()?;
    Some(conn)
}

#[cfg(test)]
mod tests {
    use super::TokenProbe;
    use crate::db;
    use crate::store::tokens;

    fn migrated() -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("probe.db").to_string_lossy().into_owned();
        let pool = db::connect(&path, 1).expect("database");
        db::run_migrations(&mut pool.get().expect("connection")).expect("migrations");
        (dir, path)
    }

    #[test]
    fn sees_a_token_another_connection_creates_or_revokes_at_once() {
        let (_dir, path) = migrated();
        let probe = TokenProbe::new(&path);
        assert_eq!(probe.any_active(), Some(false));
        let pool = db::connect(&path, 1).expect("database");
        let mut conn = pool.get().expect("connection");
        tokens::insert(&mut conn, "ci", "write", "hash").expect("token");
        assert_eq!(probe.any_active(), Some(true));
        tokens::revoke(&mut conn, "ci").expect("revoke");
        assert_eq!(probe.any_active(), Some(false));
    }

    #[test]
    fn answers_none_rather_than_wait_for_another_worker() {
        let (_dir, path) = migrated();
        let probe = TokenProbe::new(&path);
        let held = probe.conn.lock().expect("lock");
        assert_eq!(probe.any_active(), None);
        drop(held);
        assert_eq!(probe.any_active(), Some(false));
    }

    #[test]
    fn answers_none_for_a_file_it_cannot_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("missing").join("probe.db");
        let probe = TokenProbe::new(&path.to_string_lossy());
        assert_eq!(probe.any_active(), None);
    }
}
