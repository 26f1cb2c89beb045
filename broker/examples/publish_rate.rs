//! Sequential `POST /contracts/publish` rate over loopback.
//!
//! Starts a broker in this process on a fresh database, then publishes N
//! distinct contracts one after another, each for a new consumer version
//! (with a branch and a tag, as CI does), and prints the rate.
//!
//! ```text
//! cargo run --release -p accord-broker --example publish_rate -- 2000
//! cargo run --release -p accord-broker --example publish_rate -- 2000 postgres://accord:accord@127.0.0.1:5433/accord
//! ```
//! A PostgreSQL URL gets a fresh schema, dropped at the end.

use std::time::Instant;

use accord_broker::{BrokerConfig, db};
use base64::Engine;
use diesel::connection::SimpleConnection;
use serde_json::{Value, json};

fn contract(i: usize) -> Value {
    let pact = json!({
        "consumer": {"name": "orchestrator"},
        "provider": {"name": "planning-agent"},
        "interactions": [
            {"description": format!("plan {i}"), "providerStates": [{"name": "a plan exists", "params": {"id": i}}],
             "request": {"method": "GET", "path": format!("/plans/{i}")},
             "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                          "body": {"id": i, "steps": ["search", "draft"]},
                          "matchingRules": {"body": {"$.steps": {"matchers": [{"match": "type", "min": 1}]}}}}},
            {"description": "no plan", "request": {"method": "GET", "path": "/plans/none"}, "response": {"status": 404}},
        ],
        "metadata": {"pactSpecification": {"version": "3.0.0"}},
    });
    json!({
        "pacticipantName": "orchestrator",
        "pacticipantVersionNumber": format!("1.0.{i}"),
        "branch": "main",
        "tags": ["main"],
        "contracts": [{
            "consumerName": "orchestrator", "providerName": "planning-agent",
            "specification": "pact", "contentType": "application/json",
            "content": base64::engine::general_purpose::STANDARD.encode(pact.to_string()),
        }],
    })
}

/// The database URL to serve, and the schema to drop afterwards (PostgreSQL).
fn database(arg: Option<String>) -> (String, Option<(String, String)>, Option<std::path::PathBuf>) {
    match arg {
        Some(url) if url.starts_with("postgres") => {
            let schema = format!("bench_{}", uuid::Uuid::new_v4().simple());
            let pool = db::connect(&url, 1).expect("connect to PostgreSQL");
            pool.get()
                .expect("connection")
                .batch_execute(&format!("CREATE SCHEMA {schema}"))
                .expect("schema");
            let sep = if url.contains('?') { '&' } else { '?' };
            (
                format!("{url}{sep}options=-csearch_path%3D{schema}"),
                Some((url, schema)),
                None,
            )
        }
        Some(path) => (path, None, None),
        None => {
            let dir = std::env::temp_dir()
                .join(format!("accord-bench-{}", uuid::Uuid::new_v4().simple()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            (
                dir.join("bench.db").to_string_lossy().into_owned(),
                None,
                Some(dir),
            )
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map(|a| a.parse().expect("N is a number"))
        .unwrap_or(2000);
    let (url, schema, dir) = database(args.next());
    let mut config = BrokerConfig::new(url);
    config.bind = "127.0.0.1:0".into();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let running = accord_broker::start(config).expect("broker starts");
            tx.send(running.addr).expect("send address");
            let _ = running.server.await;
        });
    });
    let addr = rx.recv().expect("broker address");
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::new();
    let bodies: Vec<String> = (0..n).map(|i| contract(i).to_string()).collect();
    let url = format!("http://{addr}/contracts/publish");
    let started = Instant::now();
    for body in bodies {
        let reply = client
            .post(&url)
            .header("Content-Type", "application/json")
            .body(body)
            .send()
            .expect("broker answers");
        assert_eq!(
            reply.status().as_u16(),
            200,
            "{}",
            reply.text().unwrap_or_default()
        );
    }
    let elapsed = started.elapsed();
    println!(
        "{n} sequential publishes in {:.2} s: {:.0}/s ({:.2} ms each)",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1000.0 / n as f64
    );
    if let Some((admin, schema)) = schema {
        let pool = db::connect(&admin, 1).expect("connect");
        let _ = pool
            .get()
            .expect("connection")
            .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"));
    }
    if let Some(dir) = dir {
        let _ = std::fs::remove_dir_all(dir);
    }
}
