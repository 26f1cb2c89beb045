//! A new consumer version's first publication of stored content is one
//! statement on PostgreSQL (`publishing::publish_first`); everything else
//! goes statement by statement. Either way a publication must answer and
//! store the same: the answers are compared across the backends (SQLite
//! never takes the one-statement path), the rows are counted, and each
//! thing the one statement leaves to the general path is checked to be
//! done.

use accord_broker::schema::{branch_versions, pact_publications, versions};
use diesel::prelude::*;
use serde_json::{Value, json};

use crate::concurrency::race;
use crate::pact_docs::{http, pact, publish, publish_ok, request};
use crate::seed::Seed;
use crate::support::{TestApp, backends, each_backend};

/// (versions numbered `number`, their branch entries, their publications)
/// of every pacticipant.
fn rows(app: &TestApp, number: &str) -> (i64, i64, i64) {
    Seed::new(app).with(|conn| {
        let ids: Vec<i64> = versions::table
            .filter(versions::number.eq(number))
            .select(versions::id)
            .load(conn)
            .expect("versions");
        let on_branches = branch_versions::table
            .filter(branch_versions::version_id.eq_any(&ids))
            .count()
            .get_result(conn)
            .expect("branch entries");
        let published = pact_publications::table
            .filter(pact_publications::consumer_version_id.eq_any(&ids))
            .count()
            .get_result(conn)
            .expect("publications");
        (
            i64::try_from(ids.len()).expect("count"),
            on_branches,
            published,
        )
    })
}

fn doc() -> Value {
    pact("web", "orders", json!([http("/orders/1", 200)]))
}

/// The answer with the broker's address taken out.
fn answer(app: &TestApp, body: &Value) -> String {
    let reply = publish(app, body);
    assert_eq!(reply.status, 200, "{:?}: {}", app.db, reply.text);
    reply.text.replace(&app.url, "BASE")
}

#[test]
fn a_new_version_of_stored_content_answers_and_stores_as_any_publish() {
    let mut answers = Vec::new();
    for db in backends() {
        let app = TestApp::start(db, |_| {});
        publish_ok(&app, "1", Some("main"), &[], &[doc()]);
        let mut body = request("2", Some("main"), &[], &[doc()]);
        body["buildUrl"] = json!("https://ci.example/2");
        answers.push((db, answer(&app, &body)));
        assert_eq!(rows(&app, "2"), (1, 1, 1), "{db:?}");
        let version = app.get("/pacticipants/web/versions/2");
        assert_eq!(version.json["buildUrl"], "https://ci.example/2");
        let branches = &version.json["_embedded"]["branchVersions"];
        assert_eq!(branches[0]["name"], "main", "{db:?}: {}", version.text);
        let first = app.get("/pacts/provider/orders/consumer/web/version/1");
        let second = app.get("/pacts/provider/orders/consumer/web/version/2");
        assert_eq!(second.status, 200, "{}", second.text);
        assert_eq!(
            first.json["interactions"], second.json["interactions"],
            "the stored content, read back"
        );
        let latest = app.get("/pacts/provider/orders/consumer/web/branch/main/latest");
        assert_eq!(latest.status, 200, "{}", latest.text);
        let self_href = latest.json["_links"]["self"]["href"].as_str().unwrap_or("");
        assert!(self_href.ends_with("/version/2"), "{self_href}");
        // new content: stored with the publication
        let changed = pact(
            "web",
            "orders",
            json!([http("/orders/1", 200), http("/orders/2", 404)]),
        );
        answers.push((
            db,
            answer(&app, &request("3", Some("main"), &[], &[changed])),
        ));
        assert_eq!(rows(&app, "3"), (1, 1, 1), "{db:?}");
        let third = app.get("/pacts/provider/orders/consumer/web/version/3");
        let paths: Vec<&Value> = third.json["interactions"]
            .as_array()
            .map(|i| i.iter().map(|i| &i["request"]["path"]).collect())
            .unwrap_or_default();
        assert_eq!(paths, [&json!("/orders/1"), &json!("/orders/2")], "{db:?}");
        let stored: (i64, i64) = Seed::new(&app).with(|conn| {
            use accord_broker::schema::pact_contents as pc;
            pc::table
                .select((
                    diesel::dsl::count_star(),
                    diesel::dsl::max(pc::interactions_count),
                ))
                .first::<(i64, Option<i64>)>(conn)
                .map(|(n, most)| (n, most.unwrap_or(0)))
                .expect("contents")
        });
        assert_eq!(
            stored,
            (2, 2),
            "{db:?}: two contents, the new one of two interactions"
        );
    }
    if let [(_, sqlite2), (_, sqlite3), (_, postgres2), (_, postgres3)] = answers.as_slice() {
        assert_eq!(sqlite2, postgres2, "the same answer on both backends");
        assert_eq!(sqlite3, postgres3, "the same answer on both backends");
    }
}

