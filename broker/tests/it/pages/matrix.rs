//! `/ui/matrix` and `/ui/providers/{p}/versions/{v}`: cells state their
//! verdict in words with the failing layers, filters change the rows,
//! pagination says what is hidden, bad input is a 4xx page.

use scraper::Html;
use serde_json::json;

use super::{attrs, html_page, texts};
use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

/// Foo 1 ← Bar 56 passed (both in production); Foo 2 (tag beta) ← Bar 57
/// failed with schema and temporal findings; Foo 3 unverified; Baz 7 ←
/// Bar 57 failed while pending.
struct World {
    sha1: String,
    sha2: String,
}

fn verify(app: &TestApp, sha: &str, consumer: &str, body: serde_json::Value) {
    let path =
        format!("/pacts/provider/Bar/consumer/{consumer}/pact-version/{sha}/verification-results");
    let reply = app.post(&path, &body);
    assert_eq!(reply.status, 201, "{}", reply.text);
}

fn world(app: &TestApp) -> World {
    let seed = Seed::new(app);
    let sha1 = seed.publish("Foo", "1", "Bar", "plan one");
    let sha2 = seed.publish("Foo", "2", "Bar", "plan two");
    seed.tag("Foo", "2", "beta");
    seed.publish("Foo", "3", "Bar", "plan three");
    verify(
        app,
        &sha1,
        "Foo",
        json!({"success": true, "providerApplicationVersion": "56"}),
    );
    verify(
        app,
        &sha2,
        "Foo",
        json!({"success": false, "providerApplicationVersion": "57", "findings": [
            {"layer": "temporal", "reasonCode": "ACK_DEADLINE_MISSED"},
            {"layer": "schema", "reasonCode": "RESPONSE_MISMATCH", "path": "$.id"}
        ]}),
    );
    let second = seed.pacticipant("Baz", None);
    let bar = seed.pacticipant("Bar", None);
    let baz_7 = seed.version_of(second, "7", None, &[]);
    let content = seed.publish_content(second, baz_7, bar, "baz plan");
    let bar_57 = seed.version("Bar", "57");
    seed.verify_with(content, second, bar, bar_57, false, true);
    seed.environment("production");
    seed.environment("staging");
    seed.deploy("Bar", "56", "production", "");
    seed.deploy("Foo", "1", "production", "");
    World { sha1, sha2 }
}

fn page(app: &TestApp, path: &str) -> Html {
    html_page(&app.get_page(path), path)
}

/// (consumer version, provider version, verdict) of each row.
fn rows(doc: &Html) -> Vec<(String, String, String)> {
    let cv = texts(doc, "table.matrix tbody tr th .version");
    let pv: Vec<String> = texts(doc, "table.matrix tbody tr td:nth-of-type(3)")
        .into_iter()
        .map(|t| t.split(' ').next().unwrap_or_default().to_owned())
        .collect();
    let verdicts = texts(doc, "table.matrix tbody tr td.cell .verdict");
    assert_eq!((cv.len(), pv.len()), (verdicts.len(), verdicts.len()));
    cv.into_iter()
        .zip(pv)
        .zip(verdicts)
        .map(|((c, p), v)| (c, p, v))
        .collect()
}

fn row(c: &str, p: &str, v: &str) -> (String, String, String) {
    (c.to_owned(), p.to_owned(), v.to_owned())
}

