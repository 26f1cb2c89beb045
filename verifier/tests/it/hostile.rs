//! Hostile providers: hanging, flooding. Each cut-off is a finding; the
//! run always ends. (Unreachable ones: `unreachable`.)

use std::time::Duration;

use accord_fixtures::http::Fault;
use serde_json::json;

use crate::support::{codes, config, contract, http, provider, run};

fn get() -> serde_json::Value {
    let mut i = http(
        "get",
        json!({"method": "GET", "path": "/items/3"}),
        json!({"status": 200}),
    );
    i["providerStates"] = json!([{"name": "an item exists", "params": {"id": 3}}]);
    i
}

#[test]
fn a_hanging_provider_is_a_timeout_finding() {
    let p = provider();
    p.set_fault(Some(Fault::Hang));
    let mut cfg = config(&p, vec![contract(vec![get()])]);
    cfg.limits.request_timeout = Duration::from_millis(300);
    let report = run(&cfg);
    assert_eq!(
        codes(&report),
        vec![("temporal", "RESPONSE_TIMEOUT", "response".to_string())]
    );
}

#[test]
fn a_50_mb_response_is_cut_off_at_the_cap() {
    let p = provider();
    p.set_fault(Some(Fault::Huge));
    let mut cfg = config(&p, vec![contract(vec![get()])]);
    cfg.limits.max_response_bytes = 1024 * 1024;
    let report = run(&cfg);
    assert_eq!(
        codes(&report),
        vec![("protocol", "RESPONSE_TOO_LARGE", "response".to_string())]
    );
}

#[test]
fn a_missed_acknowledgement_deadline_is_a_temporal_finding() {
    let p = provider();
    p.set_fault(Some(Fault::Slow));
    let mut i = get();
    i["temporal"] = json!({"acknowledgeWithinMs": 50, "completionWithinMs": 60_000});
    let report = run(&config(&p, vec![contract(vec![i])]));
    assert_eq!(
        codes(&report),
        vec![(
            "temporal",
            "ACK_DEADLINE_MISSED",
            "acknowledgeWithinMs".to_string()
        )]
    );
}

#[test]
fn a_redirect_is_not_followed_by_default_but_judged() {
    let p = provider();
    let i = http(
        "moved",
        json!({"method": "GET", "path": "/moved"}),
        json!({"status": 200}),
    );
    let mut cfg = config(&p, vec![contract(vec![i.clone()])]);
    cfg.observe_url = None;
    let report = run(&cfg);
    let f = crate::support::findings(&report);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].pact_attribute, Some("status"));
    assert_eq!(f[0].actual.as_deref(), Some(&json!(302)));
    // Followed on request: /items/1 does not exist, so 404.
    cfg.limits.follow_redirects = true;
    let report = run(&cfg);
    assert_eq!(
        crate::support::findings(&report)[0].actual.as_deref(),
        Some(&json!(404))
    );
}

/// A stub answering `GET /zipped` with these gzip-encoded bytes.
fn gzip_stub(plain: &[u8]) -> accord_fixtures::stub::StubProvider {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(plain).expect("gzip");
    let body = encoder.finish().expect("gzip");
    let canned = accord_fixtures::stub::Canned {
        status: 200,
        headers: vec![
            ("Content-Type".into(), "application/json".into()),
            ("Content-Encoding".into(), "gzip".into()),
        ],
        body,
    };
    let mut config = accord_fixtures::stub::StubConfig::default();
    config
        .routes
        .insert(("GET".into(), "/zipped".into()), canned);
    accord_fixtures::stub::StubProvider::start(config).expect("stub starts")
}

fn zipped_config(stub: &accord_fixtures::stub::StubProvider) -> accord_verifier::VerifyConfig {
    let i = http(
        "a compressed item",
        json!({"method": "GET", "path": "/zipped", "headers": {"Accept-Encoding": "gzip"}}),
        json!({"status": 200, "body": {"content": {"id": 7}}}),
    );
    let source = accord_verifier::ContractSource::Loaded(vec![contract(vec![i])]);
    accord_verifier::VerifyConfig::new("items", stub.base_url(), source)
}

