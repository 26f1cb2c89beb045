//! `GET /matrix` with the exact query strings the Pact CLI sends (brackets
//! unencoded), validation, latestby, the pair route, and badges.

use serde_json::Value;

use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

/// Foo v1 (main, tag main) → Bar; Bar 56 in production verified it; Bar 57
/// (head of main, tag prod) failed it and is also in production (instance 2).
struct World {
    seed: Seed,
}

fn world(app: &TestApp) -> World {
    let seed = Seed::new(app);
    let consumer = seed.pacticipant("Foo", Some("main"));
    let bar = seed.pacticipant("Bar", Some("main"));
    let foo_v1 = seed.version_of(consumer, "1", Some("main"), &["main"]);
    let content = seed.publish_content(consumer, foo_v1, bar, "v1");
    let prod = seed.environment("production");
    let bar_56 = seed.version_of(bar, "56", Some("main"), &[]);
    let bar_57 = seed.version_of(bar, "57", Some("main"), &["prod"]);
    seed.deploy_version(bar, bar_56, prod, "a");
    seed.deploy_version(bar, bar_57, prod, "b");
    seed.verify(content, consumer, bar, bar_56, true);
    seed.verify(content, consumer, bar, bar_57, false);
    World { seed }
}

fn matrix(app: &TestApp, query: &str) -> Value {
    let reply = app.get(&format!("/matrix?{query}"));
    assert_eq!(reply.status, 200, "{query}: {}", reply.text);
    assert!(reply.content_type.starts_with("application/hal+json"));
    reply.json
}

fn provider_versions(body: &Value) -> Vec<String> {
    body["matrix"]
        .as_array()
        .expect("matrix")
        .iter()
        .map(|r| {
            r["provider"]["version"]["number"]
                .as_str()
                .unwrap_or("-")
                .to_owned()
        })
        .collect()
}

#[test]
fn the_pact_cli_query_to_an_environment_sees_every_live_provider_version() {
    each_backend(|app| {
        let _w = world(app);
        let body = matrix(
            app,
            "q[][pacticipant]=Foo&q[][version]=1&latestby=cvpv&environment=production",
        );
        assert_eq!(provider_versions(&body), ["57", "56"]);
        assert_eq!(body["summary"]["deployable"], false);
        // the Ruby CLI's cvp collapses to the newest provider version (the Pact Broker's #903)
        let cvp = matrix(
            app,
            "q[][pacticipant]=Foo&q[][version]=1&latestby=cvp&environment=production",
        );
        assert_eq!(provider_versions(&cvp), ["57"]);
    });
}

#[test]
fn the_pact_cli_query_forms_all_parse_and_answer() {
    each_backend(|app| {
        let _w = world(app);
        let to_tag = matrix(
            app,
            "q[][pacticipant]=Foo&q[][version]=1&tag=prod&latestby=cvp&latest=true",
        );
        assert_eq!(provider_versions(&to_tag), ["57"]);
        assert_eq!(to_tag["summary"]["deployable"], false);
        let latest_tag = matrix(
            app,
            "q[][latest]=true&q[][tag]=main&q[][pacticipant]=Foo&latestby=cvpv&environment=production",
        );
        assert_eq!(
            latest_tag["matrix"][0]["consumer"]["version"]["number"],
            "1"
        );
        let branch = matrix(
            app,
            "q[][pacticipant]=Foo&q[][branch]=main&latestby=cvpv&environment=production",
        );
        assert_eq!(provider_versions(&branch), ["57", "56"]);
        let main = matrix(
            app,
            "q[][pacticipant]=Foo&q[][mainBranch]=true&latestby=cvpv&environment=production",
        );
        assert_eq!(provider_versions(&main), ["57", "56"]);
        let ignore = matrix(
            app,
            "q[][pacticipant]=Foo&q[][version]=1&latestby=cvpv&environment=production&ignore[][pacticipant]=Bar",
        );
        assert_eq!(ignore["summary"]["deployable"], true);
        assert_eq!(ignore["summary"]["ignored"], 2);
        let two = matrix(
            app,
            "q[][pacticipant]=Foo&q[][version]=1&q[][pacticipant]=Bar&q[][version]=56&latestby=cvpv",
        );
        assert_eq!(provider_versions(&two), ["56"]);
        assert_eq!(two["summary"]["deployable"], true);
        let merge = matrix(
            app,
            "q[][pacticipant]=Foo&q[][version]=1&latestby=cvp&latest=true&mainBranch=true",
        );
        assert_eq!(
            provider_versions(&merge),
            ["57"],
            "the head of Bar's main branch"
        );
    });
}

#[test]
fn encoded_brackets_mean_the_same() {
    each_backend(|app| {
        let _w = world(app);
        let body = matrix(
            app,
            "q%5B%5D%5Bpacticipant%5D=Foo&q%5B%5D%5Bversion%5D=1&q%5B%5D%5Bpacticipant%5D=Bar&q%5B%5D%5Bversion%5D=56&latestby=cvpv",
        );
        assert_eq!(provider_versions(&body), ["56"]);
    });
}

