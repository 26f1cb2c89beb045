//! A real `accord serve` process on an ephemeral loopback port, for CLI
//! tests. SQLite in a temp dir by default; `PgSchema` gives a fresh schema of
//! `ACCORD_TEST_DATABASE_URL`'s database, and `each_backend` runs one test
//! body against a broker on each.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use accord_broker::db;
use diesel::connection::SimpleConnection;

use crate::support::temp_dir;

/// A running broker process; killed on drop.
pub struct BrokerProcess {
    pub url: String,
    pub database_url: String,
    child: Child,
}

impl BrokerProcess {
    /// Starts `accord serve` on a fresh SQLite file with `extra` arguments.
    pub fn start(extra: &[&str]) -> BrokerProcess {
        let dir = temp_dir("broker");
        let database_url = dir.join("accord.db").to_string_lossy().into_owned();
        Self::start_on(&database_url, extra)
    }

    /// Starts `accord serve` on `database_url`.
    pub fn start_on(database_url: &str, extra: &[&str]) -> BrokerProcess {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("accord"))
            .args([
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--database-url",
                database_url,
            ])
            .args(extra)
            .env("RUST_LOG", "warn")
            .env_remove("DATABASE_URL")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("accord serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("first line of accord serve");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("accord serve printed no URL: {line:?}"))
            .to_owned();
        BrokerProcess {
            url,
            database_url: database_url.to_owned(),
            child,
        }
    }
}

impl BrokerProcess {
    /// `GET` of a path on this broker (or an absolute href it gave): the
    /// status and the JSON body (`null` when the body is not JSON).
    pub fn get(&self, path_or_url: &str) -> (u16, serde_json::Value) {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let url = if path_or_url.starts_with("http") {
            path_or_url.to_owned()
        } else {
            format!("{}{path_or_url}", self.url)
        };
        let reply = reqwest::blocking::get(&url).expect("broker answers");
        let status = reply.status().as_u16();
        (status, reply.json().unwrap_or(serde_json::Value::Null))
    }
}

impl BrokerProcess {
    /// Kills the process with SIGKILL (no shutdown, no flush) and waits for it.
    pub fn kill9(&mut self) {
        self.child.kill().expect("kill -9");
        let _ = self.child.wait();
    }
}

impl Drop for BrokerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `body` against a fresh broker started with `extra` arguments: on a
/// new SQLite file, then in a new PostgreSQL schema when
/// `ACCORD_TEST_DATABASE_URL` is set (see `PgSchema::create_or_skip` for the
/// skip and the `CI=true` rule). The body owns the broker, so the broker
/// stops before its schema is dropped.
pub fn each_backend(extra: &[&str], body: impl Fn(BrokerProcess)) {
    eprintln!("backend: SQLite");
    body(BrokerProcess::start(extra));
    if let Some(schema) = PgSchema::create_or_skip() {
        eprintln!("backend: PostgreSQL (schema {})", schema.name);
        body(BrokerProcess::start_on(&schema.url, extra));
    }
}

/// A PostgreSQL schema made for one test and dropped after it (declare it
/// before the broker that uses it, so the broker stops first).
pub struct PgSchema {
    /// `ACCORD_TEST_DATABASE_URL` with `search_path` set to the schema.
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
        // Tests run on parallel threads of one process: the counter keeps
        // two schemas made in the same nanosecond apart.
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = format!("e2e_{}_{nanos}_{n}", std::process::id());
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
