//! What the pages say of a result and how many they list: a success of the
//! Pact view only is unverified where the matrix says unknown (a content
//! with Accord-only parts) and a pass where the matrix says pass (one
//! without); lists show the newest results and say how many are left out.

use accord_broker::store::{self, pacticipants, pacts, verifications};
use serde_json::json;

use super::home::{pact, verify};
use super::{attrs, html_page, texts};
use crate::pact_docs::{planning_agent_contract, publish_ok};
use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

const PAGES: &str = "/ui/pacts/provider/planning-agent/consumer/orchestrator";
const PACT_VIEW_ONLY: &str = "Pact view only: the Accord-only interactions were not verified";

/// A result of `content` by `provider_version`.
fn result(
    ids: (i64, i64, i64),
    provider_version: i64,
    success: bool,
    pact_view: bool,
) -> verifications::NewVerification {
    let (content, consumer, provider) = ids;
    verifications::NewVerification {
        pact_content_id: content,
        provider_version_id: provider_version,
        consumer_id: consumer,
        provider_id: provider,
        success,
        build_url: None,
        test_results: None,
        verified_by: None,
        findings: "[]".into(),
        wip: false,
        pending: false,
        selectors: None,
        execution_date: store::now(),
        pact_view,
        declarations: None,
    }
}

/// The example contract (A2A, MCP: Accord-only parts) published by
/// orchestrator 1.0.0: (sha, (content, consumer, provider) ids).
fn example(app: &TestApp, seed: &Seed) -> (String, (i64, i64, i64)) {
    let contract = planning_agent_contract();
    let sha = accord_broker::contract::prepare(contract.clone())
        .expect("valid")
        .sha;
    publish_ok(app, "1.0.0", Some("main"), &[], &[contract]);
    let ids = seed.with(|conn| {
        let content = pacts::find_content_by_sha(conn, &sha)
            .expect("query")
            .expect("content");
        let mut id = |name: &str| {
            pacticipants::find_by_name(&mut *conn, name)
                .expect("query")
                .expect("pacticipant")
                .id
        };
        (content.id, id("orchestrator"), id("planning-agent"))
    });
    (sha, ids)
}

#[test]
fn a_success_of_the_pact_view_only_is_unverified_on_every_page_as_in_the_matrix() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let (sha, ids) = example(app, &seed);
        let v = seed.version_of(ids.2, "2.0.0", None, &[]);
        seed.with(|conn| verifications::insert(conn, &result(ids, v, true, true)))
            .expect("result");
        let page = format!("{PAGES}/pact-version/{sha}/verification-results/1");
        let doc = html_page(&app.get_page(&page), "verification");
        assert_eq!(texts(&doc, ".outcome .verdict"), ["Unverified"]);
        let outcome = texts(&doc, ".outcome").join(" ");
        assert!(outcome.contains(PACT_VIEW_ONLY), "{outcome}");
        let contract = html_page(&app.get_page(&format!("{PAGES}/version/1.0.0")), "contract");
        let listed = texts(&contract, "table.verifications tbody td:nth-child(2)");
        assert_eq!(listed, [format!("Unverified ({PACT_VIEW_ONLY})")]);
        // the matrix says the same
        let matrix = app.get(
            "/matrix?q[][pacticipant]=orchestrator&q[][version]=1.0.0&latestby=cvp&latest=true",
        );
        assert_eq!(matrix.status, 200, "{}", matrix.text);
        assert_eq!(
            matrix.json["summary"]["unknown"],
            json!(1),
            "{}",
            matrix.text
        );
        // and so do the badge and the consumer-version summary
        let badge = app.get("/pacts/provider/planning-agent/consumer/orchestrator/latest/badge");
        assert!(badge.text.contains("unknown"), "{}", badge.text);
        let summary = app.get("/verification-results/consumer/orchestrator/version/1.0.0/latest");
        assert_eq!(
            summary.json["providerSummary"]["unknown"],
            json!(["planning-agent"]),
            "{}",
            summary.text
        );
    });
}

#[test]
fn a_success_of_the_pact_view_of_a_contract_without_accord_only_parts_is_a_pass_everywhere() {
    each_backend(|app| {
        let seed = Seed::new(app);
        // a plain content: its Pact view is the whole contract
        let (content, sha) = pact(&seed, "Web", "1", "API", "plain");
        verify(&seed, content, "Web", "API", "0", false, false);
        let (c, p) = (seed.pacticipant("Web", None), seed.pacticipant("API", None));
        let v = seed.version("API", "2");
        seed.with(|conn| verifications::insert(conn, &result((content, c, p), v, true, true)))
            .expect("result");
        let home = html_page(&app.get_page("/ui"), "home");
        let verdicts = texts(
            &home,
            "table.integrations tbody tr td:nth-child(4) .verdict",
        );
        assert_eq!(verdicts, ["pass"]);
        let recent = texts(&home, "ol.verifications li");
        assert!(recent[0].starts_with("pass Web → API"), "{recent:?}");
        let page = format!(
            "/ui/pacts/provider/API/consumer/Web/pact-version/{sha}/verification-results/2"
        );
        let doc = html_page(&app.get_page(&page), "verification");
        assert_eq!(texts(&doc, ".outcome .verdict"), ["Passed"]);
        let network = html_page(&app.get_page("/ui/network"), "network");
        assert_eq!(
            attrs(&network, "svg.network a.edge", "class"),
            ["edge pass"]
        );
        // the API's badge and consumer-version summary follow the same rule
        let badge = app.get("/pacts/provider/API/consumer/Web/latest/badge");
        assert!(badge.text.contains("verified"), "{}", badge.text);
        let summary = app.get("/verification-results/consumer/Web/version/1/latest");
        assert_eq!(
            summary.json["providerSummary"]["successful"],
            json!(["API"]),
            "{}",
            summary.text
        );
        assert_eq!(summary.json["success"], json!(true), "{}", summary.text);
    });
}

#[test]
fn the_pages_list_the_newest_results_and_say_how_many_older_ones_they_leave_out() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let (sha, ids) = example(app, &seed);
        let rows: Vec<_> = (0..60)
            .map(|i| {
                let v = seed.version_of(ids.2, &format!("2.0.{i}"), None, &[]);
                result(ids, v, i % 2 == 1, false)
            })
            .collect();
        seed.with(|conn| verifications::insert_many(conn, &rows))
            .expect("results");
        let contract = html_page(&app.get_page(&format!("{PAGES}/version/1.0.0")), "contract");
        let listed = texts(&contract, "table.verifications tbody tr");
        assert_eq!(listed.len(), 50);
        assert!(listed[0].starts_with("#60 Passed"), "{listed:?}");
        assert!(listed[0].contains("2.0.59"), "{listed:?}");
        assert_eq!(
            texts(&contract, ".older-verifications"),
            ["10 older results are not shown: only the newest 50 are listed."]
        );
        let page = format!("{PAGES}/pact-version/{sha}/verification-results/60");
        let doc = html_page(&app.get_page(&page), "verification");
        assert_eq!(texts(&doc, "table.others tbody tr").len(), 49);
        assert_eq!(
            texts(&doc, ".older-verifications"),
            ["10 older results are not shown: only the newest are listed."]
        );
    });
}
