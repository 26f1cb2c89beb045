//! Publishing throughput: `POST /contracts/publish` of new consumer
//! versions (one pact each, its content changing every tenth version, as
//! CI publishes), from `ACCORD_BENCH_CLIENTS` clients at once (default 1:
//! sequential), over loopback against an in-process release-built broker.
//! Every request carries a write token, as CI's publications do (the
//! token cache answers it after the first); `ACCORD_BENCH_OPEN=1` runs an
//! open broker instead, whose every request asks the database whether a
//! token exists. Each client is one kept-alive connection
//! (`common/client.rs`), timed from the send to the answer's last byte.
//!
//! `cargo bench -p accord-broker --bench publish` — environment:
//! `ACCORD_BENCH_DATABASE_URL` (default: a new SQLite file in the temp
//! dir; a postgres:// URL for PostgreSQL, versions named by the run so a
//! database can be reused), `ACCORD_BENCH_PUBLICATIONS` (default 2000 in
//! all), `ACCORD_BENCH_CLIENTS`, `ACCORD_BENCH_POOL` (the broker's pool,
//! default 8 as `accord serve`'s; the bench used 4 before), and
//! `ACCORD_BENCH_STATEMENTS` (time each statement and print the totals:
//! `statements`). On SQLite it prints the WAL file's size after the run
//! (the background checkpointer keeps it bounded).

#[path = "../common/client.rs"]
mod client;
mod statements;
#[path = "../common/token.rs"]
mod token;

use std::time::{Duration, Instant};

use accord_broker::{db, store};
use base64::Engine;
use client::Client;
use serde_json::{Value, json};

/// The bench's write token.
const SECRET: &str = "acc_publish-bench-write-token";

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let given = std::env::var("ACCORD_BENCH_DATABASE_URL").ok();
    let url = given.clone().unwrap_or_else(|| {
        let path =
            std::env::temp_dir().join(format!("accord-bench-publish-{}.db", std::process::id()));
        path.to_string_lossy().into_owned()
    });
    let total = env_number("ACCORD_BENCH_PUBLICATIONS", 2000);
    let clients = env_number("ACCORD_BENCH_CLIENTS", 1).max(1);
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let open = std::env::var("ACCORD_BENCH_OPEN").is_ok_and(|v| v == "1");
    prepare(&url, open);
    let timed = statements::install();
    let base = serve(&url, env_number("ACCORD_BENCH_POOL", 8));
    let client_of = |base: &str| {
        let client = Client::new(base);
        if open { client } else { client.bearer(SECRET) }
    };
    let mut client = client_of(&base);
    for i in 0..50 {
        publish(&mut client, 0, &format!("warm-{run}-{i}"), i);
    }
    let per_client = total / clients;
    statements::reset();
    let start = Instant::now();
    let mut times: Vec<Duration> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                let base = base.clone();
                s.spawn(move || {
                    let mut client = client_of(&base);
                    (0..per_client)
                        .map(|i| {
                            let t = Instant::now();
                            publish(&mut client, c, &format!("{run}-{c}-{i}"), i);
                            t.elapsed()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("client thread"))
            .collect()
    });
    let elapsed = start.elapsed();
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "POST /contracts/publish, {clients} client(s), {}: {} publications in {:.2?} = {:.0}/s; per publish p50={:.2?} p99={:.2?}",
        if open { "open broker" } else { "write token" },
        times.len(),
        elapsed,
        times.len() as f64 / elapsed.as_secs_f64(),
        at(0.5),
        at(0.99),
    );
    if let Ok(wal) = std::fs::metadata(format!("{url}-wal")) {
        println!("SQLite WAL file after the run: {} KiB", wal.len() / 1024);
    }
    if timed {
        statements::report(times.len());
    }
    if given.is_none() {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{url}{suffix}"));
        }
    }
}

/// Migrates the database; with a token (not `open`) stores the bench's
/// write token once, and for an open broker checks that none is stored.
fn prepare(url: &str, open: bool) {
    let pool = db::connect(url, 1).expect("database");
    let mut conn = pool.get().expect("connection");
    db::run_migrations(&mut conn).expect("migrations");
    if !open {
        token::ensure(&mut conn, SECRET, "publish-bench", "write");
        return;
    }
    assert!(
        !store::tokens::any_active(&mut conn).expect("tokens"),
        "ACCORD_BENCH_OPEN=1, but the database holds a token (a run with one stored it): the broker would not be open; name a new database"
    );
}

/// Starts the broker in-process on a thread (2 workers, as many as the
/// machine's cores, and a pool of `pool`); returns its base URL.
fn serve(url: &str, pool: usize) -> String {
    let mut config = accord_broker::BrokerConfig::new(url.to_owned());
    config.bind = "127.0.0.1:0".into();
    config.workers = Some(2);
    config.pool_size = u32::try_from(pool).unwrap_or(8);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let running = accord_broker::start(config).expect("broker starts");
            tx.send(running.addr).expect("send address");
            let _ = running.server.await;
        });
    });
    format!("http://{}", rx.recv().expect("broker address"))
}

/// Publishes version `version` of consumer `bench-consumer-{client}`.
fn publish(client: &mut Client, c: usize, version: &str, i: usize) {
    let consumer = format!("bench-consumer-{c}");
    let pact = json!({
        "consumer": {"name": consumer},
        "provider": {"name": "bench-provider"},
        "interactions": [{
            "description": format!("a request, revision {}", i / 10),
            "request": {"method": "GET", "path": "/orders/1"},
            "response": {"status": 200, "body": {"id": 1}},
        }],
        "metadata": {"pactSpecification": {"version": "3.0.0"}},
    });
    let body: Value = json!({
        "pacticipantName": consumer,
        "pacticipantVersionNumber": version,
        "branch": "main",
        "contracts": [{
            "consumerName": consumer,
            "providerName": "bench-provider",
            "specification": "pact",
            "contentType": "application/json",
            "content": base64::engine::general_purpose::STANDARD.encode(pact.to_string()),
        }],
    });
    let answer = client.send(
        "POST",
        "/contracts/publish",
        &[("content-type", "application/json")],
        body.to_string().into(),
    );
    assert_eq!(
        answer.status,
        200,
        "publish {version}: {}",
        String::from_utf8_lossy(&answer.body)
    );
}
