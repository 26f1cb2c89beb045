//! `/ui/can-i-deploy`: the form, and the same answer and reasons as
//! `GET /can-i-deploy` (a yes, a no, an unknown), bad input as the API's 4xx.

use scraper::Html;

use super::{attrs, html_page, texts};
use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

/// Foo 1 ← Bar 56 (production) passed; Foo 2 ← Bar 57 (staging) failed
/// on the schema layer; Foo 3 has no verification.
fn world(app: &TestApp) {
    let seed = Seed::new(app);
    let (consumer, bar) = (seed.pacticipant("Foo", None), seed.pacticipant("Bar", None));
    let prod = seed.environment("production");
    let staging = seed.environment("staging");
    let bar_56 = seed.version_of(bar, "56", None, &[]);
    let bar_57 = seed.version_of(bar, "57", None, &[]);
    seed.deploy_version(bar, bar_56, prod, "");
    seed.deploy_version(bar, bar_57, staging, "");
    for (n, provider_version, success) in [
        ("1", Some(bar_56), true),
        ("2", Some(bar_57), false),
        ("3", None, false),
    ] {
        let v = seed.version_of(consumer, n, None, &[]);
        let content = seed.publish_content(consumer, v, bar, n);
        match provider_version {
            Some(pv) if !success => {
                seed.verify_failed(content, consumer, bar, pv, FINDINGS);
            }
            Some(pv) => {
                seed.verify(content, consumer, bar, pv, success);
            }
            None => {}
        }
    }
}

/// The findings of Bar 57's failed verification.
const FINDINGS: &str = r#"[
    {"layer": "schema", "reasonCode": "CONTENT_MODE_MISMATCH", "interactionDescription": "the plan"},
    {"layer": "declaration", "reasonCode": "TOOL_NOT_DECLARED", "interactionDescription": "lookup"},
    {"layer": "schema", "reasonCode": "RESPONSE_MISMATCH", "interactionDescription": "the plan"}
]"#;

/// The page and the API agree on `query`; returns the page.
fn agree(app: &TestApp, query: &str, deployable: &str) -> Html {
    let api = app.get(&format!("/can-i-deploy?{query}"));
    assert_eq!(api.status, 200, "{}", api.text);
    let doc = html_page(&app.get_page(&format!("/ui/can-i-deploy?{query}")), query);
    let api_deployable = match api.json["summary"]["deployable"].as_bool() {
        Some(b) => b.to_string(),
        None => "unknown".to_owned(),
    };
    assert_eq!(api_deployable, deployable, "{query}: {}", api.text);
    assert_eq!(
        attrs(&doc, "[data-deployable]", "data-deployable"),
        [deployable],
        "{query}"
    );
    let reasons: Vec<String> = api.json["summary"]["reason"]
        .as_str()
        .expect("reason")
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(texts(&doc, "ul.reasons li"), reasons, "{query}");
    let rows = api.json["matrix"].as_array().map_or(0, Vec::len);
    assert_eq!(
        texts(&doc, "table.matrix tbody tr").len(),
        rows,
        "one line per row the API gives"
    );
    doc
}

#[test]
fn an_empty_form_is_just_the_form_with_labels_and_the_environments() {
    each_backend(|app| {
        world(app);
        for path in [
            "/ui/can-i-deploy",
            "/ui/can-i-deploy?pacticipant=&version=&environment=",
        ] {
            let doc = html_page(&app.get_page(path), path);
            assert_eq!(texts(&doc, "form.filters label").len(), 3, "{path}");
            assert_eq!(
                attrs(&doc, "form.filters label", "for"),
                ["c-pacticipant", "c-version", "c-environment"]
            );
            assert_eq!(
                texts(&doc, "select#c-environment option"),
                ["choose…", "production", "staging"]
            );
            assert!(texts(&doc, ".answer").is_empty(), "{path}");
        }
    });
}

