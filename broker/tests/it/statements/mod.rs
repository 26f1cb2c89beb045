//! The statement-count and query-plan baseline: every request shape that
//! matters for speed (can-i-deploy, the matrix, pacts for verification,
//! publishing contracts and verification results, the index, the heavy
//! pages) is sent to a broker holding a small fixed data set, on both
//! backends, and the SQL statements it runs are counted — the token check
//! included (after the warm-up the token cache answers it) — with each statement's
//! shape and query plan. The result is the checked-in snapshot
//! `snapshots/it__statements__<backend>.snap`, read by a reviewer as a
//! diff. A count that grows fails with the request named; one that shrinks
//! fails too, saying so, so that the baseline is updated
//! (`INSTA_UPDATE=always cargo test -p accord-broker --test it -- statements::`).

pub mod counter;
mod plans;
mod shapes;

use std::fmt::Write as _;

use accord_broker::BrokerConfig;

use crate::seed::Seed;
use crate::support::{TestApp, TestDatabase, TestDb, backends};
use shapes::Shape;

/// Measured sends of each shape (after one warm-up); the fewest counts,
/// as a background task's statement can only add to a request's.
const TRIES: usize = 3;

/// What one request shape ran, fewest statements of the tries.
struct Measured {
    name: &'static str,
    statements: Vec<String>,
}

fn quiet(config: &mut BrokerConfig) {
    let hour = std::time::Duration::from_secs(3600);
    config.webhook_poll = hour;
    config.evidence_sweep = hour;
    config.webhook_sweep = hour;
}

/// Sends every shape to a broker on `db` and keeps the statements each ran.
fn measure(db: TestDb) -> (Vec<Measured>, TestApp) {
    let database = TestDatabase::create(db);
    counter::watch(&database.url);
    let mut config = BrokerConfig::new(database.url.clone());
    config.bind = "127.0.0.1:0".into();
    config.workers = Some(2);
    config.pool_size = 4;
    quiet(&mut config);
    let app = TestApp::serve(db, database, config);
    let fixture = shapes::Fixture::build(&app);
    let measured = shapes::all()
        .into_iter()
        .map(|shape| measure_one(&app, &fixture, &shape))
        .collect();
    (measured, app)
}

fn measure_one(app: &TestApp, fixture: &shapes::Fixture, shape: &Shape) -> Measured {
    (shape.send)(app, fixture, 0);
    let url = app.database.url.clone();
    let statements = (1..=TRIES)
        .map(|i| {
            let before = counter::texts(&url).len();
            (shape.send)(app, fixture, i);
            counter::texts(&url)[before..].to_vec()
        })
        .min_by_key(Vec::len)
        .unwrap_or_default();
    Measured {
        name: shape.name,
        statements,
    }
}

/// The baseline text: a table of counts, then each shape's statements with
/// their plans.
fn render(db: TestDb, measured: &[Measured], app: &TestApp) -> String {
    let seed = Seed::new(app);
    seed.with(|conn| {
        let mut planner = plans::Planner::new(conn);
        let mut out = format!("statements per request on {db:?}\n\n");
        for m in measured {
            let _ = writeln!(out, "{:>3}  {}", m.statements.len(), m.name);
        }
        for m in measured {
            let _ = writeln!(out, "\n== {}: {} statements", m.name, m.statements.len());
            for (i, sql) in m.statements.iter().enumerate() {
                let shape = plans::shape(sql);
                let _ = writeln!(out, "{}. {shape}", i + 1);
                for line in planner.plan(&shape) {
                    let _ = writeln!(out, "     {line}");
                }
            }
        }
        out
    })
}

/// The counts of the checked-in baseline (`== name: N statements` lines).
fn baseline_counts(db: TestDb) -> Vec<(String, usize)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/statements/snapshots")
        .join(format!("it__statements__{}.snap", snapshot_name(db)));
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.strip_prefix("== "))
        .filter_map(|l| {
            let (name, count) = l.rsplit_once(": ")?;
            let n = count.strip_suffix(" statements")?.parse().ok()?;
            Some((name.to_owned(), n))
        })
        .collect()
}

fn snapshot_name(db: TestDb) -> &'static str {
    match db {
        TestDb::Sqlite => "sqlite",
        TestDb::Postgres => "postgres",
    }
}

/// Growth fails at once, naming each request; a shrink is reported (the
/// snapshot comparison then fails until the baseline is updated).
fn compare_counts(db: TestDb, measured: &[Measured]) {
    let before = baseline_counts(db);
    let (mut grew, mut shrank) = (Vec::new(), Vec::new());
    for m in measured {
        let now = m.statements.len();
        match before.iter().find(|(name, _)| name == m.name) {
            Some((_, was)) if now > *was => grew.push(format!("{}: {was} → {now}", m.name)),
            Some((_, was)) if now < *was => shrank.push(format!("{}: {was} → {now}", m.name)),
            _ => {}
        }
    }
    if !shrank.is_empty() {
        eprintln!(
            "{db:?}: fewer statements than the baseline — update it \
             (INSTA_UPDATE=always cargo test -p accord-broker --test it -- statements::):\n  {}",
            shrank.join("\n  ")
        );
    }
    assert!(
        grew.is_empty(),
        "{db:?}: more statements per request than the baseline:\n  {}",
        grew.join("\n  ")
    );
}

#[test]
fn statements_and_plans_per_request_match_the_baseline() {
    counter::install();
    for db in backends() {
        let (measured, app) = measure(db);
        let text = render(db, &measured, &app);
        compare_counts(db, &measured);
        insta::with_settings!({omit_expression => true, prepend_module_to_snapshot => true}, {
            insta::assert_snapshot!(snapshot_name(db), text);
        });
    }
}
