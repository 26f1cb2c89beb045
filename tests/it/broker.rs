//! A real `accord serve` process on an ephemeral loopback port, for CLI
//! tests. SQLite in a temp dir by default; `postgres()` uses a fresh schema
//! of `ACCORD_TEST_DATABASE_URL`'s database when it is set.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

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

impl Drop for BrokerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
