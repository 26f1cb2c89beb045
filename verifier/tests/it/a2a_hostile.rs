//! Hostile A2A agents: streams that never end, lines that never end,
//! frames of nothing, errors of endless prose. Every stream is bounded —
//! each event within the request timeout, the whole stream within the
//! stream timeout, its bytes within the cap — so the run always ends, with
//! one finding that quotes a bounded excerpt of what the agent said.

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
    /// One error frame whose message is 48 KB of prose.
    LongError,
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
    // the run ends long before (the measurement too); the thread stops
    // when the socket does
    while started.elapsed() < Duration::from_secs(600) {
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
            Hostility::LongError => {
                let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "why ".repeat(12_000)}});
                let _ = write!(stream, "data: {error}\r\n\r\n");
                return;
            }
        };
        if sent.is_err() {
            return;
        }
    }
}

fn verify(base: String) -> (VerificationReport, Duration) {
    verify_with(base, |config| {
        config.limits.request_timeout = Duration::from_millis(300);
        config.limits.stream_timeout = Duration::from_secs(2);
        config.limits.max_response_bytes = 64 * 1024;
    })
}

fn verify_with(
    base: String,
    limits: impl FnOnce(&mut VerifyConfig),
) -> (VerificationReport, Duration) {
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "hostile"},
        "interactions": [{"type": "A2A/Task", "description": "a plan", "streaming": true,
            "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "plan"}]}},
            "steps": [{"status": {"state": "TASK_STATE_WORKING"}}, {"status": {"state": "TASK_STATE_COMPLETED"}}],
            "terminalState": "TASK_STATE_COMPLETED"}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let c = SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "t").expect("a contract"),
        "t",
    );
    let mut config = VerifyConfig::new("hostile", base, ContractSource::Loaded(vec![c]));
    limits(&mut config);
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

/// Every finding's JSON, which quotes at most 2 KiB per field.
fn bounded(report: &VerificationReport) {
    for (_, i) in report.interactions() {
        for f in &i.findings {
            let text = serde_json::to_string(f).expect("JSON");
            assert!(
                text.len() < 9 * 1024,
                "{} bytes: {}",
                text.len(),
                &text[..300]
            );
        }
    }
}

#[test]
fn a_stream_that_never_ends_is_cut_at_its_deadline_with_one_finding() {
    // WORKING every 100 ms: each event well within the request timeout
    let (report, took) = verify(hostile_agent(Hostility::Trickle));
    assert_eq!(codes(&report), ["RESPONSE_TIMEOUT"]);
    let detail = &report.contracts[0].interactions[0].findings[0].detail;
    assert!(detail.contains("--stream-timeout"), "{detail}");
    assert!(detail.contains("TASK_STATE_WORKING"), "{detail}");
    bounded(&report);
    assert!(took < Duration::from_secs(20), "took {took:?}");
}

#[test]
fn an_error_of_endless_prose_is_quoted_by_an_excerpt() {
    // what is checked is the excerpt, not a timeout: with `verify`'s
    // 300 ms per event it raced the machine's load (it failed under load
    // in an earlier session), so the default limits here
    let (report, _) = verify_with(hostile_agent(Hostility::LongError), |config| {
        config.limits.max_response_bytes = 64 * 1024;
    });
    assert_eq!(codes(&report), ["RESPONSE_MISMATCH"]);
    let detail = &report.contracts[0].interactions[0].findings[0].detail;
    assert!(detail.contains("bytes more)"), "{}", &detail[..200]);
    bounded(&report);
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

/// The endless stream with the default limits (30 s per event, 120 s per
/// stream, 10 MiB): wall time, the report's size and the peak RSS.
/// `cargo test -p accord-verifier --test it -- --ignored --nocapture measure_`
#[test]
#[ignore = "a measurement: takes the default stream timeout (120 s)"]
fn measure_an_endless_stream_with_the_default_limits() {
    let (report, took) = verify_with(hostile_agent(Hostility::Trickle), |_| {});
    let json = serde_json::to_string(&report).expect("JSON");
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak = status
        .lines()
        .find(|l| l.starts_with("VmHWM"))
        .unwrap_or("");
    eprintln!(
        "took {took:?}; findings {:?}; report {} bytes; {peak}",
        codes(&report),
        json.len()
    );
}
