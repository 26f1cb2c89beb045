//! HTTP interactions: pass, and each kind of response mismatch.

use accord_fixtures::http::Fault;
use accord_verifier::{Layer, Outcome};
use serde_json::json;

use crate::support::{codes, config, contract, findings, http, provider, run};

fn get_item() -> serde_json::Value {
    get_item_id(7)
}

fn get_item_id(id: i64) -> serde_json::Value {
    let mut i = http(
        &format!("get item {id}"),
        json!({"method": "GET", "path": format!("/items/{id}")}),
        json!({"status": 200, "headers": {"Content-Type": "application/json"},
               "body": {"content": {"id": id, "name": "widget"}},
               "matchingRules": {"body": {"$.name": {"matchers": [{"match": "type"}]}}}}),
    );
    i["providerStates"] = json!([{"name": "an item exists", "params": {"id": id}}]);
    i
}

#[test]
fn a_provider_that_keeps_the_contract_passes() {
    let p = provider();
    let report = run(&config(&p, vec![contract(vec![get_item()])]));
    assert!(report.passed(), "{:?}", codes(&report));
    let result = &report.contracts[0].interactions[0];
    assert_eq!(result.outcome, Outcome::Passed);
    assert_eq!(result.description, "get item 7");
}

#[test]
fn a_wrong_body_is_a_schema_response_mismatch_with_its_path() {
    let p = provider();
    p.set_fault(Some(Fault::WrongBody));
    let report = run(&config(&p, vec![contract(vec![get_item()])]));
    assert!(!report.passed());
    let f = findings(&report);
    assert_eq!(f.len(), 1, "{:?}", codes(&report));
    assert_eq!(f[0].layer, Layer::Schema);
    assert_eq!(f[0].reason_code, "RESPONSE_MISMATCH");
    assert_eq!(f[0].path, "$.name");
    assert_eq!(f[0].pact_attribute, Some("body"));
    assert_eq!(f[0].actual.as_deref(), Some(&json!(42)));
}

#[test]
fn a_wrong_status_is_a_status_mismatch() {
    let p = provider();
    p.set_fault(Some(Fault::WrongStatus));
    let report = run(&config(&p, vec![contract(vec![get_item()])]));
    let f = findings(&report);
    let status = f
        .iter()
        .find(|f| f.pact_attribute == Some("status"))
        .expect("status finding");
    assert_eq!(status.expected.as_deref(), Some(&json!(200)));
    assert_eq!(status.actual.as_deref(), Some(&json!(500)));
}

#[test]
fn a_missing_header_and_a_wrong_content_type_are_header_mismatches() {
    let p = provider();
    let i = http(
        "get item with header",
        json!({"method": "GET", "path": "/items/7"}),
        json!({"status": 200, "headers": {"X-Trace": "1", "Content-Type": "text/plain"}}),
    );
    let mut i = i;
    i["providerStates"] = json!([{"name": "an item exists", "params": {"id": 7}}]);
    let report = run(&config(&p, vec![contract(vec![i])]));
    let mut headers: Vec<String> = findings(&report)
        .iter()
        .filter(|f| f.pact_attribute == Some("header"))
        .map(|f| f.path.clone())
        .collect();
    headers.sort();
    assert_eq!(
        headers,
        vec!["Content-Type".to_string(), "X-Trace".to_string()]
    );
}

#[test]
fn a_missing_body_key_is_reported_at_its_path() {
    let p = provider();
    let i = http(
        "get item expecting a price",
        json!({"method": "GET", "path": "/items/7"}),
        json!({"status": 200, "body": {"content": {"id": 7, "price": 1}}}),
    );
    let mut i = i;
    i["providerStates"] = json!([{"name": "an item exists", "params": {"id": 7}}]);
    let report = run(&config(&p, vec![contract(vec![i])]));
    let f = findings(&report);
    assert_eq!(f.len(), 1, "{:?}", codes(&report));
    assert_eq!(f[0].path, "$");
    assert!(f[0].detail.contains("price"), "{}", f[0].detail);
}

#[test]
fn results_are_the_same_whatever_the_number_of_jobs() {
    let p = provider();
    let contracts = || {
        (0..4)
            .map(|n| {
                // Each contract its own item: contracts replayed in
                // parallel must not share provider state.
                let mut c = contract(vec![get_item_id(10 + n), get_item_id(20 + n)]);
                c.contract.consumer.name = format!("web-{n}");
                c
            })
            .collect::<Vec<_>>()
    };
    let mut one = config(&p, contracts());
    one.observe_url = None;
    let mut four = one.clone();
    four.jobs = 4;
    assert_eq!(run(&one).without_timings(), run(&four).without_timings());
}

