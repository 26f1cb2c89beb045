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

/// Without observations an interaction's teardown goes out while its
/// answer is judged (`accord_verifier::release`): it must still follow
/// the interaction's last request, and the verdicts must be the same.
#[test]
fn an_early_teardown_follows_the_request_it_tears_down() {
    let p = provider();
    let interactions = (1..=20)
        .map(|n| {
            let mut i = http(
                &format!("get item {n}"),
                json!({"method": "GET", "path": format!("/items/{n}")}),
                // the fixture names items "widget": one body finding each
                json!({"status": 200, "body": {"content": {"id": n, "name": "gadget"}}}),
            );
            i["providerStates"] = json!([{"name": "an item exists", "params": {"id": n}}]);
            i
        })
        .collect();
    let mut c = config(&p, vec![contract(interactions)]);
    c.observe_url = None;
    let report = run(&c);
    // a teardown that overtook its GET would have made it a 404
    let found = codes(&report);
    assert_eq!(found.len(), 20, "{found:?}");
    assert!(
        found
            .iter()
            .all(|(_, code, path)| *code == "RESPONSE_MISMATCH" && path == "$.name"),
        "{found:?}"
    );
    let actions: Vec<(i64, String)> = p
        .state_calls()
        .iter()
        .map(|c| {
            (
                c["params"]["id"].as_i64().unwrap_or(-1),
                c["action"].to_string(),
            )
        })
        .collect();
    let expected: Vec<(i64, String)> = (1..=20)
        .flat_map(|n| [(n, "\"setup\"".to_owned()), (n, "\"teardown\"".to_owned())])
        .collect();
    assert_eq!(actions, expected);
}

/// With `repeat`, only the last send may let the teardown go: the
/// teardown removes the item, so an earlier one would make the later
/// sends 404s.
#[test]
fn an_early_teardown_waits_for_the_last_repeat() {
    let p = provider();
    let mut i = http(
        "get item 7 three times",
        json!({"method": "GET", "path": "/items/7"}),
        json!({"status": 200, "body": {"content": {"id": 7}}}),
    );
    i["providerStates"] = json!([{"name": "an item exists", "params": {"id": 7}}]);
    i["repeat"] = json!({"times": 3});
    let mut c = config(&p, vec![contract(vec![i])]);
    c.observe_url = None;
    let report = run(&c);
    assert!(report.passed(), "{:?}", codes(&report));
    assert_eq!(p.state_calls().len(), 2);
}
