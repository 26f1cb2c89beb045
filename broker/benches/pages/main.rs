//! Speed of the pages (server-side rendering, measured over loopback against
//! an in-process release-built broker):
//! - home (`/ui`), the matrix landing (`/ui/matrix`: every integration's
//!   verdicts, 50 a page) and the matrix page with 1,000 rows on the matrix
//!   benchmark's database (1,000,000 verifications unless
//!   `ACCORD_BENCH_VERIFICATIONS` says otherwise, see `../matrix/seed.rs`);
//! - the network graph (`/ui/network`) with 300 applications, on a database
//!   of its own (60 providers, 240 consumers with 2 contracts each, half of
//!   them verified, some failing).
//!
//! `cargo bench -p accord-broker --bench pages` — environment:
//! `ACCORD_BENCH_DATABASE_URL` (the big database; default a SQLite file in
//! the temp dir, seeded when empty — several minutes the first time),
//! `ACCORD_BENCH_REQUESTS` (default 200 per page). Every page is asked
//! with the matrix bench's read token (stored in both databases when
//! missing), on one kept-alive connection per broker (`common/client.rs`).

#[path = "../common/client.rs"]
mod client;
#[path = "../matrix/seed.rs"]
#[allow(dead_code)]
mod seed;
#[path = "../matrix/serve.rs"]
mod serve;
#[path = "../common/token.rs"]
mod token;

use std::time::{Duration, Instant};

use accord_broker::db;
use accord_broker::db::AnyConnection;
use accord_broker::names::{PacticipantName, VersionNumber};
use accord_broker::store::{self, pacticipants, pacts, verifications, versions};
use client::Client;
use serve::serve;

/// Applications in the network graph's database.
const GRAPH_PROVIDERS: usize = 60;
const GRAPH_CONSUMERS: usize = 240;

fn main() {
    let requests: usize = std::env::var("ACCORD_BENCH_REQUESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);

    let big = std::env::var("ACCORD_BENCH_DATABASE_URL")
        .unwrap_or_else(|_| temp_db("accord-bench-matrix.db"));
    let mut held = 0;
    prepare(&big, |conn| {
        let seeded = store::pacticipants::list(conn).expect("pacticipants").len()
            >= (seed::PROVIDERS + seed::CONSUMERS) as usize;
        if !seeded {
            seed::seed(conn).expect("seed");
        }
        held = seed::verifications_held(conn).expect("count");
    });
    let mut client = Client::new(&serve(&big)).bearer(seed::READ_TOKEN);
    report(
        &mut client,
        &format!("GET /ui (home, {held} verifications)"),
        &["/ui".to_owned()],
        requests,
    );
    report(
        &mut client,
        &format!("GET /ui/matrix (landing, {held} verifications)"),
        &["/ui/matrix".to_owned()],
        requests,
    );
    let consumer = seed::name(seed::PROVIDERS);
    let matrix = format!("/ui/matrix?consumer={consumer}&per_page=1000");
    report(
        &mut client,
        "GET /ui/matrix (1,000 rows)",
        &[matrix],
        requests,
    );

    let small = temp_db("accord-bench-graph.db");
    let _ = std::fs::remove_file(&small);
    prepare(&small, seed_graph);
    let mut client = Client::new(&serve(&small)).bearer(seed::READ_TOKEN);
    report(
        &mut client,
        "GET /ui/network (300 applications)",
        &["/ui/network".to_owned()],
        requests,
    );
}

fn temp_db(file: &str) -> String {
    std::env::temp_dir()
        .join(file)
        .to_string_lossy()
        .into_owned()
}

/// Migrates the database at `url`, runs `seed` on it and stores the read
/// token.
fn prepare(url: &str, seed: impl FnOnce(&mut AnyConnection)) {
    let pool = db::connect(url, 1).expect("database");
    let mut conn = pool.get().expect("connection");
    db::run_migrations(&mut conn).expect("migrations");
    seed(&mut conn);
    token::ensure(&mut conn, seed::READ_TOKEN, "matrix-bench", "read");
}

/// 300 applications: each consumer has contracts with two providers; every
/// other contract is verified, one in seven of those failed.
fn seed_graph(conn: &mut AnyConnection) {
    let name = |n: String| PacticipantName::parse(&n).expect("name");
    let number = VersionNumber::parse("1.0.0").expect("number");
    let providers: Vec<(i64, i64)> = (0..GRAPH_PROVIDERS)
        .map(|p| {
            let row = pacticipants::find_or_create(conn, &name(format!("service-{p:03}")))
                .expect("provider");
            let v = versions::find_or_create(conn, row.id, &number).expect("provider version");
            (row.id, v.id)
        })
        .collect();
    let mut n = 0usize;
    for c in 0..GRAPH_CONSUMERS {
        let consumer =
            pacticipants::find_or_create(conn, &name(format!("app-{c:03}"))).expect("consumer");
        let version =
            versions::find_or_create(conn, consumer.id, &number).expect("consumer version");
        for p in [c % GRAPH_PROVIDERS, (c * 7 + 3) % GRAPH_PROVIDERS] {
            let (provider_id, provider_version) = providers[p];
            let sha = format!("{:064x}", c * 1000 + p);
            let content = pacts::find_or_insert_content(
                conn,
                &pacts::NewContent {
                    sha: &sha,
                    consumer_id: consumer.id,
                    provider_id,
                    content: "{}",
                    interactions_count: 1,
                },
            )
            .expect("content");
            pacts::publish(conn, version.id, consumer.id, provider_id, content.id)
                .expect("publication");
            n += 1;
            if n.is_multiple_of(2) {
                verifications::insert(
                    conn,
                    &verification(
                        content.id,
                        provider_version,
                        consumer.id,
                        provider_id,
                        !n.is_multiple_of(7),
                    ),
                )
                .expect("verification");
            }
        }
    }
}

fn verification(
    content: i64,
    provider_version: i64,
    consumer: i64,
    provider: i64,
    success: bool,
) -> verifications::NewVerification {
    verifications::NewVerification {
        pact_content_id: content,
        provider_version_id: provider_version,
        consumer_id: consumer,
        provider_id: provider,
        success,
        build_url: None,
        test_results: None,
        verified_by: None,
        findings: "[]".into(),
        wip: false,
        pending: false,
        selectors: None,
        execution_date: chrono::Utc::now().naive_utc(),
        pact_view: false,
        declarations: None,
    }
}

/// Loads `paths` round-robin `n` times (after 10 warm-up loads) and prints
/// the percentiles and the page's size.
fn report(client: &mut Client, title: &str, paths: &[String], n: usize) {
    let mut get = |path: &str| client.get_ok(path, &[("accept", "text/html")]).len();
    for p in paths.iter().cycle().take(10) {
        get(p);
    }
    let mut times: Vec<Duration> = Vec::with_capacity(n);
    let mut bytes = 0;
    for p in paths.iter().cycle().take(n) {
        let start = Instant::now();
        bytes = get(p);
        times.push(start.elapsed());
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{title}: n={n} p50={:.2?} p90={:.2?} p99={:.2?} max={:.2?}; page {} KiB",
        at(0.50),
        at(0.90),
        at(0.99),
        times[times.len() - 1],
        bytes / 1024
    );
}
