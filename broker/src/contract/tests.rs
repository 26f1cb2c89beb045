//! Content preparation: validation, `_id`s and the content sha.

use serde_json::{Value, json};

use super::*;

fn pact(interactions: Value, metadata: Value) -> Value {
    json!({
        "consumer": {"name": "orchestrator"},
        "provider": {"name": "planning-agent"},
        "interactions": interactions,
        "metadata": metadata,
    })
}

fn get(path: &str) -> Value {
    json!({"description": format!("get {path}"), "request": {"method": "GET", "path": path}, "response": {"status": 200}})
}

fn v2() -> Value {
    json!({"pactSpecification": {"version": "2.0.0"}})
}

#[test]
fn every_interaction_gets_a_stable_id() {
    let one = prepare(pact(json!([get("/a"), get("/b")]), v2())).expect("valid");
    let two = prepare(pact(json!([get("/a"), get("/b")]), v2())).expect("valid");
    let id = &one.document["interactions"][0]["_id"];
    assert!(id.as_str().is_some_and(|s| s.len() == 40), "{id}");
    assert_eq!(id, &two.document["interactions"][0]["_id"]);
    assert_ne!(id, &one.document["interactions"][1]["_id"]);
    assert_eq!(one.interactions_count, 2);
}

#[test]
fn an_id_sent_by_the_client_is_replaced_by_the_brokers() {
    let mut sent = get("/a");
    sent["_id"] = json!("made-up");
    let prepared = prepare(pact(json!([sent]), v2())).expect("valid");
    let plain = prepare(pact(json!([get("/a")]), v2())).expect("valid");
    assert_eq!(
        prepared.document["interactions"][0]["_id"],
        plain.document["interactions"][0]["_id"]
    );
    assert_eq!(prepared.sha, plain.sha);
}

#[test]
fn interaction_order_and_client_metadata_do_not_change_the_sha() {
    let a = prepare(pact(json!([get("/a"), get("/b")]), v2())).expect("valid");
    let mut meta = v2();
    meta["pactRust"] = json!({"models": "1.3.16"});
    let b = prepare(pact(json!([get("/b"), get("/a")]), meta)).expect("valid");
    assert_eq!(a.sha, b.sha);
    assert_eq!(a.sha.len(), 64);
}

#[test]
fn a_changed_interaction_or_spec_version_changes_the_sha() {
    let a = prepare(pact(json!([get("/a")]), v2())).expect("valid");
    let b = prepare(pact(json!([get("/b")]), v2())).expect("valid");
    let c = prepare(pact(
        json!([get("/a")]),
        json!({"pactSpecification": {"version": "3.0.0"}}),
    ))
    .expect("valid");
    assert_ne!(a.sha, b.sha);
    assert_ne!(a.sha, c.sha);
}

#[test]
fn v3_messages_get_ids_too() {
    let doc = json!({
        "consumer": {"name": "c"}, "provider": {"name": "p"},
        "messages": [{"description": "an event", "contents": {"id": 1}}],
        "metadata": {"pactSpecification": {"version": "3.0.0"}},
    });
    let prepared = prepare(doc).expect("valid");
    assert!(prepared.document["messages"][0]["_id"].is_string());
    assert_eq!(prepared.interactions_count, 1);
}

#[test]
fn a_refused_contract_names_the_path_inside_it() {
    let bad = pact(
        json!([{"description": "x", "request": {"method": 7, "path": "/"}, "response": {"status": 200}}]),
        v2(),
    );
    let err = prepare(bad).expect_err("refused");
    assert!(err.path.starts_with("$.interactions[0]"), "{err}");

    // a typo inside an expectation object would drop the check it meant
    let mut typo = get("/a");
    typo["temporal"] = json!({"completionWithinMS": 100});
    let err = prepare(pact(json!([typo]), v2())).expect_err("refused");
    assert_eq!(err.path, "$.interactions[0].temporal.completionWithinMS");
    assert!(
        err.message.contains("unknown field `completionWithinMS`"),
        "{err}"
    );
}

#[test]
fn links_of_a_pact_fetched_from_a_broker_are_not_stored() {
    let mut doc = pact(json!([get("/a")]), v2());
    doc["_links"] = json!({"self": {"href": "http://b"}});
    doc["createdAt"] = json!("2026-01-01T00:00:00Z");
    let prepared = prepare(doc).expect("valid");
    assert!(prepared.document.get("_links").is_none());
    assert!(prepared.document.get("createdAt").is_none());
}
