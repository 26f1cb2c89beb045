//! `accord serve --webhook-ca-file`: a receiver whose certificate chains to
//! a private CA is refused (the TLS failure in the answer and the log)
//! until the broker is given that CA; then it is delivered to. The
//! receiver is 127.0.0.1, allowlisted (the SSRF rules stay on).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use accord_broker::webhooks::outbound::Policy;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::json;

use super::{fast, pacticipants, queued};
use crate::pact_docs::{http, pact, publish_ok};
use crate::support::{TestApp, backends};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tls")
        .join(name)
}

/// A loopback HTTPS receiver with the private CA's certificate; the paths
/// of the requests it read.
struct TlsReceiver {
    url: String,
    got: Arc<Mutex<Vec<String>>>,
}

impl TlsReceiver {
    fn start() -> TlsReceiver {
        let certs: Vec<CertificateDer<'static>> =
            CertificateDer::pem_file_iter(fixture("receiver.pem"))
                .expect("receiver.pem")
                .collect::<Result<_, _>>()
                .expect("certificates");
        let key = PrivateKeyDer::from_pem_file(fixture("receiver.key")).expect("receiver.key");
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .expect("server config");
        let config = Arc::new(config);
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("https://{}", listener.local_addr().expect("addr"));
        let got: Arc<Mutex<Vec<String>>> = Arc::default();
        let seen = got.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (config, seen) = (config.clone(), seen.clone());
                std::thread::spawn(move || {
                    let Ok(conn) = rustls::ServerConnection::new(config) else {
                        return;
                    };
                    let mut tls = rustls::StreamOwned::new(conn, stream);
                    if let Some(path) = read_request(&mut tls) {
                        seen.lock().expect("lock").push(path);
                        let answer = "HTTP/1.1 200 OK\r\ncontent-length: 8\r\nconnection: close\r\n\r\nreceived";
                        let _ = tls.write_all(answer.as_bytes());
                        let _ = tls.flush();
                    }
                });
            }
        });
        TlsReceiver { url, got }
    }

    fn received(&self) -> Vec<String> {
        self.got.lock().expect("lock").clone()
    }
}

/// The request's path, once its head and body are read (None: the
/// handshake or the read failed).
fn read_request(stream: &mut impl Read) -> Option<String> {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&data).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().to_owned())
                })
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            if data.len() >= end + 4 + length {
                return text.split_whitespace().nth(1).map(str::to_owned);
            }
        }
    }
}

fn policy(ca: bool) -> Policy {
    let policy = Policy::from_lists(&["https".into()], &["127.0.0.1".into()], &["POST".into()])
        .expect("policy")
        .with_timeouts(Duration::from_secs(2), Duration::from_secs(5));
    if ca {
        policy
            .with_ca_files(&[fixture("ca.pem")])
            .expect("the CA loads")
    } else {
        policy
    }
}

fn webhook(app: &TestApp, r: &TlsReceiver) -> String {
    let body = json!({
        "events": [{"name": "contract_published"}],
        "request": {"method": "POST", "url": format!("{}/hook", r.url), "body": {"e": "${pactbroker.eventName}"}}
    });
    let created = app.post("/webhooks", &body);
    assert_eq!(created.status, 201, "{}", created.text);
    created.json["uuid"].as_str().expect("uuid").to_owned()
}

#[test]
fn a_receiver_behind_a_private_ca_is_refused_without_it_and_reached_with_it() {
    for db in backends() {
        let r = TlsReceiver::start();
        let app = TestApp::start(db, |c| {
            fast(c);
            c.webhook_policy = policy(false);
        });
        let uuid = webhook(&app, &r);
        let run = app.post(&format!("/webhooks/{uuid}/execute"), &json!({}));
        assert_eq!(run.status, 200, "{}", run.text);
        assert_eq!(run.json["success"], false, "{}", run.text);
        let error = run.json["error"]
            .as_str()
            .unwrap_or("")
            .to_ascii_lowercase();
        assert!(
            error.contains("certificate"),
            "the TLS failure is said: {}",
            run.text
        );
        assert!(r.received().is_empty(), "nothing was sent");

        let app = TestApp::start(db, |c| {
            fast(c);
            c.webhook_policy = policy(true);
        });
        let uuid = webhook(&app, &r);
        let run = app.post(&format!("/webhooks/{uuid}/execute"), &json!({}));
        assert_eq!(run.json["success"], true, "{}", run.text);
        pacticipants(&app, &["Foo", "Bar"]);
        publish_ok(
            &app,
            "1",
            Some("main"),
            &[],
            &[pact("Foo", "Bar", json!([http("/a", 200)]))],
        );
        assert_eq!(queued(&app, "contract_published"), 1);
        let start = Instant::now();
        while r.received().len() < 2 && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(
            r.received(),
            vec!["/hook".to_owned(), "/hook".to_owned()],
            "test run and delivery"
        );
    }
}

#[test]
fn a_ca_file_that_is_missing_or_holds_no_certificate_is_refused_naming_it() {
    let missing = fixture("missing.pem");
    let err = Policy::default()
        .with_ca_files(&[missing])
        .expect_err("missing");
    assert!(err.contains("missing.pem"), "{err}");
    let key_only = fixture("receiver.key");
    let err = Policy::default()
        .with_ca_files(&[key_only])
        .expect_err("no certificate");
    assert!(
        err.contains("receiver.key") && err.contains("no certificate"),
        "{err}"
    );
    let bundle = Policy::default().with_ca_files(&[fixture("ca.pem"), fixture("receiver.pem")]);
    assert!(bundle.is_ok(), "{bundle:?}");
}
