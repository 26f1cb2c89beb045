//! Hostile clients at the socket: a body announced and never sent, a body
//! trickled in, a head never finished, a body over the limit that keeps
//! coming, a request line that is not HTTP. Each must cost the broker a
//! bounded time and end with the connection closed. (The bounds asserted
//! are the socket's 30 s read timeout, far above the configured second:
//! what is checked is that the broker closes, not how fast.)

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::raw_http::{RawReply, parse};
use crate::support::{TestApp, TestDb};

fn quick_broker() -> TestApp {
    TestApp::start(TestDb::Sqlite, |c| {
        c.body_timeout = Duration::from_secs(1);
        c.head_timeout = Duration::from_secs(1);
        c.body_limit = 64 * 1024;
    })
}

/// The same limits with timeouts a loaded machine never reaches, for the
/// tests whose request is complete: their answer must not depend on how
/// fast this machine schedules the broker (a 1 s head timeout answered a
/// complete garbage request with 408 under load).
fn roomy_broker() -> TestApp {
    TestApp::start(TestDb::Sqlite, |c| {
        c.body_timeout = Duration::from_secs(30);
        c.head_timeout = Duration::from_secs(30);
        c.body_limit = 64 * 1024;
    })
}

fn connect(app: &TestApp) -> TcpStream {
    let stream = TcpStream::connect(app.url.trim_start_matches("http://")).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    stream
}

/// Reads until the broker closes the connection; a read timeout means it
/// kept the connection open.
fn until_closed(mut stream: TcpStream) -> RawReply {
    let mut raw = Vec::new();
    match stream.read_to_end(&mut raw) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset && !raw.is_empty() => {}
        Err(e) => panic!(
            "the broker kept the connection open: {e} after {} bytes",
            raw.len()
        ),
    }
    parse(&raw).expect("a reply")
}

const POST_HEAD: &str =
    "POST /pacticipants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";

#[test]
fn a_body_announced_and_never_sent_is_a_408_and_the_connection_closes() {
    let app = quick_broker();
    let mut stream = connect(&app);
    stream
        .write_all(format!("{POST_HEAD}Content-Length: 100\r\n\r\n").as_bytes())
        .expect("head");
    let reply = until_closed(stream);
    assert_eq!(reply.status, 408, "{}", reply.text());
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json")
    );
    assert_eq!(reply.json()["type"], "urn:accord:problem:request-timeout");
    assert_eq!(reply.header("connection"), Some("close"));
}

#[test]
fn a_trickled_body_is_cut_off_at_the_body_timeout() {
    let app = quick_broker();
    let mut stream = connect(&app);
    stream
        .write_all(format!("{POST_HEAD}Transfer-Encoding: chunked\r\n\r\n").as_bytes())
        .expect("head");
    let writer = {
        let mut w = stream.try_clone().expect("clone");
        std::thread::spawn(move || {
            for _ in 0..100 {
                if w.write_all(b"1\r\n \r\n").is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };
    let reply = until_closed(stream);
    assert_eq!(reply.status, 408, "{}", reply.text());
    let _ = writer.join();
}

#[test]
fn a_head_never_finished_is_dropped_at_the_head_timeout() {
    let app = quick_broker();
    let mut stream = connect(&app);
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .expect("part of a head");
    // actix-http answers this one before any application code runs; the
    // answer is rewritten on the socket into the broker's shape (wire.rs)
    let reply = until_closed(stream);
    assert_eq!(reply.status, 408);
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json")
    );
    assert_eq!(reply.json()["status"], 408);
}

/// Sends `head`, then body bytes for as long as the broker reads them.
fn flood(app: &TestApp, head: &str, chunked: bool) -> RawReply {
    let mut stream = connect(app);
    stream.write_all(head.as_bytes()).expect("head");
    let writer = {
        let mut w = stream.try_clone().expect("clone");
        std::thread::spawn(move || {
            let chunk = vec![b' '; 64 * 1024];
            let framed = [
                format!("{:x}\r\n", chunk.len()).into_bytes(),
                chunk.clone(),
                b"\r\n".to_vec(),
            ]
            .concat();
            let piece = if chunked { framed } else { chunk };
            while w.write_all(&piece).is_ok() {}
        })
    };
    let reply = until_closed(stream);
    writer
        .join()
        .expect("the writer stops when the broker closes");
    reply
}

#[test]
fn a_body_over_the_limit_is_refused_unread_and_the_connection_closes() {
    let app = roomy_broker();
    let declared =
        format!("{POST_HEAD}Accept: application/json\r\nContent-Length: 100000000\r\n\r\n");
    let reply = flood(&app, &declared, false);
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "a client that accepts only JSON gets JSON, the 413 too"
    );
    assert_eq!(reply.header("connection"), Some("close"));
    let chunked = format!("{POST_HEAD}Transfer-Encoding: chunked\r\n\r\n");
    let reply = flood(&app, &chunked, true);
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json")
    );
}

