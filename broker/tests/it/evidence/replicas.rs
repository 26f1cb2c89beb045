//! Two brokers on one database (two replicas) moving the same provider
//! version at once: results judged through both, the same promotion asked
//! of both, and both expiry sweeps running — each move happens once.

use std::sync::Barrier;
use std::time::Duration;

use accord_broker::BrokerConfig;
use serde_json::json;

use super::*;

/// A second broker on `app`'s database, sweeping expired evidence every
/// 50 ms like the first.
fn replica(app: &TestApp) -> TestApp {
    let database = app.database.shared();
    let mut config = BrokerConfig::new(database.url.clone());
    config.bind = "127.0.0.1:0".into();
    config.workers = Some(1);
    config.pool_size = 2;
    config.evidence_sweep = Duration::from_millis(50);
    TestApp::serve(app.db, database, config)
}

/// How many transitions of version `version` went to `to`.
fn moves_to(app: &TestApp, version: &str, to: &str) -> usize {
    let got = app.get(&format!("/pacticipants/{P}/versions/{version}/admission"));
    got.json["transitions"]
        .as_array()
        .map_or(0, |t| t.iter().filter(|t| t["to"] == to).count())
}

/// Publishes planner's result through `a` and auditor's through `b` at once.
fn both_at_once(a: &TestApp, b: &TestApp, body: &Value) {
    let jobs = [
        (a, results_path(a, "planner")),
        (b, results_path(b, "auditor")),
    ];
    let start = Barrier::new(2);
    std::thread::scope(|scope| {
        for (app, path) in &jobs {
            let start = &start;
            scope.spawn(move || {
                start.wait();
                let reply = app.post(path, body);
                assert_eq!(reply.status, 201, "{}", reply.text);
            });
        }
    });
}

#[test]
fn two_replicas_judge_promote_and_sweep_one_version_once() {
    for db in backends() {
        let a = TestApp::start(db, |c| c.evidence_sweep = Duration::from_millis(50));
        let b = replica(&a);
        let d = seed(&a, &secured_spec("planner"));
        both_at_once(&a, &b, &result_body("2.0", &d, json!({})));
        assert_eq!(state(&b), "SECURITY_VERIFIED", "{}", admission(&b));
        assert_eq!(moves_to(&a, "2.0", "CONFORMANCE_VERIFIED"), 1);
        assert_eq!(moves_to(&a, "2.0", "SECURITY_VERIFIED"), 1);

        // the same promotion asked of both replicas at once: one moves it
        let path = format!("/pacticipants/{P}/versions/2.0/admission");
        let start = Barrier::new(2);
        let statuses: Vec<u16> = std::thread::scope(|scope| {
            let asks: Vec<_> = [&a, &b]
                .into_iter()
                .map(|app| {
                    let (start, path) = (&start, &path);
                    scope.spawn(move || {
                        start.wait();
                        app.post(path, &json!({"to": "REGISTRY_ADMITTED"})).status
                    })
                })
                .collect();
            asks.into_iter()
                .map(|t| t.join().expect("promotion"))
                .collect()
        });
        let mut sorted = statuses.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![200, 409], "{statuses:?}");
        assert_eq!(moves_to(&b, "2.0", "REGISTRY_ADMITTED"), 1);

        // evidence that expires with both replicas sweeping: dropped once
        let tools = crate::declarations_diff::tools(&["draft", "ready", "rejected"]);
        let declared = format!("/pacticipants/{P}/versions/2.1/declarations/mcp-tools/carol");
        assert_eq!(a.put(&declared, &tools).status, 201);
        both_at_once(
            &a,
            &b,
            &result_body("2.1", &d, json!({"evidenceTtlSeconds": 4})),
        );
        let swept = || {
            let got = a.get(&format!("/pacticipants/{P}/versions/2.1/admission"));
            got.json["reason"]
                .as_str()
                .is_some_and(|r| r.starts_with("evidence expired at "))
        };
        for _ in 0..300 {
            if swept() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(
            swept(),
            "{}",
            a.get(&format!("/pacticipants/{P}/versions/2.1/admission"))
                .text
        );
        // several more rounds of both sweeps
        std::thread::sleep(Duration::from_millis(500));
        let got = b.get(&format!("/pacticipants/{P}/versions/2.1/admission"));
        let expiries = got.json["transitions"].as_array().map_or(0, |t| {
            t.iter()
                .filter(|t| {
                    t["reason"]
                        .as_str()
                        .is_some_and(|r| r.starts_with("evidence expired at "))
                })
                .count()
        });
        assert_eq!(expiries, 1, "{}", got.text);
        assert_eq!(got.json["state"], "STATIC_VALIDATED", "{}", got.text);
    }
}
