//! Message interactions, verified the way Pact verifies message pacts.

use accord_fixtures::http::Fault;
use serde_json::json;

use crate::support::{codes, config, contract, provider, run};

fn order_event() -> serde_json::Value {
    json!({
        "type": "Asynchronous/Messages",
        "description": "an order event",
        "providerStates": [{"name": "an order exists"}],
        "contents": {"content": {"orderId": 1, "status": "created"}, "contentType": "application/json"},
        "metadata": {"topic": "orders"},
        "matchingRules": {"body": {"$.orderId": {"matchers": [{"match": "integer"}]}}}
    })
}

#[test]
fn a_produced_message_that_matches_passes() {
    let p = provider();
    let report = run(&config(&p, vec![contract(vec![order_event()])]));
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn a_wrong_message_body_is_a_response_mismatch() {
    let p = provider();
    p.set_fault(Some(Fault::WrongBody));
    let report = run(&config(&p, vec![contract(vec![order_event()])]));
    assert_eq!(
        codes(&report),
        vec![("schema", "RESPONSE_MISMATCH", "$.status".to_string())]
    );
}

#[test]
fn wrong_metadata_is_a_metadata_mismatch() {
    let p = provider();
    let mut m = order_event();
    m["metadata"] = json!({"topic": "payments"});
    let report = run(&config(&p, vec![contract(vec![m])]));
    let f = crate::support::findings(&report);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].pact_attribute, Some("metadata"));
    assert_eq!(f[0].path, "topic");
}

#[test]
fn a_synchronous_message_is_answered_from_its_request() {
    let p = provider();
    let m = json!({
        "type": "Synchronous/Messages",
        "description": "a price quote",
        "request": {"contents": {"content": {"item": "lamp"}, "contentType": "application/json"}},
        "response": [{"contents": {"content": {"item": "lamp", "price": 1.0}, "contentType": "application/json"},
                      "matchingRules": {"body": {"$.price": {"matchers": [{"match": "decimal"}]}}}}]
    });
    let report = run(&config(&p, vec![contract(vec![m])]));
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn an_unknown_message_is_a_failed_request() {
    let p = provider();
    let mut m = order_event();
    m["description"] = json!("a refund event");
    let report = run(&config(&p, vec![contract(vec![m])]));
    assert_eq!(codes(&report)[0].1, "REQUEST_FAILED");
}
