//! Plain `http://` providers are verified on kept-alive HTTP/1.1
//! connections of the verifier's own (not reqwest's): the bounds hold
//! there with the same reason codes — a provider dripping its answer past
//! the timeout, one sending more than the cap, one closing the connection
//! mid-answer, a state-change URL that hangs — and a provider that closes
//! every kept-alive connection after one answer is reconnected to.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use accord_verifier::{ContractSource, VerifyConfig};
use serde_json::json;

use crate::support::{codes, contract, http, run};

/// A loopback server handling each connection on a thread of its own;
/// its base URL and how many connections it accepted.
fn server(serve: impl Fn(TcpStream) + Send + Sync + 'static) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let accepted = Arc::new(AtomicUsize::new(0));
    let (count, serve) = (accepted.clone(), Arc::new(serve));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            count.fetch_add(1, Ordering::SeqCst);
            let serve = serve.clone();
            std::thread::spawn(move || serve(stream));
        }
    });
    (base, accepted)
}

/// Reads one request (head and `Content-Length` body): its head, `None`
/// at the end of the connection.
fn request(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    let text = String::from_utf8_lossy(&head).to_ascii_lowercase();
    let length = text
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    stream.read_exact(&mut vec![0u8; length]).ok()?;
    Some(text)
}

fn read_request(stream: &mut TcpStream) -> bool {
    request(stream).is_some()
}

const OK: &[u8] =
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{\"id\":3}";

/// A state-change URL answering `{}` after 20 ms, kept alive.
fn states() -> String {
    server(|mut stream| {
        while read_request(&mut stream) {
            std::thread::sleep(Duration::from_millis(20));
            let answer = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";
            if stream.write_all(answer).is_err() {
                return;
            }
        }
    })
    .0
}

/// `count` interactions `GET /items/3` → 200 `{"id": 3}`, each in its own
/// provider state, against `base` with `state_url` for the states.
fn config(base: &str, state_url: Option<String>, count: usize) -> VerifyConfig {
    let interactions = (0..count)
        .map(|n| {
            let mut i = http(
                &format!("get {n}"),
                json!({"method": "GET", "path": "/items/3"}),
                json!({"status": 200, "body": {"content": {"id": 3}}}),
            );
            i["providerStates"] = json!([{"name": format!("item {n}")}]);
            i
        })
        .collect();
    let source = ContractSource::Loaded(vec![contract(interactions)]);
    let mut config = VerifyConfig::new("items", base, source);
    config.state_change_url = state_url.map(|u| format!("{u}/_state"));
    config.limits.request_timeout = Duration::from_millis(500);
    config
}

/// A provider answering every request of a connection with `answer`.
fn answering(answer: &'static [u8]) -> String {
    server(move |mut stream| {
        while read_request(&mut stream) {
            if stream.write_all(answer).is_err() {
                return;
            }
        }
    })
    .0
}

#[test]
fn a_provider_closing_each_kept_alive_connection_after_one_answer_is_reconnected() {
    let (base, accepted) = server(|mut stream| {
        if read_request(&mut stream) {
            let _ = stream.write_all(OK);
        }
    });
    let report = run(&config(&base, Some(states()), 4));
    assert!(report.passed(), "{:?}", codes(&report));
    // the reachability check's, then one per interaction
    assert_eq!(accepted.load(Ordering::SeqCst), 5);
}

#[test]
fn a_provider_dripping_its_answer_past_the_timeout_is_a_timeout() {
    let (base, _) = server(|mut stream| {
        while read_request(&mut stream) {
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n");
            for _ in 0..50 {
                std::thread::sleep(Duration::from_millis(40));
                if stream.write_all(b" ").is_err() {
                    return;
                }
            }
        }
    });
    let report = run(&config(&base, None, 1));
    assert_eq!(
        codes(&report),
        [("temporal", "RESPONSE_TIMEOUT", "response".to_string())]
    );
}

#[test]
fn a_body_past_the_cap_is_cut_off_whether_declared_or_streamed() {
    let declared = answering(b"HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\n");
    let chunk = format!("1000\r\n{}\r\n0\r\n\r\n", " ".repeat(4096));
    let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    let streamed = answering(format!("{head}{chunk}").leak().as_bytes());
    for base in [declared, streamed] {
        let mut config = config(&base, None, 1);
        config.limits.max_response_bytes = 1024;
        assert_eq!(
            codes(&run(&config)),
            [("protocol", "RESPONSE_TOO_LARGE", "response".to_string())],
            "{base}"
        );
    }
}

#[test]
fn a_connection_closed_mid_answer_is_a_failed_request() {
    let (base, _) = server(|mut stream| {
        if read_request(&mut stream) {
            let head = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"id\":";
            let _ = stream.write_all(head);
        }
    });
    let report = run(&config(&base, None, 2));
    assert_eq!(
        codes(&report),
        [
            ("protocol", "REQUEST_FAILED", "response".to_string()),
            ("protocol", "REQUEST_FAILED", "response".to_string())
        ]
    );
}

#[test]
fn a_state_change_url_that_hangs_fails_the_state_and_skips_the_request() {
    // the reachability check's GET is answered, the state changes never
    let hanging = server(|mut stream| {
        while let Some(head) = request(&mut stream) {
            if !head.starts_with("get ") {
                std::thread::sleep(Duration::from_secs(5));
                return;
            }
            let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
        }
    })
    .0;
    let base = answering(OK);
    let report = run(&config(&base, Some(hanging), 1));
    let found = codes(&report);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1, "PROVIDER_STATE_FAILED");
    assert!(
        report.contracts[0].interactions[0].findings[0]
            .detail
            .contains("no complete answer within 500 ms"),
        "{:?}",
        report.contracts[0].interactions[0].findings
    );
}
