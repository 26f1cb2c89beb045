//! The direct path against reqwest's, on loopback servers written byte by
//! byte: the same bytes sent, the same answers and the same cut-offs
//! (timeouts, size cap, broken answers, refused connections, redirects),
//! and kept-alive connections reused until the server closes them.

use std::borrow::Cow;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::config::Limits;
use crate::transport::{CutOff, Outgoing, Received, Transport};

/// A loopback server: each connection handled by `serve(stream)` on a
/// thread of its own. Returns the base URL and the connections accepted.
pub(crate) fn server(
    serve: impl Fn(TcpStream) + Send + Sync + 'static,
) -> (String, Arc<AtomicUsize>) {
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

/// One request read whole (head and `Content-Length` body), or `None` at
/// the end of the connection.
pub(crate) fn read_request(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut data = Vec::new();
    let mut byte = [0u8; 1];
    while !data.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).ok()? == 0 {
            return None;
        }
        data.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&data).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).ok()?;
    data.extend(body);
    Some(data)
}

/// Answers every request of a connection with `answer`, keeping it open.
pub(crate) fn answering(answer: &'static [u8]) -> impl Fn(TcpStream) + Send + Sync + 'static {
    move |mut stream| {
        while read_request(&mut stream).is_some() {
            if stream.write_all(answer).is_err() {
                return;
            }
        }
    }
}

fn transport(timeout_ms: u64, cap: usize) -> Transport {
    let limits = Limits {
        request_timeout: Duration::from_millis(timeout_ms),
        max_response_bytes: cap,
        ..Limits::default()
    };
    Transport::new(limits).expect("a transport")
}

/// A transport with `timeout_ms` and a response cap of `cap` bytes that
/// has the direct path (the protocol drivers' tests compare both paths).
pub(crate) fn direct_transport(timeout_ms: u64, cap: usize) -> Transport {
    let t = transport(timeout_ms, cap);
    assert!(t.has_direct_path(), "no proxy in the test's environment");
    t
}

/// A request's bytes without its `traceparent` line (a new span each time).
pub(crate) fn untraced(request: &[u8]) -> String {
    let text = String::from_utf8_lossy(request);
    let kept: Vec<&str> = text
        .split("\r\n")
        .filter(|l| !l.starts_with("traceparent:"))
        .collect();
    kept.join("\r\n")
}

fn get(url: &str) -> Outgoing<'static> {
    let parsed = reqwest::Url::parse(url).expect("a URL");
    Outgoing::new(reqwest::Method::GET, Ok(Cow::Owned(parsed)))
}

/// The same request through both paths: (direct, reqwest).
async fn both(
    transport: &Transport,
    out: Outgoing<'_>,
) -> (Result<Received, CutOff>, Result<Received, CutOff>) {
    let direct = transport.send_out(out.clone()).await;
    let through = transport.send_through_reqwest(out).await;
    (direct, through)
}

/// Status, headers and body: what a verdict is made of.
type Shown = (u16, Vec<(String, String)>, Vec<u8>);

/// What a received answer shows a verdict.
fn shown(r: &Result<Received, CutOff>) -> Result<Shown, CutOff> {
    r.clone().map(|r| (r.status, r.headers, r.body))
}

#[tokio::test]
async fn both_paths_send_the_same_bytes() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let (base, _) = server(move |mut stream| {
        while let Some(request) = read_request(&mut stream) {
            log.lock().expect("log").push(request);
            let _ = stream.write_all(b"HTTP/1.1 204 No Content\r\n\r\n");
        }
    });
    let t = transport(5_000, 1024);
    let mut out = get(&format!("{base}/items/a%20b?q=1&r=two%20words"));
    out.method = reqwest::Method::POST;
    out.headers = vec![("X-Trace", "1"), ("x-many", "a"), ("X-Many", "b")];
    out.bearer = Some("token-1");
    out.content_type = Some(Cow::Borrowed("application/json"));
    out.body = Some(br#"{"id":1}"#.to_vec());
    let (direct, through) = both(&t, out).await;
    assert_eq!(shown(&direct), shown(&through));
    let mut stateless = get(&format!("{base}/"));
    stateless.headers = vec![("Accept", "text/plain"), ("Host", "example.test")];
    let (direct, through) = both(&t, stateless).await;
    assert_eq!(shown(&direct), shown(&through));
    let seen = seen.lock().expect("log");
    assert_eq!(seen.len(), 4);
    assert_eq!(
        String::from_utf8_lossy(&seen[0]),
        String::from_utf8_lossy(&seen[1])
    );
    assert_eq!(
        String::from_utf8_lossy(&seen[2]),
        String::from_utf8_lossy(&seen[3])
    );
}

