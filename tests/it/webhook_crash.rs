//! Webhook delivery is at least once across a real kill -9: a delivery in
//! flight (its receiver holds the request) when `accord serve` is killed is
//! sent again by the broker restarted on the same database, once the lease
//! of the dead one ran out — the same triggered webhook, the same event.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::broker::{BrokerProcess, PgSchema};
use crate::support::temp_dir;

/// A loopback receiver that holds the first request it gets (never
/// answers it) and answers 200 to the others; every body it got.
#[derive(Clone)]
struct Holding {
    url: String,
    bodies: Arc<Mutex<Vec<String>>>,
    held: Arc<Mutex<Vec<TcpStream>>>,
}

impl Holding {
    fn start() -> Holding {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let receiver = Holding {
            url: format!("http://{}", listener.local_addr().expect("addr")),
            bodies: Arc::default(),
            held: Arc::default(),
        };
        let r = receiver.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let r = r.clone();
                std::thread::spawn(move || r.serve(stream));
            }
        });
        receiver
    }

    fn serve(&self, mut stream: TcpStream) {
        let mut reader = BufReader::new(stream.try_clone().expect("clone"));
        let mut length = 0;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() || line.trim().is_empty() {
                break;
            }
            if let Some((k, v)) = line.trim_end().split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        let _ = reader.read_exact(&mut body);
        let first = {
            let mut bodies = self.bodies.lock().expect("lock");
            bodies.push(String::from_utf8_lossy(&body).into_owned());
            bodies.len() == 1
        };
        if first {
            self.held.lock().expect("lock").push(stream); // in flight until the kill
            return;
        }
        let _ = stream
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
    }

    /// The bodies received, once there are `n` (at most two minutes: a
    /// bound, not a timing assertion).
    fn wait_for(&self, n: usize) -> Vec<String> {
        let start = Instant::now();
        while self.bodies.lock().expect("lock").len() < n
            && start.elapsed() < Duration::from_secs(120)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.bodies.lock().expect("lock").clone()
    }
}

fn send(method: reqwest::Method, url: &str, body: &Value) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let reply = reqwest::blocking::Client::new()
        .request(method, url)
        .header("Content-Type", "application/json")
        .body(body.to_string())
        .send()
        .expect("the broker answers");
    let status = reply.status().as_u16();
    (status, reply.json().unwrap_or(Value::Null))
}

fn triggered(broker: &BrokerProcess, webhook: &str) -> Vec<Value> {
    let (status, list) = broker.get(&format!("/webhooks/{webhook}/triggered-webhooks"));
    assert_eq!(status, 200, "{list}");
    list["_embedded"]["triggeredWebhooks"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The only triggered webhook of `webhook` once it has `status` (at most two
/// minutes).
fn the_triggered(broker: &BrokerProcess, webhook: &str, status: &str) -> Value {
    let start = Instant::now();
    loop {
        let all = triggered(broker, webhook);
        if all.len() == 1 && all[0]["status"] == status {
            return all[0].clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no single {status} triggered webhook: {all:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

const FLAGS: [&str; 6] = [
    "--webhook-scheme-allowlist",
    "http",
    "--webhook-host-allowlist",
    "127.0.0.1",
    "--webhook-lease",
    "2",
];

#[test]
fn a_delivery_in_flight_when_the_broker_is_killed_is_sent_again_after_restart() {
    let file = temp_dir("webhook-crash").join("accord.db");
    let mut databases = vec![(file.to_string_lossy().into_owned(), None)];
    if let Some(schema) = PgSchema::create_or_skip() {
        databases.push((schema.url.clone(), Some(schema)));
    }
    for (db, _schema) in databases {
        let receiver = Holding::start();
        let mut broker = BrokerProcess::start_on(&db, &FLAGS);
        let hook = json!({
            "events": [{"name": "contract_published"}],
            "request": {"method": "POST", "url": format!("{}/hook", receiver.url),
                "body": {"event": "${pactbroker.eventName}", "version": "${pactbroker.consumerVersionNumber}"}}
        });
        let (status, created) = send(
            reqwest::Method::POST,
            &format!("{}/webhooks", broker.url),
            &hook,
        );
        assert_eq!(status, 201, "{created}");
        let webhook = created["uuid"].as_str().expect("uuid").to_owned();
        let pact = json!({
            "consumer": {"name": "c"}, "provider": {"name": "p"},
            "interactions": [{"description": "a request", "request": {"method": "GET", "path": "/a"}, "response": {"status": 200}}],
            "metadata": {"pactSpecification": {"version": "3.0.0"}}
        });
        let url = format!("{}/pacts/provider/p/consumer/c/version/1.0.0", broker.url);
        assert!(send(reqwest::Method::PUT, &url, &pact).0 < 300);
        let first = receiver.wait_for(1);
        assert_eq!(first.len(), 1, "the delivery reached the receiver");
        let in_flight = the_triggered(&broker, &webhook, "delivering");
        broker.kill9();
        let broker = BrokerProcess::start_on(&db, &FLAGS);
        let both = receiver.wait_for(2);
        assert_eq!(both.len(), 2, "sent again after the restart: {both:?}");
        assert_eq!(both[0], both[1], "the same event");
        let body: Value = serde_json::from_str(&both[1]).unwrap_or(Value::Null);
        assert_eq!(
            body,
            json!({"event": "contract_published", "version": "1.0.0"})
        );
        let delivered = the_triggered(&broker, &webhook, "success");
        assert_eq!(
            delivered["uuid"], in_flight["uuid"],
            "the same triggered webhook"
        );
    }
}
