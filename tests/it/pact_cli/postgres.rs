//! A fresh schema of the PostgreSQL named by `ACCORD_TEST_DATABASE_URL`, so
//! the Pact CLI cycle also runs against `accord serve` on PostgreSQL.

use accord_broker::db;
use diesel::connection::SimpleConnection;

/// A schema made for one test and dropped after it (declare it before the
/// broker that uses it, so the broker stops first).
pub struct PgSchema {
    pub url: String,
    admin: String,
    name: String,
}

impl PgSchema {
    /// A new schema when `ACCORD_TEST_DATABASE_URL` is set; `None` with a
    /// printed reason otherwise, except under `CI=true`, where that fails.
    pub fn create_or_skip() -> Option<PgSchema> {
        let admin = match std::env::var("ACCORD_TEST_DATABASE_URL") {
            Ok(url) if !url.is_empty() => url,
            _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
                panic!("CI=true but ACCORD_TEST_DATABASE_URL is not set")
            }
            _ => {
                eprintln!("skipped PostgreSQL: ACCORD_TEST_DATABASE_URL is not set");
                return None;
            }
        };
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let name = format!("e2e_{}_{nanos}", std::process::id());
        let pool = db::connect(&admin, 1).expect("connect to ACCORD_TEST_DATABASE_URL");
        let mut conn = pool.get().expect("a connection");
        conn.batch_execute(&format!("CREATE SCHEMA {name}"))
            .expect("create schema");
        let sep = if admin.contains('?') { '&' } else { '?' };
        let url = format!("{admin}{sep}options=-csearch_path%3D{name}");
        Some(PgSchema { url, admin, name })
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        if let Ok(pool) = db::connect(&self.admin, 1)
            && let Ok(mut conn) = pool.get()
        {
            let _ = conn.batch_execute(&format!("DROP SCHEMA {} CASCADE", self.name));
        }
    }
}
