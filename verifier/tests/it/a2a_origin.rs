//! Credentials do not follow the card: the Agent Card comes from the
//! provider under test, so an interface it names on another origin never
//! receives the principals' tokens or `--header` values — the reference
//! agent on one loopback port is reached through a card served from
//! another port, and what it received is read back from its own record.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use accord_fixtures::a2a::A2aAgent;
use accord_verifier::origin::{Origin, OtherOrigin};
use accord_verifier::{ContractSource, Token, VerificationReport, VerifyConfig, verify_blocking};
use serde_json::{Value, json};

use super::a2a_task::{doc_of, plan_request, sourced};

const SECRET_HEADER: &str = "x-accord-key";

/// Serves `card` at every GET on a loopback port of its own: the
/// provider base URL the user gives. Returns that URL.
fn card_front(card: Value) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().expect("a clone"));
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                line.clear();
            }
            let body = card.to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    base
}

/// The reference agent's own card (its interfaces name its own port).
fn card_of(agent: &A2aAgent) -> Value {
    // refused harmlessly when the verifier installed it first
    let _ = rustls::crypto::ring::default_provider().install_default();
    let text = reqwest::blocking::Client::new()
        .get(agent.card_url())
        .header("a2a-version", "1.0")
        .send()
        .and_then(reqwest::blocking::Response::text)
        .expect("the agent's card");
    serde_json::from_str(&text).expect("a JSON card")
}

fn config(base: String) -> VerifyConfig {
    let plan = json!({"type": "A2A/Task", "description": "draft a plan",
        "auth": {"principal": "alice"}, "request": plan_request(json!({})),
        "terminalState": "TASK_STATE_COMPLETED"});
    let contract = sourced(&doc_of(json!([plan])));
    let mut c = VerifyConfig::new(
        "planning-agent",
        base,
        ContractSource::Loaded(vec![contract]),
    );
    c.principals
        .insert("alice".into(), Token::new("alice-secret-token"));
    c.custom_headers = vec![(SECRET_HEADER.into(), Token::new("header-secret"))];
    c.limits.request_timeout = std::time::Duration::from_secs(5);
    c
}

fn run(config: &VerifyConfig) -> VerificationReport {
    verify_blocking(config).expect("no operational failure")
}

fn other_origin(report: &VerificationReport) -> Vec<String> {
    report
        .interactions()
        .flat_map(|(_, i)| i.findings.iter())
        .filter(|f| f.reason_code == "INTERFACE_URL_OTHER_ORIGIN")
        .map(|f| f.detail.to_string())
        .collect()
}

/// Every header the agent received, over every request, and how many requests.
fn received(agent: &A2aAgent) -> (usize, Vec<(String, String)>) {
    agent.with_state(|s| {
        let headers = s.seen.iter().flat_map(|r| r.headers.clone()).collect();
        (s.seen.len(), headers)
    })
}

fn credentials_in(headers: &[(String, String)]) -> Vec<&(String, String)> {
    headers
        .iter()
        .filter(|(n, v)| n == "authorization" || n == SECRET_HEADER || v.contains("secret"))
        .collect()
}

#[test]
fn an_interface_on_another_port_is_a_finding_and_gets_nothing() {
    let agent = A2aAgent::start().expect("the agent");
    let report = run(&config(card_front(card_of(&agent))));
    let found = other_origin(&report);
    assert_eq!(found.len(), 1, "{report:#?}");
    assert!(found[0].contains(&agent.jsonrpc_url()), "{}", found[0]);
    assert!(found[0].contains("nothing was sent"), "{}", found[0]);
    assert!(!report.passed());
    assert_eq!(received(&agent).0, 0, "nothing reached the other origin");
}

#[test]
fn allowed_without_credentials_it_is_replayed_without_any() {
    let agent = A2aAgent::start().expect("the agent");
    let mut c = config(card_front(card_of(&agent)));
    c.other_origin = OtherOrigin::WithoutCredentials;
    let report = run(&c);
    let found = other_origin(&report);
    assert_eq!(found.len(), 1, "{report:#?}");
    assert!(found[0].contains("without credentials"), "{}", found[0]);
    let (requests, headers) = received(&agent);
    assert!(requests > 0, "the interface was replayed on");
    assert_eq!(credentials_in(&headers), Vec::<&(String, String)>::new());
}

#[test]
fn an_allowed_origin_gets_the_credentials() {
    let agent = A2aAgent::start().expect("the agent");
    let mut c = config(card_front(card_of(&agent)));
    c.allowed_origins = vec![Origin::parse(&agent.base_url()).expect("an origin")];
    let report = run(&c);
    assert!(other_origin(&report).is_empty(), "{report:#?}");
    assert!(report.passed(), "{report:#?}");
    let (_, headers) = received(&agent);
    let has = |name: &str, value: &str| headers.iter().any(|(n, v)| n == name && v == value);
    assert!(has("authorization", "Bearer alice-secret-token"));
    assert!(has(SECRET_HEADER, "header-secret"));
}

#[test]
fn a_card_on_the_given_origin_passes_with_its_credentials() {
    let agent = A2aAgent::start().expect("the agent");
    let report = run(&config(agent.base_url()));
    assert!(report.passed(), "{report:#?}");
    let (_, headers) = received(&agent);
    assert!(
        headers
            .iter()
            .any(|(n, v)| n == "authorization" && v == "Bearer alice-secret-token")
    );
}

#[test]
fn a_card_naming_the_cloud_metadata_address_is_refused_even_without_credentials() {
    let agent = A2aAgent::start().expect("the agent");
    let mut card = card_of(&agent);
    card["supportedInterfaces"] = json!([{"url": "http://169.254.169.254/a2a",
        "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]);
    let mut c = config(card_front(card));
    c.other_origin = OtherOrigin::WithoutCredentials;
    let report = run(&c);
    let found = other_origin(&report);
    assert_eq!(found.len(), 1, "{report:#?}");
    assert!(found[0].contains("cloud metadata"), "{}", found[0]);
    assert!(found[0].contains("nothing was sent"), "{}", found[0]);
}