#[test]
fn one_selector_without_a_target_shows_both_sides_and_warns() {
    each_backend(|app| {
        let _w = world(app);
        let consumer = matrix(app, "q[][pacticipant]=Foo&q[][version]=1");
        assert_eq!(provider_versions(&consumer), ["57", "56"]);
        let provider = matrix(app, "q[][pacticipant]=Bar&q[][version]=56");
        assert_eq!(provider["matrix"][0]["consumer"]["version"]["number"], "1");
        assert_eq!(provider["matrix"].as_array().map(Vec::len), Some(1));
        let texts: Vec<&str> = consumer["notices"]
            .as_array()
            .expect("notices")
            .iter()
            .filter_map(|n| n["text"].as_str())
            .collect();
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with("WARN: It is recommended to specify the environment")),
            "{texts:?}"
        );
    });
}

#[test]
fn success_filter_and_pair_route() {
    each_backend(|app| {
        let _w = world(app);
        let failed = matrix(
            app,
            "q[][pacticipant]=Foo&q[][version]=1&latestby=cvpv&environment=production&success[]=false",
        );
        assert_eq!(provider_versions(&failed), ["57"]);
        let pair = app.get("/matrix/provider/Bar/consumer/Foo");
        assert_eq!(pair.status, 200, "{}", pair.text);
        assert_eq!(provider_versions(&pair.json), ["57", "56"]);
    });
}

#[test]
fn every_validation_error_names_its_parameter() {
    each_backend(|app| {
        let _w = world(app);
        for (query, field) in [
            ("latestby=cvp", "q"),
            ("q[][version]=1", "q[][pacticipant]"),
            ("q[][pacticipant]=Nobody&q[][version]=1", "q[][pacticipant]"),
            (
                "q[][pacticipant]=Foo&q[][version]=1&q[][latest]=true",
                "q[][latest]",
            ),
            (
                "q[][pacticipant]=Foo&q[][version]=1&tag=prod&environment=production",
                "environment",
            ),
            (
                "q[][pacticipant]=Foo&q[][version]=1&latest=true&environment=production",
                "latest",
            ),
            (
                "q[][pacticipant]=Foo&q[][version]=1&environment=nowhere",
                "environment",
            ),
            ("q[][pacticipant]=Foo&q[][version]=1&limit=0", "limit"),
        ] {
            let reply = app.get(&format!("/matrix?{query}"));
            assert_eq!(reply.status, 400, "{query}: {}", reply.text);
            assert!(
                reply.json["errors"][field].is_array(),
                "{query}: {}",
                reply.text
            );
        }
    });
}

fn svg(app: &TestApp, path: &str) -> String {
    let response = app
        .client()
        .get(format!("{}{path}", app.url))
        .send()
        .expect("badge");
    assert_eq!(response.status().as_u16(), 200, "{path}");
    let headers = response.headers().clone();
    assert_eq!(
        headers.get("content-type").and_then(|v| v.to_str().ok()),
        Some("image/svg+xml")
    );
    assert_eq!(
        headers.get("cache-control").and_then(|v| v.to_str().ok()),
        Some("max-age=30")
    );
    response.text().expect("svg")
}

#[test]
fn badges_are_svg_with_the_status_and_errors_are_badges_too() {
    each_backend(|app| {
        let w = world(app);
        assert!(svg(app, "/pacts/provider/Bar/consumer/Foo/latest/badge").contains(": failed"));
        assert!(
            svg(app, "/pacts/provider/Bar/consumer/Foo/latest/main/badge").contains(": failed")
        );
        assert!(
            svg(
                app,
                "/pacts/provider/Bar/consumer/Foo/latest/nosuchtag/badge"
            )
            .contains(": unknown")
        );
        assert!(svg(app, "/pacts/provider/Nobody/consumer/Foo/latest/badge").contains(": unknown"));
        let deploy = svg(
            app,
            "/pacticipants/Foo/latest-version/main/can-i-deploy/to/production/badge",
        );
        assert!(deploy.contains(": no"), "{deploy}");
        let branch = svg(
            app,
            "/pacticipants/Foo/branches/main/latest-version/can-i-deploy/to-environment/nowhere/badge",
        );
        assert!(branch.starts_with("<svg"), "{branch}");
        // a passing verification turns the pact badge green
        let baz = w.seed.pacticipant("Baz", None);
        let bar = w.seed.pacticipant("Qux", None);
        let v = w.seed.version_of(baz, "1", None, &[]);
        let pv = w.seed.version_of(bar, "1", None, &[]);
        let c = w.seed.publish_content(baz, v, bar, "x");
        w.seed.verify(c, baz, bar, pv, true);
        let ok = svg(app, "/pacts/provider/Qux/consumer/Baz/latest/badge");
        assert!(ok.contains(": verified") && ok.contains("#4c1"), "{ok}");
    });
}
