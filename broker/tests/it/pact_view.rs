//! Pact clients and Accord contracts: every client that does not send
//! `X-Accord-Client` is served the Pact view of a contract (only the
//! interaction types Pact knows), Accord's client the whole contract; a
//! result published through the Pact view is stored as covering only that
//! view, so the matrix, can-i-deploy, pending status and the consumer
//! version's summary never count it as a verification of the whole contract.

use base64::Engine;
use serde_json::{Value, json};

use crate::pact_docs::{pact, path_of, planning_agent_contract, publish_ok};
use crate::support::{Reply, TestApp, each_backend};

const PACT: &str = "/pacts/provider/items/consumer/orchestrator/version/1.0.0";

/// A contract for provider `items`: two HTTP interactions (one with an
/// Accord expectation) and an `MCP/ToolCall`.
fn accord_contract() -> Value {
    json!({
        "consumer": {"name": "orchestrator"}, "provider": {"name": "items"},
        "interactions": [
            {"type": "Synchronous/HTTP", "description": "get item 7",
             "request": {"method": "GET", "path": "/items/7"},
             "response": {"status": 200, "body": {"content": {"id": 7}}}},
            {"type": "Synchronous/HTTP", "description": "create an item", "sideEffects": {"records": 1},
             "request": {"method": "POST", "path": "/items", "body": {"content": {"name": "gadget"}}},
             "response": {"status": 201}},
            {"type": "MCP/ToolCall", "description": "draft a plan", "tool": "work_plan_draft",
             "arguments": {"tenant_id": "tenant-a", "title": "rotate keys"},
             "result": {"structuredContent": {"status": "draft"}}}
        ],
        "metadata": {"pactSpecification": {"version": "4.0"},
                     "accord": {"formatVersion": "1.0", "mcp": "2026-07-28"}}
    })
}

fn kinds(document: &Value) -> Vec<String> {
    document["interactions"]
        .as_array()
        .expect("interactions")
        .iter()
        .map(|i| i["type"].as_str().unwrap_or("(V3)").to_owned())
        .collect()
}

fn metadata_of(href: &str) -> Value {
    let segment = href
        .split("/metadata/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no metadata segment in {href}"));
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(segment)
        .expect("base64url");
    serde_json::from_slice(&bytes).expect("JSON")
}

fn publish_link(reply: &Reply) -> String {
    reply.json["_links"]["pb:publish-verification-results"]["href"]
        .as_str()
        .unwrap_or_else(|| panic!("no results link: {}", reply.text))
        .to_owned()
}

fn publish_result(app: &TestApp, link: &str, version: &str, success: bool) -> Value {
    let body = json!({"success": success, "providerApplicationVersion": version});
    let reply = app.post(&path_of(app, &json!(link)), &body);
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json
}