#[test]
fn a_request_line_that_is_not_http_is_refused_and_closed() {
    let app = roomy_broker();
    let mut stream = connect(&app);
    stream.write_all(b"GARBAGE\r\n\r\n").expect("garbage");
    let reply = until_closed(stream);
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json")
    );
    assert!(
        reply.json()["errors"]["request"].is_array(),
        "{}",
        reply.text()
    );
}

#[test]
fn a_head_over_the_size_limit_is_a_431_problem() {
    let app = roomy_broker();
    let mut stream = connect(&app);
    let long = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(200_000));
    let _ = stream.write_all(long.as_bytes());
    let reply = until_closed(stream);
    assert_eq!(reply.status, 431);
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json")
    );
    assert_eq!(reply.json()["type"], "urn:accord:problem:http");
}

#[test]
fn a_request_without_a_host_gets_links_to_the_broker_itself() {
    let app = roomy_broker();
    let mut stream = connect(&app);
    stream
        .write_all(b"GET / HTTP/1.0\r\n\r\n")
        .expect("request");
    let reply = until_closed(stream);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let self_link = reply.json()["_links"]["self"]["href"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    assert!(
        self_link.starts_with(&app.url),
        "{self_link} vs {}",
        app.url
    );
}

#[test]
fn a_repeated_query_parameter_is_a_problem_naming_it() {
    let app = roomy_broker();
    let reply = app.get("/environments?name=a&name=b");
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert!(
        reply.content_type.starts_with("application/"),
        "{}",
        reply.content_type
    );
    assert!(
        reply.content_type.contains("json"),
        "{}",
        reply.content_type
    );
    assert!(
        reply.json["detail"].as_str().unwrap_or("").contains("name"),
        "{}",
        reply.text
    );
    assert!(reply.json["errors"]["query"].is_array(), "{}", reply.text);
}

/// Reads one reply (head, then `Content-Length` bytes) off a connection
/// that stays open.
fn read_one(stream: &mut TcpStream) -> RawReply {
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        let n = stream.read(&mut byte).expect("the head arrives");
        assert!(
            n == 1,
            "the broker closed the connection: {:?}",
            String::from_utf8_lossy(&raw)
        );
        raw.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&raw).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).expect("the body arrives");
    raw.extend(body);
    parse(&raw).expect("a reply")
}

#[test]
fn requests_that_leave_nothing_unread_keep_their_connection() {
    let app = roomy_broker();
    let mut stream = connect(&app);
    let requests = [
        "GET /diagnostic/status/heartbeat HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
            .to_owned(),
        {
            let body = r#"{"name":"kept"}"#;
            format!("{POST_HEAD}Content-Length: {}\r\n\r\n{body}", body.len())
        },
        "GET /pacticipants/kept HTTP/1.1\r\nHost: x\r\n\r\n".to_owned(),
    ];
    let mut statuses = Vec::new();
    for request in &requests {
        stream.write_all(request.as_bytes()).expect("request");
        let reply = read_one(&mut stream);
        assert_ne!(
            reply.header("connection"),
            Some("close"),
            "{}",
            reply.text()
        );
        statuses.push(reply.status);
    }
    assert_eq!(statuses, [200, 201, 200], "three answers on one connection");
}
