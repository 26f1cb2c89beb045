//! Hostile A2A agents: streams that never end, lines that never end,
//! frames of nothing. Every stream is bounded — each event within the
//! request timeout, the whole stream within ten of them, its bytes within
//! the cap — so the run always ends, with a finding.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use accord_verifier::{
    ContractSource, SourcedContract, VerificationReport, VerifyConfig, verify_blocking,
};
use serde_json::json;

/// What the agent's stream does after its first event.
#[derive(Clone, Copy)]
enum Hostility {
    /// A WORKING update every 100 ms, for ever.
    Trickle,
    /// One line of `x` that never ends.
    EndlessLine,
    /// Frames whose data is only spaces, every 50 ms, for ever.
    Blank,
}

/// Serves the card and a hostile stream on loopback; returns the base URL.
fn hostile_agent(how: Hostility) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let card = json!({"name": "hostile", "description": "d", "version": "1", "capabilities": {"streaming": true},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"], "skills": [],
        "supportedInterfaces": [{"url": format!("{base}/a2a"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]});
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let card = card.to_string();
            std::thread::spawn(move || serve(stream, &card, how));
        }
    });
    base
}

fn serve(mut stream: TcpStream, card: &str, how: Hostility) {
    let mut reader = BufReader::new(stream.try_clone().expect("a clone"));
    let mut head = String::new();
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    if head.starts_with("GET") {
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{card}",
            card.len()
        );
        return;
    }
    let _ = stream.write_all(
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n",
    );
    let task = json!({"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"}}}});
    let _ = write!(stream, "data: {task}\r\n\r\n");
    let started = Instant::now();
    // the test's run ends long before; the thread stops when the socket does
    while started.elapsed() < Duration::from_secs(60) {
        let sent = match how {
            Hostility::Trickle => {
                std::thread::sleep(Duration::from_millis(100));
                let working = json!({"jsonrpc": "2.0", "id": 1, "result": {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}});
                write!(stream, "data: {working}\r\n\r\n")
            }
            Hostility::EndlessLine => stream.write_all(&[b'x'; 8192]),
            Hostility::Blank => {
                std::thread::sleep(Duration::from_millis(50));
                stream.write_all(b"data:    \r\n\r\n")
            }
        };
        if sent.is_err() {
            return;
        }
    }
}

fn verify(base: String) -> (VerificationReport, Duration) {
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "hostile"},
        "interactions": [{"type": "A2A/Task", "description": "a plan", "streaming": true,
            "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "plan"}]}},
            "terminalState": "TASK_STATE_COMPLETED"}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
        "t",
    );
    let mut config = VerifyConfig::new("hostile", base, ContractSource::Loaded(vec![c]));
    config.limits.request_timeout = Duration::from_millis(300);
    config.limits.max_response_bytes = 64 * 1024;
    let started = Instant::now();
    let report = verify_blocking(&config).expect("no operational failure");
    (report, started.elapsed())
}

fn codes(report: &VerificationReport) -> Vec<&'static str> {
    report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter().map(|f| f.reason_code))
        .collect()
}

#[test]
fn a_stream_that_never_ends_is_cut_at_its_whole_budget() {
    let (report, took) = verify(hostile_agent(Hostility::Trickle));
    assert!(
        codes(&report).contains(&"RESPONSE_TIMEOUT"),
        "{:?}",
        codes(&report)
    );
    assert!(took < Duration::from_secs(20), "took {took:?}");
}

#[test]
fn a_line_that_never_ends_is_cut_at_the_size_cap() {
    let (report, took) = verify(hostile_agent(Hostility::EndlessLine));
    assert!(
        codes(&report).contains(&"RESPONSE_TOO_LARGE"),
        "{:?}",
        codes(&report)
    );
    assert!(took < Duration::from_secs(20), "took {took:?}");
}

#[test]
fn frames_of_nothing_do_not_hold_the_wait_open() {
    let (report, took) = verify(hostile_agent(Hostility::Blank));
    assert!(
        codes(&report).contains(&"RESPONSE_TIMEOUT"),
        "{:?}",
        codes(&report)
    );
    assert!(took < Duration::from_secs(20), "took {took:?}");
}
