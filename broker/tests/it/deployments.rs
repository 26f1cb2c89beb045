//! Deployed and released versions: the record-deployment / record-release
//! links the Pact CLI picks by environment name, one live deployment per
//! application instance, idempotent re-recording, undeployment and end of
//! support, and 404s for what does not exist.

use serde_json::{Value, json};

use crate::environments::create_environment;
use crate::support::{Reply, TestApp, each_backend};

/// POSTs to the version's `pb:record-deployment` link named `env`.
fn deploy(app: &TestApp, p: &str, v: &str, env: &str, body: &Value) -> Reply {
    let version = app.get(&format!("/pacticipants/{p}/versions/{v}"));
    assert_eq!(version.status, 200, "{}", version.text);
    let href = pick(&version.json, "pb:record-deployment", env);
    app.send(
        app.client()
            .post(href)
            .header("Content-Type", "application/json")
            .body(body.to_string()),
    )
}

fn pick(version: &Value, rel: &str, env: &str) -> String {
    version["_links"][rel]
        .as_array()
        .expect("an array of links")
        .iter()
        .find(|l| l["name"] == env)
        .and_then(|l| l["href"].as_str())
        .unwrap_or_else(|| panic!("no {rel} named {env}: {version}"))
        .to_owned()
}

fn live(app: &TestApp, env: &str, query: &str) -> Vec<(String, Value)> {
    let reply = app.get(&format!(
        "/environments/{env}/deployed-versions/currently-deployed{query}"
    ));
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json["_embedded"]["deployedVersions"]
        .as_array()
        .expect("deployedVersions")
        .iter()
        .map(|d| {
            let n = d["_embedded"]["version"]["number"]
                .as_str()
                .expect("number")
                .to_owned();
            (n, d["applicationInstance"].clone())
        })
        .collect()
}

fn versions(app: &TestApp, p: &str, numbers: &[&str]) {
    for n in numbers {
        app.put(&format!("/pacticipants/{p}/versions/{n}"), &json!({}));
    }
}

#[test]
fn the_version_links_record_deployment_and_release_once_per_environment_by_name() {
    each_backend(|app| {
        let prod = create_environment(app, "production");
        let test = create_environment(app, "test");
        versions(app, "A", &["1"]);
        let v = app.get("/pacticipants/A/versions/1").json;
        for (rel, kind) in [
            ("pb:record-deployment", "deployed"),
            ("pb:record-release", "released"),
        ] {
            assert_eq!(v["_links"][rel].as_array().map(Vec::len), Some(2), "{v}");
            assert_eq!(
                pick(&v, rel, "production"),
                format!(
                    "{}/pacticipants/A/versions/1/{kind}-versions/environment/{prod}",
                    app.url
                )
            );
            assert!(pick(&v, rel, "test").ends_with(&test));
        }
    });
}

#[test]
fn a_deployment_replaces_the_previous_version_in_the_same_instance_only() {
    each_backend(|app| {
        let prod = create_environment(app, "production");
        versions(app, "A", &["1", "2", "3"]);
        let first = deploy(app, "A", "1", "production", &json!({}));
        assert_eq!(first.status, 201, "{}", first.text);
        assert_eq!(first.json["currentlyDeployed"], true);
        assert_eq!(first.json["applicationInstance"], Value::Null);
        let blue = json!({"applicationInstance": "blue", "target": "blue"});
        assert_eq!(deploy(app, "A", "2", "production", &blue).status, 201);
        assert_eq!(
            live(app, &prod, "").len(),
            2,
            "the no-instance slot is its own slot"
        );

        assert_eq!(deploy(app, "A", "3", "production", &blue).status, 201);
        let now = live(app, &prod, "");
        assert_eq!(
            now,
            [
                ("1".to_owned(), Value::Null),
                ("3".to_owned(), json!("blue"))
            ]
        );
        assert_eq!(live(app, &prod, "?applicationInstance=blue").len(), 1);
        assert_eq!(live(app, &prod, "?pacticipant=A").len(), 2);
        assert_eq!(live(app, &prod, "?pacticipant=B").len(), 0);

        let v3 = app.get("/pacticipants/A/versions/3").json;
        assert_eq!(
            pick(&v3, "pb:deployed-environments", "production"),
            pick(&v3, "pb:record-deployment", "production")
        );
        let old = first.json["_links"]["self"]["href"]
            .as_str()
            .expect("self")
            .to_owned();
        assert!(old.contains("/deployed-versions/"), "{old}");
        let after = app.send(app.client().get(&old));
        assert_eq!(after.json["currentlyDeployed"], true, "another slot");
        assert_eq!(deploy(app, "A", "2", "production", &json!({})).status, 201);
        let replaced = app.send(app.client().get(&old));
        assert_eq!(
            replaced.json["currentlyDeployed"], false,
            "{}",
            replaced.text
        );
        assert!(replaced.json["undeployedAt"].is_string());
    });
}

