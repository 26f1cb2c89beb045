//! `GET /can-i-deploy`: every case of the decision (§3.3) on both backends.

use serde_json::Value;

use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

/// Foo (consumer) v1 has a pact with Bar (provider); production exists.
struct World {
    seed: Seed,
    foo: i64,
    bar: i64,
    foo_v1: i64,
    content: i64,
    prod: i64,
}

fn world(app: &TestApp) -> World {
    let seed = Seed::new(app);
    let consumer = seed.pacticipant("Foo", Some("main"));
    let bar = seed.pacticipant("Bar", Some("main"));
    let foo_v1 = seed.version_of(consumer, "1", Some("main"), &["dev"]);
    let content = seed.publish_content(consumer, foo_v1, bar, "v1");
    let prod = seed.environment("production");
    World {
        seed,
        foo: consumer,
        bar,
        foo_v1,
        content,
        prod,
    }
}

fn cid(app: &TestApp, query: &str) -> Value {
    let reply = app.get(&format!("/can-i-deploy?{query}"));
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

const FOO_TO_PROD: &str = "pacticipant=Foo&version=1&environment=production";

#[test]
fn a_pact_verified_by_the_provider_in_the_environment_is_deployable() {
    each_backend(|app| {
        let w = world(app);
        let bar_56 = w.seed.version_of(w.bar, "56", Some("main"), &[]);
        w.seed.deploy_version(w.bar, bar_56, w.prod, "");
        w.seed.verify(w.content, w.foo, w.bar, bar_56, true);
        let body = cid(app, FOO_TO_PROD);
        assert_eq!(body["summary"]["deployable"], true, "{body}");
        assert_eq!(
            body["summary"]["reason"],
            "All required verification results are published and successful"
        );
        assert_eq!(
            (
                body["summary"]["success"].as_u64(),
                body["summary"]["unknown"].as_u64()
            ),
            (Some(1), Some(0))
        );
        assert!(
            body["summary"].get("ignored").is_none(),
            "ignored only appears with ignore selectors"
        );
        assert_eq!(body["notices"][0]["type"], "success");
        let row = &body["matrix"][0];
        assert_eq!(row["consumer"]["name"], "Foo");
        assert_eq!(row["consumer"]["version"]["number"], "1");
        assert_eq!(row["consumer"]["version"]["branch"], "main");
        assert_eq!(row["consumer"]["version"]["tags"][0]["name"], "dev");
        assert_eq!(row["provider"]["version"]["number"], "56");
        assert_eq!(
            row["provider"]["version"]["environments"][0]["name"],
            "production"
        );
        assert!(row["pact"]["createdAt"].is_string());
        assert!(
            row["pact"]["_links"]["self"]["href"]
                .as_str()
                .is_some_and(|h| h.ends_with("/pacts/provider/Bar/consumer/Foo/version/1"))
        );
        assert_eq!(row["verificationResult"]["success"], true);
        let href = row["verificationResult"]["_links"]["self"]["href"]
            .as_str()
            .expect("href");
        assert!(
            href.contains("/pacts/provider/Bar/consumer/Foo/pact-version/"),
            "{href}"
        );
        assert!(
            href.ends_with("/verification-results/1"),
            "the pact's first result: {href}"
        );
        let linked = app.get(href.strip_prefix(&app.url).expect("this broker"));
        assert_eq!(linked.status, 200, "{}", linked.text);
        assert_eq!(linked.json["providerApplicationVersion"], "56");
    });
}

#[test]
fn a_missing_verification_is_unknown() {
    each_backend(|app| {
        let w = world(app);
        let bar_56 = w.seed.version_of(w.bar, "56", None, &[]);
        w.seed.deploy_version(w.bar, bar_56, w.prod, "");
        let body = cid(app, FOO_TO_PROD);
        assert_eq!(body["summary"]["deployable"], Value::Null);
        assert_eq!(body["summary"]["unknown"], 1);
        assert_eq!(
            body["summary"]["reason"],
            "There is no verified pact between version 1 of Foo and the version of Bar currently in production (56)"
        );
        assert_eq!(body["matrix"][0]["verificationResult"], Value::Null);
        assert_eq!(body["matrix"][0]["provider"]["version"], Value::Null);
    });
}

#[test]
fn a_failed_verification_blocks_and_a_pending_pact_blocks_the_consumer_too() {
    each_backend(|app| {
        let w = world(app);
        let bar_56 = w.seed.version_of(w.bar, "56", None, &[]);
        w.seed.deploy_version(w.bar, bar_56, w.prod, "");
        w.seed
            .verify_with(w.content, w.foo, w.bar, bar_56, false, true);
        let body = cid(app, FOO_TO_PROD);
        assert_eq!(body["summary"]["deployable"], false, "{body}");
        assert_eq!(body["summary"]["failed"], 1);
        assert_eq!(
            body["summary"]["reason"],
            "The verification for the pact between version 1 of Foo and the version of Bar currently in production (56) failed"
        );
    });
}

#[test]
fn a_consumer_whose_provider_is_not_in_the_environment_cannot_deploy() {
    each_backend(|app| {
        let w = world(app);
        let bar_56 = w.seed.version_of(w.bar, "56", None, &[]);
        w.seed.verify(w.content, w.foo, w.bar, bar_56, true);
        let body = cid(app, FOO_TO_PROD);
        assert_ne!(body["summary"]["deployable"], true);
        assert_eq!(
            body["summary"]["reason"],
            "There is no verified pact between version 1 of Foo and a version of Bar currently in production (no version is currently recorded as deployed/released in this environment)"
        );
    });
}

#[test]
fn a_provider_whose_consumers_are_not_in_the_environment_can_deploy() {
    each_backend(|app| {
        let w = world(app);
        let bar_56 = w.seed.version_of(w.bar, "56", None, &[]);
        let body = cid(app, "pacticipant=Bar&version=56&environment=production");
        assert_eq!(body["summary"]["deployable"], true, "{body}");
        assert_eq!(
            body["summary"]["reason"],
            "There are no missing dependencies"
        );
        // once Foo v1 is in production, Bar 56 must have verified its pact
        w.seed.deploy_version(w.foo, w.foo_v1, w.prod, "");
        let body = cid(app, "pacticipant=Bar&version=56&environment=production");
        assert_eq!(body["summary"]["deployable"], Value::Null, "{body}");
        w.seed.verify(w.content, w.foo, w.bar, bar_56, true);
        let body = cid(app, "pacticipant=Bar&version=56&environment=production");
        assert_eq!(body["summary"]["deployable"], true, "{body}");
        assert_eq!(body["matrix"][0]["consumer"]["version"]["number"], "1");
    });
}

#[test]
fn one_failing_application_instance_blocks() {
    each_backend(|app| {
        let w = world(app);
        let (bar_56, bar_57) = (
            w.seed.version_of(w.bar, "56", None, &[]),
            w.seed.version_of(w.bar, "57", None, &[]),
        );
        w.seed.deploy_version(w.bar, bar_56, w.prod, "blue");
        w.seed.deploy_version(w.bar, bar_57, w.prod, "green");
        w.seed.verify(w.content, w.foo, w.bar, bar_56, false);
        w.seed.verify(w.content, w.foo, w.bar, bar_57, true);
        let body = cid(app, FOO_TO_PROD);
        assert_eq!(
            body["summary"]["deployable"], false,
            "cvpv must not hide the old instance: {body}"
        );
        assert_eq!(
            (
                body["summary"]["success"].as_u64(),
                body["summary"]["failed"].as_u64()
            ),
            (Some(1), Some(1))
        );
        assert_eq!(body["matrix"].as_array().map(Vec::len), Some(2));
        w.seed.undeploy(bar_56);
        assert_eq!(cid(app, FOO_TO_PROD)["summary"]["deployable"], true);
    });
}

#[test]
fn a_supported_old_release_that_fails_blocks() {
    each_backend(|app| {
        let w = world(app);
        let (bar_50, bar_56) = (
            w.seed.version_of(w.bar, "50", None, &[]),
            w.seed.version_of(w.bar, "56", None, &[]),
        );
        w.seed.release_version(w.bar, bar_50, w.prod);
        w.seed.deploy_version(w.bar, bar_56, w.prod, "");
        w.seed.verify(w.content, w.foo, w.bar, bar_50, false);
        w.seed.verify(w.content, w.foo, w.bar, bar_56, true);
        let body = cid(app, FOO_TO_PROD);
        assert_eq!(body["summary"]["deployable"], false, "{body}");
        assert!(
            body["summary"]["reason"].as_str().is_some_and(
                |r| r.contains("one of the versions of Bar currently in production (50)")
            ),
            "{body}"
        );
    });
}

#[test]
fn a_version_that_does_not_exist_is_not_deployable() {
    each_backend(|app| {
        let _w = world(app);
        let body = cid(app, "pacticipant=Foo&version=9&environment=production");
        assert_eq!(body["summary"]["deployable"], false);
        assert_eq!(
            body["summary"]["reason"],
            "No pacts or verifications have been published for version 9 of Foo"
        );
    });
}

#[test]
fn ignored_pacticipants_do_not_block_and_unknown_ignores_warn() {
    each_backend(|app| {
        let w = world(app);
        let bar_56 = w.seed.version_of(w.bar, "56", None, &[]);
        w.seed.deploy_version(w.bar, bar_56, w.prod, "");
        w.seed.verify(w.content, w.foo, w.bar, bar_56, false);
        let body = cid(
            app,
            &format!("{FOO_TO_PROD}&ignore[]=Bar&ignore[][pacticipant]=Nobody"),
        );
        assert_eq!(body["summary"]["deployable"], true, "{body}");
        assert_eq!(body["summary"]["ignored"], 1);
        assert_eq!(body["matrix"][0]["ignored"], true);
        let texts: Vec<&str> = body["notices"]
            .as_array()
            .expect("notices")
            .iter()
            .filter_map(|n| n["text"].as_str())
            .collect();
        assert!(
            texts.iter().any(|t| t
                .starts_with("Ignoring: The verification for the pact between version 1 of Foo")),
            "{texts:?}"
        );
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with("WARN: Cannot ignore Nobody")),
            "{texts:?}"
        );
        let versioned = cid(
            app,
            &format!("{FOO_TO_PROD}&ignore[][pacticipant]=Bar&ignore[][version]=56"),
        );
        assert_eq!(versioned["summary"]["deployable"], true, "{versioned}");
    });
}

