//! can-i-deploy to an environment (and `/matrix` with one version selector
//! and an environment) is read in one statement (`matrix::environment`);
//! the answer must be exactly the one the statement-by-statement path gives
//! (`matrix::run_general`): summary, rows in order, and what the rows show.
//! Compared on a data set with the cases that matter — consumers, providers,
//! a pacticipant that is both, several versions in an environment (deployed,
//! on two instances, released, undeployed, support ended), failed, repeated
//! and Pact-view-only verifications, branches, tags, a quarantined version,
//! unknown versions, pacticipants and environments — for every latestby.

use std::collections::BTreeMap;

use accord_broker::db::AnyConnection;
use accord_broker::matrix::resolve::Fields;
use accord_broker::matrix::selector::{LatestBy, MatrixQuery, Selector, Target, VersionSpec};
use accord_broker::matrix::{self, Outcome};
use accord_broker::names::PacticipantName;
use accord_broker::schema::{admission_transitions, verifications};
use accord_broker::store;
use diesel::prelude::*;

use crate::seed::Seed;
use crate::support::{TestApp, backends};

const NAMES: [&str; 5] = ["Web", "Orders", "Billing", "Mobile", "Lonely"];
const VERSIONS: [&str; 4] = ["1", "2", "3", "4"];

/// Web consumes Orders and Billing, Mobile consumes Orders, Orders consumes
/// Billing; Lonely has versions and no contract.
fn build(seed: &Seed) {
    let ids: Vec<i64> = NAMES
        .iter()
        .map(|n| seed.pacticipant(n, Some("main")))
        .collect();
    let versions: Vec<Vec<i64>> = (0..NAMES.len())
        .map(|p| {
            (0..VERSIONS.len())
                .map(|v| {
                    let branch = if v == 3 { "feat" } else { "main" };
                    let tags: &[&str] = if v == 1 { &["prod", "v2"] } else { &[] };
                    seed.version_of(ids[p], VERSIONS[v], Some(branch), tags)
                })
                .collect()
        })
        .collect();
    for (c, p) in [(0, 1), (0, 2), (3, 1), (1, 2)] {
        for (v, &cv) in versions[c].iter().enumerate() {
            // contents change every second version
            let content = seed.publish_content(ids[c], cv, ids[p], &format!("epoch {}", v / 2));
            for (pv, &provider_version) in versions[p].iter().enumerate() {
                let success = (c + p + v + pv) % 5 != 0;
                if (v + pv) % 3 != 2 {
                    seed.verify(content, ids[c], ids[p], provider_version, !success);
                    seed.verify(content, ids[c], ids[p], provider_version, success);
                }
                if c == 0 && p == 2 && pv == 3 {
                    pact_view_success(seed, content, ids[c], ids[p], provider_version);
                }
            }
        }
    }
    places(seed, &ids);
}

/// Deployments and releases in production and staging, and a quarantine.
fn places(seed: &Seed, ids: &[i64]) {
    let production = seed.environment("production");
    let staging = seed.environment("staging");
    let v = |p: usize, n: usize| seed.version(NAMES[p], VERSIONS[n]);
    seed.deploy_version(ids[1], v(1, 1), production, "");
    seed.deploy_version(ids[1], v(1, 2), production, "canary");
    seed.deploy_version(ids[3], v(3, 0), production, "");
    seed.undeploy(v(3, 0));
    seed.deploy_version(ids[3], v(3, 2), production, "");
    seed.release_version(ids[2], v(2, 2), production);
    seed.release("Billing", "1", "production", true);
    seed.deploy_version(ids[0], v(0, 1), staging, "");
    seed.release_version(ids[1], v(1, 3), staging);
    seed.environment("empty");
    let quarantined = v(0, 2);
    seed.with(|conn| {
        diesel::insert_into(admission_transitions::table)
            .values((
                admission_transitions::version_id.eq(quarantined),
                admission_transitions::from_state.eq("ACTIVE"),
                admission_transitions::to_state.eq("QUARANTINED"),
                admission_transitions::cause_kind.eq("drift"),
                admission_transitions::cause.eq("report 1"),
                admission_transitions::reason.eq("drift seen in production"),
                admission_transitions::created_at.eq(store::now()),
            ))
            .execute(conn)
            .expect("quarantine");
    });
}