#[test]
fn a_yes_a_no_and_an_unknown_are_the_api_s_answers_with_its_reasons() {
    each_backend(|app| {
        world(app);
        let yes = agree(
            app,
            "pacticipant=Foo&version=1&environment=production",
            "true",
        );
        assert_eq!(texts(&yes, "td.cell .verdict"), ["passed"]);
        assert_eq!(
            texts(&yes, "h2 .verdict"),
            ["Yes: Foo 1 can be deployed to production"]
        );
        assert_eq!(
            attrs(&yes, "#c-environment option[selected]", "value"),
            ["production"]
        );
        assert_eq!(attrs(&yes, "#c-pacticipant", "value"), ["Foo"]);
        let no = agree(
            app,
            "pacticipant=Foo&version=2&environment=staging",
            "false",
        );
        assert_eq!(texts(&no, "td.cell .verdict"), ["failed"]);
        assert_eq!(attrs(&no, "h2 .verdict", "class"), ["verdict fail"]);
        // the blocking row: its layers with their reason codes, its page
        assert_eq!(
            texts(&no, "td.cell .failing-layer"),
            [
                "declaration TOOL_NOT_DECLARED",
                "schema CONTENT_MODE_MISMATCH, RESPONSE_MISMATCH"
            ]
        );
        let page = attrs(&no, "td.cell a.verdict", "href");
        assert_eq!(page.len(), 1);
        assert!(
            page[0].starts_with("/ui/pacts/provider/Bar/consumer/Foo/pact-version/")
                && page[0].contains("/verification-results/"),
            "{page:?}"
        );
        assert_eq!(app.get_page(&page[0]).status, 200, "{}", page[0]);
        // "Why" says it once; Notices do not say it again
        assert_eq!(texts(&no, "ul.reasons li").len(), 1);
        assert!(
            texts(&no, "ul.notices li").is_empty(),
            "{:?}",
            texts(&no, "ul.notices li")
        );
        assert!(texts(&no, "h3").iter().all(|h| h != "Notices"));
        // what the reasons do not say stays under Notices
        let ignoring = agree(
            app,
            "pacticipant=Foo&version=2&environment=staging&ignore[]=Bar",
            "true",
        );
        let notices = texts(&ignoring, "ul.notices li");
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(
            notices[0].starts_with("info") && notices[0].contains("Ignoring: "),
            "{notices:?}"
        );
        let unknown = agree(
            app,
            "pacticipant=Foo&version=3&environment=production",
            "unknown",
        );
        assert_eq!(texts(&unknown, "td.cell .verdict"), ["unverified"]);
        // a version nobody published: the API's "no"
        agree(
            app,
            "pacticipant=Foo&version=99&environment=production",
            "false",
        );
    });
}

#[test]
fn bad_input_gives_the_api_s_4xx_as_a_page() {
    each_backend(|app| {
        world(app);
        for query in [
            "pacticipant=Nobody&version=1&environment=production",
            "pacticipant=Foo&version=1&environment=nowhere",
            "pacticipant=Foo&environment=production",
            "pacticipant=%01&version=1&environment=production",
            "pacticipant=Foo&version=1&environment=production&to=prod",
            "pacticipant=Foo&version=1&environment=production&ignore[][version]=1",
        ] {
            let api = app.get(&format!("/can-i-deploy?{query}"));
            assert!((400..500).contains(&api.status), "{query}: {}", api.text);
            let reply = app.get_page(&format!("/ui/can-i-deploy?{query}"));
            assert_eq!(reply.status, api.status, "{query}: {}", reply.text);
            assert!(
                reply.header("content-type").starts_with("text/html"),
                "{query}"
            );
            let doc = Html::parse_document(&reply.text);
            assert!(
                texts(&doc, "h1")[0].starts_with(&api.status.to_string()),
                "{query}"
            );
            let detail = api.json["detail"].as_str().unwrap_or_default().to_owned();
            assert_eq!(
                texts(&doc, ".error-detail"),
                [detail.split_whitespace().collect::<Vec<_>>().join(" ")]
            );
        }
        // repeated parameters: the last one counts, as in the API
        agree(
            app,
            "pacticipant=Nobody&pacticipant=Foo&version=1&environment=production",
            "true",
        );
    });
}

/// The pages link to a version's can-i-deploy without an environment
/// (`links::can_i_deploy(.., None)`): the page answers for every
/// environment, each the API's answer and a link to it — never an error.
#[test]
fn a_version_without_an_environment_is_answered_for_every_environment() {
    each_backend(|app| {
        world(app);
        let page = app.get_page("/ui/pacticipants/Foo");
        assert_eq!(page.status, 200, "{}", page.text);
        let linked: Vec<String> = attrs(
            &Html::parse_document(&page.text),
            "a[href^='/ui/can-i-deploy']",
            "href",
        )
        .into_iter()
        .filter(|h| !h.contains("environment="))
        .collect();
        assert!(
            !linked.is_empty(),
            "the application page links without an environment"
        );
        for href in &linked {
            let reply = app.get_page(&href.replace("&amp;", "&"));
            assert_eq!(reply.status, 200, "{href}: {}", reply.text);
        }
        for version in ["1", "2", "3"] {
            let path = format!("/ui/can-i-deploy?pacticipant=Foo&version={version}");
            let doc = html_page(&app.get_page(&path), &path);
            let api: Vec<String> = ["production", "staging"]
                .iter()
                .map(|env| {
                    let api = app.get(&format!(
                        "/can-i-deploy?pacticipant=Foo&version={version}&environment={env}"
                    ));
                    match api.json["summary"]["deployable"].as_bool() {
                        Some(b) => b.to_string(),
                        None => "unknown".to_owned(),
                    }
                })
                .collect();
            assert_eq!(
                attrs(&doc, "ul.environments .verdict", "data-deployable"),
                api,
                "{path}"
            );
        }
        let yes = html_page(
            &app.get_page("/ui/can-i-deploy?pacticipant=Foo&version=1"),
            "every",
        );
        assert_eq!(
            attrs(&yes, "ul.environments .verdict", "data-deployable"),
            ["true", "unknown"]
        );
        assert_eq!(
            attrs(&yes, "ul.environments a", "href"),
            [
                "/ui/can-i-deploy?pacticipant=Foo&version=1&environment=production",
                "/ui/can-i-deploy?pacticipant=Foo&version=1&environment=staging",
            ]
        );
    });
}
