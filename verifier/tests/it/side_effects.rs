//! Observed side effects, met and broken.

use accord_fixtures::http::Fault;
use accord_verifier::{VerifyError, verify_blocking};
use serde_json::json;

use crate::support::{codes, config, contract, http, provider, run};

fn create(side_effects: serde_json::Value) -> serde_json::Value {
    let mut i = http(
        "create an item",
        json!({"method": "POST", "path": "/items", "body": {"content": {"name": "lamp"}}}),
        json!({"status": 201}),
    );
    i["sideEffects"] = side_effects;
    i
}

#[test]
fn a_declared_side_effect_that_happens_passes() {
    let p = provider();
    let report = run(&config(
        &p,
        vec![contract(vec![create(
            json!({"records": 1, "outbound_writes": 0}),
        )])],
    ));
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn a_declared_side_effect_that_does_not_happen_is_a_behavior_finding() {
    let p = provider();
    p.set_fault(Some(Fault::NoRecord));
    let report = run(&config(
        &p,
        vec![contract(vec![create(json!({"records": 1}))])],
    ));
    assert_eq!(
        codes(&report),
        vec![(
            "behavior",
            "SIDE_EFFECT_DECLARATION_MISMATCH",
            "records".to_string()
        )]
    );
}

#[test]
fn an_undeclared_side_effect_is_unexpected() {
    let p = provider();
    p.set_fault(Some(Fault::UnexpectedSideEffect));
    let mut i = http(
        "get",
        json!({"method": "GET", "path": "/items/3"}),
        json!({"status": 200}),
    );
    i["providerStates"] = json!([{"name": "an item exists", "params": {"id": 3}}]);
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert_eq!(
        codes(&report),
        vec![(
            "behavior",
            "UNEXPECTED_SIDE_EFFECT",
            "outbound_writes".to_string()
        )]
    );
}

#[test]
fn repeating_a_create_twice_records_twice_and_is_judged_over_both_sends() {
    let p = provider();
    let mut i = create(json!({"records": 1}));
    i["repeat"] = json!({"times": 2});
    let report = run(&config(&p, vec![contract(vec![i.clone()])]));
    let found = codes(&report);
    // more than the one record both sends may make: not idempotent
    assert_eq!(
        found,
        vec![("behavior", "IDEMPOTENCY_VIOLATION", "records".to_string())]
    );
    let actual = crate::support::findings(&report)[0]
        .actual
        .as_deref()
        .cloned();
    assert_eq!(actual, Some(json!(2)));
    // fewer than declared is not the repeat's doing
    p.set_fault(Some(Fault::NoRecord));
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert_eq!(
        codes(&report),
        vec![(
            "behavior",
            "SIDE_EFFECT_DECLARATION_MISMATCH",
            "records".to_string()
        )]
    );
}

#[test]
fn a_counter_the_provider_does_not_report_is_an_operational_error() {
    let p = provider();
    let cfg = config(&p, vec![contract(vec![create(json!({"approvals": 0}))])]);
    let err = verify_blocking(&cfg).expect_err("operational failure");
    assert!(
        matches!(err, VerifyError::MissingCounter { ref counter, .. } if counter == "approvals")
    );
}

#[test]
fn side_effects_without_an_observation_url_are_an_operational_error() {
    let p = provider();
    let mut cfg = config(&p, vec![contract(vec![create(json!({"records": 1}))])]);
    cfg.observe_url = None;
    assert!(matches!(
        verify_blocking(&cfg),
        Err(VerifyError::ObservationRequired { .. })
    ));
}

#[test]
fn an_unreachable_observation_endpoint_is_an_operational_error() {
    let p = provider();
    let mut cfg = config(&p, vec![contract(vec![create(json!({"records": 1}))])]);
    cfg.observe_url = Some("http://127.0.0.1:9/observe".into());
    let err = verify_blocking(&cfg).expect_err("operational failure");
    assert!(matches!(err, VerifyError::Observe { .. }), "{err}");
}

#[test]
fn observed_windows_do_not_overlap_when_contracts_run_on_several_threads() {
    // Each create adds one record; each read declares no side effect. If a
    // create on one thread ran inside a read's window on another, the read
    // would see a record appear (UNEXPECTED_SIDE_EFFECT).
    let p = provider();
    let read = || {
        let mut i = http(
            "read a missing item",
            json!({"method": "GET", "path": "/items/404"}),
            json!({"status": 404}),
        );
        i["sideEffects"] = json!({"records": 0});
        i
    };
    let contracts: Vec<_> = (0..4)
        .map(|n| {
            let interactions = (0..6)
                .flat_map(|_| [create(json!({"records": 1})), read()])
                .collect();
            let mut c = contract(interactions);
            c.contract.consumer.name = format!("web-{n}");
            c
        })
        .collect();
    let mut cfg = config(&p, contracts);
    cfg.jobs = 4;
    let report = run(&cfg);
    assert!(report.passed(), "{:?}", codes(&report));
    assert_eq!(report.interactions().count(), 48);
}

#[test]
fn state_changes_of_other_chains_never_land_in_an_observed_window() {
    // Each setup writes a record and its teardown removes it, so every
    // interaction nets zero, but another chain's setup or teardown inside
    // this window would look like an undeclared side effect.
    let p = provider();
    let read = |n: usize| {
        let mut i = http(
            &format!("read a missing item {n}"),
            json!({"method": "GET", "path": "/items/404"}),
            json!({"status": 404}),
        );
        i["providerStates"] = json!([{"name": format!("a record is seeded {n}")}]);
        i["sideEffects"] = json!({"records": 0});
        i
    };
    let contracts: Vec<_> = (0..4)
        .map(|c| {
            let mut contract = contract((0..6).map(|n| read(c * 10 + n)).collect());
            contract.contract.consumer.name = format!("web-{c}");
            contract
        })
        .collect();
    let mut cfg = config(&p, contracts);
    cfg.jobs = 4;
    let report = run(&cfg);
    assert!(report.passed(), "{:?}", codes(&report));
    assert_eq!(report.interactions().count(), 24);
}

#[test]
fn a_repeat_beyond_the_cap_is_an_operational_error_not_an_endless_run() {
    let p = provider();
    let mut i = create(json!({"records": 1}));
    i["repeat"] = json!({"times": 4_000_000_000u32});
    let err = verify_blocking(&config(&p, vec![contract(vec![i])])).expect_err("refused");
    assert!(
        matches!(
            err,
            VerifyError::RepeatTooLarge {
                times: 4_000_000_000,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn what_a_run_needs_is_checked_before_the_first_request_naming_every_missing_piece() {
    let mut as_carol = http(
        "secure as carol",
        json!({"method": "GET", "path": "/secure"}),
        json!({"status": 200}),
    );
    as_carol["auth"] = json!({"principal": "carol"});
    let mut expired = http(
        "an expired credential is refused",
        json!({"method": "GET", "path": "/secure"}),
        json!({"status": 401}),
    );
    expired["auth"] = json!({"credential": "expired"});
    expired["negative"] = json!(true);
    let fine = http(
        "get",
        json!({"method": "GET", "path": "/items/1"}),
        json!({"status": 200}),
    );
    // nothing listens here: a run that sent anything would report it
    let mut cfg = accord_verifier::VerifyConfig::new(
        "items",
        "http://127.0.0.1:9",
        accord_verifier::ContractSource::Loaded(vec![]),
    );
    cfg.source = config(
        &provider(),
        vec![contract(vec![
            fine,
            create(json!({"records": 1})),
            as_carol,
            expired,
        ])],
    )
    .source;
    let err = verify_blocking(&cfg).expect_err("refused up front");
    let VerifyError::CannotRun(problems) = &err else {
        panic!("not a preflight refusal: {err}");
    };
    assert!(
        matches!(problems[0], VerifyError::ObservationRequired { .. }),
        "{err}"
    );
    assert!(
        matches!(&problems[1], VerifyError::UnknownPrincipal { principal, .. } if principal == "carol"),
        "{err}"
    );
    // no state issues an expired credential: none is made up
    assert!(
        matches!(&problems[2], VerifyError::NoExpiredCredential { interaction } if interaction.starts_with("an expired")),
        "{err}"
    );
    assert_eq!(problems.len(), 3, "{err}");
}

#[test]
fn a_provider_url_without_a_scheme_suggests_one() {
    let cfg = accord_verifier::VerifyConfig::new(
        "items",
        "127.0.0.1:8080",
        accord_verifier::ContractSource::Loaded(vec![]),
    );
    let err = verify_blocking(&cfg).expect_err("refused").to_string();
    assert!(
        err.contains("127.0.0.1:8080 (an http:// or https:// URL"),
        "{err}"
    );
}

/// A create whose `request_id` (the provider's idempotency key) is
/// generated, sent twice.
fn keyed_create(repeat: serde_json::Value) -> serde_json::Value {
    let mut i = http(
        "create an item once",
        json!({"method": "POST", "path": "/items",
               "body": {"content": {"request_id": "r-1", "name": "lamp"}},
               "generators": {"body": {"$.request_id": {"type": "Uuid"},
                                       "$.name": {"type": "RandomString", "size": 12}}}}),
        json!({"status": 201}),
    );
    i["sideEffects"] = json!({"records": 1});
    i["repeat"] = repeat;
    i
}

#[test]
fn a_repeat_is_the_same_request_generated_values_included() {
    let p = provider();
    let i = keyed_create(json!({"times": 2, "sameFields": ["$.body.id", "$.body.name"]}));
    let report = run(&config(&p, vec![contract(vec![i])]));
    // a new request_id per send would make two records
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn a_keyed_repeat_keeps_the_key_and_generates_the_rest_anew() {
    let p = provider();
    let keyed = json!({"times": 2, "key": "$.body.request_id", "sameFields": ["$.body.id"]});
    let report = run(&config(&p, vec![contract(vec![keyed_create(keyed)])]));
    assert!(report.passed(), "{:?}", codes(&report));
    // the name is generated anew each time: the provider echoes each one
    let names = json!({"times": 2, "key": "$.body.request_id", "sameFields": ["$.body.name"]});
    let report = run(&config(&p, vec![contract(vec![keyed_create(names)])]));
    assert!(
        report.passed(),
        "the item keeps its first name: {:?}",
        codes(&report)
    );
    // without the key kept, each send is a new item: two records, two ids
    let unkeyed = json!({"times": 2, "key": "$.body.name", "sameFields": ["$.body.id"]});
    let report = run(&config(&p, vec![contract(vec![keyed_create(unkeyed)])]));
    assert_eq!(
        codes(&report),
        vec![
            ("behavior", "IDEMPOTENCY_VIOLATION", "records".to_string()),
            (
                "behavior",
                "IDEMPOTENCY_VIOLATION",
                "repeat.sameFields[0]".to_string()
            )
        ]
    );
    let f = crate::support::findings(&report);
    assert!(
        f[0].detail.contains("same idempotency key ($.body.name"),
        "{}",
        f[0].detail
    );
}

#[test]
fn same_fields_that_differ_or_select_nothing_fail() {
    let p = provider();
    let mut i = create(json!({"records": {"min": 2, "max": 2}}));
    i["repeat"] = json!({"times": 2, "sameFields": ["$.body.id", "$.body.nothing"]});
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert_eq!(
        codes(&report),
        vec![
            (
                "behavior",
                "IDEMPOTENCY_VIOLATION",
                "repeat.sameFields[0]".to_string()
            ),
            (
                "behavior",
                "EXPECTATION_UNCHECKED",
                "repeat.sameFields[1]".to_string()
            )
        ]
    );
}