#[test]
fn each_cell_states_its_verdict_in_words_with_failing_layers_and_links() {
    each_backend(|app| {
        let w = world(app);
        let doc = page(app, "/ui/matrix?consumer=Foo&provider=Bar");
        assert_eq!(
            rows(&doc),
            [
                row("3", "none", "unverified"),
                row("2", "57", "failed"),
                row("1", "56", "passed")
            ]
        );
        assert_eq!(
            attrs(&doc, "td.cell .verdict", "class"),
            ["verdict unverified", "verdict fail", "verdict pass"]
        );
        // only the failing cell carries layer marks, in layer order, codes in the title
        assert_eq!(texts(&doc, "td.cell .layer"), ["schema", "temporal"]);
        assert_eq!(
            attrs(&doc, "tr:nth-child(2) td.cell .layer", "title"),
            ["schema: RESPONSE_MISMATCH", "temporal: ACK_DEADLINE_MISSED"]
        );
        let labels = attrs(&doc, "td.cell a.verdict", "aria-label");
        assert_eq!(
            labels,
            ["failed: Foo 2 with Bar 57", "passed: Foo 1 with Bar 56"]
        );
        assert_eq!(
            attrs(&doc, "td.cell a.verdict", "href"),
            [
                format!(
                    "/ui/pacts/provider/Bar/consumer/Foo/pact-version/{}/verification-results/1",
                    w.sha2
                ),
                format!(
                    "/ui/pacts/provider/Bar/consumer/Foo/pact-version/{}/verification-results/1",
                    w.sha1
                ),
            ]
        );
        assert_eq!(
            attrs(&doc, "a.contract", "href")[1],
            "/ui/pacts/provider/Bar/consumer/Foo/version/2"
        );
        assert!(
            attrs(&doc, "a.consumer", "href")
                .iter()
                .all(|h| h == "/ui/pacticipants/Foo")
        );
        assert!(
            attrs(&doc, "a.provider", "href")
                .iter()
                .all(|h| h == "/ui/pacticipants/Bar")
        );
        assert_eq!(texts(&doc, ".pager-status"), ["Showing all 3 rows"]);
        assert_eq!(texts(&doc, "th[scope=col]").len(), 6);
        assert!(!texts(&doc, "table.matrix caption").is_empty());
        // a failure of a pending pact says so
        let doc = page(app, "/ui/matrix?provider=Bar&consumer=Baz");
        assert_eq!(rows(&doc), [row("7", "57", "fail (pending)")]);
        assert_eq!(
            attrs(&doc, "td.cell .verdict", "class"),
            ["verdict pending"]
        );
    });
}

#[test]
fn filters_change_the_rows_and_keep_their_values_in_the_form() {
    each_backend(|app| {
        let _w = world(app);
        let doc = page(
            app,
            "/ui/matrix?consumer=Foo&provider=Bar&environment=production",
        );
        assert_eq!(rows(&doc), [row("1", "56", "passed")]);
        assert_eq!(
            attrs(&doc, "#f-environment option[selected]", "value"),
            ["production"]
        );
        assert_eq!(attrs(&doc, "#f-consumer", "value"), ["Foo"]);
        // the tag narrows both sides: Foo 2 is tagged, no tagged Bar verified it
        let doc = page(app, "/ui/matrix?consumer=Foo&provider=Bar&tag=beta");
        assert_eq!(rows(&doc), [row("2", "none", "unverified")]);
        let doc = page(app, "/ui/matrix?provider=Bar");
        let consumers = texts(&doc, "a.consumer");
        assert_eq!(consumers, ["Baz", "Foo", "Foo", "Foo"]);
        let doc = page(
            app,
            "/ui/matrix?consumer=Foo&provider=Bar&latest=true&branch=nowhere",
        );
        assert!(rows(&doc).is_empty());
        assert_eq!(texts(&doc, ".pager-status"), ["No rows"]);
        // nothing chosen: the integrations, each a link to its matrix
        let doc = page(app, "/ui/matrix");
        assert_eq!(
            attrs(&doc, "a.matrix-link", "href"),
            [
                "/ui/matrix?consumer=Baz&provider=Bar",
                "/ui/matrix?consumer=Foo&provider=Bar"
            ]
        );
        let labels = texts(&doc, "form.filters label");
        assert!(
            labels.iter().any(|l| l.starts_with("Consumer")),
            "{labels:?}"
        );
        assert_eq!(
            texts(&doc, "#f-environment option"),
            ["any", "production", "staging"]
        );
    });
}

#[test]
fn pagination_says_what_is_hidden_and_links_the_next_page() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let (qux, bar) = (seed.pacticipant("Qux", None), seed.pacticipant("Bar", None));
        for n in 1..=120 {
            let v = seed.version_of(qux, &n.to_string(), None, &[]);
            seed.publish_content(qux, v, bar, &format!("plan {n}"));
        }
        let base = "/ui/matrix?consumer=Qux&provider=Bar";
        let doc = page(app, base);
        assert_eq!(
            texts(&doc, ".pager-status"),
            ["Showing rows 1–50 of 120; 70 more on other pages"]
        );
        assert_eq!(texts(&doc, "table.matrix tbody tr").len(), 50);
        assert_eq!(texts(&doc, "table.matrix tbody tr th .version")[0], "120");
        assert_eq!(
            attrs(&doc, "a[rel=next]", "href"),
            [format!("{base}&page=2")]
        );
        assert!(attrs(&doc, "a[rel=prev]", "href").is_empty());
        let doc = page(app, &format!("{base}&page=3"));
        assert_eq!(
            texts(&doc, ".pager-status"),
            ["Showing rows 101–120 of 120; 100 more on other pages"]
        );
        assert_eq!(
            texts(&doc, "table.matrix tbody tr th .version")
                .last()
                .map(String::as_str),
            Some("1")
        );
        assert_eq!(
            attrs(&doc, "a[rel=prev]", "href"),
            [format!("{base}&page=2")]
        );
        assert!(attrs(&doc, "a[rel=next]", "href").is_empty());
        let doc = page(app, &format!("{base}&per_page=100"));
        assert_eq!(
            texts(&doc, ".pager-status"),
            ["Showing rows 1–100 of 120; 20 more on other pages"]
        );
        assert_eq!(texts(&doc, "table.matrix tbody tr").len(), 100);
        assert_eq!(
            attrs(&doc, "a[rel=next]", "href"),
            [format!("{base}&per_page=100&page=2")]
        );
        assert_eq!(attrs(&doc, "input[name=per_page]", "value"), ["100"]);
        let past = app.get_page(&format!("{base}&page=4"));
        assert_eq!(past.status, 404, "{}", past.text);
    });
}

