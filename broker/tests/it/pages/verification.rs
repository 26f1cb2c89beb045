//! The verification page, rendered from results published over the API:
//! findings grouped by layer, the provider build, a safe build link.

use serde_json::{Value, json};

use super::{attrs, html_page, texts};
use crate::pact_docs::{planning_agent_contract, publish_ok};
use crate::support::{TestApp, each_backend};

const PACT: &str = "/pacts/provider/planning-agent/consumer/orchestrator";
const PAGES: &str = "/ui/pacts/provider/planning-agent/consumer/orchestrator";

fn failing(version: &str) -> Value {
    json!({
        "success": false,
        "providerApplicationVersion": version,
        "buildUrl": "https://ci.example/builds/42",
        "verifiedBy": {"implementation": "accord", "version": "0.9.0"},
        "findings": [
            {"layer": "temporal", "reasonCode": "ACK_DEADLINE_MISSED", "interactionDescription": "create a draft plan",
             "expected": 1000, "actual": 1450},
            {"layer": "schema", "reasonCode": "RESPONSE_MISMATCH", "interactionDescription": "the plan of task 42",
             "path": "$.body.taskId", "expected": 42, "actual": "42",
             "detail": "sent with Authorization: Bearer s3cret-token"},
            {"layer": "authorization", "reasonCode": "CROSS_TENANT_ACCESS", "interactionDescription": "nobody else sees my task",
             "path": "$.result", "actual": {"headers": {"Authorization": "Bearer s3cret-token"}}},
        ],
        "declarations": [{"kind": "a2a/agent-card", "profile": "alice", "protocolVersion": "1.0",
                          "digest": format!("sha256:{}", "ab".repeat(32)), "entries": 2}],
    })
}

fn setup(app: &TestApp) -> String {
    let contract = planning_agent_contract();
    let sha = accord_broker::contract::prepare(contract.clone())
        .expect("valid")
        .sha;
    publish_ok(app, "1.0.0", Some("main"), &[], &[contract]);
    let put = app.put(
        "/pacticipants/planning-agent/branches/release-7/versions/2.3.4",
        &json!({}),
    );
    assert!(put.status < 300, "{}", put.text);
    let results = format!("{PACT}/pact-version/{sha}/verification-results");
    let first = app.post(&results, &failing("2.3.4"));
    assert_eq!(first.status, 201, "{}", first.text);
    let mut evil = json!({"success": true, "providerApplicationVersion": "2.3.5",
                          "buildUrl": "javascript://ci.example/%0Aalert(1)"});
    evil["findings"] = json!([]);
    let second = app.post(&results, &evil);
    assert_eq!(second.status, 201, "{}", second.text);
    sha
}

#[test]
fn a_failing_result_shows_its_findings_by_layer_and_its_build() {
    each_backend(|app| {
        let sha = setup(app);
        let page = format!("{PAGES}/pact-version/{sha}/verification-results/1");
        let doc = html_page(&app.get_page(&page), "verification");
        assert_eq!(texts(&doc, ".outcome .verdict"), ["Failed"]);
        assert_eq!(
            attrs(&doc, "section.layer-group", "id"),
            ["layer-schema", "layer-authorization", "layer-temporal"]
        );
        assert_eq!(texts(&doc, "#layer-schema .reason"), ["RESPONSE_MISMATCH"]);
        assert_eq!(texts(&doc, "#layer-schema .path"), ["$.body.taskId"]);
        assert_eq!(
            texts(&doc, "#layer-schema .interaction"),
            ["the plan of task 42"]
        );
        assert_eq!(
            texts(&doc, "#layer-temporal .reason"),
            ["ACK_DEADLINE_MISSED"]
        );
        assert_eq!(texts(&doc, "#layer-temporal .expected"), ["1000"]);
        assert_eq!(texts(&doc, "#layer-temporal .actual"), ["1450"]);
        assert_eq!(
            texts(&doc, "#layer-authorization .reason"),
            ["CROSS_TENANT_ACCESS"]
        );
        assert!(
            !doc.html().contains("s3cret-token"),
            "no credential is shown"
        );
        assert_eq!(texts(&doc, ".provider-version"), ["2.3.4"]);
        assert_eq!(texts(&doc, ".branch"), ["release-7"]);
        assert_eq!(
            attrs(&doc, "a.build-link", "href"),
            ["https://ci.example/builds/42"]
        );
        assert_eq!(
            texts(&doc, ".declarations .digest"),
            [format!("sha256:{}", "ab".repeat(32))]
        );
        assert_eq!(
            attrs(&doc, "a.contract", "href"),
            [format!("{PAGES}/version/1.0.0")]
        );
        assert_eq!(
            attrs(&doc, "table.others a", "href"),
            [format!("{PAGES}/pact-version/{sha}/verification-results/2")]
        );
        assert!(attrs(&doc, "a", "href").contains(&"/ui/pacticipants/planning-agent".to_owned()));
        assert!(attrs(&doc, "a", "href").contains(&"/ui/pacticipants/orchestrator".to_owned()));
    });
}

