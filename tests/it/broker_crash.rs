//! `accord serve` processes treated as an operator's would be: two started
//! at the same moment on a new database, and kill -9 under continuous
//! writes — no acknowledged write may be lost, SQLite's integrity check
//! stays clean.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::broker::{BrokerProcess, PgSchema};
use crate::support::temp_dir;

/// The databases to run on: a new SQLite file, and a new PostgreSQL schema
/// when `ACCORD_TEST_DATABASE_URL` is set (kept alive by the returned guard).
fn databases(name: &str) -> Vec<(String, Option<PgSchema>)> {
    let file = temp_dir(name).join("accord.db");
    let mut all = vec![(file.to_string_lossy().into_owned(), None)];
    if let Some(schema) = PgSchema::create_or_skip() {
        all.push((schema.url.clone(), Some(schema)));
    }
    all
}

#[test]
fn two_brokers_started_at_once_on_a_new_database_both_serve() {
    for round in 0..10 {
        for (url, _schema) in databases(&format!("together-{round}")) {
            let barrier = Arc::new(std::sync::Barrier::new(2));
            let starters: Vec<_> = (0..2)
                .map(|_| {
                    let (url, barrier) = (url.clone(), barrier.clone());
                    std::thread::spawn(move || {
                        barrier.wait();
                        // panics (and fails the test) when the process exits
                        // before printing its URL
                        BrokerProcess::start_on(&url, &[])
                    })
                })
                .collect();
            for s in starters {
                let broker = s.join().expect("both brokers start");
                assert_eq!(broker.get("/diagnostic/status/heartbeat").0, 200);
            }
        }
    }
}

fn pact(version: &str) -> Value {
    json!({
        "consumer": {"name": "c"},
        "provider": {"name": "p"},
        "interactions": [{
            "description": format!("a request for {version}"),
            "request": {"method": "GET", "path": format!("/v/{version}")},
            "response": {"status": 200}
        }],
        "metadata": {"pactSpecification": {"version": "3.0.0"}}
    })
}

/// Publishes distinct versions until `stop`, recording the acknowledged ones.
fn writer(
    url: Arc<Mutex<String>>,
    id: usize,
    stop: Arc<AtomicBool>,
    acked: Arc<Mutex<Vec<String>>>,
) -> (usize, usize) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client");
    let (mut sent, mut failed) = (0, 0);
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        let version = format!("{id}.{n}");
        n += 1;
        let base = url.lock().expect("url").clone();
        let reply = client
            .put(format!(
                "{base}/pacts/provider/p/consumer/c/version/{version}"
            ))
            .header("Content-Type", "application/json")
            .body(pact(&version).to_string())
            .send();
        sent += 1;
        match reply {
            Ok(r) if r.status().is_success() => acked.lock().expect("acked").push(version),
            Ok(r) => panic!("a write answered {} (not a crash)", r.status()),
            // the broker was killed under this request: not acknowledged
            Err(_) => {
                failed += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
    (sent, failed)
}

fn sqlite_integrity(url: &str) -> String {
    use diesel::{QueryableByName, RunQueryDsl, sql_types::Text};
    #[derive(QueryableByName)]
    struct Check {
        #[diesel(sql_type = Text)]
        integrity_check: String,
    }
    let pool = accord_broker::db::connect(url, 1).expect("open");
    let mut conn = pool.get().expect("connection");
    diesel::sql_query("PRAGMA integrity_check")
        .load::<Check>(&mut *conn)
        .expect("integrity_check")
        .into_iter()
        .map(|c| c.integrity_check)
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
#[ignore = "adversarial: three kill -9 cycles per backend; .ci/run runs it"]
fn adversarial_kill_9_under_continuous_writes_loses_no_acknowledged_write() {
    const CYCLES: usize = 3;
    for (db, _schema) in databases("crash") {
        let mut broker = BrokerProcess::start_on(&db, &[]);
        let url = Arc::new(Mutex::new(broker.url.clone()));
        let stop = Arc::new(AtomicBool::new(false));
        let acked = Arc::new(Mutex::new(Vec::new()));
        let writers: Vec<_> = (0..4)
            .map(|id| {
                let (url, stop, acked) = (url.clone(), stop.clone(), acked.clone());
                std::thread::spawn(move || writer(url, id, stop, acked))
            })
            .collect();
        for _ in 0..CYCLES {
            std::thread::sleep(Duration::from_millis(1500));
            broker.kill9();
            broker = BrokerProcess::start_on(&db, &[]);
            *url.lock().expect("url") = broker.url.clone();
        }
        std::thread::sleep(Duration::from_millis(500));
        stop.store(true, Ordering::Relaxed);
        let (mut sent, mut failed) = (0, 0);
        for w in writers {
            let (s, f) = w.join().expect("writer");
            sent += s;
            failed += f;
        }
        let acked = acked.lock().expect("acked").clone();
        let mut missing = Vec::new();
        for version in &acked {
            let (status, body) =
                broker.get(&format!("/pacts/provider/p/consumer/c/version/{version}"));
            let path = &body["interactions"][0]["request"]["path"];
            if status != 200 || *path != json!(format!("/v/{version}")) {
                missing.push(version.clone());
            }
        }
        let backend = if db.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        };
        println!(
            "kill -9 on {backend}: {CYCLES} cycles survived, {sent} writes sent, {} acknowledged, \
             {failed} cut off by a kill, {} acknowledged but missing",
            acked.len(),
            missing.len()
        );
        assert!(
            acked.len() > 20,
            "the writers got writes through: {}",
            acked.len()
        );
        assert!(
            missing.is_empty(),
            "acknowledged writes lost on {backend}: {missing:?}"
        );
        if !db.starts_with("postgres") {
            drop(broker);
            assert_eq!(sqlite_integrity(&db), "ok");
        }
    }
}
