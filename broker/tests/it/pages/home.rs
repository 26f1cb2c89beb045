//! The home page lists every integration with its latest verdict, what is
//! live in each environment, recent publications and verifications, and
//! links to every kind of page; search finds applications by name.

use accord_broker::store::directory;

use super::{attrs, html_page, texts};
use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

/// A pact from `consumer` `version` to `provider`; returns (content id, sha).
pub fn pact(
    seed: &Seed,
    consumer: &str,
    version: &str,
    provider: &str,
    text: &str,
) -> (i64, String) {
    let c = seed.pacticipant(consumer, None);
    let p = seed.pacticipant(provider, None);
    let v = seed.version(consumer, version);
    let content = seed.publish_content(c, v, p, text);
    let sha = seed.with(|conn| directory::content_shas(conn, &[content]).expect("sha"));
    (content, sha[&content].clone())
}

/// Links with their escapes undone (the pages escape every query value
/// fully: `1.0` is `1%2E0`), to compare with what a person would type.
pub fn decoded(hrefs: Vec<String>) -> Vec<String> {
    hrefs
        .into_iter()
        .map(|h| {
            percent_encoding::percent_decode_str(&h)
                .decode_utf8_lossy()
                .into_owned()
        })
        .collect()
}

/// `provider` `version` verifies `content` of `consumer`.
pub fn verify(
    seed: &Seed,
    content: i64,
    consumer: &str,
    provider: &str,
    version: &str,
    ok: bool,
    pending: bool,
) {
    let (c, p) = (
        seed.pacticipant(consumer, None),
        seed.pacticipant(provider, None),
    );
    let v = seed.version(provider, version);
    seed.verify_with(content, c, p, v, ok, pending);
}

fn seed_world(app: &TestApp) -> String {
    let seed = Seed::new(app);
    let (old, _) = pact(&seed, "Web", "1.0.0", "API", "v1");
    verify(&seed, old, "Web", "API", "1.9.0", true, false);
    let (web_api, sha) = pact(&seed, "Web", "1.1.0", "API", "v2");
    verify(&seed, web_api, "Web", "API", "2.0.0", false, false);
    let (web_agent, _) = pact(&seed, "Web", "1.1.0", "Agent", "a1");
    verify(&seed, web_agent, "Web", "Agent", "3.0.0", true, false);
    pact(&seed, "Mobile", "5", "API", "m1");
    let (batch_api, _) = pact(&seed, "Batch", "7", "API", "b1");
    verify(&seed, batch_api, "Batch", "API", "2.0.0", false, true);
    seed.deploy("API", "2.0.0", "production", "");
    seed.deploy("Web", "1.1.0", "production", "eu");
    seed.environment("staging");
    sha
}

/// The row of `table` (a selector) whose first two cells are these names.
fn row(doc: &scraper::Html, table: &str, first: &str, second: &str) -> String {
    texts(doc, &format!("{table} tbody tr"))
        .into_iter()
        .find(|r| r.starts_with(&format!("{first} {second} ")))
        .unwrap_or_else(|| panic!("no row {first} {second} in {table}"))
}

#[test]
fn home_lists_integrations_with_verdicts_environments_recent_activity_and_every_page() {
    each_backend(|app| {
        let sha = seed_world(app);
        let doc = html_page(&app.get_page("/ui"), "home");
        assert!(row(&doc, "table.integrations", "Web", "API").contains(" fail "));
        assert!(row(&doc, "table.integrations", "Web", "Agent").contains(" pass "));
        assert!(row(&doc, "table.integrations", "Mobile", "API").contains(" unverified "));
        assert!(row(&doc, "table.integrations", "Batch", "API").contains(" fail (pending) "));
        // worst first
        let verdicts = texts(&doc, "table.integrations tbody tr td:nth-child(4) .verdict");
        assert_eq!(verdicts, ["fail", "fail (pending)", "unverified", "pass"]);
        let failing = format!(
            "/ui/pacts/provider/API/consumer/Web/pact-version/{sha}/verification-results/1"
        );
        assert_eq!(
            attrs(&doc, "table.integrations a.verdict.fail", "href"),
            [failing.as_str()]
        );

        let envs = texts(&doc, "section.environment h3");
        assert_eq!(envs, ["production (production)", "staging"]);
        let prod = texts(&doc, "section.environment:first-of-type tbody tr");
        assert!(
            prod.iter().any(|r| r.starts_with("API 2.0.0 deployed")),
            "{prod:?}"
        );
        assert!(
            prod.iter()
                .any(|r| r.starts_with("Web 1.1.0 deployed (eu)")),
            "{prod:?}"
        );

        let pubs = texts(&doc, "ol.publications li");
        assert_eq!(pubs.len(), 5, "{pubs:?}");
        assert!(
            pubs[0].starts_with("Batch 7 → API"),
            "newest first: {pubs:?}"
        );
        let vers = texts(&doc, "ol.verifications li");
        assert_eq!(vers.len(), 4, "{vers:?}");
        assert!(
            vers[0].starts_with("fail (pending) Batch → API"),
            "{vers:?}"
        );

        let hrefs = decoded(attrs(&doc, "main a", "href"));
        for wanted in [
            "/ui/matrix",
            "/ui/can-i-deploy",
            "/ui/network",
            "/ui/pacticipants/Web",
            "/ui/pacticipants/Agent",
            "/ui/pacticipants/Batch",
            "/ui/pacts/provider/API/consumer/Web/version/1.1.0",
            "/ui/pacts/provider/API/consumer/Web/diff?from=1.0.0&to=1.1.0",
            "/ui/providers/API/versions/2.0.0",
            "/ui/matrix?consumer=Web&provider=API",
            "/ui/can-i-deploy?pacticipant=API&version=2.0.0&environment=production",
            failing.as_str(),
        ] {
            assert!(
                hrefs.iter().any(|h| h == wanted),
                "no link to {wanted}: {hrefs:?}"
            );
        }
    });
}

