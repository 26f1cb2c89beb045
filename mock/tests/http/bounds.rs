//! The mock's resource bounds against real clients on loopback: slow
//! bodies are cut off while normal requests are answered, unexpected
//! requests are kept up to a bound and counted past it, and the bytes of
//! bodies held at once share a budget.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use accord_mock::{MockMismatch, MockOptions, MockServer};
use serde_json::{Value, json};

use super::{client, contract};

/// How long a test waits for what it expects before it gives up (a bound
/// on a failing run, not a timing assertion).
const GIVE_UP: Duration = Duration::from_secs(60);

/// A client that announced a body and sends it a byte at a time.
struct Slow {
    stream: TcpStream,
    /// What it saw: `Some(status)` of the answer, `Some(0)` for a closed
    /// connection; `None` while the mock still reads.
    cut: Option<u16>,
}

impl Slow {
    fn open(addr: std::net::SocketAddr, length: usize) -> Slow {
        let mut stream = TcpStream::connect(addr).expect("connects");
        let head = format!(
            "POST /items HTTP/1.1\r\nHost: mock\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{"
        );
        stream.write_all(head.as_bytes()).expect("head sent");
        stream.set_nonblocking(true).expect("non-blocking");
        Slow { stream, cut: None }
    }

    /// Sends one more byte, and notices an answer or a closed connection.
    fn drip(&mut self) {
        if self.cut.is_some() {
            return;
        }
        let mut buf = [0u8; 512];
        match self.stream.read(&mut buf) {
            Ok(0) => self.cut = Some(0),
            Ok(n) => self.cut = Some(status_of(&buf[..n])),
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(_) => self.cut = Some(0),
        }
        if self.cut.is_none() && self.stream.write(b" ").is_err() {
            self.cut = Some(0);
        }
    }
}

