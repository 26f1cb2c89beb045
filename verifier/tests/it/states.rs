//! Provider states: Pact's state-change calls and generated values.

use serde_json::json;

use crate::support::{codes, config, contract, http, provider, run};

#[test]
fn state_values_feed_provider_state_generators_in_the_request() {
    let p = provider();
    let mut i = http(
        "get the item the state created",
        json!({"method": "GET", "path": "/items/1",
               "generators": {"path": {"type": "ProviderState", "expression": "/items/${id}"}}}),
        json!({"status": 200, "body": {"content": {"id": 99, "name": "widget"}},
               "matchingRules": {"body": {"$.id": {"matchers": [{"match": "integer"}]}}}}),
    );
    // The state creates id 4242 when no id is given; the request must use it.
    i["providerStates"] = json!([{"name": "an item exists"}]);
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn setup_and_teardown_are_posted_in_pacts_shape() {
    let p = provider();
    let mut i = http(
        "get",
        json!({"method": "GET", "path": "/items/5"}),
        json!({"status": 200}),
    );
    i["providerStates"] = json!([{"name": "an item exists", "params": {"id": 5}}]);
    run(&config(&p, vec![contract(vec![i])]));
    assert_eq!(
        p.state_calls(),
        vec![
            json!({"state": "an item exists", "params": {"id": 5}, "action": "setup"}),
            json!({"state": "an item exists", "params": {"id": 5}, "action": "teardown"}),
        ]
    );
}

#[test]
fn a_failing_state_change_is_a_finding_and_the_interaction_is_not_sent() {
    let p = provider();
    let mut i = http(
        "get",
        json!({"method": "GET", "path": "/items/5"}),
        json!({"status": 200}),
    );
    i["providerStates"] = json!([{"name": "the state change fails"}]);
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert_eq!(codes(&report).len(), 1);
    assert_eq!(codes(&report)[0].1, "PROVIDER_STATE_FAILED");
}

#[test]
fn a_token_returned_by_a_state_is_presented_for_its_principal() {
    let p = provider();
    let mut i = http(
        "secure as carol",
        json!({"method": "GET", "path": "/secure"}),
        json!({"status": 200, "body": {"content": {"principal": "carol"}}}),
    );
    i["providerStates"] = json!([{"name": "a user named carol"}]);
    i["auth"] = json!({"principal": "carol"});
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn a_probe_no_driver_can_make_is_unchecked_not_passed() {
    let p = provider();
    let mut i = http(
        "secure as carol, probed by dave",
        json!({"method": "GET", "path": "/secure"}),
        json!({"status": 200, "body": {"content": {"principal": "carol"}}}),
    );
    i["providerStates"] = json!([{"name": "a user named carol"}]);
    i["auth"] = json!({"principal": "carol", "probes": [{"principal": "dave"}]});
    let mut c = config(&p, vec![contract(vec![i])]);
    c.principals
        .insert("dave".into(), accord_verifier::Token::new("dave-token"));
    let report = run(&c);
    assert!(!report.passed());
    assert_eq!(
        codes(&report),
        [(
            "authorization",
            "EXPECTATION_UNCHECKED",
            "auth.probes[0]".to_owned()
        )]
    );
}
