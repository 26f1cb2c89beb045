//! Verification results are numbered per pact: `…/verification-results/1`
//! is the first result of that pact, whatever other pacts hold, and every
//! link to a result carries that number.

use std::collections::BTreeSet;

use diesel::connection::SimpleConnection;
use serde_json::{Value, json};

use crate::seed::Seed;
use crate::support::{Reply, TestApp, TestDb, each_backend};

const PAIR: &str = "/pacts/provider/Bar/consumer/Foo";

fn results(sha: &str) -> String {
    format!("{PAIR}/pact-version/{sha}/verification-results")
}

fn publish(app: &TestApp, sha: &str, provider_version: &str, success: bool) -> Reply {
    let reply = app.post(
        &results(sha),
        &json!({"success": success, "providerApplicationVersion": provider_version}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply
}

/// The path of an absolute link on this broker.
fn path_of<'a>(app: &TestApp, link: &'a Value) -> &'a str {
    link["href"]
        .as_str()
        .and_then(|h| h.strip_prefix(&app.url))
        .unwrap_or_else(|| panic!("an absolute link on this broker: {link}"))
}

#[test]
fn each_pacts_first_result_is_number_1_and_every_link_resolves() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let x = seed.publish("Foo", "1", "Bar", "x");
        let y = seed.publish("Foo", "2", "Bar", "y");
        let published = [
            (publish(app, &x, "7", true), &x, 1),
            (publish(app, &y, "7", false), &y, 1),
            (publish(app, &x, "8", true), &x, 2),
        ];
        for (reply, sha, n) in &published {
            assert_eq!(reply.json["number"], *n, "{}", reply.text);
            let me = path_of(app, &reply.json["_links"]["self"]);
            assert_eq!(me, format!("{}/{n}", results(sha)));
            let read = app.get(me);
            assert_eq!(read.status, 200, "{me}: {}", read.text);
            assert_eq!(read.json["number"], *n);
            assert_eq!(
                read.json["providerApplicationVersion"],
                reply.json["providerApplicationVersion"]
            );
            assert_eq!(read.json["_links"]["self"], reply.json["_links"]["self"]);
        }
        let latest = app.get(&format!("{}/latest", results(&x)));
        assert_eq!(latest.json["number"], 2, "{}", latest.text);

        // the matrix links each row to its own result, by the same numbers
        let matrix = app.get("/matrix?q[][pacticipant]=Foo&q[][pacticipant]=Bar");
        assert_eq!(matrix.status, 200, "{}", matrix.text);
        let mut linked = BTreeSet::new();
        for row in matrix.json["matrix"].as_array().expect("rows") {
            let path = path_of(app, &row["verificationResult"]["_links"]["self"]);
            let read = app.get(path);
            assert_eq!(read.status, 200, "{path}: {}", read.text);
            assert_eq!(
                read.json["providerApplicationVersion"],
                row["provider"]["version"]["number"]
            );
            assert_eq!(read.json["success"], row["verificationResult"]["success"]);
            linked.insert(path.to_owned());
        }
        let expected: BTreeSet<String> = published
            .iter()
            .map(|(_, sha, n)| format!("{}/{n}", results(sha)))
            .collect();
        assert_eq!(linked, expected);

        // and so does a consumer version's summary
        let summary = app.get("/verification-results/consumer/Foo/version/2/latest");
        let embedded = &summary.json["_embedded"]["verificationResults"][0];
        assert_eq!(
            path_of(app, &embedded["_links"]["self"]),
            format!("{}/1", results(&y))
        );
    });
}

#[test]
fn an_unknown_or_absurd_number_is_a_404_problem() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let x = seed.publish("Foo", "1", "Bar", "x");
        publish(app, &x, "7", true);
        for n in [
            "2",
            "0",
            "-1",
            "+1",
            "01",
            "1.0",
            "one",
            "9223372036854775807",
            "9223372036854775808",
            "99999999999999999999999999999999",
            "%20",
        ] {
            let reply = app.send(
                app.client()
                    .get(format!("{}{}/{n}", app.url, results(&x)))
                    .header("Accept", "application/hal+json, application/problem+json"),
            );
            assert_eq!(reply.status, 404, "{n}: {}", reply.text);
            assert!(
                reply.content_type.starts_with("application/problem+json"),
                "{n}: {}",
                reply.content_type
            );
            assert_eq!(reply.json["status"], 404, "{n}: {}", reply.text);
        }
        assert_eq!(app.get(&format!("{}/1", results(&x))).status, 200);
    });
}

