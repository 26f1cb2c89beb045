//! MCP's requests on the direct HTTP/1.1 path against the same requests on
//! reqwest, on loopback servers written byte by byte: the same bytes sent
//! (framing, session, trace, `--header` and bearer headers, in order), the
//! same replies (JSON and SSE) and the same cut-offs, each the same finding.

use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::wire::{Endpoint, Era, Reply, Session};
use crate::config::Token;
use crate::driver::Authorization;
use crate::finding::codes;
use crate::transport::{CutOff, Transport};
use crate::transport_h1::tests::direct_transport as transport;
use crate::transport_h1::tests::{answering, read_request, server, untraced};

/// The endpoint at `url` as `transport`, with a principal's token and two
/// `--header` values (the written `Authorization` is replaced).
fn endpoint<'a>(
    transport: &'a Transport,
    url: &'a str,
    headers: &'a [(String, Token)],
) -> Endpoint<'a> {
    Endpoint {
        transport,
        url,
        parsed: None,
        authorization: Authorization::Bearer("alice-token"),
        custom_headers: headers,
    }
}

fn custom() -> Vec<(String, Token)> {
    vec![
        ("X-Tenant".into(), Token::new("tenant-a")),
        ("Authorization".into(), Token::new("Bearer written")),
    ]
}

fn lookup() -> Map<String, Value> {
    let Value::Object(params) =
        json!({"name": "work_plan_lookup", "arguments": {"plan_id": "p-1"}})
    else {
        unreachable!("an object")
    };
    params
}

/// What a verdict is made of in a reply.
type Shown = (u16, Vec<(String, String)>, bool, Value, Vec<u8>);

fn shown(r: &Result<Reply, CutOff>) -> Result<Shown, CutOff> {
    r.as_ref().map_err(Clone::clone).map(|r| {
        let outcome = match &r.outcome {
            Ok(Ok(v)) => json!({"result": v}),
            Ok(Err(e)) => json!({"error": e.code}),
            Err(why) => json!({"none": why}),
        };
        (r.status, r.headers.clone(), r.sse, outcome, r.body.clone())
    })
}

/// A `tools/call` through the direct path, then the same through reqwest.
async fn both(
    t: &Transport,
    url: &str,
    era: Era,
    session: Option<&Session>,
) -> (Result<Reply, CutOff>, Result<Reply, CutOff>) {
    let headers = custom();
    let reqwest_only = t.without_direct_path();
    // the direct path with the URL parsed once, as a run sends it
    let parsed = reqwest::Url::parse(url).ok();
    let mut replies = Vec::new();
    for (t, parsed) in [(t, parsed.as_ref()), (&reqwest_only, None)] {
        let e = Endpoint {
            parsed,
            ..endpoint(t, url, &headers)
        };
        replies.push(e.call(era, session, Some(7), "tools/call", lookup()).await);
    }
    let through = replies.pop().expect("two replies");
    (replies.pop().expect("two replies"), through)
}

/// A JSON answer with its length, `extra` header lines before it.
fn json_answer(extra: &str, body: &str) -> &'static [u8] {
    let answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n{extra}content-length: {}\r\n\r\n{body}",
        body.len()
    );
    answer.leak().as_bytes()
}

/// An event stream's answer, each of `chunks` one chunk of the body.
fn event_stream(chunks: &[&str]) -> &'static [u8] {
    let mut answer = String::from(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n",
    );
    for chunk in chunks {
        answer.push_str(&format!("{:x}\r\n{chunk}\r\n", chunk.len()));
    }
    answer.push_str("0\r\n\r\n");
    answer.leak().as_bytes()
}

#[tokio::test]
async fn both_paths_send_an_mcp_request_byte_for_byte() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let answer = json_answer(
        "mcp-session-id: s-1\r\n",
        r#"{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"x"}}"#,
    );
    let (base, _) = server(move |mut stream: TcpStream| {
        while let Some(request) = read_request(&mut stream) {
            log.lock().expect("log").push(request);
            let _ = stream.write_all(answer);
        }
    });
    let t = transport(5_000, 4096);
    let url = format!("{base}/mcp");
    let session = Session {
        id: Some("s-1".into()),
        version: "2025-11-25".into(),
    };
    let legacy = Era::Legacy("2025-11-25");
    let (direct, through) = both(&t, &url, Era::Modern, None).await;
    assert_eq!(shown(&direct), shown(&through));
    let (direct, through) = both(&t, &url, legacy, Some(&session)).await;
    assert_eq!(shown(&direct), shown(&through));
    assert_eq!(
        direct.map(|r| r.header("mcp-session-id").map(str::to_owned)),
        Ok(Some("s-1".into()))
    );
    let headers = custom();
    for t in [&t, &t.without_direct_path()] {
        endpoint(t, &url, &headers).close(&session).await;
    }
    let seen = seen.lock().expect("log");
    assert_eq!(seen.len(), 6);
    for pair in seen.chunks(2) {
        assert_eq!(untraced(&pair[0]), untraced(&pair[1]));
    }
    let modern = String::from_utf8_lossy(&seen[0]).to_ascii_lowercase();
    for line in [
        "mcp-method: tools/call\r\nmcp-name: work_plan_lookup\r\ntraceparent: 00-",
        "x-tenant: tenant-a\r\nauthorization: bearer alice-token\r\n",
    ] {
        assert!(modern.contains(line), "{line} in {modern}");
    }
    assert!(
        !modern.contains("written"),
        "the written credential is replaced"
    );
    let legacy = String::from_utf8_lossy(&seen[2]);
    assert!(legacy.contains("mcp-protocol-version: 2025-11-25\r\nmcp-session-id: s-1\r\n"));
    assert!(String::from_utf8_lossy(&seen[4]).starts_with("DELETE /mcp HTTP/1.1\r\n"));
}

