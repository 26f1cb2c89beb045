//! Real concurrency on both backends: many threads, each with its own HTTP
//! connection, against one broker. No acknowledged write may be lost, no
//! race may answer 5xx, and racers on one key get one winner.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::pact_docs::{http, pact, publish, publish_ok, request};
use crate::support::{Reply, TestApp, each_backend};

/// Runs `work(i)` for `i in 0..n` on `n` threads started together.
pub fn race<T: Send>(n: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let barrier = std::sync::Barrier::new(n);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let (barrier, work) = (&barrier, &work);
                s.spawn(move || {
                    barrier.wait();
                    work(i)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("racer thread"))
            .collect()
    })
}

fn descriptions(app: &TestApp, path: &str) -> BTreeSet<String> {
    let got = app.get(path);
    assert_eq!(got.status, 200, "{}", got.text);
    got.json["interactions"]
        .as_array()
        .expect("interactions")
        .iter()
        .map(|i| i["description"].as_str().unwrap_or("").to_owned())
        .collect()
}

fn statuses(replies: &[Reply]) -> Vec<u16> {
    replies.iter().map(|r| r.status).collect()
}

#[test]
fn concurrent_merges_of_one_pact_lose_no_interaction() {
    const RACERS: usize = 8;
    each_backend(|app| {
        for round in 0..3 {
            let version = format!("merge-{round}");
            let base = pact("c", "p", json!([http("/base", 200)]));
            publish_ok(app, &version, None, &[], &[base]);
            let path = format!("/pacts/provider/p/consumer/c/version/{version}");
            let replies = race(RACERS, |i| {
                let doc = pact("c", "p", json!([http(&format!("/added-{i}"), 200)]));
                if i % 2 == 0 {
                    app.json("PATCH", &path, &doc)
                } else {
                    let mut body = request(&version, None, &[], &[doc]);
                    body["contracts"][0]["onConflict"] = json!("merge");
                    publish(app, &body)
                }
            });
            for r in &replies {
                assert_eq!(r.status, 200, "every merge is acknowledged: {}", r.text);
            }
            let got = descriptions(app, &path);
            let mut want: BTreeSet<String> = (0..RACERS)
                .map(|i| format!("a request for /added-{i}"))
                .collect();
            want.insert("a request for /base".into());
            assert_eq!(got, want, "round {round} on {:?}", app.db);
        }
    });
}

#[test]
fn racers_publishing_identical_content_to_one_version_all_succeed() {
    const RACERS: usize = 8;
    each_backend(|app| {
        for round in 0..3 {
            let version = format!("same-{round}");
            // the consumer version exists (without a branch) before the race
            let other = pact("c", "other", json!([http("/o", 200)]));
            publish_ok(app, &version, None, &[], &[other]);
            let doc = pact("c", "p", json!([http("/same", 200)]));
            let replies = race(RACERS, |i| {
                if i % 2 == 0 {
                    app.put(
                        &format!("/pacts/provider/p/consumer/c/version/{version}"),
                        &doc,
                    )
                } else {
                    publish(
                        app,
                        &request(&version, None, &[], std::slice::from_ref(&doc)),
                    )
                }
            });
            let codes = statuses(&replies);
            assert!(
                codes.iter().all(|s| *s == 200 || *s == 201),
                "round {round} on {:?}: {codes:?} {:?}",
                app.db,
                replies.iter().map(|r| &r.text).collect::<Vec<_>>()
            );
            assert!(
                codes.iter().filter(|s| **s == 201).count() <= 1,
                "at most one creation: {codes:?}"
            );
        }
    });
}

#[test]
fn racers_publishing_different_content_to_one_version_get_one_winner_and_409s() {
    const RACERS: usize = 8;
    each_backend(|app| {
        for round in 0..3 {
            let version = format!("diff-{round}");
            let other = pact("c", "other", json!([http("/o", 200)]));
            publish_ok(app, &version, None, &[], &[other]);
            let replies = race(RACERS, |i| {
                let doc = pact("c", "p", json!([http(&format!("/mine-{i}"), 200)]));
                if i % 2 == 0 {
                    app.put(
                        &format!("/pacts/provider/p/consumer/c/version/{version}"),
                        &doc,
                    )
                } else {
                    publish(app, &request(&version, None, &[], &[doc]))
                }
            });
            let codes = statuses(&replies);
            let won: Vec<usize> = (0..RACERS)
                .filter(|i| codes[*i] == 200 || codes[*i] == 201)
                .collect();
            assert_eq!(won.len(), 1, "round {round} on {:?}: {codes:?}", app.db);
            assert!(
                codes.iter().all(|s| [200, 201, 409].contains(s)),
                "{codes:?}: {:?}",
                replies.iter().map(|r| &r.text).collect::<Vec<_>>()
            );
            let got = descriptions(
                app,
                &format!("/pacts/provider/p/consumer/c/version/{version}"),
            );
            let want = BTreeSet::from([format!("a request for /mine-{}", won[0])]);
            assert_eq!(got, want, "the stored pact is the winner's");
        }
    });
}

#[test]
fn sixty_four_publishers_of_distinct_versions_are_all_stored_once() {
    const PUBLISHERS: usize = 64;
    each_backend(|app| {
        let replies = race(PUBLISHERS, |i| {
            let doc = pact("c", "p", json!([http(&format!("/v{i}"), 200)]));
            publish(
                app,
                &request(&format!("1.0.{i}"), Some("main"), &["dev"], &[doc]),
            )
        });
        for r in &replies {
            assert_eq!(r.status, 200, "{}", r.text);
        }
        let listed = app.get("/pacticipants/c/versions");
        assert_eq!(listed.status, 200, "{}", listed.text);
        let numbers: Vec<String> = listed.json["_embedded"]["versions"]
            .as_array()
            .expect("versions")
            .iter()
            .map(|v| v["number"].as_str().unwrap_or("").to_owned())
            .collect();
        let distinct: BTreeSet<&String> = numbers.iter().collect();
        assert_eq!(numbers.len(), PUBLISHERS, "no duplicates: {numbers:?}");
        assert_eq!(distinct.len(), PUBLISHERS);
        for i in 0..PUBLISHERS {
            let got = descriptions(
                app,
                &format!("/pacts/provider/p/consumer/c/version/1.0.{i}"),
            );
            assert_eq!(got, BTreeSet::from([format!("a request for /v{i}")]));
        }
        let branch = app.get("/pacticipants/c/branches/main/versions");
        let on_branch = branch.json["_embedded"]["versions"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(0);
        assert_eq!(on_branch, PUBLISHERS, "{}", branch.text);
    });
}

#[test]
fn concurrent_patches_of_one_pacticipant_keep_every_field() {
    each_backend(|app| {
        for round in 0..3 {
            let name = format!("svc-{round}");
            let fields = [
                "displayName",
                "repositoryUrl",
                "repositoryName",
                "repositoryNamespace",
            ];
            let replies = race(fields.len(), |i| {
                let mut body = serde_json::Map::new();
                body.insert(fields[i].into(), Value::String(format!("value-{i}")));
                app.json(
                    "PATCH",
                    &format!("/pacticipants/{name}"),
                    &Value::Object(body),
                )
            });
            for r in &replies {
                assert!(
                    r.status == 200 || r.status == 201,
                    "{} {}",
                    r.status,
                    r.text
                );
            }
            let got = app.get(&format!("/pacticipants/{name}"));
            for (i, field) in fields.iter().enumerate() {
                assert_eq!(got.json[field], format!("value-{i}"), "{}", got.text);
            }
        }
    });
}
