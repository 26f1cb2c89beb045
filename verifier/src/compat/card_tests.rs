//! Interfaces, extensions and skill tags between two Agent Cards, and
//! expected errors between two versions of an interaction.

use accord_dsl::model::Contract;
use serde_json::{Value, json};

use super::*;

/// A contract from its Pact JSON parts (`agentCard`, `interactions`).
fn contract(extra: Value) -> Contract {
    let mut doc = json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planner"},
        "interactions": [],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0", "a2a": "1.0"}}});
    if let (Some(doc), Some(extra)) = (doc.as_object_mut(), extra.as_object()) {
        doc.extend(extra.clone());
    }
    accord_dsl::pact::from_value(&doc, "test").expect("a contract")
}

fn card(interfaces: Value, extensions: Value, tags: &[&str]) -> Value {
    json!({"name": "planner", "description": "Plans.", "version": "1",
        "supportedInterfaces": interfaces,
        "capabilities": {"streaming": true, "extensions": extensions},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
        "skills": [{"id": "plan", "name": "plan", "description": "Plans.", "tags": tags}]})
}

fn interface(binding: &str, url: &str) -> Value {
    json!({"protocolBinding": binding, "protocolVersion": "1.0", "url": url})
}

fn held(list: Vec<(&str, Contract)>) -> Vec<(String, Contract)> {
    list.into_iter().map(|(l, c)| (l.to_owned(), c)).collect()
}

fn find<'a>(changes: &'a [Change], code: &str) -> &'a Change {
    changes
        .iter()
        .find(|c| c.code == code)
        .unwrap_or_else(|| panic!("no {code} in {changes:?}"))
}

fn relies_on_interface(binding: &str) -> Contract {
    contract(
        json!({"agentCard": {"interfaces": [{"protocolBinding": binding, "protocolVersion": "1.0"}]}}),
    )
}

#[test]
fn an_interface_removed_breaks_only_the_consumer_speaking_that_binding() {
    let old = card(
        json!([
            interface("JSONRPC", "https://a/rpc"),
            interface("HTTP+JSON", "https://a/rest")
        ]),
        json!([]),
        &[],
    );
    let new = card(
        json!([
            interface("JSONRPC", "https://b/rpc"),
            interface("GRPC", "https://a/grpc")
        ]),
        json!([]),
        &[],
    );
    let consumers = held(vec![
        ("rest 1", relies_on_interface("http+json")),
        ("rpc 1", relies_on_interface("JSONRPC")),
    ]);
    let changes = classify(Kind::AgentCard, &old, &new, &consumers_of(&consumers));
    let removed = find(&changes, codes::UNSUPPORTED_PROTOCOL_BINDING);
    assert_eq!(removed.path, "agentCard.supportedInterfaces[HTTP+JSON 1.0]");
    assert_eq!(removed.class, Class::Breaking);
    assert_eq!(removed.consumers_affected, ["rest 1"]);
    let moved = find(&changes, codes::INTERFACE_URL_CHANGED);
    assert_eq!(
        (moved.class, moved.consumers_affected.as_slice()),
        (Class::Warning, ["rpc 1".to_owned()].as_slice())
    );
    let added = find(&changes, codes::COMPATIBLE_INTERFACE_ADDED);
    assert_eq!(added.path, "agentCard.supportedInterfaces[GRPC 1.0]");
    assert_eq!(added.class, Class::Compatible);
    assert_eq!(changes.len(), 3, "{changes:?}");
}

