//! Behavioural expectations the engine judges for every driver, on plain
//! HTTP interactions: `retryable` against the provider's retry signals, and
//! temporal limits no driver measures.

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
