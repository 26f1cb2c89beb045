//! Evidence that expires: read as expired before the sweep, dropped by it,
//! and swept by every `accord serve` on its own.

use serde_json::json;

use super::*;
use crate::declarations_diff::spec;

/// Both consumers verified with a three-second TTL (both results must be
/// judged before the first expires: one second was too short on a loaded
/// machine); waits (at most 15 s, polling) until the evidence reads expired.
fn verified_until_expired(app: &TestApp) {
    let d = seed(app, &spec("planner", "draft, ready"));
    let short = json!({"evidenceTtlSeconds": 3});
    verify_ok(app, "planner", &d, short.clone());
    verify_ok(app, "auditor", &d, short);
    for _ in 0..300 {
        if admission(app)["evidence"]["expired"] == true {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("the evidence never read expired: {}", admission(app));
}

#[test]
fn expired_evidence_reads_expired_before_the_sweep_and_the_sweep_drops_it() {
    for db in backends() {
        // a sweep that never runs by itself in this test
        let app = TestApp::start(db, |c| {
            c.evidence_sweep = std::time::Duration::from_secs(3600)
        });
        verified_until_expired(&app);
        let a = admission(&app);
        assert_eq!(a["state"], "CONFORMANCE_VERIFIED", "not swept yet: {a}");
        let why = a["evidence"]["expiredReason"].as_str().unwrap_or("");
        assert!(why.starts_with("evidence expired at "), "{a}");
        // two sweeps at once (two replicas): one moves it, once
        let url = app.database.url.clone();
        let at = chrono::Utc::now().naive_utc();
        let sweeps: Vec<_> = (0..2)
            .map(|_| {
                let url = url.clone();
                std::thread::spawn(move || {
                    let pool = accord_broker::db::connect(&url, 1).expect("connect");
                    let mut conn = pool.get().expect("connection");
                    accord_broker::evidence::sweep::run(&mut conn, at).expect("sweep")
                })
            })
            .collect();
        let moved: usize = sweeps.into_iter().map(|t| t.join().expect("sweep")).sum();
        assert_eq!(moved, 1);
        let a = admission(&app);
        assert_eq!(a["state"], "STATIC_VALIDATED", "{a}");
        assert!(reason(&app).starts_with("evidence expired at "), "{a}");
        let last = a["transitions"].as_array().and_then(|t| t.last()).cloned();
        assert_eq!(
            last.map(|t| t["cause"]["kind"].clone()),
            Some(json!("broker"))
        );
    }
}

#[test]
fn every_serve_sweeps_expired_evidence_by_itself() {
    for db in backends() {
        let app = TestApp::start(db, |c| {
            c.evidence_sweep = std::time::Duration::from_millis(50)
        });
        verified_until_expired(&app);
        let mut seen = String::new();
        for _ in 0..400 {
            seen = state(&app);
            if seen == "STATIC_VALIDATED" {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert_eq!(seen, "STATIC_VALIDATED", "{}", admission(&app));
        assert!(reason(&app).starts_with("evidence expired at "));
    }
}
