//! Measurements (ignored: run them by hand, numbers in the report, no
//! timing assertion), and the publish's cost counted in statements (run
//! always):
//! `cargo test -p accord-broker --release --test it -- --ignored --nocapture webhooks::measure`

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use accord_broker::webhooks::queue::{self, Cause};
use serde_json::json;

use super::{Receiver, fast, hook, pacticipants};
use crate::pact_docs::{http, pact, publish_ok};
use crate::statements::counter;
use crate::support::{TestApp, backends};

#[test]
#[ignore = "measurement"]
fn thousand_events_reach_a_loopback_receiver() {
    for db in backends() {
        let app = TestApp::start(db, fast);
        let r = Receiver::start(&[]);
        let created = app.post("/webhooks", &hook(&r, &["contract_published"], None, None));
        let uuid = created.json["uuid"].as_str().expect("uuid").to_owned();
        let seed = crate::seed::Seed::new(&app);
        let id = seed.with(|conn| {
            accord_broker::webhooks::store::find_by_uuid(conn, &uuid)
                .expect("read")
                .expect("webhook")
                .id
        });
        let params: BTreeMap<String, String> = BTreeMap::new();
        let start = Instant::now();
        seed.with(|conn| {
            queue::enqueue(
                conn,
                &vec![id; 1000],
                "contract_published",
                &params,
                &Cause::default(),
            )
        })
        .expect("enqueue");
        let got = r.wait_for(1000).len();
        let received = start.elapsed();
        println!(
            "{db:?}: {got} events received in {:.2} s",
            received.as_secs_f64()
        );
    }
}

fn publish_one(app: &TestApp, version: &str, i: usize) -> Duration {
    publish_tagged(app, version, i, &[])
}

/// `publish_one` with `tags`.
fn publish_tagged(app: &TestApp, version: &str, i: usize, tags: &[&str]) -> Duration {
    let start = Instant::now();
    publish_ok(
        app,
        version,
        Some("main"),
        tags,
        &[pact("Foo", "Bar", json!([http(&format!("/p{i}"), 200)]))],
    );
    start.elapsed()
}

/// A broker with 50 webhooks on `events` selecting `consumer` (none: no
/// webhook at all); its worker idle (polling hourly) or polling as in tests.
fn broker(
    db: crate::support::TestDb,
    r: &Receiver,
    hooks: Option<(&str, &[&str])>,
    worker_idle: bool,
) -> TestApp {
    let app = TestApp::start(db, |c| {
        fast(c);
        if worker_idle {
            c.webhook_poll = Duration::from_secs(3600);
        }
    });
    pacticipants(&app, &["Foo", "Bar", "Other"]);
    if let Some((consumer, events)) = hooks {
        for _ in 0..50 {
            app.post("/webhooks", &hook(r, events, Some(consumer), None));
        }
    }
    for i in 0..20 {
        publish_one(&app, &format!("warm-{i}"), i); // warm up
    }
    app
}

/// The median publish cost on each broker, the brokers taking turns
/// publish by publish (each round starting with the next broker) so that
/// the machine's load (shared, noisy) falls on all alike; the median, as a
/// few stalls of a loaded machine would dominate a mean.
fn interleaved(apps: &[TestApp], n: usize) -> Vec<f64> {
    let mut samples = vec![Vec::with_capacity(n); apps.len()];
    for i in 0..n {
        for turn in 0..apps.len() {
            let k = (i + turn) % apps.len();
            let took = publish_one(&apps[k], &format!("{i}"), 1000 + i);
            samples[k].push(took.as_secs_f64() * 1e3);
        }
    }
    samples
        .iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            s.get(s.len() / 2).copied().unwrap_or(0.0)
        })
        .collect()
}

#[test]
#[ignore = "measurement"]
fn a_publish_with_fifty_webhooks_against_none() {
    const N: usize = 200;
    let changed: &[&str] = &["contract_content_changed"];
    for db in backends() {
        let r = Receiver::start(&[]);
        let quiet = [
            broker(db, &r, None, true),
            broker(db, &r, Some(("Other", changed)), true),
            broker(db, &r, Some(("Foo", &["release_recorded"])), true),
            broker(db, &r, Some(("Foo", changed)), true),
        ];
        let q = interleaved(&quiet, N);
        drop(quiet);
        let busy = [
            broker(db, &r, None, false),
            broker(db, &r, Some(("Foo", changed)), false),
        ];
        let b = interleaved(&busy, N);
        println!(
            "{db:?}: per publish (median), worker idle: no webhooks {:.2} ms; 50 webhooks of another pair \
             {:.2} ms; 50 of this pair on another event {:.2} ms; 50 matching webhooks (50 \
             deliveries per publish) {:.2} ms. Workers running, taking turns: no webhooks {:.2} ms; \
             50 matching webhooks while the worker fans out and sends them {:.2} ms",
            q[0], q[1], q[2], q[3], b[0], b[1]
        );
    }
}

fn statements(app: &TestApp) -> u64 {
    counter::count(&app.database.url)
}

/// The median number of statements one publish runs on `app`. Each
/// version is tagged, so that on PostgreSQL too the publish goes statement
/// by statement (`publishing::publish_first` takes no tags): the webhooks
/// send it that way anyway, and the two counts compare like with like.
fn statements_per_publish(app: &TestApp, from: usize) -> u64 {
    let mut counts: Vec<u64> = (from..from + 9)
        .map(|i| {
            let before = statements(app);
            publish_tagged(app, &format!("s{i}"), i, &["t"]);
            statements(app) - before
        })
        .collect();
    counts.sort_unstable();
    counts[counts.len() / 2]
}

/// The publish's own cost, counted rather than timed (a loaded machine
/// makes timings noisy): fifty webhooks matching the pair and its event
/// add two statements to what a publish runs without any (the events they
/// subscribe to, which the first read learns none has when there are no
/// webhooks for the pair, and the outbox row); the parameters are read by
/// the worker's fan-out.
#[test]
fn fifty_matching_webhooks_add_two_statements_to_a_publish() {
    counter::install();
    let changed: &[&str] = &["contract_content_changed"];
    for db in backends() {
        let r = Receiver::start(&[]);
        let none = broker(db, &r, None, true);
        let fifty = broker(db, &r, Some(("Foo", changed)), true);
        let (without, with) = (
            statements_per_publish(&none, 0),
            statements_per_publish(&fifty, 0),
        );
        println!(
            "{db:?}: statements per publish: no webhooks {without}, 50 matching webhooks {with}"
        );
        assert!(without > 0, "the statements are counted");
        assert_eq!(
            with,
            without + 2,
            "the subscribed events and one outbox row, nothing else"
        );
    }
}
