//! The routes of the HTTP+JSON binding, and A2A's unary operations on the
//! direct HTTP/1.1 path against the same on reqwest, on loopback servers
//! written byte by byte: the same bytes sent, the same answers and the
//! same cut-offs.

use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::*;
use crate::a2a::wire::Outcome;
use crate::config::Token;
use crate::transport::Transport;
use crate::transport_h1::tests::direct_transport as transport;
use crate::transport_h1::tests::{answering, read_request, server, untraced};

fn interface(binding: Binding, url: String, credentials: bool) -> Interface {
    Interface {
        binding,
        url,
        tenant: Some("acme".into()),
        credentials,
    }
}

fn params(pairs: &[(&str, Value)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

#[test]
fn rest_routes_follow_the_spec_with_the_tenant_first() {
    let interface = interface(
        Binding::HttpJson,
        "http://127.0.0.1:9/a2a/rest".into(),
        true,
    );
    let get = params(&[("id", json!("t-1")), ("historyLength", json!(0))]);
    let target = rest_target(&interface, A2aOperation::GetTask, get).expect("a target");
    assert_eq!(
        target.url.map(String::from),
        Ok("http://127.0.0.1:9/a2a/rest/acme/tasks/t-1?historyLength=0".into())
    );
    let cancel = params(&[("id", json!("t-1"))]);
    let target = rest_target(&interface, A2aOperation::CancelTask, cancel).expect("a target");
    assert_eq!(target.method, reqwest::Method::POST);
    assert_eq!(
        target.url.map(String::from),
        Ok("http://127.0.0.1:9/a2a/rest/acme/tasks/t-1:cancel".into())
    );
}

/// What a verdict is made of in an answer.
type Shown = (u16, Vec<(String, String)>, Outcome, Vec<u8>);

/// `op` through the direct path, then through reqwest, as alice with a
/// `--header` value and a written `Authorization` (replaced).
async fn both(
    t: &Transport,
    interface: &Interface,
    op: A2aOperation,
    sent: &Map<String, Value>,
) -> [Result<Shown, CutOff>; 2] {
    let custom = [
        ("X-Tenant".to_owned(), Token::new("tenant-a")),
        ("Authorization".to_owned(), Token::new("Bearer written")),
    ];
    let reqwest_only = t.without_direct_path();
    let mut answers = Vec::new();
    for t in [t, &reqwest_only] {
        let client = Client {
            transport: t,
            interface,
            authorization: Authorization::Bearer("alice-token"),
            custom_headers: &custom,
            version: "1.0",
        };
        let answer = client.call(op, sent.clone()).await;
        answers.push(answer.map(|a| (a.status, a.headers, a.outcome, a.body)));
    }
    let through = answers.pop().expect("two");
    [answers.pop().expect("two"), through]
}

#[tokio::test]
async fn both_paths_send_an_a2a_operation_byte_for_byte() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let body = r#"{"jsonrpc":"2.0","id":1,"result":{"id":"t-1"}}"#;
    let answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let answer: &'static [u8] = answer.leak().as_bytes();
    let (base, accepted) = server(move |mut stream: TcpStream| {
        while let Some(request) = read_request(&mut stream) {
            log.lock().expect("log").push(request);
            let _ = stream.write_all(answer);
        }
    });
    let t = transport(5_000, 4096);
    let sent = params(&[("id", json!("t-1")), ("historyLength", json!(2))]);
    let cases = [
        (Binding::JsonRpc, true, A2aOperation::GetTask),
        (Binding::HttpJson, true, A2aOperation::GetTask),
        (Binding::HttpJson, true, A2aOperation::CancelTask),
        (Binding::JsonRpc, false, A2aOperation::CancelTask),
    ];
    for (binding, credentials, op) in cases {
        let interface = interface(binding, format!("{base}/a2a"), credentials);
        let [direct, through] = both(&t, &interface, op, &sent).await;
        assert_eq!(direct, through, "{binding:?} {op:?}");
        assert!(direct.is_ok(), "{direct:?}");
    }
    let seen = seen.lock().expect("log");
    assert_eq!(seen.len(), 8);
    for pair in seen.chunks(2) {
        assert_eq!(untraced(&pair[0]), untraced(&pair[1]));
    }
    let rpc = String::from_utf8_lossy(&seen[0]).to_ascii_lowercase();
    let want = "content-type: application/json\r\naccept: application/a2a+json, application/json\r\na2a-version: 1.0\r\ntraceparent: 00-";
    assert!(rpc.contains(want), "{rpc}");
    assert!(rpc.contains("x-tenant: tenant-a\r\nauthorization: bearer alice-token\r\n"));
    assert!(
        String::from_utf8_lossy(&seen[2]).starts_with("GET /a2a/acme/tasks/t-1?historyLength=2 ")
    );
    // another origin: neither the token nor a `--header` value
    let foreign = String::from_utf8_lossy(&seen[6]).to_ascii_lowercase();
    assert!(!foreign.contains("authorization") && !foreign.contains("x-tenant"));
    // the direct path keeps its own connection alive (reqwest its own)
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_dripped_or_oversized_answer_is_the_same_cut_off_on_both_paths() {
    let (slow, _) = server(|mut stream: TcpStream| {
        while read_request(&mut stream).is_some() {
            let head =
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n";
            if stream.write_all(head).is_err() {
                return;
            }
            for _ in 0..100 {
                std::thread::sleep(Duration::from_millis(20));
                if stream.write_all(b" ").is_err() {
                    return;
                }
            }
        }
    });
    let (big, _) = server(answering(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 8192\r\n\r\n",
    ));
    let t = transport(300, 4096);
    let sent = params(&[("id", json!("t-1"))]);
    let cases = [
        (slow, CutOff::Timeout(Duration::from_millis(300))),
        (big, CutOff::TooLarge(4096)),
    ];
    for (base, cut) in cases {
        let interface = interface(Binding::JsonRpc, format!("{base}/a2a"), true);
        let [direct, through] = both(&t, &interface, A2aOperation::GetTask, &sent).await;
        assert_eq!(direct, Err(cut), "{base}");
        assert_eq!(direct, through);
    }
}