#[tokio::test]
async fn a_kept_alive_connection_serves_every_request() {
    let (base, accepted) = server(answering(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"));
    let t = transport(5_000, 1024);
    for _ in 0..5 {
        let received = t
            .send_out(get(&format!("{base}/x")))
            .await
            .expect("an answer");
        assert_eq!(
            (received.status, received.body.as_slice()),
            (200, &b"{}"[..])
        );
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_server_closing_kept_alive_connections_between_requests_is_reconnected() {
    // one answer per connection, without `Connection: close`
    let (base, accepted) = server(|mut stream| {
        if read_request(&mut stream).is_some() {
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        }
    });
    let t = transport(5_000, 1024);
    for round in 0..3 {
        let (direct, through) = both(&t, get(&format!("{base}/x"))).await;
        assert_eq!(shown(&direct), shown(&through), "round {round}");
        assert_eq!(direct.map(|r| r.status), Ok(200));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 6);
}

#[tokio::test]
async fn a_provider_dripping_bytes_past_the_timeout_is_a_timeout() {
    let (base, _) = server(|mut stream| {
        while read_request(&mut stream).is_some() {
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
            for _ in 0..100 {
                std::thread::sleep(Duration::from_millis(20));
                if stream.write_all(b"x").is_err() {
                    return;
                }
            }
        }
    });
    let t = transport(300, 1024);
    let (direct, through) = both(&t, get(&format!("{base}/slow"))).await;
    assert_eq!(
        shown(&direct),
        Err(CutOff::Timeout(Duration::from_millis(300)))
    );
    assert_eq!(shown(&direct), shown(&through));
}

#[tokio::test]
async fn an_oversized_body_is_cut_off_at_the_cap_declared_or_streamed() {
    let declared: &'static [u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 2048\r\n\r\n";
    let (declared, _) = server(answering(declared));
    let streamed = format!(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n{}\r\n0\r\n\r\n",
        "y".repeat(2048)
    );
    let (streamed, _) = server(answering(streamed.leak().as_bytes()));
    let t = transport(5_000, 1024);
    for base in [declared, streamed] {
        let (direct, through) = both(&t, get(&format!("{base}/big"))).await;
        assert_eq!(shown(&direct), Err(CutOff::TooLarge(1024)), "{base}");
        assert_eq!(shown(&direct), shown(&through));
    }
}

#[tokio::test]
async fn a_connection_closed_mid_answer_fails_the_request_in_reqwests_words() {
    let (base, _) = server(|mut stream| {
        if read_request(&mut stream).is_some() {
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b");
        }
    });
    let t = transport(5_000, 1024);
    let (direct, through) = both(&t, get(&format!("{base}/cut"))).await;
    assert!(matches!(direct, Err(CutOff::Failed(_))), "{direct:?}");
    assert_eq!(shown(&direct), shown(&through));
    // a head that is not HTTP at all
    let (base, _) = server(answering(b"SSH-2.0-OpenSSH\r\n\r\n"));
    let (direct, through) = both(&t, get(&format!("{base}/ssh"))).await;
    assert!(matches!(direct, Err(CutOff::Failed(_))), "{direct:?}");
    assert_eq!(shown(&direct), shown(&through));
}

#[tokio::test]
async fn a_refused_connection_fails_the_request_in_reqwests_words() {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let t = transport(5_000, 1024);
    let (direct, through) = both(&t, get(&format!("http://127.0.0.1:{port}/x"))).await;
    assert!(matches!(direct, Err(CutOff::Failed(_))), "{direct:?}");
    assert_eq!(shown(&direct), shown(&through));
}

#[tokio::test]
async fn a_redirect_is_the_answer_not_followed() {
    let (base, accepted) = server(answering(
        b"HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n",
    ));
    let t = transport(5_000, 1024);
    let (direct, through) = both(&t, get(&format!("{base}/moved"))).await;
    assert_eq!(direct.as_ref().map(|r| r.status), Ok(302));
    assert_eq!(shown(&direct), shown(&through));
    // one connection each path: nothing followed
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[test]
fn unusual_requests_stay_on_reqwest() {
    let prepared = |url: &str, header: (&'static str, &'static str)| {
        let mut out = get(url);
        out.headers = vec![header];
        let direct = crate::transport_h1::Direct::new(Duration::from_secs(1));
        crate::transport_h1::prepare(&direct, &mut out).is_some()
    };
    let plain = ("x-a", "1");
    assert!(prepared("http://127.0.0.1:1/x?y=1", plain));
    assert!(!prepared("https://127.0.0.1:1/x", plain));
    assert!(!prepared("http://user:pw@127.0.0.1:1/x", plain));
    assert!(!prepared("http://127.0.0.1:1/x#part", plain));
    assert!(!prepared("http://127.0.0.1:1/x", ("bad name", "1")));
    assert!(!prepared("http://127.0.0.1:1/x", ("x-a", "line\nbreak")));
    let following = Limits {
        follow_redirects: true,
        ..Limits::default()
    };
    let t = Transport::new(following).expect("a transport");
    assert!(!t.has_direct_path(), "redirects are reqwest's to follow");
}

#[test]
fn the_host_value_is_what_format_writes() {
    for host in ["127.0.0.1", "localhost", "[::1]", "a.example"] {
        for port in [
            None,
            Some(0),
            Some(1),
            Some(9),
            Some(10),
            Some(80),
            Some(999),
        ] {
            let expected = match port {
                Some(p) => format!("{host}:{p}"),
                None => host.to_string(),
            };
            let written = crate::transport_h1::host_value(host, port);
            assert_eq!(
                written.as_ref().map(hyper::header::HeaderValue::as_bytes),
                Some(expected.as_bytes())
            );
        }
        for p in [1000, 8080, 9999, 10000, 18329, 65535] {
            let written = crate::transport_h1::host_value(host, Some(p));
            let expected = format!("{host}:{p}");
            assert_eq!(
                written.as_ref().map(hyper::header::HeaderValue::as_bytes),
                Some(expected.as_bytes())
            );
        }
    }
}

#[tokio::test]
async fn an_answer_read_for_its_body_is_the_same_answer_without_its_headers() {
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(br#"{"ok":true}"#).expect("compressed");
    let body = gzip.finish().expect("compressed");
    let head = "HTTP/1.1 201 Created\r\nContent-Encoding: GZip\r\nX-A: 1\r\n";
    let mut answer = format!("{head}Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    answer.extend(body);
    let (base, _) = server(answering(Box::leak(answer.into_boxed_slice())));
    let t = transport(5_000, 1024);
    let url = format!("{base}/x");
    let whole = t.send_out(get(&url)).await.expect("an answer");
    assert_eq!(whole.body, br#"{"ok":true}"#, "decoded");
    assert_eq!(whole.header("x-a"), Some("1"));
    let direct = t.send_out_for_body(get(&url)).await;
    let through = t.without_direct_path().send_out_for_body(get(&url)).await;
    for bare in [direct, through] {
        let bare = bare.expect("an answer");
        assert_eq!((bare.status, &bare.body), (whole.status, &whole.body));
        assert!(bare.headers.is_empty(), "{:?}", bare.headers);
    }
}

#[tokio::test]
async fn each_origin_gets_its_own_host_when_requests_alternate() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let recording = |log: Arc<Mutex<Vec<String>>>| {
        move |mut stream: TcpStream| {
            while let Some(request) = read_request(&mut stream) {
                let text = String::from_utf8_lossy(&request).to_ascii_lowercase();
                let host = text.lines().find_map(|l| l.strip_prefix("host: "));
                log.lock()
                    .expect("log")
                    .push(host.unwrap_or("-").to_owned());
                let _ = stream.write_all(b"HTTP/1.1 204 No Content\r\n\r\n");
            }
        }
    };
    let (a, _) = server(recording(seen.clone()));
    let (b, _) = server(recording(seen.clone()));
    let by_name = a.replace("127.0.0.1", "localhost");
    let t = direct_transport(5_000, 1024);
    for base in [&a, &b, &a, &by_name, &b, &by_name] {
        let answered = t.send_out(get(&format!("{base}/x"))).await;
        assert_eq!(answered.map(|r| r.status), Ok(204), "{base}");
    }
    let hosts: Vec<String> = [&a, &b, &a, &by_name, &b, &by_name]
        .iter()
        .map(|base| base.trim_start_matches("http://").to_owned())
        .collect();
    assert_eq!(*seen.lock().expect("log"), hosts);
}
