//! A pacticipant's page: versions (paginated, newest first, saying what is
//! hidden), branches, tags, environments, deployments and releases, its
//! integrations either way, and what its verifications recorded; bad
//! names and pages are 4xx pages.

use super::home::{decoded, pact, verify};
use super::{attrs, html_page, texts};
use crate::seed::Seed;
use crate::support::each_backend;

fn seed_api(seed: &Seed) {
    let api = seed.pacticipant("API", Some("main"));
    for i in 1..=25 {
        let branch = if i == 25 {
            Some("feat-x")
        } else {
            Some("main")
        };
        let tags: &[&str] = if i == 24 { &["prod"] } else { &[] };
        seed.version_of(api, &format!("2.{i}.0"), branch, tags);
    }
    seed.deploy("API", "2.23.0", "production", "");
    seed.undeploy(seed.version("API", "2.23.0"));
    seed.deploy("API", "2.24.0", "production", "");
    seed.release("API", "2.24.0", "mobile-store", false);
    let (content, _) = pact(seed, "Web", "1.0.0", "API", "w1");
    verify(seed, content, "Web", "API", "2.25.0", false, false);
    pact(seed, "API", "2.25.0", "Store", "s1");
}

/// A result published over the API with the declarations the run read.
fn publish_declarations(app: &crate::support::TestApp, seed: &Seed) {
    let (_, sha) = pact(seed, "Agent", "1", "API", "g1");
    let reply = app.post(
        &format!("/pacts/provider/API/consumer/Agent/pact-version/{sha}/verification-results"),
        &serde_json::json!({
            "success": true, "providerApplicationVersion": "2.25.0",
            "verifiedBy": {"implementation": "Accord", "version": "0.9"},
            "declarations": [{"kind": "mcp/tools/list", "profile": "alice",
                "protocolVersion": "2025-06-18", "digest": format!("sha256:{}", "a".repeat(64)), "entries": 3}]
        }),
    );
    assert_eq!(reply.status, 201, "{}", reply.text);
}

#[test]
fn the_page_shows_versions_branches_tags_deployments_and_integrations() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed_api(&seed);
        publish_declarations(app, &seed);
        let doc = html_page(&app.get_page("/ui/pacticipants/API"), "API");
        assert_eq!(texts(&doc, "h1"), ["API"]);
        let versions = texts(&doc, "tr.version th");
        assert_eq!(versions.len(), 20);
        assert_eq!(versions[0], "2.25.0", "newest first");
        assert_eq!(versions[19], "2.6.0");
        let pager = texts(&doc, "p.pager-text").join(" ");
        assert!(
            pager.contains("1–20 of 25") && pager.contains("5 older not shown"),
            "{pager}"
        );
        assert_eq!(
            attrs(&doc, "nav.pager a[rel=next]", "href"),
            ["/ui/pacticipants/API?page=2"]
        );
        let newest = texts(&doc, "tr.version")[0].clone();
        assert!(newest.contains("feat-x"), "{newest}");
        let v24 = texts(&doc, "tr.version")[1].clone();
        assert!(
            v24.contains("main") && v24.contains("prod") && v24.contains("production (deployed)"),
            "{v24}"
        );
        assert!(v24.contains("mobile-store (released)"), "{v24}");

        assert_eq!(
            texts(&doc, "ul.branches li"),
            ["feat-x head 2.25.0", "main head 2.24.0"]
        );
        assert_eq!(texts(&doc, "ul.tags li"), ["prod latest 2.24.0"]);
        assert_eq!(
            texts(&doc, "ul.live li"),
            [
                "mobile-store : 2.24.0 released",
                "production : 2.24.0 deployed"
            ]
        );
        let deployments = texts(&doc, "table.deployments tbody tr");
        assert_eq!(deployments.len(), 2);
        assert!(
            deployments[0].starts_with("production 2.24.0") && deployments[0].ends_with("live"),
            "{deployments:?}"
        );
        assert!(
            !deployments[1].ends_with("live"),
            "the replaced deployment ended: {deployments:?}"
        );
        assert_eq!(texts(&doc, "table.releases tbody tr").len(), 1);

        let consumer = texts(&doc, "table[aria-labelledby=as-consumer] tbody tr");
        assert!(
            consumer[0].starts_with("Store 2.25.0 unverified"),
            "{consumer:?}"
        );
        let provider = texts(&doc, "table[aria-labelledby=as-provider] tbody tr");
        assert!(provider[0].starts_with("Web 1.0.0 fail"), "{provider:?}");
        assert!(provider[1].starts_with("Agent 1 pass"), "{provider:?}");
        let results = texts(&doc, "table.results tbody tr");
        assert_eq!(results.len(), 2, "{results:?}");
        assert!(
            results[0].contains("2.25.0 Agent Accord 0.9"),
            "{results:?}"
        );
        let digest = format!(
            "mcp/tools/list (alice, 2025-06-18): sha256:{}, 3 entries",
            "a".repeat(64)
        );
        assert!(results[0].contains(&digest), "{results:?}");
        assert!(
            results[1].contains("2.25.0 Web") && results[1].contains("none recorded"),
            "{results:?}"
        );
        let hrefs = decoded(attrs(&doc, "main a", "href"));
        for wanted in [
            "/ui/network?focus=API",
            "/ui/matrix?consumer=API",
            "/ui/matrix?provider=API",
            "/ui/can-i-deploy?pacticipant=API&version=2.25.0",
            "/ui/pacts/provider/Store/consumer/API/version/2.25.0",
            "/ui/matrix?consumer=Web&provider=API",
            "/ui/providers/API/versions/2.25.0",
        ] {
            assert!(
                hrefs.iter().any(|h| h == wanted),
                "no link to {wanted}: {hrefs:?}"
            );
        }

        let page2 = html_page(&app.get_page("/ui/pacticipants/API?page=2"), "page 2");
        assert_eq!(
            texts(&page2, "tr.version th"),
            ["2.5.0", "2.4.0", "2.3.0", "2.2.0", "2.1.0"]
        );
        let pager = texts(&page2, "p.pager-text").join(" ");
        assert!(
            pager.contains("21–25 of 25") && pager.contains("20 newer not shown"),
            "{pager}"
        );
    });
}

#[test]
fn unknown_names_and_bad_pages_are_4xx_pages() {
    each_backend(|app| {
        Seed::new(app).version("API", "1");
        for (path, status) in [
            ("/ui/pacticipants/Nobody", 404),
            ("/ui/pacticipants/API?page=0", 400),
            ("/ui/pacticipants/API?page=-1", 400),
            ("/ui/pacticipants/API?page=abc", 400),
            ("/ui/pacticipants/API?page=99999999999999999999", 400),
            ("/ui/pacticipants/API?page=4000000000", 404),
            ("/ui/pacticipants/API?page=2", 404),
        ] {
            let reply = app.get_page(path);
            assert_eq!(reply.status, status, "{path}: {}", reply.text);
            assert!(
                reply.header("content-type").starts_with("text/html"),
                "{path}"
            );
            let doc = scraper::Html::parse_document(&reply.text);
            assert!(
                texts(&doc, "h1")[0].starts_with(&status.to_string()),
                "{path}"
            );
        }
    });
}
