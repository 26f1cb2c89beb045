//! Pacts for verification on a large database (ignored by default; run with
//! `cargo test -p accord-broker --test it selection_scale -- --ignored --nocapture`):
//! 100 pacticipants, 20,000 versions, 1,000,000 verifications, seeded through
//! the store layer, then the verifier's full request (selectors, pending,
//! WIP) timed over loopback.

use std::time::Instant;

use accord_broker::names::{BranchName, VersionNumber};
use accord_broker::store::verifications::{self, NewVerification};
use accord_broker::store::{self, branches, pacts, versions};
use diesel::Connection;
use serde_json::json;

use crate::seed::Seed;
use crate::support::{TestApp, TestDb, backends};

const CONSUMERS: usize = 99;
const VERSIONS_PER_CONSUMER: usize = 200;
const PROVIDER_VERSIONS: usize = 200;
const VERIFICATIONS: usize = 1_000_000;

fn seed_large(seed: &Seed) {
    let provider = seed.pacticipant("Bar", None);
    seed.environment("production");
    let started = Instant::now();
    let mut contents = Vec::new();
    seed.with(|conn| {
        conn.transaction::<_, diesel::result::Error, _>(|conn| {
            let main = BranchName::parse("main").expect("branch");
            let mut provider_versions = Vec::new();
            for n in 0..PROVIDER_VERSIONS {
                let v = versions::find_or_create(
                    conn,
                    provider,
                    &VersionNumber::parse(&format!("p{n}")).expect("n"),
                )
                .expect("provider version");
                provider_versions.push(v.id);
            }
            let pbranch = branches::find_or_create(conn, provider, &main).expect("branch");
            for id in &provider_versions {
                branches::add_version(conn, &pbranch, *id).expect("branch version");
            }
            for c in 0..CONSUMERS {
                let name =
                    accord_broker::names::PacticipantName::parse(&format!("Consumer {c:02}"))
                        .expect("name");
                let consumer = store::pacticipants::find_or_create(conn, &name).expect("consumer");
                let attrs = store::pacticipants::PacticipantAttributes {
                    main_branch: Some("main".into()),
                    ..Default::default()
                };
                store::pacticipants::update_attributes(conn, consumer.id, &attrs).expect("main");
                let cbranch = branches::find_or_create(conn, consumer.id, &main).expect("branch");
                let mut content_id = 0;
                for n in 0..VERSIONS_PER_CONSUMER {
                    let v = versions::find_or_create(
                        conn,
                        consumer.id,
                        &VersionNumber::parse(&format!("{n}")).expect("n"),
                    )
                    .expect("version");
                    branches::add_version(conn, &cbranch, v.id).expect("on main");
                    if n % 10 == 0 {
                        let sha = format!("{:064x}", c * 1000 + n);
                        content_id = pacts::find_or_insert_content(
                            conn,
                            &pacts::NewContent {
                                sha: &sha,
                                consumer_id: consumer.id,
                                provider_id: provider,
                                content: "{}",
                                interactions_count: 1,
                            },
                        )
                        .expect("content")
                        .id;
                        contents.push((content_id, consumer.id));
                    }
                    pacts::publish(conn, v.id, consumer.id, provider, content_id).expect("publish");
                }
            }
            let at = store::now();
            let mut batch = Vec::new();
            for i in 0..VERIFICATIONS {
                let (content, consumer) = contents[i % contents.len()];
                batch.push(NewVerification {
                    pact_content_id: content,
                    provider_version_id: provider_versions[i % provider_versions.len()],
                    consumer_id: consumer,
                    provider_id: provider,
                    success: i % 3 != 0,
                    build_url: None,
                    test_results: None,
                    verified_by: None,
                    findings: "[]".into(),
                    wip: false,
                    pending: false,
                    selectors: None,
                    execution_date: at,
                    pact_view: false,
                    declarations: None,
                });
                if batch.len() == 2000 {
                    verifications::insert_many(conn, &batch).expect("verifications");
                    batch.clear();
                }
            }
            verifications::insert_many(conn, &batch).expect("verifications");
            Ok(())
        })
        .expect("seed transaction");
    });
    eprintln!("seeded in {:?}", started.elapsed());
}

fn time(app: &TestApp, label: &str, mut request: impl FnMut(&TestApp) -> usize) {
    let mut samples = Vec::new();
    let mut count = 0;
    for _ in 0..21 {
        let t = Instant::now();
        count = request(app);
        samples.push(t.elapsed());
    }
    samples.sort();
    eprintln!(
        "{label} ({:?}): {count} pacts, p50 {:?}, max {:?}",
        app.db,
        samples[samples.len() / 2],
        samples[samples.len() - 1]
    );
}

#[test]
#[ignore = "seeds a million verifications; run on demand"]
fn pacts_for_verification_on_a_large_database() {
    for db in backends() {
        if db == TestDb::Postgres && std::env::var("ACCORD_SCALE_POSTGRES").is_err() {
            continue;
        }
        let app = TestApp::start(db, |_| {});
        seed_large(&Seed::new(&app));
        let full = json!({
            "consumerVersionSelectors": [{"mainBranch": true}, {"deployedOrReleased": true}],
            "providerVersionBranch": "main", "includePendingStatus": true,
            "includeWipPactsSince": "2000-01-01"
        });
        time(&app, "mainBranch+deployedOrReleased, pending", |app| {
            let body = json!({"consumerVersionSelectors": [{"mainBranch": true}, {"deployedOrReleased": true}],
                              "providerVersionBranch": "main", "includePendingStatus": true});
            let reply = app.post("/pacts/provider/Bar/for-verification", &body);
            assert_eq!(reply.status, 200, "{}", reply.text);
            reply.json["_embedded"]["pacts"]
                .as_array()
                .map_or(0, Vec::len)
        });
        time(
            &app,
            "same + WIP since 2000 (every publication is a candidate)",
            |app| {
                let reply = app.post("/pacts/provider/Bar/for-verification", &full);
                assert_eq!(reply.status, 200, "{}", reply.text);
                reply.json["_embedded"]["pacts"]
                    .as_array()
                    .map_or(0, Vec::len)
            },
        );
        time(&app, "latest verification of the latest pact", |app| {
            let reply = app.get(
                "/pacts/provider/Bar/consumer/Consumer%2042/latest/verification-results/latest",
            );
            assert_eq!(reply.status, 200, "{}", reply.text);
            1
        });
    }
}
