//! Versions, tags and branches: the paths the Pact CLI hard-codes, auto
//! creation, main-branch detection, 404s and refused input.

use serde_json::json;

use crate::support::{Reply, TestApp, each_backend};

fn delete(app: &TestApp, path: &str) -> Reply {
    app.send(app.client().delete(format!("{}{path}", app.url)))
}

#[test]
fn putting_a_version_creates_the_pacticipant_and_patch_merges() {
    each_backend(|app| {
        let path = "/pacticipants/Order%20Service/versions/1.0.0";
        let created = app.put(path, &json!({"buildUrl": "http://ci/1"}));
        assert_eq!(created.status, 201, "{}", created.text);
        assert_eq!(created.json["number"], "1.0.0");
        assert_eq!(created.json["buildUrl"], "http://ci/1");
        let links = &created.json["_links"];
        assert_eq!(links["self"]["href"], format!("{}{path}", app.url));
        assert_eq!(
            links["pb:pacticipant"]["href"],
            format!("{}/pacticipants/Order%20Service", app.url)
        );
        assert_eq!(links["pb:tag"]["templated"], true);
        assert!(links["pb:pact-versions"].is_array());
        assert_eq!(app.get("/pacticipants/Order%20Service").status, 200);

        let patched = app.json("PATCH", path, &json!({}));
        assert_eq!(patched.status, 200, "{}", patched.text);
        assert_eq!(
            patched.json["buildUrl"], "http://ci/1",
            "PATCH keeps buildUrl"
        );
        let replaced = app.put(path, &json!({}));
        assert_eq!(replaced.status, 200);
        assert_eq!(
            replaced.json["buildUrl"],
            serde_json::Value::Null,
            "PUT replaces"
        );
    });
}

#[test]
fn versions_are_listed_newest_first_and_the_latest_is_found() {
    each_backend(|app| {
        for v in ["1", "3", "2"] {
            assert_eq!(
                app.put(&format!("/pacticipants/A/versions/{v}"), &json!({}))
                    .status,
                201
            );
        }
        let list = app.get("/pacticipants/A/versions");
        assert_eq!(list.status, 200);
        let numbers: Vec<&str> = list.json["_embedded"]["versions"]
            .as_array()
            .expect("versions")
            .iter()
            .map(|v| v["number"].as_str().expect("number"))
            .collect();
        assert_eq!(numbers, ["2", "3", "1"], "newest (last created) first");
        app.put("/pacticipants/A/versions/3/tags/prod", &json!({}));
        app.put("/pacticipants/A/branches/main/versions/3", &json!({}));
        let listed = app.get("/pacticipants/A/versions");
        let three = &listed.json["_embedded"]["versions"][1];
        assert_eq!(three["_embedded"]["tags"][0]["name"], "prod", "{three}");
        assert_eq!(three["_embedded"]["branchVersions"][0]["name"], "main");
        assert_eq!(
            listed.json["_embedded"]["versions"][0]["_embedded"]["tags"],
            json!([])
        );

        let first = app.get("/pacticipants/A/versions?pageSize=2");
        assert_eq!(
            first.json["_embedded"]["versions"].as_array().map(Vec::len),
            Some(2)
        );
        assert_eq!(first.json["page"]["totalElements"], 3);
        let next = first.json["_links"]["next"]["href"].as_str().expect("next");
        let second = app.send(app.client().get(next));
        assert_eq!(second.json["_embedded"]["versions"][0]["number"], "1");
        assert!(second.json["_links"]["previous"].is_object());
        assert!(second.json["_links"]["next"].is_null());
        let bad = app.get("/pacticipants/A/versions?pageSize=0");
        assert_eq!(bad.status, 400);
        assert!(bad.json["errors"]["pageSize"].is_array(), "{}", bad.text);
        assert_eq!(
            app.get("/pacticipants/A/latest-version").json["number"],
            "2"
        );
        assert_eq!(app.get("/pacticipants/Nobody/versions").status, 404);
        assert_eq!(app.get("/pacticipants/A/versions/9").status, 404);
        assert_eq!(app.get("/pacticipants/Nobody/latest-version").status, 404);
        assert_eq!(delete(app, "/pacticipants/A/versions/2").status, 204);
        assert_eq!(app.get("/pacticipants/A/versions/2").status, 404);
        assert_eq!(
            app.get("/pacticipants/A/latest-version").json["number"],
            "3"
        );
    });
}