#[tokio::test]
async fn an_sse_answer_is_read_as_events_on_both_paths() {
    let answer = event_stream(&[
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n",
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"ok\":1}}\n\n",
    ]);
    let (base, accepted) = server(answering(answer));
    let t = transport(5_000, 4096);
    let url = format!("{base}/mcp");
    let (direct, through) = both(&t, &url, Era::Modern, None).await;
    assert_eq!(shown(&direct), shown(&through));
    let direct = direct.expect("a reply");
    assert!(direct.sse);
    assert_eq!(direct.outcome, Ok(Ok(json!({"ok": 1}))));
    // one connection per path, kept alive for the next call
    let (again, _) = both(&t, &url, Era::Modern, None).await;
    assert_eq!(again.map(|r| r.outcome), Ok(Ok(Ok(json!({"ok": 1})))));
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_response_to_another_id_on_the_stream_is_not_the_answer() {
    let answer = event_stream(&[
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"sampling/createMessage\",\"params\":{}}\n\n",
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"other\":1}}\n\n",
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"ok\":1}}\n\n",
    ]);
    let (base, _) = server(answering(answer));
    let t = transport(5_000, 4096);
    let (direct, through) = both(&t, &format!("{base}/mcp"), Era::Modern, None).await;
    assert_eq!(shown(&direct), shown(&through));
    assert_eq!(
        direct.expect("a reply").outcome,
        Err("the event stream carries a response of id 8, not the request's 7".to_owned())
    );
}

#[tokio::test]
async fn an_event_stream_dripping_past_the_timeout_is_a_response_timeout() {
    let (base, _) = server(|mut stream: TcpStream| {
        while read_request(&mut stream).is_some() {
            let head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
            if stream.write_all(head).is_err() {
                return;
            }
            for _ in 0..100 {
                std::thread::sleep(Duration::from_millis(20));
                if stream.write_all(b"2\r\n:\n\r\n").is_err() {
                    return;
                }
            }
        }
    });
    let t = transport(300, 4096);
    let (direct, through) = both(&t, &format!("{base}/mcp"), Era::Modern, None).await;
    let timeout = CutOff::Timeout(Duration::from_millis(300));
    assert_eq!(shown(&direct), Err(timeout.clone()));
    assert_eq!(shown(&direct), shown(&through));
    assert_eq!(
        timeout.finding("tools/call").reason_code,
        codes::RESPONSE_TIMEOUT
    );
}

#[tokio::test]
async fn an_oversized_answer_is_too_large_declared_or_streamed() {
    let declared: &'static [u8] =
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 8192\r\n\r\n";
    let (declared, _) = server(answering(declared));
    let streamed = event_stream(&[&":".repeat(8192)]);
    let (streamed, _) = server(answering(streamed));
    let t = transport(5_000, 4096);
    for base in [declared, streamed] {
        let (direct, through) = both(&t, &format!("{base}/mcp"), Era::Modern, None).await;
        assert_eq!(shown(&direct), Err(CutOff::TooLarge(4096)), "{base}");
        assert_eq!(shown(&direct), shown(&through));
        let code = direct.err().map(|c| c.finding("tools/call").reason_code);
        assert_eq!(code, Some(codes::RESPONSE_TOO_LARGE));
    }
}

#[tokio::test]
async fn a_server_closing_the_connection_between_session_calls_is_reconnected() {
    // two answers per connection, without `Connection: close`; each close
    // is told, so no request races it (on either path, one that does
    // fails: the request was sent)
    let (closed, closes) = std::sync::mpsc::channel();
    let answer = json_answer(
        "mcp-session-id: s-2\r\n",
        r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}"#,
    );
    let (base, accepted) = server(move |mut stream: TcpStream| {
        for _ in 0..2 {
            if read_request(&mut stream).is_none() || stream.write_all(answer).is_err() {
                break;
            }
        }
        drop(stream);
        let _ = closed.send(());
    });
    let seen_closed = || async {
        closes.recv_timeout(Duration::from_secs(5)).expect("closed");
        // the client's side of the connection reads the end
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let t = transport(5_000, 4096);
    let url = format!("{base}/mcp");
    let headers = custom();
    let era = Era::Legacy("2025-11-25");
    let mut paths = Vec::new();
    for t in [t.clone(), t.without_direct_path()] {
        let e = endpoint(&t, &url, &headers);
        let session = e.initialize(era).await.expect("answered");
        let session = session.expect("a session");
        assert_eq!(session.id.as_deref(), Some("s-2"));
        seen_closed().await;
        let mut replies = Vec::new();
        for call in 0..3 {
            let reply = e.call(era, Some(&session), Some(0), "tools/call", lookup());
            replies.push(shown(&reply.await));
            if call == 1 {
                seen_closed().await;
            }
        }
        paths.push(replies);
    }
    assert_eq!(paths[0], paths[1]);
    let result = json!({"result": {"protocolVersion": "2025-11-25"}});
    for reply in &paths[0] {
        assert_eq!(reply.as_ref().map(|r| (r.0, &r.3)), Ok((200, &result)));
    }
    // on each path: initialize and initialized, two calls, one call
    assert_eq!(accepted.load(Ordering::SeqCst), 6);
}

#[tokio::test]
async fn a_refused_connection_is_the_same_failed_request_on_both_paths() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let t = transport(5_000, 4096);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let (direct, through) = both(&t, &url, Era::Modern, None).await;
    assert!(matches!(direct, Err(CutOff::Failed(_))), "{direct:?}");
    assert_eq!(shown(&direct), shown(&through));
    let code = direct.err().map(|c| c.finding("tools/call").reason_code);
    assert_eq!(code, Some(codes::REQUEST_FAILED));
}
