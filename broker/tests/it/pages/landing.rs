//! What a release manager reads first: the matrix landing (`/ui/matrix`
//! with no pacticipant chosen) gives each integration's verdict on the
//! main branch and in each environment, with failing layers and links; the
//! home page says whether what is deployed in each environment is
//! consistent, apart from the latest published contracts' verdicts.

use scraper::Html;

use super::home::{decoded, pact};
use super::{attrs, html_page, texts};
use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

const SCHEMA_FAILURE: &str =
    r#"[{"layer":"schema","reasonCode":"RESPONSE_MISMATCH","path":"$.id"}]"#;

/// (sha of Web 1.0.0's pact with API, sha of Web 1.1.0's).
struct World {
    healthy: String,
    candidate: String,
}

/// Production is healthy: Web 1.0.0 and API 2.0.0 are deployed there and
/// verified. The latest candidate, Web 1.1.0 (the head of Web's main
/// branch), failed against API 2.0.0 on the schema layer; it and Mobile 5
/// (unverified) are deployed to staging with API 2.0.0. Web 1.1.0 also
/// passed with Agent 3.0.0, which is deployed nowhere.
fn world(app: &TestApp) -> World {
    let seed = Seed::new(app);
    let (web, api) = (
        seed.pacticipant("Web", Some("main")),
        seed.pacticipant("API", Some("main")),
    );
    seed.branch("API", "2.0.0", "main");
    seed.branch("Web", "1.0.0", "main");
    let (healthy, healthy_sha) = pact(&seed, "Web", "1.0.0", "API", "v1");
    let api_2 = seed.version("API", "2.0.0");
    seed.verify_with(healthy, web, api, api_2, true, false);
    seed.branch("Web", "1.1.0", "main");
    let (candidate, candidate_sha) = pact(&seed, "Web", "1.1.0", "API", "v2");
    seed.verify_failed(candidate, web, api, api_2, SCHEMA_FAILURE);
    let (to_agent, _) = pact(&seed, "Web", "1.1.0", "Agent", "a1");
    let agent = seed.pacticipant("Agent", None);
    let agent_3 = seed.version("Agent", "3.0.0");
    seed.verify_with(to_agent, web, agent, agent_3, true, false);
    pact(&seed, "Mobile", "5", "API", "m1");
    seed.environment("production");
    seed.environment("staging");
    seed.deploy("API", "2.0.0", "production", "");
    seed.deploy("Web", "1.0.0", "production", "");
    seed.deploy("API", "2.0.0", "staging", "");
    seed.deploy("Web", "1.1.0", "staging", "");
    seed.release("Mobile", "5", "staging", false);
    World {
        healthy: healthy_sha,
        candidate: candidate_sha,
    }
}

fn verification(consumer: &str, sha: &str) -> String {
    format!("/ui/pacts/provider/API/consumer/{consumer}/pact-version/{sha}/verification-results/1")
}

/// The text of the landing cell of `consumer` → `provider` in `place`.
fn cell(doc: &Html, consumer: &str, provider: &str, place: &str) -> String {
    let rows = texts(doc, "table.landing tbody tr");
    let index = rows
        .iter()
        .position(|r| r.starts_with(&format!("{consumer} {provider} ")))
        .unwrap_or_else(|| panic!("no row {consumer} → {provider}: {rows:?}"));
    let selector = format!(
        "table.landing tbody tr:nth-child({}) td[data-place=\"{place}\"]",
        index + 1
    );
    texts(doc, &selector).join(" | ")
}

#[test]
fn the_landing_gives_each_integration_its_main_branch_and_environment_verdicts() {
    each_backend(|app| {
        let w = world(app);
        let doc = html_page(&app.get_page("/ui/matrix"), "landing");
        assert_eq!(
            texts(&doc, "table.landing thead th"),
            [
                "Consumer",
                "Provider",
                "Main branch",
                "production (production)",
                "staging",
                "Matrix"
            ]
        );
        // the candidate failed on the main branch and in staging, with its layer;
        // production's pair is verified
        assert_eq!(
            cell(&doc, "Web", "API", "main"),
            "failed schema 1.1.0 × 2.0.0"
        );
        assert_eq!(
            cell(&doc, "Web", "API", "production"),
            "passed 1.0.0 × 2.0.0"
        );
        assert_eq!(
            cell(&doc, "Web", "API", "staging"),
            "failed schema 1.1.0 × 2.0.0"
        );
        assert_eq!(
            attrs(&doc, "td[data-place=staging] .layer", "title"),
            ["schema: RESPONSE_MISMATCH"]
        );
        // one side missing, or never verified
        assert_eq!(
            cell(&doc, "Mobile", "API", "production"),
            "not both deployed"
        );
        assert_eq!(
            cell(&doc, "Mobile", "API", "main"),
            "no main-branch version"
        );
        assert_eq!(
            cell(&doc, "Mobile", "API", "staging"),
            "unverified 5 × 2.0.0"
        );
        assert_eq!(
            cell(&doc, "Web", "Agent", "production"),
            "not both deployed"
        );
        let titles = attrs(
            &doc,
            "td[data-place=production] span.verdict.absent",
            "title",
        );
        assert!(
            titles.contains(&"Mobile has no version in production".to_owned())
                && titles.contains(&"Agent has no version in production".to_owned()),
            "{titles:?}"
        );

        // each verdict links the verification deciding it, else the pair's rows there
        let links = decoded(attrs(&doc, "td.place a.verdict", "href"));
        for wanted in [
            verification("Web", &w.candidate),
            verification("Web", &w.healthy),
            "/ui/matrix?consumer=Mobile&provider=API&environment=staging".to_owned(),
        ] {
            assert!(links.contains(&wanted), "no link to {wanted}: {links:?}");
        }
        let rows = decoded(attrs(&doc, "td.place a.pair-rows", "href"));
        for wanted in [
            "/ui/matrix?consumer=Web&provider=API&environment=production",
            "/ui/matrix?consumer=Web&provider=API&branch=main",
        ] {
            assert!(rows.iter().any(|r| r == wanted), "no {wanted}: {rows:?}");
        }
        // the rows a cell links to are the ones that decide it
        let staging = html_page(
            &app.get_page("/ui/matrix?consumer=Web&provider=API&environment=staging"),
            "rows",
        );
        assert_eq!(texts(&staging, "table.matrix td.cell .verdict"), ["failed"]);
        // the legend names every word a cell may say, pending once
        let legend = texts(&doc, ".legend-text dt");
        assert!(legend.contains(&"fail (pending)".to_owned()), "{legend:?}");
        assert!(
            legend.contains(&"not both deployed".to_owned()),
            "{legend:?}"
        );
        assert_eq!(texts(&doc, ".pager-status"), ["Showing all 3 integrations"]);
    });
}