fn status_of(answer: &[u8]) -> u16 {
    String::from_utf8_lossy(answer)
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[test]
fn slow_bodies_are_cut_off_and_normal_requests_are_still_answered() {
    let options = MockOptions {
        body_timeout: Duration::from_secs(1),
        ..MockOptions::default()
    };
    let mock = MockServer::start_with(&contract(), options).expect("starts");
    // more than the 300 that stopped the mock, and more than it accepts at
    // once (the rest wait in the listen backlog)
    let mut slow: Vec<Slow> = (0..320).map(|_| Slow::open(mock.addr(), 100_000)).collect();
    let url = format!("{}/items/7?full=true", mock.url());
    let normal = std::thread::spawn(move || {
        let c = reqwest::blocking::Client::builder()
            .timeout(GIVE_UP)
            .build()
            .expect("a client");
        c.get(url).send().map(|r| r.status().as_u16())
    });
    let start = Instant::now();
    while slow.iter().any(|s| s.cut.is_none()) && start.elapsed() < GIVE_UP {
        slow.iter_mut().for_each(Slow::drip);
        std::thread::sleep(Duration::from_millis(100));
    }
    let answered = normal.join().expect("the normal client ran");
    assert_eq!(answered.ok(), Some(200), "the normal request was answered");
    let still = slow.iter().filter(|s| s.cut.is_none()).count();
    assert_eq!(still, 0, "every slow body was cut off");
    assert!(
        slow.iter().all(|s| matches!(s.cut, Some(408 | 0))),
        "408 or closed: {:?}",
        slow.iter().map(|s| s.cut).collect::<Vec<_>>()
    );
    let report = mock.verify();
    assert!(report.mismatches.iter().any(|m| matches!(m,
        MockMismatch::RequestNotFound { reason: Some(why), .. } if why.contains("did not arrive in time"))));
}

#[test]
fn unexpected_requests_are_kept_up_to_the_bound_then_counted_and_reset_frees_them() {
    let mock = MockServer::start(&contract()).expect("starts");
    let c = client();
    for n in 0..150 {
        let r = c
            .get(format!("{}/nowhere/{n}", mock.url()))
            .send()
            .expect("answered");
        assert_eq!(r.status(), 500);
    }
    let report = mock.verify();
    let kept = report
        .mismatches
        .iter()
        .filter(|m| matches!(m, MockMismatch::RequestNotFound { .. }))
        .count();
    assert_eq!((kept, report.more_mismatches), (100, 50));
    assert!(!report.ok);
    assert!(report.table().contains("and 50 more unexpected request(s)"));
    let served: Value = c
        .get(format!("{}/__accord/report", mock.url()))
        .send()
        .expect("admin")
        .json()
        .expect("json");
    assert_eq!(served["moreMismatches"], 50);
    c.post(format!("{}/__accord/reset", mock.url()))
        .send()
        .expect("admin");
    let report = mock.verify();
    assert_eq!(report.more_mismatches, 0);
    assert!(
        report
            .mismatches
            .iter()
            .all(|m| matches!(m, MockMismatch::MissingRequest { .. })),
        "only the interactions not yet exercised"
    );
}

#[test]
fn a_recorded_mismatch_keeps_a_large_value_in_a_few_words() {
    let mock = MockServer::start(&contract()).expect("starts");
    let big = "x".repeat(200_000);
    let r = client()
        .post(format!("{}/items", mock.url()))
        .json(&json!({"name": big, "n": 1}))
        .send()
        .expect("answered");
    assert_eq!(r.status(), 500);
    let kept = serde_json::to_string(&mock.verify()).expect("json");
    assert!(kept.len() < 10_000, "the report holds {} bytes", kept.len());
    assert!(kept.contains("not kept"), "{kept}");
}

#[test]
fn bodies_held_at_once_share_a_budget_and_the_mock_keeps_answering() {
    let options = MockOptions {
        body_budget_bytes: 1024 * 1024,
        ..MockOptions::default()
    };
    let mock = MockServer::start_with(&contract(), options).expect("starts");
    // eight bodies of 400 KB announced and begun: two fit the budget, six
    // are answered at once
    let mut held: Vec<Slow> = (0..8).map(|_| Slow::open(mock.addr(), 400_000)).collect();
    let mut refused: Vec<String> = Vec::new();
    let start = Instant::now();
    while refused.len() < 6 && start.elapsed() < GIVE_UP {
        std::thread::sleep(Duration::from_millis(50));
        refused.extend(held.iter_mut().filter_map(answer_so_far));
    }
    assert_eq!(refused.len(), 6, "{refused:?}");
    assert!(
        refused.iter().all(|a| status_of(a.as_bytes()) == 503),
        "{refused:?}"
    );
    assert!(
        refused
            .iter()
            .all(|a| a.to_ascii_lowercase().contains("retry-after: 1"))
    );
    let r = client()
        .get(format!("{}/items/7?full=true", mock.url()))
        .send()
        .expect("still answering");
    assert_eq!(r.status(), 200);
    // the two being read are answered when their bodies end, and give
    // their charge back
    let read: Vec<u16> = held
        .iter_mut()
        .filter(|s| s.cut.is_none())
        .map(finish)
        .collect();
    assert_eq!(read, [500, 500], "answered by the contract (a mismatch)");
    let r = client()
        .post(format!("{}/items", mock.url()))
        .body(vec![b' '; 900_000])
        .send()
        .expect("answered");
    assert_eq!(
        r.status(),
        500,
        "read, not refused: the budget is free again"
    );
}

/// The answer a slow client got, if one arrived (it sends nothing more).
fn answer_so_far(s: &mut Slow) -> Option<String> {
    if s.cut.is_some() {
        return None;
    }
    let mut buf = [0u8; 4096];
    match s.stream.read(&mut buf) {
        Ok(n) if n > 0 => {
            s.cut = Some(status_of(&buf[..n]));
            Some(String::from_utf8_lossy(&buf[..n]).into_owned())
        }
        _ => None,
    }
}

/// Sends the rest of a slow client's 400 KB body, then reads the status
/// of its answer.
fn finish(s: &mut Slow) -> u16 {
    s.stream.set_nonblocking(false).expect("blocking");
    s.stream.set_read_timeout(Some(GIVE_UP)).expect("timeout");
    let mut rest = vec![b' '; 400_000 - 2];
    rest.push(b'}');
    s.stream.write_all(&rest).expect("the body is read");
    let mut buf = [0u8; 4096];
    let n = s.stream.read(&mut buf).expect("an answer");
    status_of(&buf[..n])
}