#[test]
fn racers_publishing_one_new_version_of_stored_content_store_it_once() {
    const RACERS: usize = 8;
    each_backend(|app| {
        publish_ok(app, "1", Some("main"), &[], &[doc()]);
        for round in 0..3 {
            let version = format!("race-{round}");
            let body = request(&version, Some("main"), &[], &[doc()]);
            let replies = race(RACERS, |_| publish(app, &body));
            for r in &replies {
                assert_eq!(r.status, 200, "{:?} round {round}: {}", app.db, r.text);
            }
            let created = replies
                .iter()
                .filter(|r| {
                    r.json["notices"][0]["text"]
                        .as_str()
                        .unwrap_or("")
                        .starts_with("Created")
                })
                .count();
            assert_eq!(
                created, 1,
                "{:?} round {round}: one request created it",
                app.db
            );
            assert_eq!(rows(app, &version), (1, 1, 1), "{:?} round {round}", app.db);
            // distinct new versions of one new content at once: it is
            // stored once, whoever stores it first
            let content = pact(
                "web",
                "orders",
                json!([http(&format!("/new-{round}"), 200)]),
            );
            let replies = race(RACERS, |i| {
                let number = format!("new-{round}-{i}");
                publish(
                    app,
                    &request(&number, Some("main"), &[], std::slice::from_ref(&content)),
                )
            });
            for r in &replies {
                assert_eq!(r.status, 200, "{:?} round {round}: {}", app.db, r.text);
            }
            let contents: i64 = Seed::new(app).with(|conn| {
                use accord_broker::schema::pact_contents as pc;
                pc::table.count().get_result(conn).expect("contents")
            });
            assert_eq!(
                contents,
                2 + round,
                "{:?} round {round}: one more content",
                app.db
            );
            for i in 0..RACERS {
                assert_eq!(rows(app, &format!("new-{round}-{i}")), (1, 1, 1));
            }
        }
    });
}

#[test]
fn what_one_statement_leaves_to_the_general_path_is_done() {
    crate::statements::counter::install();
    each_backend(|app| {
        // the consumer has no main branch yet: the first `main` becomes it
        publish_ok(app, "1", None, &[], &[doc()]);
        assert_eq!(app.get("/pacticipants/web").json["mainBranch"], Value::Null);
        publish_ok(app, "2", Some("main"), &[], &[doc()]);
        assert_eq!(app.get("/pacticipants/web").json["mainBranch"], "main");
        assert_eq!(rows(app, "2"), (1, 1, 1));
        // a branch not made yet
        publish_ok(app, "3", Some("feat/x"), &[], &[doc()]);
        let branch = app.get("/pacticipants/web/branches/feat%2Fx/versions/3");
        assert_eq!(branch.status, 200, "{}", branch.text);
        // tags
        publish_ok(app, "4", Some("main"), &["prod"], &[doc()]);
        let tag = app.get("/pacticipants/web/versions/4/tags/prod");
        assert_eq!(tag.status, 200, "{}", tag.text);
        // an existing version: the same content again
        let again = publish(app, &request("4", Some("main"), &[], &[doc()]));
        assert_eq!(again.status, 200, "{}", again.text);
        let text = again.json["notices"][1]["text"].as_str().unwrap_or("");
        assert!(
            text.ends_with("(the same content was published before)."),
            "{text}"
        );
        // a provider and content never stored
        let other = pact("web", "billing", json!([http("/invoices/1", 200)]));
        publish_ok(app, "5", Some("main"), &[], &[other]);
        assert_eq!(rows(app, "5"), (1, 1, 1));
        // two contracts
        let both = [
            doc(),
            pact("web", "billing", json!([http("/invoices/1", 200)])),
        ];
        publish_ok(app, "6", Some("main"), &[], &both);
        assert_eq!(rows(app, "6"), (1, 1, 2));
        // a version number another pacticipant has: new for orders too
        // (whose main branch is set by its first publication, so that its
        // "7" of stored content is the one statement on PostgreSQL)
        let orders = pact("orders", "web", json!([http("/back", 200)]));
        publish_ok(app, "0", Some("main"), &[], std::slice::from_ref(&orders));
        publish_ok(app, "7", Some("main"), &[], &[doc()]);
        let mut reply = None;
        let ran = statements_of(app, || {
            reply = Some(publish(app, &request("7", Some("main"), &[], &[orders])));
        });
        let reply = reply.expect("a reply");
        assert_eq!(reply.status, 200, "{}", reply.text);
        let general = ran.iter().any(|s| inserts_a_version(s));
        assert_eq!(general, app.db == crate::support::TestDb::Sqlite, "{ran:?}");
        assert_eq!(
            reply.json["notices"][0]["text"],
            "Created orders version 7 with branch main"
        );
        assert_eq!(rows(app, "7"), (2, 2, 2));
    });
}