#[test]
fn a_binding_changed_breaks_a_consumer_naming_none_only_when_nothing_spoken_is_left() {
    let tasks = contract(
        json!({"interactions": [{"type": "A2A/Task", "description": "plan",
        "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "hi"}]}}}]}),
    );
    let consumers = held(vec![
        ("tasks 1", tasks),
        ("cardless 1", Contract::default()),
    ]);
    let old = card(json!([interface("JSONRPC", "https://a/")]), json!([]), &[]);
    let grpc = card(json!([interface("GRPC", "https://a/")]), json!([]), &[]);
    let changes = classify(Kind::AgentCard, &old, &grpc, &consumers_of(&consumers));
    let removed = find(&changes, codes::UNSUPPORTED_PROTOCOL_BINDING);
    assert_eq!(removed.consumers_affected, ["tasks 1"]);
    assert!(removed.breaks_a_consumer());

    let rest = card(
        json!([interface("HTTP+JSON", "https://a/")]),
        json!([]),
        &[],
    );
    let changes = classify(Kind::AgentCard, &old, &rest, &consumers_of(&consumers));
    assert!(
        changes.iter().all(|c| !c.breaks_a_consumer()),
        "{changes:?}"
    );
}

#[test]
fn extensions_required_removed_and_relaxed_are_classified_for_their_users() {
    let ext = |uri: &str, required: bool| json!({"uri": uri, "required": required});
    let rpc = json!([interface("JSONRPC", "https://a/")]);
    let old = card(
        rpc.clone(),
        json!([
            ext("urn:trace", false),
            ext("urn:sign", true),
            ext("urn:geo", false)
        ]),
        &[],
    );
    let new = card(
        rpc,
        json!([
            ext("urn:trace", true),
            ext("urn:sign", false),
            ext("urn:new", false)
        ]),
        &[],
    );
    let uses = |exts: Value| contract(json!({"agentCard": {"extensions": exts}}));
    let consumers = held(vec![
        (
            "geo 1",
            uses(json!([{"uri": "urn:geo"}, {"uri": "urn:trace"}])),
        ),
        (
            "tolerant 1",
            uses(json!([{"uri": "urn:trace", "required": false}])),
        ),
    ]);
    let changes = classify(Kind::AgentCard, &old, &new, &consumers_of(&consumers));
    let required = find(&changes, codes::REQUIRED_EXTENSION_UNSUPPORTED);
    assert_eq!(required.path, "agentCard.extensions[urn:trace]");
    assert_eq!(required.consumers_affected, ["tolerant 1"]);
    let removed = find(&changes, codes::CAPABILITY_MISSING);
    assert_eq!(removed.path, "agentCard.extensions[urn:geo]");
    assert_eq!(removed.consumers_affected, ["geo 1"]);
    let mut compatible: Vec<&str> = changes
        .iter()
        .filter(|c| c.code == codes::COMPATIBLE_EXTENSION_CHANGED)
        .map(|c| c.path.as_str())
        .collect();
    compatible.sort_unstable();
    assert_eq!(
        compatible,
        [
            "agentCard.extensions[urn:new]",
            "agentCard.extensions[urn:sign]"
        ]
    );
    assert_eq!(changes.len(), 4, "{changes:?}");
}

#[test]
fn a_tag_removed_breaks_only_a_consumer_selecting_the_skill_by_it() {
    let rpc = json!([interface("JSONRPC", "https://a/")]);
    let old = card(rpc.clone(), json!([]), &["planning", "read-only"]);
    let new = card(rpc, json!([]), &["planning", "beta"]);
    let by_tag =
        |tags: Value| contract(json!({"agentCard": {"skills": [{"id": "plan", "tags": tags}]}}));
    let consumers = held(vec![
        ("read 1", by_tag(json!(["read-only"]))),
        ("plans 1", by_tag(json!(["planning"]))),
    ]);
    let changes = classify(Kind::AgentCard, &old, &new, &consumers_of(&consumers));
    let removed = find(&changes, codes::BREAKING_SKILL_TAG_REMOVED);
    assert_eq!(removed.path, "agentCard.skills[plan].tags[read-only]");
    assert_eq!(removed.consumers_affected, ["read 1"]);
    let added = find(&changes, codes::SKILL_TAG_ADDED);
    assert_eq!(added.path, "agentCard.skills[plan].tags[beta]");
    assert_eq!(added.class, Class::Warning);
    assert_eq!(added.consumers_affected, ["read 1", "plans 1"]);
    assert_eq!(changes.len(), 2, "{changes:?}");
}

#[test]
fn an_expected_error_changed_is_breaking_one_added_or_dropped_is_not() {
    let call = |error: Value| json!({"type": "MCP/ToolCall", "tool": "review", "error": error});
    let changed = error_code_changes(
        &call(json!({"code": -32602})),
        &call(json!({"code": -32021})),
    );
    assert_eq!(changed.len(), 1);
    assert_eq!(
        (changed[0].code, changed[0].class, changed[0].path.as_str()),
        (
            codes::BREAKING_ERROR_CODE_CHANGED,
            Class::Breaking,
            "$.error"
        )
    );
    // an A2A reason is its JSON-RPC code
    let task = |error: Value| json!({"type": "A2A/Task", "followUps": [{"operation": "CancelTask", "error": error}]});
    let same = error_code_changes(
        &task(json!({"code": -32002})),
        &task(json!({"reason": "TASK_NOT_CANCELABLE"})),
    );
    assert!(same.is_empty(), "{same:?}");
    let other = error_code_changes(
        &task(json!({"code": -32002})),
        &task(json!({"reason": "UNSUPPORTED_OPERATION", "httpStatus": 400})),
    );
    assert_eq!(other[0].path, "$.followUps[0].error");
    let more = error_code_changes(
        &call(json!({"code": -32602})),
        &call(json!({"code": -32602, "message": "unknown tool"})),
    );
    assert!(more.is_empty(), "{more:?}");
    let http = |status: u16| json!({"request": {"method": "GET", "path": "/"}, "response": {"status": status}});
    assert_eq!(error_code_changes(&http(404), &http(410)).len(), 1);
    assert!(error_code_changes(&http(200), &http(404)).is_empty());
}