#[test]
fn recording_the_live_deployment_again_changes_nothing() {
    each_backend(|app| {
        let prod = create_environment(app, "production");
        versions(app, "A", &["1"]);
        let first = deploy(
            app,
            "A",
            "1",
            "production",
            &json!({"applicationInstance": "x"}),
        );
        let again = deploy(app, "A", "1", "production", &json!({"target": "x"}));
        assert_eq!(again.status, 200, "{}", again.text);
        assert_eq!(again.json["uuid"], first.json["uuid"]);
        assert_eq!(live(app, &prod, "").len(), 1);
        let list = app.get(&format!(
            "/pacticipants/A/versions/1/deployed-versions/environment/{prod}"
        ));
        assert_eq!(
            list.json["_embedded"]["deployedVersions"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
    });
}

#[test]
fn a_deployment_is_ended_by_patch_and_cannot_be_revived() {
    each_backend(|app| {
        let prod = create_environment(app, "production");
        versions(app, "A", &["1"]);
        let d = deploy(app, "A", "1", "production", &json!({}));
        let href = d.json["_links"]["self"]["href"]
            .as_str()
            .expect("self")
            .to_owned();
        let revive = app.send(
            app.client()
                .patch(&href)
                .header("Content-Type", "application/merge-patch+json")
                .body(r#"{"currentlyDeployed": true}"#),
        );
        assert!(matches!(revive.status, 400 | 422), "{}", revive.text);
        assert!(
            revive.json["errors"]["currentlyDeployed"].is_array(),
            "{}",
            revive.text
        );
        let ended = app.send(
            app.client()
                .patch(&href)
                .header("Content-Type", "application/merge-patch+json")
                .body(r#"{"currentlyDeployed": false}"#),
        );
        assert_eq!(ended.status, 200, "{}", ended.text);
        assert_eq!(ended.json["currentlyDeployed"], false);
        assert!(live(app, &prod, "").is_empty());
        let v = app.get("/pacticipants/A/versions/1").json;
        assert_eq!(v["_links"]["pb:deployed-environments"], json!([]));
    });
}

#[test]
fn unknown_pacticipants_versions_and_environments_are_404() {
    each_backend(|app| {
        let prod = create_environment(app, "production");
        versions(app, "A", &["1"]);
        for path in [
            format!("/pacticipants/B/versions/1/deployed-versions/environment/{prod}"),
            format!("/pacticipants/A/versions/2/deployed-versions/environment/{prod}"),
            "/pacticipants/A/versions/1/deployed-versions/environment/nope".to_owned(),
            format!("/pacticipants/A/versions/2/released-versions/environment/{prod}"),
        ] {
            let reply = app.post(&path, &json!({}));
            assert_eq!(reply.status, 404, "{path}: {}", reply.text);
        }
        assert_eq!(app.get("/deployed-versions/nope").status, 404);
        assert_eq!(app.get("/released-versions/nope").status, 404);
        assert_eq!(
            app.get("/environments/nope/deployed-versions/currently-deployed")
                .status,
            404
        );
        assert_eq!(
            app.get("/pacticipants/B").status,
            404,
            "nothing auto-created"
        );
    });
}

#[test]
fn releases_stay_supported_side_by_side_until_support_ends() {
    each_backend(|app| {
        let prod = create_environment(app, "production");
        versions(app, "App", &["1", "2"]);
        let release = |v: &str| {
            let version = app.get(&format!("/pacticipants/App/versions/{v}")).json;
            app.post(
                &pick(&version, "pb:record-release", "production")[app.url.len()..],
                &json!({}),
            )
        };
        let one = release("1");
        assert_eq!(one.status, 201, "{}", one.text);
        assert_eq!(one.json["currentlySupported"], true);
        assert_eq!(release("2").status, 201);
        let again = release("1");
        assert_eq!(again.status, 200);
        assert_eq!(again.json["uuid"], one.json["uuid"]);
        let supported = |q: &str| {
            app.get(&format!(
                "/environments/{prod}/released-versions/currently-supported{q}"
            ))
            .json["_embedded"]["releasedVersions"]
                .as_array()
                .map(Vec::len)
        };
        assert_eq!(supported(""), Some(2), "a release never ends another");
        assert_eq!(supported("?pacticipant=App&version=1"), Some(1));
        let href = one.json["_links"]["self"]["href"]
            .as_str()
            .expect("self")
            .to_owned();
        let ended = app.send(
            app.client()
                .patch(&href)
                .header("Content-Type", "application/json")
                .body(r#"{"currentlySupported": false}"#),
        );
        assert_eq!(ended.status, 200, "{}", ended.text);
        assert_eq!(ended.json["currentlySupported"], false);
        assert!(ended.json["supportEndedAt"].is_string());
        assert_eq!(supported(""), Some(1));
        assert_eq!(supported("?pacticipant=App&version=1"), Some(0));
        assert_eq!(supported("?pacticipant=Nobody"), Some(0));
    });
}

#[test]
fn concurrent_deployments_to_one_slot_leave_exactly_one_live() {
    each_backend(|app| {
        let prod = create_environment(app, "production");
        let numbers: Vec<String> = (1..=6).map(|n| n.to_string()).collect();
        let refs: Vec<&str> = numbers.iter().map(String::as_str).collect();
        versions(app, "A", &refs);
        let statuses: Vec<u16> = std::thread::scope(|s| {
            let handles: Vec<_> = refs
                .iter()
                .map(|v| {
                    let path = format!(
                        "/pacticipants/A/versions/{v}/deployed-versions/environment/{prod}"
                    );
                    s.spawn(move || app.post(&path, &json!({})).status)
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("thread"))
                .collect()
        });
        assert!(statuses.iter().all(|s| *s == 201), "{statuses:?}");
        assert_eq!(live(app, &prod, "").len(), 1);
    });
}
