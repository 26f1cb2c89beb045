//! Two brokers on one database serve the same data: nothing another replica
//! needs lives in a process.

use accord_broker::BrokerConfig;
use serde_json::json;

use crate::support::{TestApp, TestDatabase, backends};

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
        let migrations = std::fs::read_dir(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations/sqlite"),
        )
        .expect("migrations folder")
        .count();
        assert_eq!(
            (
                applied.iter().filter(|n| **n > 0).count(),
                applied.iter().sum::<usize>()
            ),
            (1, migrations),
            "exactly one replica applied the migrations: {applied:?}"
        );
    }
}

#[test]
fn concurrent_creators_of_one_name_all_succeed_inside_their_transactions() {
    use accord_broker::names::{PacticipantName, VersionNumber};
    use accord_broker::store::{pacticipants, versions};
    use std::sync::{Arc, Barrier};

    for db in backends() {
        let database = TestDatabase::create(db);
        let pool = accord_broker::db::connect(&database.url, 8).expect("connect");
        accord_broker::db::run_migrations(&mut pool.get().expect("connection")).expect("migrate");
        for round in 0..5 {
            let barrier = Arc::new(Barrier::new(6));
            let workers: Vec<_> = (0..6)
                .map(|_| {
                    let (pool, barrier) = (pool.clone(), barrier.clone());
                    std::thread::spawn(move || {
                        let mut conn = pool.get().expect("connection");
                        let name = PacticipantName::parse(&format!("Same {round}")).expect("name");
                        let number = VersionNumber::parse("1.0.0").expect("number");
                        barrier.wait();
                        accord_broker::db::write_transaction(&mut conn, |c| {
                            let p = pacticipants::find_or_create(c, &name)?;
                            let v = versions::find_or_create(c, p.id, &number)?;
                            // a statement after a lost race must still work
                            pacticipants::find_by_id(c, p.id)?;
                            Ok::<_, accord_broker::store::StoreError>(v.id)
                        })
                    })
                })
                .collect();
            let ids: Vec<i64> = workers
                .into_iter()
                .map(|w| w.join().expect("thread").expect("every creator succeeds"))
                .collect();
            assert!(
                ids.windows(2).all(|w| w[0] == w[1]),
                "one version for everyone: {ids:?}"
            );
        }
    }
}

#[test]
fn concurrent_first_publishes_of_one_version_all_succeed() {
    use crate::pact_docs::{http, pact, request};
    use std::sync::{Arc, Barrier};

    crate::support::each_backend(|app| {
        // both pacticipants exist, so the race is on the version itself
        assert_eq!(
            app.post("/pacticipants", &json!({"name": "Foo"})).status,
            201
        );
        assert_eq!(
            app.post("/pacticipants", &json!({"name": "Bar"})).status,
            201
        );
        let doc = pact("Foo", "Bar", json!([http("/a", 200)]));
        let body = Arc::new(request("1.0.0", Some("main"), &["dev"], &[doc]));
        let barrier = Arc::new(Barrier::new(6));
        let url = format!("{}/contracts/publish", app.url);
        let workers: Vec<_> = (0..6)
            .map(|_| {
                let (body, barrier, url) = (body.clone(), barrier.clone(), url.clone());
                std::thread::spawn(move || {
                    let client = reqwest::blocking::Client::new();
                    barrier.wait();
                    let reply = client
                        .post(url)
                        .header("Content-Type", "application/json")
                        .body(body.to_string())
                        .send()
                        .expect("broker answers");
                    (reply.status().as_u16(), reply.text().unwrap_or_default())
                })
            })
            .collect();
        for worker in workers {
            let (status, text) = worker.join().expect("thread");
            assert_eq!(status, 200, "every publisher succeeds: {text}");
        }
        let versions = app.get("/pacticipants/Foo/versions");
        assert_eq!(
            versions.json["_embedded"]["versions"]
                .as_array()
                .map(Vec::len),
            Some(1),
            "{}",
            versions.text
        );
    });
}

/// Brokers started at the same moment on one new database.
fn start_together(db: crate::support::TestDb, n: usize) -> (TestDatabase, Vec<TestApp>) {
    let database = TestDatabase::create(db);
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(n));
    let starters: Vec<_> = (0..n)
        .map(|_| {
            let (shared, barrier) = (database.shared(), barrier.clone());
            std::thread::spawn(move || {
                let mut config = BrokerConfig::new(shared.url.clone());
                config.bind = "127.0.0.1:0".into();
                config.workers = Some(1);
                config.pool_size = 2;
                barrier.wait();
                TestApp::serve(db, shared, config)
            })
        })
        .collect();
    let apps = starters
        .into_iter()
        .map(|s| s.join().expect("every replica starts"))
        .collect();
    (database, apps)
}

#[test]
fn replicas_started_together_on_a_new_database_all_start() {
    for db in backends() {
        let rounds = if db == crate::support::TestDb::Sqlite {
            10
        } else {
            3
        };
        for _ in 0..rounds {
            let (_database, apps) = start_together(db, 3);
            for app in &apps {
                assert_eq!(app.get("/diagnostic/status/heartbeat").status, 200);
            }
        }
    }
}