#[test]
fn a_tag_is_created_once_and_shows_on_the_version() {
    each_backend(|app| {
        let tag = "/pacticipants/A/versions/1/tags/prod";
        let first = app.put(tag, &json!({}));
        assert_eq!(first.status, 201, "{}", first.text);
        assert_eq!(first.json["name"], "prod");
        let again = app.put(tag, &json!({"name": "prod"}));
        assert_eq!(again.status, 200, "an existing tag is 200");
        assert_eq!(app.get(tag).status, 200);
        app.put("/pacticipants/A/versions/2/tags/dev", &json!({}));

        let version = app.get("/pacticipants/A/versions/1");
        let tags = &version.json["_embedded"]["tags"];
        assert_eq!(tags[0]["name"], "prod");
        assert_eq!(
            tags[0]["_links"]["self"]["href"],
            format!("{}{tag}", app.url)
        );
        assert_eq!(
            app.get("/pacticipants/A/latest-version/prod").json["number"],
            "1"
        );
        assert_eq!(app.get("/pacticipants/A/latest-version/nope").status, 404);
        let tagged = app.get("/pacticipants/A/tags/prod/versions");
        assert_eq!(
            tagged.json["_embedded"]["versions"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );

        let mismatch = app.put(tag, &json!({"name": "other"}));
        assert_eq!(mismatch.status, 400);
        assert!(
            mismatch.json["errors"]["name"].is_array(),
            "{}",
            mismatch.text
        );
        assert_eq!(delete(app, tag).status, 204);
        assert_eq!(app.get(tag).status, 404);
        assert_eq!(delete(app, tag).status, 404);
    });
}

#[test]
fn a_refused_tag_creates_nothing() {
    each_backend(|app| {
        let reply = app.put("/pacticipants/Fresh/versions/1/tags/%20", &json!({}));
        assert_eq!(reply.status, 400, "{}", reply.text);
        assert!(reply.json["errors"]["tag"].is_array(), "{}", reply.text);
        assert_eq!(
            app.get("/pacticipants/Fresh").status,
            404,
            "no pacticipant left behind"
        );
        let bad = app.put(
            "/pacticipants/Fresh/versions/1",
            &json!({"tags": [{"name": ""}]}),
        );
        assert_eq!(bad.status, 400);
        assert!(
            bad.json["errors"]["$.tags[0].name"].is_array(),
            "{}",
            bad.text
        );
        assert_eq!(app.get("/pacticipants/Fresh").status, 404);
    });
}

#[test]
fn a_branch_version_is_auto_created_and_navigable() {
    each_backend(|app| {
        let path = "/pacticipants/A/branches/feat-x/versions/1";
        let created = app.put(path, &json!({"name": "feat-x"}));
        assert_eq!(created.status, 201, "{}", created.text);
        assert_eq!(
            app.put(path, &json!({})).status,
            200,
            "already on the branch"
        );
        let empty = app.send(app.client().put(format!(
            "{}/pacticipants/A/branches/feat-x/versions/0",
            app.url
        )));
        assert_eq!(
            empty.status, 201,
            "an empty body is accepted: {}",
            empty.text
        );
        app.put("/pacticipants/A/branches/feat-x/versions/2", &json!({}));

        let branches = app.get("/pacticipants/A/branches");
        assert_eq!(branches.json["_embedded"]["branches"][0]["name"], "feat-x");
        assert_eq!(app.get("/pacticipants/A/branches/feat-x").status, 200);
        let versions = app.get("/pacticipants/A/branches/feat-x/versions");
        assert_eq!(versions.json["_embedded"]["versions"][0]["number"], "2");
        assert_eq!(
            versions.json["_embedded"]["versions"]
                .as_array()
                .map(Vec::len),
            Some(3)
        );
        assert_eq!(
            app.get("/pacticipants/A/branches/feat-x/latest-version")
                .json["number"],
            "2"
        );
        let v1 = app.get("/pacticipants/A/versions/1");
        assert_eq!(v1.json["_embedded"]["branchVersions"][0]["name"], "feat-x");
        assert_eq!(app.get(path).status, 200);

        assert_eq!(delete(app, path).status, 204);
        assert_eq!(app.get(path).status, 404);
        assert_eq!(
            app.get("/pacticipants/A/versions/1").status,
            200,
            "the version stays"
        );
        assert_eq!(delete(app, "/pacticipants/A/branches/feat-x").status, 204);
        assert_eq!(app.get("/pacticipants/A/branches/feat-x").status, 404);
        assert_eq!(
            app.get("/pacticipants/A/branches/nope/versions").status,
            404
        );
    });
}

#[test]
fn a_main_like_branch_or_tag_becomes_the_main_branch_when_none_is_set() {
    each_backend(|app| {
        app.put("/pacticipants/A/branches/main/versions/1", &json!({}));
        assert_eq!(app.get("/pacticipants/A").json["mainBranch"], "main");
        app.put("/pacticipants/A/branches/master/versions/2", &json!({}));
        assert_eq!(
            app.get("/pacticipants/A").json["mainBranch"],
            "main",
            "set once"
        );

        app.put("/pacticipants/B/versions/1/tags/develop", &json!({}));
        assert_eq!(app.get("/pacticipants/B").json["mainBranch"], "develop");

        app.put("/pacticipants/C/branches/feat/versions/1", &json!({}));
        assert_eq!(
            app.get("/pacticipants/C").json["mainBranch"],
            serde_json::Value::Null
        );

        app.post(
            "/pacticipants",
            &json!({"name": "D", "mainBranch": "trunk"}),
        );
        app.put("/pacticipants/D/branches/main/versions/1", &json!({}));
        assert_eq!(app.get("/pacticipants/D").json["mainBranch"], "trunk");
    });
}
