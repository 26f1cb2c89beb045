//! Durable delivery: retries on the schedule, attempts logged, refusals
//! logged and not retried, a delivery left behind by a dead broker picked
//! up after restart, two replicas delivering each event once.

use std::time::Duration;

use accord_broker::BrokerConfig;
use serde_json::{Value, json};

use super::{Receiver, each_backend_fast, fast, hook, pacticipants};
use crate::pact_docs::{http, pact, publish_ok};
use crate::support::{TestApp, TestDatabase, TestDb, backends};

/// A broker config on `database`, tweaked.
fn config(database: &TestDatabase, tweak: impl FnOnce(&mut BrokerConfig)) -> BrokerConfig {
    let mut config = BrokerConfig::new(database.url.clone());
    config.bind = "127.0.0.1:0".into();
    config.workers = Some(2);
    config.pool_size = 4;
    tweak(&mut config);
    config
}

/// The logs of the only triggered webhook of `webhook`, once it settled.
pub fn settled_logs(app: &TestApp, webhook: &str) -> Value {
    for _ in 0..3000 {
        let list = app.get(&format!("/webhooks/{webhook}/triggered-webhooks"));
        let first = &list.json["_embedded"]["triggeredWebhooks"][0];
        if first["status"] == "success" || first["status"] == "failure" {
            let logs = first["_links"]["pb:logs"]["href"]
                .as_str()
                .unwrap_or("")
                .to_owned();
            return app.get(logs.strip_prefix(&app.url).unwrap_or("")).json;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the delivery never settled");
}

fn create(app: &TestApp, body: &Value) -> String {
    let created = app.post("/webhooks", body);
    assert_eq!(created.status, 201, "{}", created.text);
    created.json["uuid"].as_str().expect("uuid").to_owned()
}

fn publish(app: &TestApp, version: &str, path: &str) {
    publish_ok(
        app,
        version,
        None,
        &[],
        &[pact("Foo", "Bar", json!([http(path, 200)]))],
    );
}

#[test]
fn a_flaky_receiver_gets_it_on_the_third_attempt_and_each_attempt_is_logged() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[500, 503]);
        pacticipants(app, &["Foo", "Bar"]);
        let mut body = hook(&r, &["contract_published"], Some("Foo"), None);
        body["request"]["headers"]["Authorization"] = json!("Bearer s3cret");
        let uuid = create(app, &body);
        publish(app, "1", "/a");
        let logs = settled_logs(app, &uuid);
        assert_eq!(logs["status"], "success", "{logs}");
        assert_eq!(logs["attemptsMade"], 3);
        let statuses: Vec<Value> = logs["executions"]
            .as_array()
            .expect("executions")
            .iter()
            .map(|e| e["status"].clone())
            .collect();
        assert_eq!(statuses, vec![json!(500), json!(503), json!(200)]);
        assert_eq!(logs["executions"][2]["responseExcerpt"], "received");
        assert!(
            !logs.to_string().contains("s3cret"),
            "credentials redacted in the log: {logs}"
        );
        assert_eq!(r.received().len(), 3);
    });
}

#[test]
fn a_receiver_that_never_answers_well_fails_after_seven_attempts() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[500; 10]);
        pacticipants(app, &["Foo", "Bar"]);
        let uuid = create(app, &hook(&r, &["contract_published"], None, None));
        publish(app, "1", "/a");
        let logs = settled_logs(app, &uuid);
        assert_eq!(logs["status"], "failure");
        assert_eq!(
            logs["executions"].as_array().map(Vec::len),
            Some(7),
            "{logs}"
        );
        assert_eq!(logs["attemptsRemaining"], 0);
    });
}

