//! A finding's missing and unexpected fields, as the verifier publishes
//! them: stored, given back by the API and named on the verification page
//! ("`priority` is missing"); never "null / null"; bad names refused.

use serde_json::{Value, json};

use super::{html_page, texts};
use crate::pact_docs::{planning_agent_contract, publish_ok};
use crate::support::{TestApp, each_backend};

const PACT: &str = "/pacts/provider/planning-agent/consumer/orchestrator";
const PAGES: &str = "/ui/pacts/provider/planning-agent/consumer/orchestrator";

fn result(findings: Value) -> Value {
    json!({"success": false, "providerApplicationVersion": "2.0.0",
           "verifiedBy": {"implementation": "Accord", "version": "0.9.0"},
           "findings": findings})
}

/// The results URL of the published contract, and its sha.
fn results_url(app: &TestApp) -> (String, String) {
    let contract = planning_agent_contract();
    let sha = accord_broker::contract::prepare(contract.clone())
        .expect("valid")
        .sha;
    publish_ok(app, "1.0.0", Some("main"), &[], &[contract]);
    (
        format!("{PACT}/pact-version/{sha}/verification-results"),
        sha,
    )
}

#[test]
fn missing_fields_round_trip_and_are_named_on_the_page() {
    each_backend(|app| {
        let (url, sha) = results_url(app);
        let findings = json!([
            {"layer": "schema", "reasonCode": "RESPONSE_MISMATCH", "interactionDescription": "draft a plan",
             "path": "steps[1].artifact.parts[0].data", "expected": ["labels", "priority", "ticket_id"],
             "actual": ["debug", "labels", "ticket_id"], "missing": ["priority"], "unexpected": ["debug"],
             "detail": "Expected a Map with keys [labels, priority, ticket_id] but received one with keys [debug, labels, ticket_id]: `priority` is missing; `debug` is not expected"},
            {"layer": "compatibility", "reasonCode": "BREAKING_FIELD_REMOVED", "interactionDescription": "look up a plan",
             "path": "mcpTools[work_plan_lookup].result.priority", "expected": null, "actual": null,
             "missing": ["priority"], "detail": "the outputSchema no longer declares `$.priority`"}
        ]);
        let posted = app.post(&url, &result(findings));
        assert_eq!(posted.status, 201, "{}", posted.text);
        let got = app.get(&format!("{url}/1"));
        assert_eq!(got.status, 200, "{}", got.text);
        assert_eq!(got.json["findings"][0]["missing"], json!(["priority"]));
        assert_eq!(got.json["findings"][0]["unexpected"], json!(["debug"]));
        assert_eq!(got.json["findings"][1]["missing"], json!(["priority"]));
        let page = format!("{PAGES}/pact-version/{sha}/verification-results/1");
        let page = html_page(&app.get_page(&page), "verification");
        assert_eq!(
            texts(&page, "#layer-schema .key-named"),
            ["priority is missing", "debug is not expected"]
        );
        assert_eq!(
            texts(&page, "#layer-compatibility .key-named"),
            ["priority is missing"]
        );
        assert!(
            page.html().contains("<code>priority</code> is missing"),
            "the name is code"
        );
        // two nulls say nothing
        assert!(texts(&page, "#layer-compatibility .expected").is_empty());
        assert!(texts(&page, "#layer-compatibility .actual").is_empty());
    });
}

#[test]
fn bad_field_names_are_refused_naming_the_path_and_store_nothing() {
    each_backend(|app| {
        let (url, _) = results_url(app);
        let one = |missing: Value| json!([{"layer": "schema", "reasonCode": "RESPONSE_MISMATCH", "missing": missing}]);
        let many: Vec<String> = (0..65).map(|i| format!("k{i}")).collect();
        for (missing, at) in [
            (json!(["ok", "nul\u{0}"]), "$.findings[0].missing[1]"),
            (json!(many), "$.findings[0].missing"),
            (json!(["k".repeat(2101)]), "$.findings[0].missing[0]"),
            (json!([""]), "$.findings[0].missing[0]"),
        ] {
            let refused = app.post(&url, &result(one(missing)));
            assert_eq!(refused.status, 400, "{}", refused.text);
            assert!(
                refused.json["errors"].get(at).is_some(),
                "{at}: {}",
                refused.text
            );
        }
        let wrong_type = app.post(&url, &result(one(json!("priority"))));
        assert_eq!(wrong_type.status, 400, "{}", wrong_type.text);
        assert!(wrong_type.text.contains("missing"), "{}", wrong_type.text);
        assert_eq!(app.get(&format!("{url}/1")).status, 404);
    });
}