#[test]
fn to_a_tag_means_the_latest_version_with_that_tag() {
    each_backend(|app| {
        let w = world(app);
        let bar_2 = w.seed.version_of(w.bar, "2", None, &["prod"]);
        let bar_3 = w.seed.version_of(w.bar, "3", None, &["prod"]);
        w.seed.verify(w.content, w.foo, w.bar, bar_2, false);
        let body = cid(app, "pacticipant=Foo&version=1&to=prod");
        assert_eq!(
            body["summary"]["deployable"],
            Value::Null,
            "bar 3 has not verified: {body}"
        );
        assert!(
            body["summary"]["reason"]
                .as_str()
                .is_some_and(|r| r.contains("the latest version of Bar with tag prod (3)")),
            "{body}"
        );
        w.seed.verify(w.content, w.foo, w.bar, bar_3, true);
        assert_eq!(
            cid(app, "pacticipant=Foo&version=1&to=prod")["summary"]["deployable"],
            true
        );
    });
}

#[test]
fn more_than_a_hundred_rows_are_all_considered() {
    each_backend(|app| {
        let w = world(app);
        let bar_1 = w.seed.version_of(w.bar, "100", None, &[]);
        w.seed.deploy_version(w.foo, w.foo_v1, w.prod, "i0");
        w.seed.verify(w.content, w.foo, w.bar, bar_1, false);
        for i in 1..=120 {
            let v = w.seed.version_of(w.foo, &format!("1.{i}"), None, &[]);
            let c = w.seed.publish_content(w.foo, v, w.bar, &format!("c{i}"));
            w.seed.deploy_version(w.foo, v, w.prod, &format!("i{i}"));
            w.seed.verify(c, w.foo, w.bar, bar_1, true);
        }
        let body = cid(app, "pacticipant=Bar&version=100&environment=production");
        assert_eq!(body["matrix"].as_array().map(Vec::len), Some(121));
        assert_eq!(
            body["summary"]["deployable"], false,
            "the oldest row fails: {}",
            body["summary"]
        );
        assert_eq!(
            (
                body["summary"]["success"].as_u64(),
                body["summary"]["failed"].as_u64()
            ),
            (Some(120), Some(1))
        );
        let limited = app.get("/matrix?q[][pacticipant]=Bar&q[][version]=100&latestby=cvpv&environment=production&limit=10");
        assert_eq!(limited.json["matrix"].as_array().map(Vec::len), Some(10));
        assert_eq!(
            limited.json["summary"]["deployable"], false,
            "a limit never changes the answer"
        );
        assert!(
            limited
                .text
                .contains("Only 10 of 121 matching rows are shown"),
            "{}",
            limited.text
        );
    });
}

#[test]
fn bad_parameters_are_named() {
    each_backend(|app| {
        let _w = world(app);
        for (query, field) in [
            ("version=1&environment=production", "pacticipant"),
            ("pacticipant=Foo&environment=production", "version"),
            ("pacticipant=Foo&version=1", "environment"),
            (
                "pacticipant=Foo&version=1&environment=nowhere",
                "environment",
            ),
            (
                "pacticipant=Nobody&version=1&environment=production",
                "pacticipant",
            ),
        ] {
            let reply = app.get(&format!("/can-i-deploy?{query}"));
            assert_eq!(reply.status, 400, "{query}: {}", reply.text);
            assert!(
                reply.json["errors"][field].is_array(),
                "{query}: {}",
                reply.text
            );
        }
    });
}
