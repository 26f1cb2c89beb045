//! Measurements (ignored: run them by hand, numbers in the report, no
//! timing assertion):
//! `cargo test -p accord-broker --release --test it -- --ignored --nocapture webhooks::measure`

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use accord_broker::webhooks::queue::{self, Cause};
use serde_json::json;

use super::{Receiver, fast, hook, pacticipants};
use crate::pact_docs::{http, pact, publish_ok};
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

fn publish_rate(app: &TestApp, n: usize) -> Duration {
    let start = Instant::now();
    for i in 0..n {
        publish_ok(
            app,
            &format!("{i}"),
            Some("main"),
            &[],
            &[pact("Foo", "Bar", json!([http(&format!("/p{i}"), 200)]))],
        );
    }
    start.elapsed() / u32::try_from(n).unwrap_or(1)
}

#[test]
#[ignore = "measurement"]
fn a_publish_with_fifty_webhooks_against_none() {
    const N: usize = 200;
    for db in backends() {
        let r = Receiver::start(&[]);
        let none = TestApp::start(db, fast);
        pacticipants(&none, &["Foo", "Bar", "Other"]);
        publish_rate(&none, 20); // warm up
        let bare = publish_rate(&none, N);
        let others = TestApp::start(db, fast);
        pacticipants(&others, &["Foo", "Bar", "Other"]);
        for _ in 0..50 {
            others.post(
                "/webhooks",
                &hook(
                    &r,
                    &["contract_published", "contract_content_changed"],
                    Some("Other"),
                    None,
                ),
            );
        }
        publish_rate(&others, 20);
        let unmatched = publish_rate(&others, N);
        let matching = TestApp::start(db, fast);
        pacticipants(&matching, &["Foo", "Bar"]);
        for _ in 0..50 {
            matching.post(
                "/webhooks",
                &hook(&r, &["contract_content_changed"], Some("Foo"), None),
            );
        }
        publish_rate(&matching, 20);
        let matched = publish_rate(&matching, N);
        // the same, the worker idle: what the publish itself pays
        let queued_only = TestApp::start(db, |c| {
            fast(c);
            c.webhook_poll = Duration::from_secs(3600);
        });
        pacticipants(&queued_only, &["Foo", "Bar"]);
        for _ in 0..50 {
            queued_only.post(
                "/webhooks",
                &hook(&r, &["contract_content_changed"], Some("Foo"), None),
            );
        }
        publish_rate(&queued_only, 20);
        let queued = publish_rate(&queued_only, N);
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{db:?}: per publish: no webhooks {:.2} ms; 50 webhooks of another pair {:.2} ms; \
             50 matching webhooks, 50 deliveries queued per publish, worker idle {:.2} ms; \
             the same while the worker sends them {:.2} ms",
            ms(bare),
            ms(unmatched),
            ms(queued),
            ms(matched)
        );
    }
}
