//! Webhooks: the API (Pact Broker shapes), the events each change queues
//! (in its own transaction, once), rendering, and durable delivery to
//! loopback receivers (allowlisted in the test's policy).

mod api;
mod content_changed;
mod custom_ca;
mod delivery;
mod drift_events;
mod events;
mod labels;
mod measure;
mod pact_cli;
mod page;
mod retention;
mod status;

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use accord_broker::BrokerConfig;
use accord_broker::webhooks::outbound::Policy;
use serde_json::{Value, json};

use crate::support::{TestApp, backends};

/// The policy tests deliver under: http to 127.0.0.1 allowlisted.
pub fn loopback_policy() -> Policy {
    Policy::from_lists(
        &["http".into()],
        &["127.0.0.1".into()],
        &["POST".into(), "PUT".into(), "GET".into()],
    )
    .expect("policy")
    .with_timeouts(Duration::from_secs(2), Duration::from_secs(5))
}

/// Test settings: loopback allowed, retries after milliseconds, quick polls.
pub fn fast(config: &mut BrokerConfig) {
    config.webhook_policy = loopback_policy();
    config.webhook_retry_schedule = vec![Duration::from_millis(30); 6];
    config.webhook_poll = Duration::from_millis(20);
}

/// Runs `body` on a fresh broker with [`fast`] settings on each backend.
pub fn each_backend_fast(body: impl Fn(&TestApp)) {
    for db in backends() {
        body(&TestApp::start(db, fast));
    }
}

/// One request a receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// A loopback HTTP receiver: answers the queued statuses first, then 200.
#[derive(Clone)]
pub struct Receiver {
    pub url: String,
    got: Arc<Mutex<Vec<Received>>>,
    statuses: Arc<Mutex<VecDeque<u16>>>,
}

impl Receiver {
    pub fn start(fail_first: &[u16]) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let receiver = Receiver {
            url,
            got: Arc::default(),
            statuses: Arc::new(Mutex::new(fail_first.iter().copied().collect())),
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

    fn serve(&self, mut stream: std::net::TcpStream) {
        let mut reader = BufReader::new(stream.try_clone().expect("clone"));
        let mut line = String::new();
        if reader.read_line(&mut line).is_err() {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, path) = (
            parts.next().unwrap_or("").to_owned(),
            parts.next().unwrap_or("").to_owned(),
        );
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
                break;
            }
            if let Some((k, v)) = h.trim_end().split_once(':') {
                headers.push((k.trim().to_owned(), v.trim().to_owned()));
            }
        }
        let length = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse::<usize>().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        let _ = reader.read_exact(&mut body);
        let status = self
            .statuses
            .lock()
            .expect("lock")
            .pop_front()
            .unwrap_or(200);
        self.got.lock().expect("lock").push(Received {
            method,
            path,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        });
        let answer = format!(
            "HTTP/1.1 {status} X\r\ncontent-length: 8\r\nconnection: close\r\n\r\nreceived"
        );
        let _ = stream.write_all(answer.as_bytes());
    }

    /// What it received so far.
    pub fn received(&self) -> Vec<Received> {
        self.got.lock().expect("lock").clone()
    }

    /// Waits (at most a minute: a bound, not a timing assertion) until it
    /// received `n` requests; then what it received.
    pub fn wait_for(&self, n: usize) -> Vec<Received> {
        let start = Instant::now();
        while self.received().len() < n && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.received()
    }
}

/// A webhook body for `events` posting `{"event": …}` plus `body` to the receiver.
pub fn hook(
    receiver: &Receiver,
    events: &[&str],
    consumer: Option<&str>,
    provider: Option<&str>,
) -> Value {
    let mut h = json!({
        "description": format!("hook for {}", events.join(",")),
        "events": events.iter().map(|e| json!({"name": e})).collect::<Vec<_>>(),
        "request": {
            "method": "POST",
            "url": format!("{}/hook?event=${{pactbroker.eventName}}", receiver.url),
            "headers": {"Content-Type": "application/json"},
            "body": {"event": "${pactbroker.eventName}", "pv": "${pactbroker.providerVersionNumber}"}
        }
    });
    if let Some(c) = consumer {
        h["consumer"] = json!({"name": c});
    }
    if let Some(p) = provider {
        h["provider"] = json!({"name": p});
    }
    h
}

/// Fans out every event of the outbox now, as the worker would, and waits
/// (at most a minute: a bound, not a timing assertion) until none is left
/// unconsumed: the worker may be fanning one out at the same time (on
/// PostgreSQL this call skips the events the worker holds locked).
pub fn fan_out(app: &TestApp) {
    use accord_broker::db::write_transaction;
    use accord_broker::schema::webhook_events as we;
    use accord_broker::webhooks::outbox;
    use diesel::prelude::*;
    let seed = crate::seed::Seed::new(app);
    let start = Instant::now();
    seed.with(|conn| {
        loop {
            write_transaction(conn, |c| outbox::fan_out(c, 1000)).expect("fan out");
            let left: i64 = we::table
                .filter(we::consumed_at.is_null())
                .count()
                .get_result(conn)
                .expect("count");
            if left == 0 || start.elapsed() > Duration::from_secs(60) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    });
}

/// How many triggered webhooks of `event` are queued (any status), once
/// the outbox is fanned out.
pub fn queued(app: &TestApp, event: &str) -> i64 {
    use accord_broker::schema::triggered_webhooks as tw;
    use diesel::prelude::*;
    fan_out(app);
    let seed = crate::seed::Seed::new(app);
    seed.with(|conn| {
        tw::table
            .filter(tw::event_name.eq(event))
            .count()
            .get_result::<i64>(conn)
            .expect("count")
    })
}

/// Creates pacticipants `names` through the API.
pub fn pacticipants(app: &TestApp, names: &[&str]) {
    for n in names {
        let r = app.post("/pacticipants", &json!({"name": n}));
        assert!(r.status == 201 || r.status == 409, "{}", r.text);
    }
}
