//! Two brokers on one database serve the same data: nothing another replica
//! needs lives in a process.

use accord_broker::BrokerConfig;
use serde_json::json;

use crate::support::{TestApp, TestDatabase, TestDb, backends};

fn second(app: &TestApp) -> TestApp {
    let database = app.database.shared();
    let mut config = BrokerConfig::new(database.url.clone());
    config.bind = "127.0.0.1:0".into();
    config.workers = Some(1);
    config.pool_size = 2;
    TestApp::serve(app.db, database, config)
}

#[test]
fn a_write_on_one_replica_is_read_on_the_other() {
    for db in backends() {
        let a = TestApp::start(db, |_| {});
        let b = second(&a);
        assert_eq!(a.post("/pacticipants", &json!({"name": "Foo"})).status, 201);
        assert_eq!(b.get("/pacticipants/Foo").json["name"], "Foo");
        assert_eq!(
            b.post("/pacticipants", &json!({"name": "Foo"})).status,
            409,
            "the name is taken on every replica"
        );
    }
}

#[test]
fn replicas_starting_together_migrate_once() {
    for db in backends() {
        let database = TestDatabase::create(db);
        let urls: Vec<String> = (0..3).map(|_| database.url.clone()).collect();
        let started: Vec<_> = urls
            .into_iter()
            .map(|url| {
                std::thread::spawn(move || {
                    let pool = accord_broker::db::connect(&url, 1).expect("connect");
                    let mut conn = pool.get().expect("connection");
                    accord_broker::db::run_migrations(&mut conn).map(|v| v.len())
                })
            })
            .collect();
        let applied: Vec<usize> = started
            .into_iter()
            .map(|t| {
                t.join()
                    .expect("thread")
                    .expect("migrations succeed on every replica")
            })
            .collect();
        assert_eq!(
            applied.iter().sum::<usize>(),
            1,
            "exactly one replica applied the migration: {applied:?}"
        );
        let _ = TestDb::Sqlite;
    }
}