#[test]
fn an_empty_broker_says_so() {
    each_backend(|app| {
        let doc = html_page(&app.get_page("/ui"), "home");
        assert_eq!(
            texts(&doc, "#integrations + p.notice"),
            ["No contract has been published yet."]
        );
        assert!(texts(&doc, "table.integrations").is_empty());
    });
}

#[test]
fn search_finds_names_ignoring_case_and_says_how_many_more_matched() {
    each_backend(|app| {
        let seed = Seed::new(app);
        for n in ["shop-api", "Shop-Web", "billing", "100%_off"] {
            seed.version(n, "1");
        }
        let doc = html_page(&app.get_page("/ui/search?q=SHOP"), "search");
        assert_eq!(
            texts(&doc, "main tbody tr td:first-child a"),
            ["Shop-Web", "shop-api"]
        );
        assert_eq!(
            attrs(&doc, "main tbody a", "href")[0],
            "/ui/pacticipants/Shop-Web"
        );
        let doc = html_page(&app.get_page("/ui/search?q=%25_"), "search for a wildcard");
        assert_eq!(texts(&doc, "main tbody tr td:first-child a"), ["100%_off"]);
        for i in 0..55 {
            seed.pacticipant(&format!("svc-{i:02}"), None);
        }
        let doc = html_page(&app.get_page("/ui/search?q=svc"), "many");
        assert_eq!(texts(&doc, "main tbody tr").len(), 50);
        let count = texts(&doc, "p.count").join(" ");
        assert!(
            count.contains("55 applications match") && count.contains("5 more"),
            "{count}"
        );

        let form = html_page(&app.get_page("/ui/search?q="), "empty");
        assert_eq!(texts(&form, "#results").len(), 0);
        assert_eq!(attrs(&form, "main form input#search-q", "name"), ["q"]);
        let none = html_page(&app.get_page("/ui/search?q=zzz"), "nothing");
        assert!(texts(&none, "p.notice")[0].starts_with("No application"));
    });
}

#[test]
fn search_folds_case_beyond_ascii_the_same_on_both_databases() {
    each_backend(|app| {
        let seed = Seed::new(app);
        for n in ["Éclair-Service", "éclair-web", "eclair-ascii"] {
            seed.version(n, "1");
        }
        // "ÉCLAIR" and "éclair", percent-encoded
        for q in ["%C3%89CLAIR", "%C3%A9clair"] {
            let doc = html_page(&app.get_page(&format!("/ui/search?q={q}")), "search");
            let mut found = texts(&doc, "main tbody tr td:first-child a");
            found.sort();
            assert_eq!(found, ["Éclair-Service", "éclair-web"], "q={q}");
        }
    });
}

#[test]
fn a_search_text_too_long_or_malformed_is_a_400_page() {
    each_backend(|app| {
        let long = "x".repeat(201);
        for path in [
            format!("/ui/search?q={long}"),
            "/ui/search?q=%FF".to_owned(),
        ] {
            let reply = app.get_page(&path);
            assert_eq!(reply.status, 400, "{path}: {}", reply.text);
            assert!(reply.header("content-type").starts_with("text/html"));
            let doc = scraper::Html::parse_document(&reply.text);
            assert_eq!(texts(&doc, "h1"), ["400 Invalid request"]);
        }
    });
}