#[test]
fn a_negative_case_that_is_served_is_an_authorization_finding() {
    let p = provider();
    p.add_principal("alice", "t-alice");
    let mut i = http(
        "secure without credentials is refused",
        json!({"method": "GET", "path": "/secure", "headers": {"Authorization": "Bearer t-alice"}}),
        json!({"status": 401}),
    );
    i["negative"] = json!(true);
    i["auth"] = json!({"principal": "alice"});
    // Sent with alice's valid token: the provider serves it, the contract says refuse.
    let mut cfg = config(&p, vec![contract(vec![i.clone()])]);
    cfg.principals
        .insert("alice".into(), accord_verifier::Token::new("t-alice"));
    let report = run(&cfg);
    assert!(
        codes(&report)
            .iter()
            .any(|(l, c, _)| *l == "authorization" && *c == "CROSS_TENANT_ACCESS")
    );
    // Sent without a credential: refused as the contract says.
    i["auth"] = json!({"credential": "none"});
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn a_principal_is_sent_as_its_bearer_token_and_never_appears_in_the_report() {
    let p = provider();
    p.add_principal("bob", "t-bob-secret");
    let mut i = http(
        "secure as bob",
        json!({"method": "GET", "path": "/secure"}),
        json!({"status": 200, "body": {"content": {"principal": "bob"}}}),
    );
    i["auth"] = json!({"principal": "bob"});
    let mut cfg = config(&p, vec![contract(vec![i])]);
    cfg.principals
        .insert("bob".into(), accord_verifier::Token::new("t-bob-secret"));
    let report = run(&cfg);
    assert!(report.passed(), "{:?}", codes(&report));
    let text = serde_json::to_string(&report).expect("serialisable");
    assert!(!text.contains("t-bob-secret"));
    assert!(!format!("{cfg:?}").contains("t-bob-secret"));
}

fn descriptions(report: &accord_verifier::VerificationReport) -> Vec<String> {
    report
        .interactions()
        .map(|(_, i)| i.description.clone())
        .collect()
}

#[test]
fn filters_select_interactions_by_description_and_state() {
    let p = provider();
    let other = http(
        "create",
        json!({"method": "POST", "path": "/items", "body": {"content": {"name": "x"}}}),
        json!({"status": 201}),
    );
    let mut cfg = config(&p, vec![contract(vec![get_item(), other])]);
    cfg.observe_url = None;
    cfg.filter.description = Some(regex::Regex::new("^create").expect("regex"));
    let report = run(&cfg);
    assert_eq!(descriptions(&report), vec!["create".to_string()]);
    cfg.filter.description = None;
    cfg.filter.state = Some(regex::Regex::new("item exists").expect("regex"));
    let report = run(&cfg);
    assert_eq!(descriptions(&report), vec!["get item 7".to_string()]);
    cfg.filter.state = None;
    cfg.filter.no_state = true;
    let report = run(&cfg);
    assert_eq!(descriptions(&report), vec!["create".to_string()]);
}

#[test]
fn a_consumer_filter_leaves_other_consumers_contracts_out_of_the_report() {
    let p = provider();
    let mut other = contract(vec![get_item()]);
    other.contract.consumer.name = "mobile".into();
    let mut cfg = config(&p, vec![contract(vec![get_item()]), other]);
    cfg.filter.consumers = vec!["mobile".into()];
    let report = run(&cfg);
    let consumers: Vec<_> = report
        .contracts
        .iter()
        .map(|c| c.consumer.as_str())
        .collect();
    assert_eq!(consumers, ["mobile"]);
    assert_eq!(report.interactions().count(), 1);
}

#[test]
fn one_contract_replayed_with_several_jobs_reports_in_contract_order() {
    let p = provider();
    let mut interactions: Vec<serde_json::Value> = (0..6)
        .map(|n| {
            http(
                &format!("missing item {n}"),
                json!({"method": "GET", "path": format!("/items/{}", 900 + n)}),
                json!({"status": 404}),
            )
        })
        .collect();
    interactions.insert(2, get_item_id(51));
    interactions.push(get_item_id(52));
    let mut one = config(&p, vec![contract(interactions)]);
    one.observe_url = None;
    let mut four = one.clone();
    four.jobs = 4;
    let (a, b) = (run(&one), run(&four));
    assert!(b.passed(), "{:?}", codes(&b));
    assert_eq!(a.without_timings(), b.without_timings());
    let order: Vec<usize> = b.interactions().map(|(_, i)| i.index).collect();
    assert_eq!(order, (0..8).collect::<Vec<_>>());
}

/// Records what a [`accord_verifier::Progress`] is told.
#[derive(Default)]
struct Recorded {
    planned: std::sync::Mutex<Vec<usize>>,
    finished: std::sync::Mutex<Vec<String>>,
}

impl accord_verifier::Progress for Recorded {
    fn planned(&self, interactions: usize) {
        self.planned.lock().expect("lock").push(interactions);
    }
    fn finished(&self, consumer: &str, result: &accord_verifier::InteractionResult) {
        let line = format!("{consumer}: {}", result.description);
        self.finished.lock().expect("lock").push(line);
    }
}

#[test]
fn progress_is_told_the_filtered_count_first_then_each_result() {
    let p = provider();
    let other = |n: i64| {
        http(
            &format!("missing item {n}"),
            json!({"method": "GET", "path": format!("/items/{}", 900 + n)}),
            json!({"status": 404}),
        )
    };
    let two = vec![
        contract(vec![get_item(), other(1), other(2)]),
        contract(vec![other(3)]),
    ];
    let mut cfg = config(&p, two);
    cfg.observe_url = None;
    cfg.jobs = 3;
    cfg.filter.description = Some(regex::Regex::new("^missing").expect("regex"));
    let recorded = std::sync::Arc::new(Recorded::default());
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let drivers = accord_verifier::default_drivers();
    let progress: std::sync::Arc<dyn accord_verifier::Progress> = recorded.clone();
    let report = runtime
        .block_on(accord_verifier::verify(&cfg, drivers, Some(progress)))
        .expect("verifies");
    assert!(report.passed(), "{:?}", codes(&report));
    assert_eq!(*recorded.planned.lock().expect("lock"), vec![3]);
    let mut finished = recorded.finished.lock().expect("lock").clone();
    finished.sort();
    assert_eq!(
        finished,
        ["missing item 1", "missing item 2", "missing item 3"].map(|d| format!("web: {d}"))
    );
}

#[test]
fn a_custom_header_replaces_the_recorded_one_but_not_a_credential_accord_decides() {
    let p = provider();
    p.add_principal("carol", "t-carol-real");
    // Pact style: the consumer recorded a dummy token; CI supplies the real one.
    let recorded = http(
        "secure with the recorded token",
        json!({"method": "GET", "path": "/secure", "headers": {"Authorization": "Bearer dummy"}}),
        json!({"status": 200}),
    );
    let mut cfg = config(&p, vec![contract(vec![recorded.clone()])]);
    assert!(!run(&cfg).passed(), "the dummy token is refused");
    let real = accord_verifier::Token::new("Bearer t-carol-real");
    cfg.custom_headers = vec![("authorization".into(), real.clone())];
    let report = run(&cfg);
    assert!(report.passed(), "{:?}", codes(&report));
    assert!(
        !serde_json::to_string(&report)
            .expect("json")
            .contains("t-carol-real")
    );

    // A negative case sent without credentials stays without them.
    let mut refused = recorded;
    refused["response"] = json!({"status": 401});
    refused["negative"] = json!(true);
    refused["auth"] = json!({"credential": "none"});
    let mut cfg = config(&p, vec![contract(vec![refused])]);
    cfg.custom_headers = vec![("Authorization".into(), real)];
    let report = run(&cfg);
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn a_state_param_named_token_is_not_taken_for_a_credential() {
    let p = provider();
    p.add_principal("dana", "t-dana");
    let mut i = http(
        "secure as dana while a reset token exists",
        json!({"method": "GET", "path": "/secure"}),
        json!({"status": 200}),
    );
    i["providerStates"] =
        json!([{"name": "a reset token exists", "params": {"token": "reset-123"}}]);
    i["auth"] = json!({"principal": "dana"});
    let mut cfg = config(&p, vec![contract(vec![i])]);
    cfg.principals
        .insert("dana".into(), accord_verifier::Token::new("t-dana"));
    let report = run(&cfg);
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn a_tenant_without_a_principal_sends_the_credential_as_written() {
    let p = provider();
    p.add_principal("erin", "t-erin");
    let mut i = http(
        "secure for tenant t1",
        json!({"method": "GET", "path": "/secure", "headers": {"Authorization": "Bearer t-erin"}}),
        json!({"status": 200}),
    );
    i["auth"] = json!({"tenant": "t1"});
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert!(report.passed(), "{:?}", codes(&report));
}

#[test]
fn states_without_a_state_change_url_are_marked_not_set_up() {
    let p = provider();
    let mut cfg = config(&p, vec![contract(vec![get_item()])]);
    cfg.state_change_url = None;
    let report = run(&cfg);
    let result = &report.contracts[0].interactions[0];
    assert!(result.states_not_set_up);
    let text = accord_verifier::render::summary(&report);
    assert!(text.contains("no --state-change-url was given"), "{text}");
    let json = serde_json::to_value(&report).expect("json");
    assert_eq!(
        json["contracts"][0]["interactions"][0]["statesNotSetUp"],
        true
    );
}