fn matrix(app: &TestApp) -> Value {
    let reply = app
        .get("/matrix?q[][pacticipant]=orchestrator&q[][version]=1.0.0&latestby=cvp&latest=true");
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

#[test]
fn pact_clients_get_the_pact_view_and_accord_gets_the_whole_contract() {
    each_backend(|app| {
        publish_ok(app, "1.0.0", Some("main"), &[], &[accord_contract()]);
        let view = app.get(PACT);
        assert_eq!(view.status, 200, "{}", view.text);
        assert_eq!(kinds(&view.json), ["Synchronous/HTTP", "Synchronous/HTTP"]);
        assert!(view.json["interactions"][1].get("sideEffects").is_none());
        assert!(view.json["interactions"][0]["_id"].is_string());
        assert_eq!(view.header("x-accord-view"), "pact");
        assert!(view.header("vary").contains("X-Accord-Client"));
        let link = publish_link(&view);
        assert_eq!(metadata_of(&link), json!({"pv": true}));

        let whole = app.get_as_accord(PACT);
        assert_eq!(
            kinds(&whole.json),
            ["Synchronous/HTTP", "Synchronous/HTTP", "MCP/ToolCall"]
        );
        assert_eq!(whole.json["interactions"][1]["sideEffects"]["records"], 1);
        assert_eq!(whole.header("x-accord-view"), "contract");
        assert!(!publish_link(&whole).contains("/metadata/"));
        // the same content, one sha: the views share the permalink
        assert_eq!(
            view.json["_links"]["pb:pact-version"],
            whole.json["_links"]["pb:pact-version"]
        );
        let stored = app.get_as_accord(&path_of(
            app,
            &whole.json["_links"]["pb:pact-version"]["href"],
        ));
        assert_eq!(stored.json["interactions"], whole.json["interactions"]);
    });
}

#[test]
fn a_plain_pact_is_served_as_stored_and_its_results_count_whole() {
    each_backend(|app| {
        let plain = pact(
            "orchestrator",
            "items",
            json!([{"description": "get item 7",
            "request": {"method": "GET", "path": "/items/7"}, "response": {"status": 200}}]),
        );
        publish_ok(app, "1.0.0", Some("main"), &[], &[plain]);
        let view = app.get(PACT);
        assert_eq!(
            view.json["interactions"],
            app.get_as_accord(PACT).json["interactions"]
        );
        let link = publish_link(&view);
        assert!(!link.contains("/metadata/"), "{link}");
        let result = publish_result(app, &link, "2.0.0", true);
        assert_eq!(result["pactViewOnly"], false, "{result}");
        assert_eq!(result["evaluationEligible"], true, "a whole pass: {result}");
        assert_eq!(matrix(app)["summary"]["deployable"], true);
    });
}

#[test]
fn a_success_of_the_pact_view_leaves_the_accord_only_parts_unverified() {
    each_backend(|app| {
        publish_ok(app, "1.0.0", Some("main"), &[], &[accord_contract()]);
        let pact_link = publish_link(&app.get(PACT));
        let result = publish_result(app, &pact_link, "2.0.0", true);
        assert_eq!(result["pactViewOnly"], true, "{result}");
        assert_eq!(
            result["evaluationEligible"], false,
            "the Pact view only is no contract pass: {result}"
        );

        let m = matrix(app);
        assert_eq!(m["summary"]["deployable"], Value::Null, "{m}");
        assert_eq!(
            (
                m["summary"]["success"].clone(),
                m["summary"]["unknown"].clone()
            ),
            (json!(0), json!(1))
        );
        let reason = m["summary"]["reason"].as_str().unwrap_or_default();
        assert!(
            reason.contains("verified only in its Pact view"),
            "{reason}"
        );
        assert!(reason.contains("MCP/ToolCall 'draft a plan'"), "{reason}");
        assert!(
            reason.contains("sideEffects of 'create an item'"),
            "{reason}"
        );
        let row = &m["matrix"][0]["verificationResult"];
        assert_eq!(row["success"], Value::Null, "{row}");
        assert_eq!(row["pactViewOnly"], true, "{row}");
        assert_eq!(
            row["unverified"][0], "sideEffects of 'create an item'",
            "{row}"
        );

        let summary = app.get("/verification-results/consumer/orchestrator/version/1.0.0/latest");
        assert_eq!(summary.json["success"], false, "{}", summary.text);
        assert_eq!(summary.json["providerSummary"]["unknown"], json!(["items"]));

        // Accord's verification of the whole contract by the same provider
        // version decides, and a later Pact-view success does not undo it.
        let accord_link = publish_link(&app.get_as_accord(PACT));
        publish_result(app, &accord_link, "2.0.0", true);
        assert_eq!(matrix(app)["summary"]["deployable"], true);
        publish_result(app, &pact_link, "2.0.0", true);
        let m = matrix(app);
        assert_eq!(m["summary"]["deployable"], true, "{m}");
        assert_eq!(m["matrix"][0]["verificationResult"]["success"], true);

        // a failure is a failure whichever view it was of
        publish_result(app, &pact_link, "3.0.0", false);
        let m = matrix(app);
        assert_eq!(m["summary"]["deployable"], false, "{m}");
    });
}

/// `POST …/for-verification` for provider `items` on branch main.
fn for_verification(app: &TestApp, accord: bool) -> Value {
    let body = json!({"consumerVersionSelectors": [{"mainBranch": true}],
                      "includePendingStatus": true, "providerVersionBranch": "main"});
    let path = "/pacts/provider/items/for-verification";
    let reply = if accord {
        app.post_as_accord(path, &body)
    } else {
        app.post(path, &body)
    };
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json["_embedded"]["pacts"][0].clone()
}

#[test]
fn pacts_for_verification_tell_pact_clients_what_the_view_leaves_out_and_keep_accord_pending() {
    each_backend(|app| {
        publish_ok(app, "1.0.0", Some("main"), &[], &[accord_contract()]);
        let entry = for_verification(app, false);
        let notices = entry["verificationProperties"]["notices"].to_string();
        assert!(
            notices.contains("Pact clients are served its Pact view"),
            "{notices}"
        );
        assert!(notices.contains("MCP/ToolCall 'draft a plan'"), "{notices}");
        let accord_entry = for_verification(app, true);
        let accord_notices = accord_entry["verificationProperties"]["notices"].to_string();
        assert!(!accord_notices.contains("Pact view"), "{accord_notices}");

        // fetched by the permalink with its metadata, the Pact view's
        // results link keeps that metadata and marks it
        let href = &entry["_links"]["self"]["href"];
        let view = app.get(&path_of(app, href));
        let marked = metadata_of(&publish_link(&view));
        assert_eq!(marked["pv"], true, "{marked}");
        assert_eq!(marked["cvn"], json!(["1.0.0"]), "{marked}");
        let whole = app.get_as_accord(&path_of(app, &accord_entry["_links"]["self"]["href"]));
        assert!(metadata_of(&publish_link(&whole)).get("pv").is_none());

        // a Pact-view success on main: no longer pending for Pact clients,
        // still pending for Accord (its Accord-only parts were never verified)
        let put = app.put(
            "/pacticipants/items/branches/main/versions/2.0.0",
            &json!({}),
        );
        assert!(put.status < 300, "{}", put.text);
        publish_result(app, &publish_link(&view), "2.0.0", true);
        assert_eq!(
            for_verification(app, false)["verificationProperties"]["pending"],
            false
        );
        assert_eq!(
            for_verification(app, true)["verificationProperties"]["pending"],
            true
        );
    });
}

#[test]
fn the_example_contract_has_a_pact_view_without_a2a_mcp_or_declarations() {
    each_backend(|app| {
        publish_ok(
            app,
            "2.0.0",
            Some("main"),
            &[],
            &[planning_agent_contract()],
        );
        let path = "/pacts/provider/planning-agent/consumer/orchestrator/version/2.0.0";
        let view = app.get(path);
        let kinds = kinds(&view.json);
        assert!(!kinds.is_empty(), "{}", view.text);
        assert!(
            kinds
                .iter()
                .all(|k| !k.starts_with("A2A") && !k.starts_with("MCP")),
            "{kinds:?}"
        );
        assert!(view.json.get("agentCard").is_none());
        assert!(view.json.get("mcpTools").is_none());
        let whole = app.get_as_accord(path);
        assert!(whole.json.get("agentCard").is_some());
        assert_eq!(
            whole.json["interactions"].as_array().map(Vec::len),
            Some(21)
        );
    });
}