#[test]
fn replicas_take_writes_through_both_and_answer_can_i_deploy_alike() {
    use crate::pact_docs::{http, pact, publish_ok};
    for db in backends() {
        let (_database, apps) = start_together(db, 2);
        let (a, b) = (&apps[0], &apps[1]);
        publish_ok(
            a,
            "1",
            Some("main"),
            &[],
            &[pact("c", "p", json!([http("/x", 200)]))],
        );
        publish_ok(
            b,
            "2",
            Some("main"),
            &[],
            &[pact("c", "p", json!([http("/y", 200)]))],
        );
        let got = b.get("/pacts/provider/p/consumer/c/version/1");
        let href = got.json["_links"]["pb:publish-verification-results"]["href"]
            .as_str()
            .expect("link")
            .replace(&a.url, "")
            .replace(&b.url, "");
        let verified = b.post(
            &href,
            &json!({"success": true, "providerApplicationVersion": "9"}),
        );
        assert_eq!(verified.status, 201, "{}", verified.text);
        let env = a.post(
            "/environments",
            &json!({"name": "production", "production": true}),
        );
        let uuid = env.json["uuid"].as_str().expect("uuid").to_owned();
        for (app, who, version) in [(a, "c", "1"), (b, "p", "9")] {
            let path = format!(
                "/pacticipants/{who}/versions/{version}/deployed-versions/environment/{uuid}"
            );
            assert_eq!(app.post(&path, &json!({})).status, 201);
        }
        for (who, version) in [("c", "1"), ("c", "2"), ("p", "9")] {
            let query =
                format!("/can-i-deploy?pacticipant={who}&version={version}&environment=production");
            let (x, y) = (a.get(&query), b.get(&query));
            assert_eq!(x.status, y.status, "{query}");
            let strip = |r: &crate::support::Reply| {
                let mut v = r.json.clone();
                v["_links"] = serde_json::Value::Null;
                v.to_string().replace(&a.url, "").replace(&b.url, "")
            };
            assert_eq!(strip(&x), strip(&y), "{query}: {} vs {}", x.text, y.text);
            let deployable = x.json["summary"]["deployable"].clone();
            // version 2 was never verified: unknown, not a no
            let want = if version == "2" {
                json!(null)
            } else {
                json!(true)
            };
            assert_eq!(deployable, want, "{query}: {}", x.text);
        }
    }
}

/// `GET /pacticipants` on `app` with a bearer token: the status.
fn read_with(app: &TestApp, secret: &str) -> u16 {
    let request = app
        .client()
        .get(format!("{}/pacticipants", app.url))
        .bearer_auth(secret);
    app.send(request).status
}

/// A token is remembered for a few seconds after its lookup (the token
/// cache): revoked through one replica it stops there at once and on the
/// other within the cache's time (5 s), never later.
#[test]
fn a_token_revoked_on_one_replica_stops_working_on_the_other_within_the_cache_time() {
    for db in backends() {
        let a = TestApp::start(db, |_| {});
        let b = second(&a);
        let admin = a.post("/tokens", &json!({"name": "root", "role": "admin"}));
        let admin = admin.json["token"].as_str().expect("secret").to_owned();
        let create = a
            .client()
            .post(format!("{}/tokens", a.url))
            .bearer_auth(&admin)
            .header("Content-Type", "application/json")
            .body(json!({"name": "r", "role": "read"}).to_string());
        let reader = a.send(create).json["token"]
            .as_str()
            .expect("secret")
            .to_owned();
        assert_eq!(read_with(&b, &reader), 200, "b looked the token up");
        let revoke = a
            .client()
            .delete(format!("{}/tokens/r", a.url))
            .bearer_auth(&admin);
        assert_eq!(a.send(revoke).status, 204);
        let revoked_at = std::time::Instant::now();
        assert_eq!(read_with(&a, &reader), 401, "refused at once where revoked");
        while read_with(&b, &reader) != 401 {
            assert!(
                revoked_at.elapsed() < std::time::Duration::from_secs(30),
                "{db:?}: the other replica still accepts a token revoked 30 s ago"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        println!(
            "{db:?}: the other replica refused the revoked token after {:.1} s (bound: 5 s)",
            revoked_at.elapsed().as_secs_f64()
        );
    }
}

/// An open broker asks the database whether a token exists at every
/// request (on SQLite through `db::TokenProbe`, on the caller's thread):
/// the first token, created through another replica, closes it at its next
/// request, and revoking the last one opens it again.
#[test]
fn the_first_token_created_on_one_replica_closes_the_other_at_once() {
    for db in backends() {
        let a = TestApp::start(db, |_| {});
        let b = second(&a);
        assert_eq!(b.get("/pacticipants").status, 200, "{db:?}: open");
        let admin = a.post("/tokens", &json!({"name": "root", "role": "admin"}));
        assert_eq!(admin.status, 201, "{}", admin.text);
        let admin = admin.json["token"].as_str().expect("secret").to_owned();
        assert_eq!(b.get("/pacticipants").status, 401, "{db:?}: closed at once");
        assert_eq!(
            b.post("/pacticipants", &json!({"name": "Foo"})).status,
            401,
            "{db:?}: no write without a token"
        );
        let revoke = a
            .client()
            .delete(format!("{}/tokens/root", a.url))
            .bearer_auth(&admin);
        assert_eq!(a.send(revoke).status, 204);
        assert_eq!(b.get("/pacticipants").status, 200, "{db:?}: open again");
    }
}
