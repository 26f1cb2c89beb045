//! The provider-CI loop the Pact Broker's webhooks close: a
//! `contract_requiring_verification_published` webhook whose body carries
//! `${pactbroker.pactUrl}` delivers a URL that `accord verify --pact-url`
//! fetches, verifies against the provider and publishes a result for.
//! The broker runs in this process so its policy can allowlist the
//! loopback receiver.

use std::io::Write;
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

use accord_broker::BrokerConfig;
use accord_broker::webhooks::outbound::Policy;
use accord_fixtures::http::HttpProvider;
use serde_json::{Value, json};

use crate::support::{accord, read_raw_request, temp_dir};
use crate::verify_broker::contract;

/// A broker on a fresh SQLite file whose webhooks may reach loopback.
fn start_broker(file: &std::path::Path) -> String {
    let mut config = BrokerConfig::new(file.to_string_lossy().into_owned());
    config.bind = "127.0.0.1:0".into();
    config.workers = Some(1);
    config.webhook_poll = Duration::from_millis(20);
    config.webhook_policy =
        Policy::from_lists(&["http".into()], &["127.0.0.1".into()], &["POST".into()])
            .expect("policy")
            .with_timeouts(Duration::from_secs(2), Duration::from_secs(5));
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let running = accord_broker::start(config).expect("broker starts");
            let _ = tx.send(running.addr);
            let _ = running.server.await;
        });
    });
    format!("http://{}", rx.recv().expect("broker address"))
}

/// A receiver that answers 200 and hands over each body it gets.
fn receiver() -> (String, mpsc::Receiver<Vec<u8>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            if let Some(request) = read_raw_request(&stream) {
                let _ = tx.send(request.body);
            }
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        }
    });
    (url, rx)
}

fn post(url: &str, body: &Value) -> Value {
    let client = reqwest::blocking::Client::new();
    let reply = client.post(url).json(body).send().expect("broker answers");
    assert!(
        reply.status().is_success(),
        "POST {url}: {}",
        reply.status()
    );
    reply.json().unwrap_or(Value::Null)
}

#[test]
fn a_webhook_delivers_a_pact_url_that_accord_verify_fetches_and_verifies() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let dir = temp_dir("webhook-verify");
    let broker = start_broker(&dir.join("broker.db"));
    let (hook_url, bodies) = receiver();
    // the provider's main-branch head is the version that must verify new
    // content (with none, the event fires for nobody, as in the Pact Broker)
    post(
        &format!("{broker}/pacticipants"),
        &json!({"name": "items", "mainBranch": "main"}),
    );
    let head = reqwest::blocking::Client::new()
        .put(format!(
            "{broker}/pacticipants/items/branches/main/versions/2.9.0"
        ))
        .json(&json!({}))
        .send()
        .expect("broker answers");
    assert!(head.status().is_success(), "{}", head.status());
    post(
        &format!("{broker}/webhooks"),
        &json!({
            "provider": {"name": "items"},
            "events": [{"name": "contract_requiring_verification_published"}],
            "request": {"method": "POST", "url": format!("{hook_url}/ci"),
                        "headers": {"Content-Type": "application/json"},
                        "body": {"pactUrl": "${pactbroker.pactUrl}"}}
        }),
    );
    let file = contract(&dir, "shop", json!({}));
    accord()
        .args([
            "publish",
            &file,
            "--consumer-app-version",
            "1.0.0",
            "--branch",
            "main",
            "--broker-url",
            &broker,
        ])
        .assert()
        .success();
    let body = bodies
        .recv_timeout(Duration::from_secs(60))
        .expect("the webhook is delivered");
    let delivered: Value = serde_json::from_slice(&body).expect("JSON body");
    let pact_url = delivered["pactUrl"].as_str().expect("pactUrl").to_owned();
    assert!(
        pact_url.starts_with(&broker) && pact_url.contains("/metadata/"),
        "{pact_url}"
    );
    let provider = HttpProvider::start().expect("provider");
    accord()
        .args(["verify", "--provider", "items", "--provider-base-url"])
        .arg(provider.base_url())
        .arg("--state-change-url")
        .arg(provider.state_change_url())
        .args([
            "--pact-url",
            &pact_url,
            "--publish",
            "--provider-version",
            "2.0.0",
        ])
        .env_remove("ACCORD_BROKER_URL")
        .env_remove("PACT_BROKER_BASE_URL")
        .assert()
        .code(0);
    let client = reqwest::blocking::Client::new();
    let latest: Value = client
        .get(format!(
            "{broker}/pacts/provider/items/consumer/shop/version/1.0.0/verification-results/latest"
        ))
        .send()
        .and_then(reqwest::blocking::Response::json)
        .expect("latest result");
    assert_eq!(latest["success"], true, "{latest}");
    assert_eq!(latest["providerApplicationVersion"], "2.0.0");
    let _ = std::fs::remove_dir_all(&dir);
}
