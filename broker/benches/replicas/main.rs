//! N brokers on one PostgreSQL: `GET /can-i-deploy` to an environment
//! through a loopback round-robin TCP proxy in front of one broker, then in
//! front of three replicas of it on the same database, one client, a new
//! connection per request (so the proxy spreads requests; both runs pay
//! the same connect). Each replica is the matrix bench's broker: 2
//! workers, a pool of 4 connections. Every request carries the matrix
//! bench's read token (stored when missing), as CI's requests carry one.
//! Answers are compared too: every query must get the same verdict from
//! both set-ups.
//!
//! `ACCORD_BENCH_DATABASE_URL=postgres://… cargo bench -p accord-broker
//! --bench replicas` on a database the matrix bench seeded
//! (`ACCORD_BENCH_REQUESTS`, default 2000).

#[path = "../common/client.rs"]
mod client;
#[path = "../matrix/seed.rs"]
#[allow(dead_code)] // the seeding itself is the matrix bench's
mod seed;
#[path = "../matrix/serve.rs"]
mod serve;
#[path = "../common/token.rs"]
mod token;

use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use accord_broker::db;
use client::Client;
use seed::{CONSUMERS, PROVIDERS, READ_TOKEN, VERSIONS, name, number};

/// A round-robin proxy on loopback: each accepted connection is piped to
/// the next backend. Returns its base URL.
fn proxy(backends: Vec<String>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("proxy binds");
    let addr = listener.local_addr().expect("proxy address");
    let next = Arc::new(AtomicUsize::new(0));
    std::thread::spawn(move || {
        for inbound in listener.incoming().flatten() {
            let k = next.fetch_add(1, Ordering::Relaxed) % backends.len();
            let target = backends[k].trim_start_matches("http://").to_owned();
            std::thread::spawn(move || pipe(inbound, &target));
        }
    });
    format!("http://{addr}")
}

fn pipe(inbound: TcpStream, target: &str) {
    let Ok(outbound) = TcpStream::connect(target) else {
        return;
    };
    let _ = (inbound.set_nodelay(true), outbound.set_nodelay(true));
    let (Ok(mut a_read), Ok(mut b_write)) = (inbound.try_clone(), outbound.try_clone()) else {
        return;
    };
    let (mut b_read, mut a_write) = (outbound, inbound);
    let up = std::thread::spawn(move || {
        let _ = std::io::copy(&mut a_read, &mut b_write);
        let _ = b_write.shutdown(std::net::Shutdown::Write);
    });
    let _ = std::io::copy(&mut b_read, &mut a_write);
    let _ = a_write.shutdown(std::net::Shutdown::Write);
    let _ = up.join();
}

fn main() {
    let Ok(url) = std::env::var("ACCORD_BENCH_DATABASE_URL") else {
        eprintln!(
            "replicas bench: set ACCORD_BENCH_DATABASE_URL to a PostgreSQL the matrix bench seeded"
        );
        return;
    };
    let requests: usize = std::env::var("ACCORD_BENCH_REQUESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    {
        let pool = db::connect(&url, 1).expect("database");
        let mut conn = pool.get().expect("connection");
        token::ensure(&mut conn, READ_TOKEN, "matrix-bench", "read");
    }
    let mut rng = seed::Lcg::new(3);
    let queries: Vec<String> = (0..requests)
        .map(|_| {
            let p = rng.next((PROVIDERS + CONSUMERS) as u64) as i64;
            let v = VERSIONS - 1 - rng.next(30) as i64;
            format!(
                "/can-i-deploy?pacticipant={}&version={}&environment=production",
                name(p),
                number(v)
            )
        })
        .collect();
    let replicas: Vec<String> = (0..3).map(|_| serve::serve(&url)).collect();
    let one = proxy(vec![replicas[0].clone()]);
    let three = proxy(replicas.clone());
    let (mut one, mut three) = (
        Client::with_fresh_connections(&one).bearer(READ_TOKEN),
        Client::with_fresh_connections(&three).bearer(READ_TOKEN),
    );
    for client in [&mut one, &mut three] {
        for q in queries.iter().take(100) {
            client.get_ok(q, &[]);
        }
    }
    let a = measure("1 broker behind the proxy", &mut one, &queries);
    let b = measure("3 replicas behind the proxy", &mut three, &queries);
    let same = a.iter().zip(&b).filter(|(x, y)| x == y).count();
    println!(
        "same verdict from both set-ups: {same} of {}",
        queries.len()
    );
}

/// Times every query on `base`; returns each verdict.
fn measure(title: &str, client: &mut Client, queries: &[String]) -> Vec<Option<bool>> {
    let mut times: Vec<Duration> = Vec::with_capacity(queries.len());
    let mut answers = Vec::with_capacity(queries.len());
    for q in queries {
        let start = Instant::now();
        answers.push(client.get_ok(q, &[]));
        times.push(start.elapsed());
    }
    let verdicts = answers.iter().map(|a| verdict(a)).collect();
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "GET /can-i-deploy, {title}: n={} p50={:.2?} p90={:.2?} p99={:.2?}",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99)
    );
    verdicts
}

/// The answer's `summary.deployable`.
fn verdict(body: &[u8]) -> Option<bool> {
    let body: serde_json::Value = serde_json::from_slice(body).expect("json");
    body["summary"]["deployable"].as_bool()
}