#[test]
fn a_number_stays_with_its_result_when_others_are_deleted() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let x = seed.publish("Foo", "1", "Bar", "x");
        publish(app, &x, "7", true);
        publish(app, &x, "8", false);
        publish(app, &x, "9", true);
        // deleting a provider version deletes its results
        for gone in ["7", "9"] {
            let deleted = app.json(
                "DELETE",
                &format!("/pacticipants/Bar/versions/{gone}"),
                &json!({}),
            );
            assert!(deleted.status < 300, "{}", deleted.text);
        }
        assert_eq!(app.get(&format!("{}/1", results(&x))).status, 404);
        let kept = app.get(&format!("{}/2", results(&x)));
        assert_eq!(kept.status, 200, "{}", kept.text);
        assert_eq!(kept.json["providerApplicationVersion"], "8");
        let next = publish(app, &x, "10", true);
        assert_eq!(next.json["number"], 4, "a number is never given twice");
    });
}

#[test]
fn the_migration_numbers_the_results_stored_before_it() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let x = seed.publish("Foo", "1", "Bar", "x");
        let y = seed.publish("Foo", "2", "Bar", "y");
        for (sha, version) in [(&x, "7"), (&y, "7"), (&x, "8")] {
            publish(app, sha, version, true);
        }
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../migrations")
            .join(match app.db {
                TestDb::Sqlite => "sqlite",
                TestDb::Postgres => "postgres",
            })
            .join("2026-12-03-000002_verification_numbers");
        seed.with(|conn| {
            for step in ["down.sql", "up.sql"] {
                let sql = std::fs::read_to_string(folder.join(step)).expect("migration");
                conn.batch_execute(&sql)
                    .unwrap_or_else(|e| panic!("{step}: {e}"));
            }
        });
        for (sha, n, version) in [(&x, 1, "7"), (&x, 2, "8"), (&y, 1, "7")] {
            let read = app.get(&format!("{}/{n}", results(sha)));
            assert_eq!(read.status, 200, "{}", read.text);
            assert_eq!(read.json["providerApplicationVersion"], version);
        }
        assert_eq!(publish(app, &x, "9", true).json["number"], 3);
        assert_eq!(publish(app, &y, "9", true).json["number"], 2);
    });
}

#[test]
fn results_published_together_get_distinct_numbers() {
    const RACERS: usize = 8;
    each_backend(|app| {
        let seed = Seed::new(app);
        let x = seed.publish("Foo", "1", "Bar", "x");
        let numbers: BTreeSet<i64> = crate::concurrency::race(RACERS, |i| {
            (0..3)
                .map(|round| {
                    let reply = publish(app, &x, &format!("{i}.{round}"), true);
                    reply.json["number"].as_i64().expect("number")
                })
                .collect::<Vec<_>>()
        })
        .into_iter()
        .flatten()
        .collect();
        let expected: BTreeSet<i64> = (1..=(RACERS as i64 * 3)).collect();
        assert_eq!(numbers, expected);
    });
}

#[test]
fn results_stored_in_bulk_are_numbered_per_pact_in_order() {
    use accord_broker::store::{self, verifications};
    each_backend(|app| {
        let seed = Seed::new(app);
        let x = seed.publish("Foo", "1", "Bar", "x");
        let y = seed.publish("Foo", "2", "Bar", "y");
        publish(app, &x, "1", true);
        let (foo, bar) = (seed.pacticipant("Foo", None), seed.pacticipant("Bar", None));
        let bar_2 = seed.version("Bar", "2");
        let content = |sha: &str| {
            seed.with(|conn| store::pacts::find_content_by_sha(conn, sha))
                .expect("query")
                .expect("content")
                .id
        };
        let row = |content: i64, success: bool| verifications::NewVerification {
            pact_content_id: content,
            provider_version_id: bar_2,
            consumer_id: foo,
            provider_id: bar,
            success,
            build_url: None,
            test_results: None,
            verified_by: None,
            findings: "[]".into(),
            wip: false,
            pending: false,
            selectors: None,
            execution_date: store::now(),
            pact_view: false,
            declarations: None,
        };
        // x: 1 stored; then y, x, x, y, y (different counts per pact)
        let (cx, cy) = (content(&x), content(&y));
        let rows: Vec<_> = [(cy, true), (cx, false), (cx, true), (cy, false), (cy, true)]
            .into_iter()
            .map(|(c, success)| row(c, success))
            .collect();
        let stored = seed.with(|conn| verifications::insert_many(conn, &rows));
        assert_eq!(stored.expect("stored"), 5);
        for (sha, n, success) in [(&x, 2, false), (&x, 3, true), (&y, 1, true), (&y, 3, true)] {
            let read = app.get(&format!("{}/{n}", results(sha)));
            assert_eq!(read.status, 200, "{}", read.text);
            assert_eq!(read.json["success"], success, "{sha} {n}");
        }
        assert_eq!(publish(app, &y, "3", true).json["number"], 4);
    });
}