#[test]
fn a_webhook_on_the_pair_hears_of_a_new_version_of_stored_content() {
    use crate::webhooks::{Receiver, each_backend_fast, hook, pacticipants, queued};
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        publish_ok(app, "1", Some("main"), &[], &[doc()]);
        pacticipants(app, &["mobile"]);
        let other = app.post(
            "/webhooks",
            &hook(&r, &["contract_published"], Some("mobile"), None),
        );
        assert_eq!(other.status, 201, "{}", other.text);
        publish_ok(app, "2", Some("main"), &[], &[doc()]);
        assert_eq!(
            queued(app, "contract_published"),
            0,
            "another consumer's hook"
        );
        let ours = app.post(
            "/webhooks",
            &hook(&r, &["contract_published"], Some("web"), Some("orders")),
        );
        assert_eq!(ours.status, 201, "{}", ours.text);
        publish_ok(app, "3", Some("main"), &[], &[doc()]);
        assert_eq!(queued(app, "contract_published"), 1, "{:?}", app.db);
        assert_eq!(rows(app, "3"), (1, 1, 1));
    });
}

#[test]
fn the_one_statement_runs_only_outside_a_transaction_and_only_on_postgres() {
    use accord_broker::store::pacts::first::{self, FirstOutcome, FirstPublication};
    use diesel::connection::Connection;
    each_backend(|app| {
        publish_ok(app, "1", Some("main"), &[], &[doc()]);
        let sha = app
            .get("/pacts/provider/orders/consumer/web/version/1")
            .json["_links"]["pb:publish-verification-results"]["href"]
            .as_str()
            .and_then(|h| h.split("/pact-version/").nth(1))
            .and_then(|h| h.split('/').next())
            .expect("the content's sha")
            .to_owned();
        let asked = |number: &'static str| FirstPublication {
            consumer: "web",
            provider: "orders",
            sha: &sha,
            content: None,
            interactions: None,
            branch: Some("main"),
            number,
            build_url: None,
            at: accord_broker::store::now(),
            candidate: true,
        };
        Seed::new(app).with(|conn| {
            let inside = conn
                .transaction::<_, diesel::result::Error, _>(|c| Ok(first::publish(c, asked("2"))))
                .expect("the transaction")
                .expect("no error");
            assert!(matches!(inside, FirstOutcome::NotAsked), "{inside:?}");
            let outside = first::publish(conn, asked("2")).expect("no error");
            match app.db {
                crate::support::TestDb::Sqlite => {
                    assert!(matches!(outside, FirstOutcome::NotAsked), "{outside:?}")
                }
                crate::support::TestDb::Postgres => {
                    assert!(
                        matches!(outside, FirstOutcome::Published { .. }),
                        "{outside:?}"
                    )
                }
            }
        });
    });
}

/// Whether `sql` is the general path's insert of a version (background
/// work may run a `BEGIN` of its own meanwhile; it never inserts one).
fn inserts_a_version(sql: &str) -> bool {
    sql.starts_with("INSERT INTO \"versions\"") || sql.starts_with("INSERT INTO `versions`")
}

/// The texts of the statements `publish` runs on `app`'s database.
fn statements_of(app: &TestApp, publish: impl FnOnce()) -> Vec<String> {
    let url = app.database.url.clone();
    crate::statements::counter::watch(&url);
    let before = crate::statements::counter::texts(&url).len();
    publish();
    crate::statements::counter::texts(&url)[before..].to_vec()
}

#[test]
fn the_content_is_sent_again_only_when_nothing_else_was_missing() {
    crate::statements::counter::install();
    for db in backends() {
        let app = TestApp::start(db, |_| {});
        publish_ok(&app, "1", Some("main"), &[], &[doc()]);
        let tries = |number: &str, branch: &str, path: &str| {
            let changed = pact("web", "orders", json!([http(path, 200)]));
            let ran = statements_of(&app, || {
                publish_ok(&app, number, Some(branch), &[], &[changed]);
            });
            let first = ran
                .iter()
                .filter(|s| s.starts_with("/* a new consumer version's first publication"))
                .count();
            (first, ran.iter().any(|s| inserts_a_version(s)))
        };
        // new content on a branch that exists: the second try publishes
        // (no general path); on a new branch, one try, then the general path
        let expected = |n| match db {
            crate::support::TestDb::Sqlite => (0, true),
            crate::support::TestDb::Postgres => (n, n == 1),
        };
        assert_eq!(tries("2", "main", "/two"), expected(2), "{db:?}");
        // new content on a new branch: one try, then statement by statement
        assert_eq!(tries("3", "feat", "/three"), expected(1), "{db:?}");
        assert_eq!(rows(&app, "3"), (1, 1, 1));
    }
}