#[test]
fn the_candidate_page_says_which_consumers_a_build_breaks_and_on_which_layer() {
    each_backend(|app| {
        let w = world(app);
        let doc = page(app, "/ui/providers/Bar/versions/57");
        assert_eq!(
            texts(&doc, "table.candidate tbody th a.consumer"),
            ["Baz", "Foo"]
        );
        assert_eq!(
            texts(&doc, "table.candidate td.cell .verdict"),
            ["fail (pending)", "failed"]
        );
        assert_eq!(
            texts(&doc, "table.candidate tr:nth-child(2) td.reasons li"),
            ["schema: RESPONSE_MISMATCH", "temporal: ACK_DEADLINE_MISSED"]
        );
        assert_eq!(
            attrs(&doc, "table.candidate tr:nth-child(2) a.verdict", "href"),
            [format!(
                "/ui/pacts/provider/Bar/consumer/Foo/pact-version/{}/verification-results/1",
                w.sha2
            )]
        );
        assert!(texts(&doc, ".summary")[0].starts_with(
            "2 contracts of 2 consumers verified: 0 passed, 1 failed, 1 fail (pending)"
        ));
        assert!(texts(&doc, "ul.missing li").is_empty());
        let doc = page(app, "/ui/providers/Bar/versions/56");
        assert_eq!(texts(&doc, "table.candidate td.cell .verdict"), ["passed"]);
        assert_eq!(texts(&doc, "table.candidate td.reasons"), ["none"]);
        assert_eq!(texts(&doc, "ul.missing li a:first-child"), ["Baz"]);
        assert_eq!(texts(&doc, "p.labels"), ["deployed to production"]);
    });
}

#[test]
fn bad_input_is_a_4xx_page_never_a_500() {
    each_backend(|app| {
        let _w = world(app);
        for (path, status) in [
            ("/ui/matrix?page=99999999999999999999", 400),
            ("/ui/matrix?page=-1", 400),
            ("/ui/matrix?page=0", 400),
            ("/ui/matrix?page=&page=abc", 400),
            ("/ui/matrix?page=2", 404),
            ("/ui/matrix?consumer=Nobody&provider=Bar", 404),
            ("/ui/matrix?consumer=Foo&environment=nowhere", 400),
            ("/ui/matrix?environment=nowhere", 400),
            ("/ui/matrix?consumer=Foo&branch=a&tag=b", 400),
            ("/ui/matrix?consumer=%01", 400),
            ("/ui/matrix?consumer=Foo&latest=yes", 400),
            ("/ui/matrix?consumer=Foo&per_page=1001", 400),
            ("/ui/matrix?consumer=Foo&per_page=-5", 400),
            ("/ui/providers/Nobody/versions/1", 404),
            ("/ui/providers/Bar/versions/999", 404),
            ("/ui/providers/Bar/versions/%01", 400),
        ] {
            let reply = app.get_page(path);
            assert_eq!(reply.status, status, "{path}: {}", reply.text);
            assert!(
                reply.header("content-type").starts_with("text/html"),
                "{path}"
            );
            let doc = Html::parse_document(&reply.text);
            assert!(
                texts(&doc, "h1")[0].starts_with(&status.to_string()),
                "{path}"
            );
        }
        // repeated parameters: the last one counts
        let doc = page(app, "/ui/matrix?consumer=Nobody&consumer=Foo&provider=Bar");
        assert_eq!(rows(&doc).len(), 3);
    });
}

mod grid;