#[test]
fn a_refused_request_is_logged_with_its_reason_and_not_retried() {
    for db in backends() {
        let r = Receiver::start(&[]);
        let database = TestDatabase::create(db);
        let first = TestApp::serve(db, database.shared(), config(&database, fast));
        pacticipants(&first, &["Foo", "Bar"]);
        let uuid = create(&first, &hook(&r, &["contract_published"], None, None));
        drop(first);
        // the same database under the default policy (https only)
        let strict = TestApp::serve(
            db,
            database.shared(),
            config(&database, |c| c.webhook_poll = Duration::from_millis(20)),
        );
        publish(&strict, "1", "/a");
        let logs = settled_logs(&strict, &uuid);
        assert_eq!(logs["status"], "failure", "{logs}");
        assert_eq!(logs["executions"].as_array().map(Vec::len), Some(1));
        assert!(
            logs["executions"][0]["refusal"]
                .as_str()
                .unwrap_or("")
                .contains("scheme http"),
            "{logs}"
        );
        assert!(r.received().is_empty());
    }
}

/// Waits until `n` deliveries succeeded; then (succeeded, attempts logged).
fn wait_settled(app: &TestApp, n: i64) -> (i64, i64) {
    use accord_broker::schema::{triggered_webhooks as tw, webhook_executions as ex};
    use diesel::prelude::*;
    let seed = crate::seed::Seed::new(app);
    let count = || {
        seed.with(|conn| {
            let done: i64 = tw::table
                .filter(tw::status.eq("success"))
                .count()
                .get_result(conn)
                .expect("count");
            let attempts: i64 = ex::table.count().get_result(conn).expect("count");
            (done, attempts)
        })
    };
    for _ in 0..3000 {
        if count().0 >= n {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    count()
}

/// A delivery a broker claimed and never finished (it was killed): the row
/// stays `delivering` under a lease that runs out.
fn leave_claimed(app: &TestApp) {
    use accord_broker::schema::triggered_webhooks as tw;
    use diesel::prelude::*;
    super::fan_out(app);
    let seed = crate::seed::Seed::new(app);
    seed.with(|conn| {
        let past = chrono::Utc::now().naive_utc() - chrono::TimeDelta::seconds(5);
        diesel::update(tw::table)
            .set((tw::status.eq("delivering"), tw::lease_until.eq(Some(past))))
            .execute(conn)
            .expect("claim");
    });
}

#[test]
fn a_delivery_claimed_by_a_broker_that_died_is_delivered_after_restart() {
    for db in backends() {
        let r = Receiver::start(&[]);
        // a broker whose worker finds nothing: its policy refuses nothing
        // but it never polls (an hour), as if it died after claiming
        let database = TestDatabase::create(db);
        let first = TestApp::serve(
            db,
            database.shared(),
            config(&database, |c| {
                fast(c);
                c.webhook_poll = Duration::from_secs(3600);
            }),
        );
        pacticipants(&first, &["Foo", "Bar"]);
        let uuid = create(&first, &hook(&r, &["contract_published"], None, None));
        publish(&first, "1", "/a");
        leave_claimed(&first);
        let (database, url, kind) = (
            first.database.shared(),
            first.database.url.clone(),
            first.db,
        );
        drop(first);
        let mut config = BrokerConfig::new(url);
        config.bind = "127.0.0.1:0".into();
        fast(&mut config);
        let restarted = TestApp::serve(kind, database, config);
        let logs = settled_logs(&restarted, &uuid);
        assert_eq!(logs["status"], "success", "{logs}");
        assert_eq!(r.received().len(), 1);
    }
}

#[test]
fn two_replicas_on_one_database_deliver_each_event_once() {
    for db in backends() {
        if db == TestDb::Sqlite {
            continue; // SQLite is one process's file; replicas are a PostgreSQL setup
        }
        let r = Receiver::start(&[]);
        let a = TestApp::start(db, fast);
        let mut config = BrokerConfig::new(a.database.url.clone());
        config.bind = "127.0.0.1:0".into();
        fast(&mut config);
        config.webhook_poll = Duration::from_millis(5);
        let b = TestApp::serve(db, a.database.shared(), config);
        pacticipants(&a, &["Foo", "Bar"]);
        create(&a, &hook(&r, &["contract_published"], None, None));
        for i in 0..40 {
            let app = if i % 2 == 0 { &a } else { &b };
            publish(app, &format!("{i}"), "/a");
        }
        r.wait_for(40);
        let (settled, attempts) = wait_settled(&a, 40);
        assert_eq!(settled, 40);
        assert_eq!(attempts, 40, "each event delivered once");
        assert_eq!(r.received().len(), 40, "each event received once");
    }
}
