//! Speed of `GET /can-i-deploy` (to an environment) and of the Pact CLI's
//! single-selector `GET /matrix`, over loopback against an in-process
//! release-built broker on a seeded database (see `seed.rs`), beside the
//! floor: the heartbeat served by the same broker to the same client.
//! Every request carries a read token, as CI's requests do (the token
//! cache answers it after the first). The kinds take turns, round after
//! round, so a burst of load on the shared machine falls on all of them.
//! A request is timed from its send to the last byte of its answer, on one
//! kept-alive connection (`common/client.rs`); the answer is parsed and
//! counted after.
//!
//! `cargo bench -p accord-broker --bench matrix` — environment:
//! `ACCORD_BENCH_DATABASE_URL` (default: a SQLite file in the temp dir
//! named after the seed's size; a postgres:// URL for PostgreSQL; seeding
//! is skipped when the database already holds the seed, and a database
//! holding a seed of another size is refused), `ACCORD_BENCH_VERIFICATIONS`
//! (default 1000000; 10000000 for the 10M run), `ACCORD_BENCH_REQUESTS`
//! (default 2000 per kind and round), `ACCORD_BENCH_ROUNDS` (default 3).

#[path = "../common/client.rs"]
mod client;
mod seed;
mod serve;
#[path = "../common/token.rs"]
mod token;

use std::time::{Duration, Instant};

use accord_broker::{db, store};
use client::Client;
use seed::{CONSUMERS, PROVIDERS, READ_TOKEN, VERSIONS, name, number};
use serve::serve;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let wanted = seed::verifications_wanted();
    let url = std::env::var("ACCORD_BENCH_DATABASE_URL").unwrap_or_else(|_| {
        let file = match wanted {
            seed::VERIFICATIONS => "accord-bench-matrix.db".to_owned(),
            n => format!("accord-bench-matrix-{n}.db"),
        };
        std::env::temp_dir()
            .join(file)
            .to_string_lossy()
            .into_owned()
    });
    let requests = env_number("ACCORD_BENCH_REQUESTS", 2000);
    let rounds = env_number("ACCORD_BENCH_ROUNDS", 3);
    prepare(&url, wanted);
    let base = serve(&url);
    let mut client = Client::new(&base).bearer(READ_TOKEN);
    let kinds = kinds(requests);
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); kinds.len()];
    let mut answers = vec![([0usize; 3], 0usize); kinds.len()];
    for (_, queries) in &kinds {
        for q in queries.iter().take(100) {
            client.get_ok(q, &[]);
        }
    }
    for _ in 0..rounds {
        for (k, (_, queries)) in kinds.iter().enumerate() {
            measure(&mut client, queries, &mut times[k], &mut answers[k]);
        }
    }
    let floor = percentile(&mut times[0], 0.50);
    for (k, (title, _)) in kinds.iter().enumerate() {
        report(title, &mut times[k], answers[k], floor);
    }
}

/// Migrates and seeds the database (once), and stores the bench's token.
fn prepare(url: &str, wanted: usize) {
    let pool = db::connect(url, 1).expect("database");
    let mut conn = pool.get().expect("connection");
    db::run_migrations(&mut conn).expect("migrations");
    let seeded = store::pacticipants::list(&mut conn)
        .expect("pacticipants")
        .len()
        >= (PROVIDERS + CONSUMERS) as usize;
    if seeded {
        let held = seed::verifications_held(&mut conn).expect("count");
        assert_eq!(
            held as usize, wanted,
            "{url} holds {held} verifications, not the {wanted} asked for: use another database"
        );
        eprintln!("database already seeded ({held} verifications)");
    } else {
        seed::seed(&mut conn).expect("seed");
    }
    token::ensure(&mut conn, READ_TOKEN, "matrix-bench", "read");
}

/// The floor and the three query kinds, each with its requests.
fn kinds(requests: usize) -> Vec<(&'static str, Vec<String>)> {
    let mut rng = seed::Lcg::new(3);
    let mut pick = || {
        let p = rng.next((PROVIDERS + CONSUMERS) as u64) as i64;
        let v = VERSIONS - 1 - rng.next(30) as i64;
        (name(p), number(v))
    };
    let mut queries = |form: &dyn Fn(&str, &str) -> String| -> Vec<String> {
        (0..requests)
            .map(|_| {
                let (p, v) = pick();
                form(&p, &v)
            })
            .collect()
    };
    let cid = queries(&|p, v| {
        format!("/can-i-deploy?pacticipant={p}&version={v}&environment=production")
    });
    let cli = queries(&|p, v| {
        format!(
            "/matrix?q[][pacticipant]={p}&q[][version]={v}&latestby=cvpv&environment=production"
        )
    });
    let ruby = queries(&|p, v| {
        format!("/matrix?q[][pacticipant]={p}&q[][version]={v}&latestby=cvp&latest=true")
    });
    vec![
        (
            "GET /diagnostic/status/heartbeat (the floor)",
            vec!["/diagnostic/status/heartbeat".to_owned(); requests],
        ),
        ("GET /can-i-deploy (to an environment)", cid),
        ("GET /matrix (single selector, Pact CLI form)", cli),
        (
            "GET /matrix (single selector to latest, Ruby CLI form)",
            ruby,
        ),
    ]
}

fn measure(
    client: &mut Client,
    queries: &[String],
    times: &mut Vec<Duration>,
    (deployable, rows): &mut ([usize; 3], usize),
) {
    for q in queries {
        let start = Instant::now();
        let answer = client.get_ok(q, &[]);
        times.push(start.elapsed());
        let body: serde_json::Value = serde_json::from_slice(&answer).expect("json");
        *rows += body["matrix"].as_array().map_or(0, Vec::len);
        deployable[match body["summary"]["deployable"].as_bool() {
            Some(true) => 0,
            Some(false) => 1,
            None => 2,
        }] += 1;
    }
}

fn percentile(times: &mut [Duration], q: f64) -> Duration {
    times.sort();
    times[((times.len() as f64 * q) as usize).min(times.len() - 1)]
}

fn report(title: &str, times: &mut [Duration], answers: ([usize; 3], usize), floor: Duration) {
    let (deployable, rows) = answers;
    let n = times.len();
    let p50 = percentile(times, 0.50);
    println!(
        "{title}: n={n} p50={p50:.2?} p90={:.2?} p99={:.2?} max={:.2?} ({:.2}× the floor's p50); answers true/false/unknown = {deployable:?}; mean rows {:.1}",
        percentile(times, 0.90),
        percentile(times, 0.99),
        times[n - 1],
        p50.as_secs_f64() / floor.as_secs_f64(),
        rows as f64 / n as f64,
    );
}