#[test]
fn a_javascript_build_url_is_never_a_link() {
    each_backend(|app| {
        let sha = setup(app);
        let page = format!("{PAGES}/pact-version/{sha}/verification-results/2");
        let doc = html_page(&app.get_page(&page), "verification");
        assert_eq!(texts(&doc, ".outcome .verdict"), ["Passed"]);
        assert!(texts(&doc, "a.build-link").is_empty());
        assert!(
            texts(&doc, ".build code")
                .iter()
                .any(|t| t.starts_with("javascript:"))
        );
        let hrefs = attrs(&doc, "a", "href");
        assert!(
            hrefs
                .iter()
                .all(|h| !h.to_ascii_lowercase().starts_with("javascript")),
            "{hrefs:?}"
        );
        assert!(texts(&doc, "section.layer-group").is_empty());
    });
}

#[test]
fn bad_shas_and_numbers_are_4xx_pages() {
    each_backend(|app| {
        let sha = setup(app);
        let cases = [
            format!("{PAGES}/pact-version/{sha}/verification-results/abc"),
            format!("{PAGES}/pact-version/{sha}/verification-results/99999999999999999999999"),
            format!("{PAGES}/pact-version/{sha}/verification-results/3"),
            format!("{PAGES}/pact-version/{sha}/verification-results/01"),
            format!(
                "{PAGES}/pact-version/{}/verification-results/1",
                "0".repeat(64)
            ),
            format!("{PAGES}/pact-version/not-a-sha/verification-results/1"),
            format!(
                "/ui/pacts/provider/nobody/consumer/orchestrator/pact-version/{sha}/verification-results/1"
            ),
        ];
        for path in cases {
            let reply = app.get_page(&path);
            assert_eq!(reply.status, 404, "{path}: {}", reply.text);
            assert!(
                reply.header("content-type").starts_with("text/html"),
                "{path}"
            );
        }
    });
}

/// A finding's detail shows its code spans as `<code>` and every other
/// character as text; the consumer versions with this content are a
/// comma-separated list of links to their contract pages; each URL a
/// declaration was used at is its own line.
#[test]
fn details_read_as_written_and_versions_are_links() {
    each_backend(|app| {
        let contract = planning_agent_contract();
        let sha = accord_broker::contract::prepare(contract.clone())
            .expect("valid")
            .sha;
        publish_ok(app, "1.4.0", None, &[], std::slice::from_ref(&contract));
        publish_ok(app, "1.5.0", None, &[], &[contract]);
        let url = "http://127.0.0.1:41234/a2a/v1/a-rather-long-path/that-goes-on";
        let result = json!({
            "success": false, "providerApplicationVersion": "9.0.0",
            "findings": [{"layer": "behavior", "reasonCode": "IDEMPOTENCY_VIOLATED",
                "interactionDescription": "look up a plan",
                "detail": "`work_plan_lookup` declares idempotentHint: true, but <b>`x`</b> moved ` once"}],
            "declarations": [{"kind": "a2a/agent-card", "profile": "alice", "protocolVersion": "1.0",
                "digest": format!("sha256:{}", "cd".repeat(32)), "entries": 2,
                "used": [format!("JSONRPC {url}"), format!("HTTP+JSON {url}")]}],
        });
        let reply = app.post(
            &format!("{PACT}/pact-version/{sha}/verification-results"),
            &result,
        );
        assert_eq!(reply.status, 201, "{}", reply.text);
        let page = app.get_page(&format!(
            "{PAGES}/pact-version/{sha}/verification-results/1"
        ));
        assert!(!page.text.contains("<b>"), "never raw HTML");
        let doc = html_page(&page, "verification");
        assert_eq!(texts(&doc, "tr.detail code"), ["work_plan_lookup", "x"]);
        assert_eq!(
            texts(&doc, "tr.detail"),
            ["work_plan_lookup declares idempotentHint: true, but <b> x </b> moved ` once"]
        );
        assert_eq!(texts(&doc, ".consumer-versions"), ["1.5.0 , 1.4.0"]);
        assert_eq!(
            attrs(&doc, ".consumer-versions a", "href"),
            [
                format!("{PAGES}/version/1.5.0"),
                format!("{PAGES}/version/1.4.0")
            ]
        );
        assert_eq!(
            texts(&doc, ".declarations td.used code"),
            [format!("JSONRPC {url}"), format!("HTTP+JSON {url}")]
        );
    });
}

/// A pending or work-in-progress result says so in a sentence ("This
/// result the pact was pending…" read as nonsense).
#[test]
fn a_pending_result_says_so_in_a_sentence() {
    each_backend(|app| {
        let seed = crate::seed::Seed::new(app);
        let (content, sha) = super::home::pact(&seed, "Batch", "7", "API", "b1");
        super::home::verify(&seed, content, "Batch", "API", "2.0.0", false, true);
        let path = format!(
            "/ui/pacts/provider/API/consumer/Batch/pact-version/{sha}/verification-results/1"
        );
        let doc = html_page(&app.get_page(&path), &path);
        assert_eq!(
            texts(&doc, "p.notice"),
            [
                "This result was made while the pact was pending for this provider: a failure did not fail the build."
            ]
        );
    });
}
