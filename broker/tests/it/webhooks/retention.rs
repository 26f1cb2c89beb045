//! Pruning: the sweep deletes fanned-out events and settled triggered
//! webhooks (with their logs) older than the retention, never a row still
//! waiting for its retry.

use std::time::{Duration, Instant};

use accord_broker::schema::{
    triggered_webhooks as tw, webhook_events as we, webhook_executions as ex,
};
use accord_broker::webhooks::{queue, retention};
use diesel::prelude::*;
use serde_json::json;

use super::{Receiver, fast, hook, pacticipants, queued};
use crate::pact_docs::{http, pact, publish_ok};
use crate::seed::Seed;
use crate::support::{TestApp, backends};

/// (events, triggered webhooks by status, execution logs) in the database.
fn rows(seed: &Seed) -> (i64, Vec<(String, i64)>, i64) {
    seed.with(|conn| {
        let events = we::table.count().get_result(conn).expect("events");
        let mut triggered: Vec<(String, i64)> = tw::table
            .select((tw::status, tw::attempts))
            .load(conn)
            .expect("triggered");
        triggered.sort();
        let logs = ex::table.count().get_result(conn).expect("logs");
        (events, triggered, logs)
    })
}

/// A broker whose failed deliveries wait an hour for their retry, with one
/// delivered and one failed-and-waiting triggered webhook.
fn one_delivered_one_waiting(app: &TestApp) -> Seed {
    let ok = Receiver::start(&[]);
    let failing = Receiver::start(&[500; 10]);
    pacticipants(app, &["Foo", "Bar"]);
    for r in [&ok, &failing] {
        assert_eq!(
            app.post("/webhooks", &hook(r, &["contract_published"], None, None))
                .status,
            201
        );
    }
    publish_ok(
        app,
        "1",
        Some("main"),
        &[],
        &[pact("Foo", "Bar", json!([http("/a", 200)]))],
    );
    assert_eq!(queued(app, "contract_published"), 2);
    ok.wait_for(1);
    failing.wait_for(1);
    let seed = Seed::new(app);
    let start = Instant::now();
    while rows(&seed).2 < 2 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    seed
}

fn waiting_an_hour(c: &mut accord_broker::BrokerConfig) {
    fast(c);
    c.webhook_retry_schedule = vec![Duration::from_secs(3600)];
}

#[test]
fn the_sweep_deletes_settled_deliveries_past_the_retention_and_keeps_those_due_for_retry() {
    for db in backends() {
        let app = TestApp::start(db, |c| {
            waiting_an_hour(c);
            c.webhook_retention = Duration::from_secs(1);
            c.webhook_sweep = Duration::from_millis(100);
        });
        let seed = one_delivered_one_waiting(&app);
        let start = Instant::now();
        while rows(&seed).1.len() > 1 && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(50));
        }
        let (events, triggered, logs) = rows(&seed);
        assert_eq!(events, 0, "the consumed event is gone");
        assert_eq!(
            triggered,
            vec![(queue::PENDING.to_owned(), 1)],
            "the one due for retry stays"
        );
        assert_eq!(logs, 1, "with its attempt's log");
        let listed = app.get("/pacts/provider/Bar/consumer/Foo/version/1/triggered-webhooks");
        assert_eq!(listed.status, 200, "{}", listed.text);
        let shown = listed.json["_embedded"]["triggeredWebhooks"]
            .as_array()
            .map(Vec::len);
        assert_eq!(shown, Some(1), "{}", listed.text);
    }
}

#[test]
fn nothing_younger_than_the_retention_is_deleted() {
    for db in backends() {
        let app = TestApp::start(db, waiting_an_hour);
        let seed = one_delivered_one_waiting(&app);
        let before = rows(&seed);
        assert_eq!(before.1.len(), 2, "{before:?}");
        let day_ago = accord_broker::store::now() - chrono::TimeDelta::days(1);
        let swept = seed
            .with(|conn| retention::run(conn, day_ago))
            .expect("sweep");
        assert_eq!(swept, retention::Swept::default());
        assert_eq!(rows(&seed), before);
        // with the cutoff now, only the delivered one and the event go
        let swept = seed
            .with(|conn| {
                retention::run(
                    conn,
                    accord_broker::store::now() + chrono::TimeDelta::seconds(1),
                )
            })
            .expect("sweep");
        assert_eq!(
            swept,
            retention::Swept {
                events: 1,
                triggered: 1
            }
        );
        assert_eq!(rows(&seed).1, vec![(queue::PENDING.to_owned(), 1)]);
    }
}
