//! Behavioural expectations the engine judges for every driver, on plain
//! HTTP interactions: `retryable` against the provider's retry signals,
//! temporal limits no driver measures, and the kind a `negative` names.

use serde_json::json;

use crate::support::{codes, config, contract, http, provider, run};

#[test]
fn retryable_must_agree_with_the_providers_retry_signals() {
    let p = provider();
    let missing = |retryable: bool| {
        let mut i = http(
            "an unknown item",
            json!({"method": "GET", "path": "/items/999"}),
            json!({"status": 404}),
        );
        i["retryable"] = json!(retryable);
        i
    };
    // a 404 without Retry-After is not to be retried
    let report = run(&config(&p, vec![contract(vec![missing(false)])]));
    assert!(report.passed(), "{:?}", codes(&report));
    let report = run(&config(&p, vec![contract(vec![missing(true)])]));
    assert_eq!(
        codes(&report),
        [("protocol", "ERROR_CODE_MISMATCH", "retryable".to_owned())]
    );
}

#[test]
fn a_temporal_limit_no_driver_measures_is_unchecked_not_passed() {
    let p = provider();
    let mut i = http(
        "an unknown item",
        json!({"method": "GET", "path": "/items/999"}),
        json!({"status": 404}),
    );
    i["temporal"] = json!({"firstProgressWithinMs": 1000, "acknowledgeWithinMs": 60000});
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert_eq!(
        codes(&report),
        [(
            "temporal",
            "EXPECTATION_UNCHECKED",
            "temporal.firstProgressWithinMs".to_owned()
        )]
    );
}

#[test]
fn a_served_negative_case_takes_the_code_of_the_kind_the_contract_names() {
    let p = provider();
    // an item without a name the contract says must be refused: served
    let mut i = http(
        "an item without a name is refused",
        json!({"method": "POST", "path": "/items", "body": {"content": {}}}),
        json!({"status": 400}),
    );
    let served = |i: &serde_json::Value| {
        codes(&run(&config(&p, vec![contract(vec![i.clone()])])))
            .into_iter()
            .filter(|(_, _, path)| path == "status")
            .map(|(l, c, _)| (l, c))
            .collect::<Vec<_>>()
    };
    i["negative"] = json!(true);
    assert!(served(&i).contains(&("authorization", "CROSS_TENANT_ACCESS")));
    i["negative"] = json!("invalid_input");
    assert!(served(&i).contains(&("schema", "INVALID_INPUT_ACCEPTED")));
    // a kind the interaction cannot provoke: the contract is not run
    i["negative"] = json!("unauthenticated");
    let report = run(&config(&p, vec![contract(vec![i])]));
    let f = crate::support::findings(&report);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].reason_code, "CONTRACT_UNRUNNABLE");
    assert!(
        f[0].detail.contains("NEGATIVE_KIND_CONFLICT"),
        "{}",
        f[0].detail
    );
}
