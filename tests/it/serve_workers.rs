//! `accord serve --workers N` (and `ACCORD_WORKERS`): the number of HTTP
//! worker threads, checked against what actix reports at start; 0 refused.

use crate::serve_webhook_flags::startup_log;
use crate::support::accord;

#[test]
fn the_flag_and_the_variable_set_the_workers() {
    let log = startup_log(&["--workers", "1"], &[]);
    assert!(log.contains("starting 1 workers"), "{log}");
    let log = startup_log(&[], &[("ACCORD_WORKERS", "3")]);
    assert!(log.contains("starting 3 workers"), "{log}");
}

#[test]
fn zero_workers_is_refused_naming_the_flag() {
    let out = accord()
        .args(["serve", "--workers", "0", "--database-url", "unused.db"])
        .env_remove("ACCORD_WORKERS")
        .output()
        .expect("accord runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--workers"), "{err}");
}