#[test]
fn home_says_production_is_consistent_while_the_latest_candidate_failed() {
    each_backend(|app| {
        let w = world(app);
        let doc = html_page(&app.get_page("/ui"), "home");
        assert_eq!(
            texts(&doc, "li.environment-check > strong"),
            ["production", "staging"]
        );
        let production = "li.environment-check[data-environment=production]";
        assert_eq!(
            texts(&doc, &format!("{production} > .verdict")),
            ["consistent"]
        );
        assert_eq!(
            texts(&doc, &format!("{production} .check-summary")),
            ["every deployed consumer–provider pair (1) was verified successfully"]
        );
        assert!(texts(&doc, &format!("{production} ul.problems")).is_empty());
        assert_eq!(
            texts(
                &doc,
                "li.environment-check[data-environment=staging] > .verdict"
            ),
            ["not consistent"]
        );
        // staging names its failed pair (with its layer) and its unverified one
        assert_eq!(
            texts(
                &doc,
                "li.environment-check[data-environment=staging] .check-summary"
            ),
            ["of 2 deployed consumer–provider pairs, 1 failed, 0 fail (pending), 1 unverified"]
        );
        assert_eq!(
            texts(
                &doc,
                "li.environment-check[data-environment=staging] ul.problems li"
            ),
            [
                "failed Web 1.1.0 → API 2.0.0 schema",
                "unverified Mobile 5 → API 2.0.0"
            ]
        );
        assert_eq!(
            decoded(attrs(
                &doc,
                "li.environment-check[data-environment=staging] ul.problems a",
                "href"
            )),
            [
                verification("Web", &w.candidate),
                "/ui/matrix?consumer=Mobile&provider=API&environment=staging".to_owned()
            ]
        );
        // the latest published contracts, labelled for what they are
        assert_eq!(
            texts(&doc, "h2#integrations"),
            ["Latest published contracts"]
        );
        let summary = texts(&doc, "#integrations + p.summary").join(" ");
        assert!(
            summary.contains("1 fail 0 fail (pending) 1 unverified 1 pass"),
            "{summary}"
        );
    });
}

#[test]
fn an_environment_with_nothing_deployed_together_has_nothing_to_check() {
    each_backend(|app| {
        let seed = Seed::new(app);
        pact(&seed, "Web", "1", "API", "v1");
        seed.environment("production");
        seed.deploy("Web", "1", "production", "");
        let doc = html_page(&app.get_page("/ui"), "home");
        assert_eq!(
            texts(&doc, "li.environment-check > .verdict"),
            ["nothing to check"]
        );
        assert_eq!(
            texts(&doc, "li.environment-check .check-summary"),
            ["no consumer is deployed or released here with a provider it has a contract with"]
        );
        let landing = html_page(&app.get_page("/ui/matrix"), "landing");
        assert_eq!(
            attrs(&landing, "td[data-place=production] .verdict", "title"),
            ["API has no version in production"]
        );
    });
}

#[test]
fn one_word_for_pending_on_every_page() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let (content, _) = pact(&seed, "Batch", "7", "API", "b1");
        super::home::verify(&seed, content, "Batch", "API", "2.0.0", false, true);
        seed.environment("production");
        seed.deploy("Batch", "7", "production", "");
        seed.deploy("API", "2.0.0", "production", "");
        let word = "fail (pending)";
        let home = html_page(&app.get_page("/ui"), "home");
        assert_eq!(texts(&home, "table.integrations .verdict.pending"), [word]);
        assert!(texts(&home, "ol.verifications li")[0].starts_with(word));
        assert_eq!(texts(&home, "ul.problems .verdict.pending"), [word]);
        let landing = html_page(&app.get_page("/ui/matrix"), "landing");
        assert_eq!(
            texts(&landing, "td[data-place=production] .verdict.pending"),
            [word]
        );
        let rows = html_page(&app.get_page("/ui/matrix?consumer=Batch"), "rows");
        assert_eq!(texts(&rows, "td.cell .verdict.pending"), [word]);
        let network = html_page(&app.get_page("/ui/network"), "network");
        assert!(
            texts(&network, ".verdict.pending")
                .iter()
                .all(|t| t == word),
            "{:?}",
            texts(&network, ".verdict.pending")
        );
    });
}
