//! Speed of `GET /can-i-deploy` (to an environment) and of the Pact CLI's
//! single-selector `GET /matrix`, over loopback against an in-process
//! release-built broker on a seeded database (see `seed.rs`).
//!
//! `cargo bench -p accord-broker --bench matrix` — environment:
//! `ACCORD_BENCH_DATABASE_URL` (default: a SQLite file in the temp dir;
//! a postgres:// URL for PostgreSQL; seeding is skipped when the database
//! already holds the seed), `ACCORD_BENCH_REQUESTS` (default 2000 per query kind).

mod seed;
mod serve;

use std::time::{Duration, Instant};

use accord_broker::{db, store};
use seed::{CONSUMERS, PROVIDERS, VERSIONS, name, number};
use serve::serve;

fn main() {
    let url = std::env::var("ACCORD_BENCH_DATABASE_URL").unwrap_or_else(|_| {
        std::env::temp_dir()
            .join("accord-bench-matrix.db")
            .to_string_lossy()
            .into_owned()
    });
    let requests: usize = std::env::var("ACCORD_BENCH_REQUESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    let pool = db::connect(&url, 1).expect("database");
    let mut conn = pool.get().expect("connection");
    db::run_migrations(&mut conn).expect("migrations");
    if store::pacticipants::list(&mut conn)
        .expect("pacticipants")
        .len()
        < (PROVIDERS + CONSUMERS) as usize
    {
        seed::seed(&mut conn).expect("seed");
    } else {
        eprintln!("database already seeded");
    }
    drop(conn);
    drop(pool);
    let base = serve(&url);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::new();
    let mut rng = seed::Lcg::new(3);
    let mut pick = || {
        let p = rng.next((PROVIDERS + CONSUMERS) as u64) as i64;
        let v = VERSIONS - 1 - rng.next(30) as i64;
        (name(p), number(v))
    };
    let mut queries = Vec::new();
    for _ in 0..requests {
        let (p, v) = pick();
        queries.push(format!(
            "/can-i-deploy?pacticipant={p}&version={v}&environment=production"
        ));
    }
    report(
        "GET /can-i-deploy (to an environment)",
        &client,
        &base,
        &queries,
    );
    let mut queries = Vec::new();
    for _ in 0..requests {
        let (p, v) = pick();
        queries.push(format!(
            "/matrix?q[][pacticipant]={p}&q[][version]={v}&latestby=cvpv&environment=production"
        ));
    }
    report(
        "GET /matrix (single selector, Pact CLI form)",
        &client,
        &base,
        &queries,
    );
    let mut queries = Vec::new();
    for _ in 0..requests {
        let (p, v) = pick();
        queries.push(format!(
            "/matrix?q[][pacticipant]={p}&q[][version]={v}&latestby=cvp&latest=true"
        ));
    }
    report(
        "GET /matrix (single selector to latest, Ruby CLI form)",
        &client,
        &base,
        &queries,
    );
}

fn report(title: &str, client: &reqwest::blocking::Client, base: &str, queries: &[String]) {
    let (mut deployable, mut rows) = ([0usize; 3], 0usize);
    for q in queries.iter().take(100) {
        get(client, base, q);
    }
    let mut times: Vec<Duration> = Vec::with_capacity(queries.len());
    for q in queries {
        let start = Instant::now();
        let body = get(client, base, q);
        times.push(start.elapsed());
        rows += body["matrix"].as_array().map_or(0, Vec::len);
        deployable[match body["summary"]["deployable"].as_bool() {
            Some(true) => 0,
            Some(false) => 1,
            None => 2,
        }] += 1;
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{title}: n={} p50={:.2?} p90={:.2?} p99={:.2?} max={:.2?}; answers true/false/unknown = {:?}; mean rows {:.1}",
        times.len(),
        at(0.50),
        at(0.90),
        at(0.99),
        times[times.len() - 1],
        deployable,
        rows as f64 / queries.len() as f64,
    );
}

fn get(client: &reqwest::blocking::Client, base: &str, path: &str) -> serde_json::Value {
    let response = client.get(format!("{base}{path}")).send().expect("request");
    assert_eq!(response.status().as_u16(), 200, "{path}");
    response.json().expect("json")
}
