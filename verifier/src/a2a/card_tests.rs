//! One test per row of the card table.

use serde_json::{Value, json};

use super::*;

/// The card a2a-sdk 1.3 serves for the planning agent (pact-and-sdk-peers.md).
fn card() -> Value {
    json!({"name": "planning-agent", "description": "Turns a goal into a short JSON plan.",
        "supportedInterfaces": [{"url": "http://127.0.0.1:9999/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                                {"url": "http://127.0.0.1:9999/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}],
        "version": "1.0.0", "capabilities": {"streaming": true, "pushNotifications": false,
            "extensions": [{"uri": "urn:x:tenancy", "required": false}]},
        "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "bearer"}}},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
        "skills": [{"id": "plan", "name": "Plan", "description": "Plans", "tags": ["planning"],
                    "outputModes": ["application/json"]}]})
}

fn expect() -> AgentCardExpectations {
    serde_json::from_value(json!({
        "skills": [{"id": "plan", "inputModes": ["text/plain"], "outputModes": ["application/json"], "tags": ["planning"]}],
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
        "capabilities": {"streaming": true, "pushNotifications": false},
        "interfaces": [{"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}, {"protocolBinding": "http+json", "protocolVersion": "1.0"}],
        "extensions": [{"uri": "urn:x:tenancy", "required": false}],
        "securitySchemes": ["bearer"]}))
    .expect("agentCard expectations")
}

fn codes_of(card: &Value) -> Vec<&'static str> {
    check_card(&expect(), card)
        .iter()
        .map(|f| f.reason_code)
        .collect()
}

fn with(mut v: Value, pointer: &str, value: Value) -> Value {
    if let Some(slot) = v.pointer_mut(pointer) {
        *slot = value;
    }
    v
}

#[test]
fn the_sdks_card_meets_what_the_consumer_relies_on() {
    assert_eq!(codes_of(&card()), Vec::<&str>::new());
}

#[test]
fn a_missing_skill_or_tag_is_skill_missing() {
    assert_eq!(
        codes_of(&with(card(), "/skills/0/id", json!("review"))),
        ["SKILL_MISSING"]
    );
    assert_eq!(
        codes_of(&with(card(), "/skills/0/tags", json!([]))),
        ["SKILL_MISSING"]
    );
}

#[test]
fn modes_come_from_the_skill_or_else_the_card_defaults() {
    // the skill's own outputModes override the defaults
    assert_eq!(
        codes_of(&with(
            card(),
            "/skills/0/outputModes",
            json!(["text/plain"])
        )),
        ["CONTENT_MODE_CONFLICT"]
    );
    assert_eq!(
        codes_of(&with(
            card(),
            "/defaultInputModes",
            json!(["application/json"])
        )),
        ["CONTENT_MODE_CONFLICT", "CONTENT_MODE_CONFLICT"]
    );
}

#[test]
fn a_capability_relied_on_must_be_declared_and_one_relied_absent_must_not() {
    assert_eq!(
        codes_of(&with(card(), "/capabilities/streaming", json!(false))),
        ["CAPABILITY_MISSING"]
    );
    assert_eq!(
        codes_of(&with(
            card(),
            "/capabilities/pushNotifications",
            json!(true)
        )),
        ["FEATURE_CAPABILITY_ADDED"]
    );
}

#[test]
fn each_relied_on_interface_must_be_offered_a_v03_card_offers_its_own_way() {
    assert_eq!(
        codes_of(&with(
            card(),
            "/supportedInterfaces/1/protocolVersion",
            json!("0.3")
        )),
        ["UNSUPPORTED_PROTOCOL_BINDING"]
    );
    let mut legacy = card();
    legacy
        .as_object_mut()
        .map(|o| o.remove("supportedInterfaces"));
    legacy["url"] = json!("http://127.0.0.1:9999/");
    legacy["protocolVersion"] = json!("1.0");
    legacy["preferredTransport"] = json!("JSONRPC");
    legacy["additionalInterfaces"] =
        json!([{"url": "http://127.0.0.1:9999/rest", "transport": "HTTP+JSON"}]);
    assert_eq!(codes_of(&legacy), Vec::<&str>::new());
}

#[test]
fn extensions_used_tolerated_and_required() {
    let required = with(card(), "/capabilities/extensions/0/required", json!(true));
    assert_eq!(codes_of(&required), ["REQUIRED_EXTENSION_UNSUPPORTED"]);
    let other = with(
        card(),
        "/capabilities/extensions",
        json!([{"uri": "urn:y", "required": true}]),
    );
    assert_eq!(codes_of(&other), ["REQUIRED_EXTENSION_UNSUPPORTED"]);
    let mut uses = expect();
    uses.extensions[0].required = None;
    let found: Vec<_> = check_card(&uses, &with(card(), "/capabilities/extensions", json!([])))
        .iter()
        .map(|f| f.reason_code)
        .collect();
    assert_eq!(found, ["CAPABILITY_MISSING"]);
}

#[test]
fn security_schemes_and_the_cards_own_consistency() {
    assert_eq!(
        codes_of(&with(card(), "/securitySchemes", json!({"apiKey": {}}))),
        ["SECURITY_SCHEME_UNDEFINED"]
    );
    let mut c = card();
    c["securityRequirements"] = json!([{"schemes": {"oauth": {"list": []}}}]);
    assert_eq!(codes_of(&c), ["SECURITY_SCHEME_UNDEFINED"]);
    let mut twice = card();
    let skill = twice["skills"][0].clone();
    if let Some(s) = twice["skills"].as_array_mut() {
        s.push(skill);
    }
    assert_eq!(codes_of(&twice), ["DUPLICATE_SKILL_ID"]);
    let mut bare = card();
    bare.as_object_mut().map(|o| o.remove("version"));
    assert_eq!(codes_of(&bare), ["CARD_SCHEMA_INVALID"]);
}

#[test]
fn a_skill_without_its_id_is_the_cards_schema_not_a_missing_skill() {
    let mut nameless = card();
    nameless["skills"][0]
        .as_object_mut()
        .expect("a skill")
        .remove("id");
    assert_eq!(codes_of(&nameless), ["CARD_SCHEMA_INVALID"]);
    assert_eq!(
        codes_of(&with(card(), "/skills/0/name", json!(""))),
        ["CARD_SCHEMA_INVALID"]
    );
    // ProtoJSON leaves empty lists and strings out: a skill without tags
    // or a description is read as the SDK wrote it
    let mut bare = card();
    let skill = bare["skills"][0].as_object_mut().expect("a skill");
    skill.remove("description");
    let relied = check_card(
        &serde_json::from_value(json!({"skills": [{"id": "plan"}]})).expect("expectations"),
        &bare,
    );
    assert!(relied.is_empty(), "{relied:?}");
}
