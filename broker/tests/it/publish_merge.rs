//! Several contract files of one pair in one publication
//! (`onConflict: merge`): what both rely on at the contract level is kept,
//! whatever the order.

use serde_json::json;

use crate::pact_docs::{compiled_example, publish, publish_ok, request};
use crate::support::each_backend;

/// Two contract files of one pair merged into one publication keep what
/// both rely on at the contract level (the demo's planning-agent file has
/// the card, cancel-plans has none), in either order; a disagreement is a
/// 409 naming the place.
#[test]
fn a_merge_keeps_the_contract_level_expectations_of_both_files_in_either_order() {
    let with_card = compiled_example("demo/release-orchestrator/planning-agent.yaml");
    let without_card = compiled_example("demo/release-orchestrator/cancel-plans.yaml");
    assert!(with_card["agentCard"].is_object() && without_card.get("agentCard").is_none());
    each_backend(|app| {
        for (version, first, second) in [
            ("1", &with_card, &without_card),
            ("2", &without_card, &with_card),
        ] {
            publish_ok(app, version, None, &[], std::slice::from_ref(first));
            let mut body = request(version, None, &[], std::slice::from_ref(second));
            body["contracts"][0]["onConflict"] = json!("merge");
            let reply = publish(app, &body);
            assert_eq!(reply.status, 200, "{}", reply.text);
            let stored = app.get_as_accord(&format!(
                "/pacts/provider/planning-agent/consumer/release-orchestrator/version/{version}"
            ));
            assert_eq!(
                stored.json["agentCard"], with_card["agentCard"],
                "version {version}"
            );
            let count = |d: &serde_json::Value| d["interactions"].as_array().map_or(0, Vec::len);
            assert_eq!(
                count(&stored.json),
                count(&with_card) + count(&without_card)
            );
        }
        let mut clash = with_card.clone();
        clash["agentCard"]["capabilities"]["streaming"] = json!(false);
        let mut body = request("1", None, &[], &[clash]);
        body["contracts"][0]["onConflict"] = json!("merge");
        let reply = publish(app, &body);
        assert_eq!(reply.status, 409, "{}", reply.text);
        let detail = reply.json["detail"].as_str().unwrap_or("");
        assert!(
            detail.contains("$.agentCard.capabilities.streaming"),
            "{detail}"
        );
    });
}