#[test]
fn a_gzip_encoded_answer_is_judged_on_its_content() {
    let stub = gzip_stub(br#"{"id": 7}"#);
    let report = run(&zipped_config(&stub));
    assert!(report.passed(), "{:?}", codes(&report));
    let wrong = gzip_stub(br#"{"id": 8}"#);
    let report = run(&zipped_config(&wrong));
    assert_eq!(
        codes(&report),
        vec![("schema", "RESPONSE_MISMATCH", "$.id".to_string())]
    );
}

#[test]
fn a_decompression_bomb_is_cut_off_at_the_cap() {
    let stub = gzip_stub(&vec![b' '; 8 * 1024 * 1024]);
    let mut config = zipped_config(&stub);
    config.limits.max_response_bytes = 1024 * 1024;
    let report = run(&config);
    assert_eq!(
        codes(&report),
        vec![("protocol", "RESPONSE_TOO_LARGE", "response".to_string())]
    );
}

#[test]
fn a_redirect_to_another_origin_is_judged_not_followed_even_when_following() {
    let mut elsewhere = accord_fixtures::stub::StubConfig::default();
    let ok = accord_fixtures::stub::Canned {
        status: 200,
        headers: vec![],
        body: Vec::new(),
    };
    elsewhere.routes.insert(("GET".into(), "/x".into()), ok);
    let elsewhere = accord_fixtures::stub::StubProvider::start(elsewhere).expect("stub");
    let mut here = accord_fixtures::stub::StubConfig::default();
    let away = accord_fixtures::stub::Canned {
        status: 302,
        headers: vec![("Location".into(), format!("{}/x", elsewhere.base_url()))],
        body: Vec::new(),
    };
    here.routes.insert(("GET".into(), "/away".into()), away);
    let here = accord_fixtures::stub::StubProvider::start(here).expect("stub");
    let i = http(
        "moved away",
        json!({"method": "GET", "path": "/away"}),
        json!({"status": 200}),
    );
    let source = accord_verifier::ContractSource::Loaded(vec![contract(vec![i])]);
    let mut config = accord_verifier::VerifyConfig::new("items", here.base_url(), source);
    config.limits.follow_redirects = true;
    let report = run(&config);
    let f = crate::support::findings(&report);
    assert_eq!(f.len(), 1, "{:?}", codes(&report));
    assert_eq!(f[0].actual.as_deref(), Some(&json!(302)));
}

/// A contract a broker stored before it refused such contracts: an MCP
/// call that expects nothing (the verifier could not judge it).
fn unrunnable_contract() -> accord_verifier::SourcedContract {
    let doc = json!({
        "consumer": {"name": "old"}, "provider": {"name": "items"},
        "interactions": [{"type": "MCP/ToolCall", "description": "expects nothing", "tool": "t", "result": null}],
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}
    });
    accord_verifier::SourcedContract::new(
        accord_dsl::pact::from_value(&doc, "broker").expect("readable"),
        "broker pact",
    )
}

#[test]
fn a_broker_pact_that_cannot_be_run_fails_alone_and_the_others_run() {
    let p = provider();
    let cfg = config(&p, vec![unrunnable_contract(), contract(vec![get()])]);
    let report = run(&cfg);
    let refused = &report.contracts[0].interactions[0];
    assert_eq!(refused.findings[0].reason_code, "CONTRACT_UNRUNNABLE");
    assert!(
        refused.findings[0].detail.contains("MCP_NO_EXPECTATION"),
        "{}",
        refused.findings[0].detail
    );
    assert!(report.contracts[1].passed(), "the other contract still ran");
    assert!(!report.passed());
}

#[test]
fn a_contract_file_that_cannot_be_run_is_refused_before_anything_is_sent() {
    let dir = std::env::temp_dir().join(format!("accord-unrunnable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("old.json");
    let doc = accord_dsl::pact::to_v4_json(&unrunnable_contract().contract);
    std::fs::write(&file, doc.to_string()).expect("write");
    let p = provider();
    let mut cfg = config(&p, Vec::new());
    cfg.source = accord_verifier::ContractSource::Files(vec![file]);
    let err = accord_verifier::verify_blocking(&cfg).expect_err("refused");
    assert!(err.to_string().contains("MCP_NO_EXPECTATION"), "{err}");
}
