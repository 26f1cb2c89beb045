//! The contract's `agentCard` against an agent's card served on loopback:
//! what the consumer relies on passes, a card that lost it fails with the
//! code of what was lost, and the card is reported by digest.

use std::collections::HashMap;

use accord_fixtures::stub::{Canned, StubConfig, StubProvider};
use accord_verifier::{ContractSource, SourcedContract, VerifyConfig, verify_blocking};
use serde_json::{Value, json};

fn card() -> Value {
    json!({"name": "planning-agent", "description": "Turns a goal into a short JSON plan.",
        "supportedInterfaces": [{"url": "http://127.0.0.1:9999/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "version": "1.0.0", "capabilities": {"streaming": true, "pushNotifications": false},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
        "skills": [{"id": "plan", "name": "Plan", "description": "Plans", "tags": ["planning"]}]})
}

fn serve(card: &Value) -> StubProvider {
    let mut routes = HashMap::new();
    routes.insert(
        ("GET".to_owned(), "/.well-known/agent-card.json".to_owned()),
        Canned {
            status: 200,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: card.to_string().into_bytes(),
        },
    );
    StubProvider::start(StubConfig {
        routes,
        ..StubConfig::default()
    })
    .expect("the stub starts")
}

fn run(stub: &StubProvider) -> accord_verifier::VerificationReport {
    let doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-agent"},
        "interactions": [],
        "agentCard": {"skills": [{"id": "plan"}], "capabilities": {"streaming": true},
            "interfaces": [{"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]},
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    let contract = accord_dsl::pact::from_value(&doc, "card").expect("a contract");
    let config = VerifyConfig::new(
        "planning-agent",
        stub.base_url(),
        ContractSource::Loaded(vec![SourcedContract::new(contract, "card")]),
    );
    verify_blocking(&config).expect("no operational failure")
}

#[test]
fn the_card_is_checked_against_what_the_consumer_relies_on() {
    let report = run(&serve(&card()));
    assert!(
        report.contracts[0].findings.is_empty(),
        "{:?}",
        report.contracts[0].findings
    );
    assert!(report.passed());
    let declared: Vec<_> = report
        .declarations
        .iter()
        .map(|d| (d.kind, d.entries))
        .collect();
    assert_eq!(declared, [("a2a/agent-card", 1)]);
    let mut lost = card();
    lost["skills"][0]["id"] = json!("review");
    lost["capabilities"]["streaming"] = json!(false);
    let report = run(&serve(&lost));
    let codes: Vec<_> = report.contracts[0]
        .findings
        .iter()
        .map(|f| f.reason_code)
        .collect();
    assert_eq!(codes, ["SKILL_MISSING", "CAPABILITY_MISSING"]);
    assert!(!report.passed());
}

#[test]
fn a_card_that_is_not_json_is_an_invalid_card() {
    let mut routes = HashMap::new();
    routes.insert(
        ("GET".to_owned(), "/.well-known/agent-card.json".to_owned()),
        Canned {
            status: 200,
            headers: vec![("Content-Type".into(), "text/html".into())],
            body: b"<html>hello</html>".to_vec(),
        },
    );
    let stub = StubProvider::start(StubConfig {
        routes,
        ..StubConfig::default()
    })
    .expect("the stub starts");
    let report = run(&stub);
    let codes: Vec<_> = report.contracts[0]
        .findings
        .iter()
        .map(|f| f.reason_code)
        .collect();
    assert_eq!(codes, ["CARD_SCHEMA_INVALID"]);
}
