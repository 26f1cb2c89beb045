//! The Pact view: what Pact clients are served of a contract.

use serde_json::{Value, json};

use super::*;

fn http(description: &str) -> Value {
    json!({"type": "Synchronous/HTTP", "_id": format!("id-{description}"), "description": description,
           "request": {"method": "GET", "path": "/items/1"}, "response": {"status": 200}})
}

fn contract(interactions: Value) -> Value {
    json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "items"},
        "interactions": interactions,
        "agentCard": {"skills": [{"id": "plan"}]},
        "mcpTools": [{"name": "work_plan_draft"}],
        "metadata": {"pactSpecification": {"version": "4.0"}, "accord": {"formatVersion": "1.0"}}
    })
}

#[test]
fn a_plain_pact_is_its_own_pact_view() {
    let pact = json!({
        "consumer": {"name": "c"}, "provider": {"name": "p"},
        "interactions": [{"description": "v2", "request": {"method": "GET", "path": "/"}, "response": {"status": 200}}],
        "messages": [{"description": "an event", "contents": {"id": 1}}],
        "metadata": {"pactSpecification": {"version": "3.0.0"}}
    });
    let view = pact_view(pact.clone());
    assert_eq!(view.document, pact);
    assert!(view.accord_only.is_empty());
}

#[test]
fn accord_interactions_and_declarations_are_left_out_and_named() {
    let a2a = json!({"type": "A2A/Task", "description": "plan a trip", "request": {}});
    let mcp = json!({"type": "MCP/ToolCall", "description": "draft a plan", "tool": "t"});
    let view = pact_view(contract(json!([http("get item"), a2a, mcp])));
    let kept = view.document["interactions"]
        .as_array()
        .expect("interactions");
    assert_eq!(kept, &vec![http("get item")], "the _id is kept");
    assert!(view.document.get("agentCard").is_none());
    assert!(view.document.get("mcpTools").is_none());
    assert_eq!(
        view.document["metadata"]["accord"]["formatVersion"], "1.0",
        "Pact ignores metadata it does not know"
    );
    let names: Vec<String> = view.accord_only.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        names,
        [
            "A2A/Task 'plan a trip'",
            "MCP/ToolCall 'draft a plan'",
            "agentCard",
            "mcpTools"
        ]
    );
}

#[test]
fn accord_expectations_are_stripped_from_kept_interactions_and_named() {
    let mut create = http("create an item");
    create["sideEffects"] = json!({"records": 1});
    create["temporal"] = json!({"acknowledgeWithinMs": 500});
    create["auth"] = json!({"tenant": "tenant-a"});
    let view = pact_view(json!({"interactions": [create]}));
    let kept = &view.document["interactions"][0];
    for key in ["sideEffects", "temporal", "auth"] {
        assert!(kept.get(key).is_none(), "{key} left in {kept}");
    }
    assert_eq!(
        view.accord_only
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["sideEffects, temporal, auth of 'create an item'"]
    );
}

#[test]
fn an_interaction_accord_sends_with_its_own_credential_is_left_out() {
    let mut secure = http("get the secure page");
    secure["auth"] = json!({"principal": "alice"});
    let mut anonymous = http("get it without a token");
    anonymous["auth"] = json!({"credential": "none"});
    anonymous["negative"] = json!("unauthenticated");
    let mut valid = http("as written");
    valid["auth"] = json!({"credential": "valid"});
    let view = pact_view(json!({"interactions": [secure, anonymous, valid]}));
    assert_eq!(
        view.document["interactions"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(
        view.accord_only[0].to_string(),
        "Synchronous/HTTP 'get the secure page' (sent with Accord's credential)"
    );
    assert_eq!(view.accord_only.len(), 3);
}

#[test]
fn the_accord_only_parts_of_a_stored_document_leave_it_unchanged() {
    let stored = contract(json!([http("get item")]));
    let parts = accord_only(&stored);
    assert_eq!(
        parts,
        [
            AccordOnly::Declaration("agentCard"),
            AccordOnly::Declaration("mcpTools")
        ]
    );
    assert!(stored.get("agentCard").is_some());
}

#[test]
fn a_long_list_names_ten_parts_and_counts_the_rest() {
    let parts: Vec<AccordOnly> = (0..13)
        .map(|i| AccordOnly::Interaction {
            kind: "A2A/Task".into(),
            description: format!("t{i}"),
            credential: false,
        })
        .collect();
    let text = describe(&parts);
    assert!(text.starts_with("A2A/Task 't0', A2A/Task 't1'"), "{text}");
    assert!(text.ends_with("A2A/Task 't9', 3 more"), "{text}");
}