/// A later success of the Pact view only (the whole contract unverified).
fn pact_view_success(seed: &Seed, content: i64, consumer: i64, provider: i64, version: i64) {
    let id = seed.verify(content, consumer, provider, version, true);
    seed.with(|conn| {
        diesel::update(verifications::table.find(id))
            .set(verifications::pact_view.eq(true))
            .execute(conn)
            .expect("pact view");
    });
}

fn query(pacticipant: &str, version: &str, env: &str, latestby: Option<LatestBy>) -> MatrixQuery {
    MatrixQuery {
        selectors: vec![Selector {
            pacticipant: PacticipantName::parse(pacticipant).expect("name"),
            spec: VersionSpec::Number(version.to_owned()),
        }],
        target: Some(Target::Environment(env.to_owned())),
        latestby,
        ..MatrixQuery::default()
    }
}

/// What a user sees of an outcome: the summary, the rows in order, and the
/// names, branches, tags, environments and shas of what the rows show.
fn seen(outcome: &Outcome) -> String {
    let d = &outcome.details;
    let mut shown: BTreeMap<String, String> = BTreeMap::new();
    for r in &outcome.rows {
        let row = &r.row;
        let versions = std::iter::once(&row.consumer_version).chain(row.provider_version.as_ref());
        for v in versions {
            let facts = (
                d.branches.get(&v.id),
                d.tags.get(&v.id),
                d.environments.get(&v.id),
            );
            shown.insert(format!("version {}", v.id), format!("{facts:?}"));
        }
        for p in [row.consumer_id, row.provider_id] {
            shown.insert(format!("name {p}"), format!("{:?}", d.names.get(&p)));
        }
        let sha = d.shas.get(&row.pact_content_id);
        shown.insert(
            format!("content {}", row.pact_content_id),
            format!("{sha:?}"),
        );
    }
    format!(
        "{:?}\ntotal {}\n{:#?}\n{shown:#?}",
        outcome.summary, outcome.total_rows, outcome.rows
    )
}

fn answer(
    conn: &mut AnyConnection,
    q: &MatrixQuery,
    run: fn(
        &mut AnyConnection,
        &MatrixQuery,
        Fields,
    ) -> Result<Outcome, accord_broker::error::BrokerError>,
) -> String {
    match run(conn, q, Fields::FLAT) {
        Ok(outcome) => seen(&outcome),
        Err(e) => format!("error: {e:?}"),
    }
}

#[test]
fn matrix_one_statement_answers_as_the_general_path() {
    for db in backends() {
        let app = TestApp::start(db, |_| {});
        let seed = Seed::new(&app);
        build(&seed);
        let (mut compared, mut deployable) = (0, BTreeMap::new());
        for name in NAMES.iter().chain(&["Nobody"]) {
            for version in VERSIONS.iter().chain(&["9"]) {
                for env in ["production", "staging", "empty", "nowhere"] {
                    for by in [
                        Some(LatestBy::Cvpv),
                        Some(LatestBy::Cvp),
                        Some(LatestBy::Cp),
                        None,
                    ] {
                        let q = query(name, version, env, by);
                        let (fast, general) = seed.with(|conn| {
                            (
                                answer(conn, &q, matrix::run),
                                answer(conn, &q, matrix::run_general),
                            )
                        });
                        assert_eq!(fast, general, "{db:?}: {name} {version} to {env}, {by:?}");
                        let verdict = fast
                            .lines()
                            .next()
                            .map(|l| l.split(',').next().map(str::to_owned));
                        *deployable.entry(format!("{verdict:?}")).or_insert(0) += 1;
                        compared += 1;
                    }
                }
            }
        }
        assert_eq!(compared, 6 * 5 * 4 * 4);
        // the data set reaches every kind of answer
        let kinds: Vec<&String> = deployable.keys().collect();
        for want in ["Some(true)", "Some(false)", "deployable: None", "error"] {
            assert!(
                kinds.iter().any(|k| k.contains(want)),
                "{db:?}: no {want} answer among {deployable:?}"
            );
        }
    }
}
