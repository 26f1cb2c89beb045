//! Environments: create (201 with uuid, 409 on a taken name, 400 on a bad
//! one), list with `pb:environments` links by name, read, update, delete.

use serde_json::json;

use crate::support::{Reply, TestApp, each_backend};

fn delete(app: &TestApp, path: &str) -> Reply {
    app.send(app.client().delete(format!("{}{path}", app.url)))
}

/// Creates an environment and returns its uuid.
pub fn create_environment(app: &TestApp, name: &str) -> String {
    let reply = app.post("/environments", &json!({"name": name, "production": false}));
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["uuid"].as_str().expect("uuid").to_owned()
}

#[test]
fn an_environment_is_created_as_the_pact_cli_sends_it_and_listed_by_name() {
    each_backend(|app| {
        let body = json!({"name": "prod2", "displayName": "Prod2", "production": true,
            "contacts": [{"name": "Ops", "details": {"emailAddress": "ops@example.com"}}]});
        let created = app.post("/environments", &body);
        assert_eq!(created.status, 201, "{}", created.text);
        let uuid = created.json["uuid"].as_str().expect("uuid").to_owned();
        assert_eq!(created.json["production"], true);
        assert_eq!(
            created.json["contacts"][0]["details"]["emailAddress"],
            "ops@example.com"
        );
        let staging = create_environment(app, "staging");

        let list = app.get("/environments");
        assert_eq!(list.status, 200);
        assert_eq!(
            list.json["_embedded"]["environments"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );
        let links = list.json["_links"]["pb:environments"]
            .as_array()
            .expect("array");
        let prod = links
            .iter()
            .find(|l| l["name"] == "prod2")
            .expect("prod2 link");
        assert_eq!(prod["href"], format!("{}/environments/{uuid}", app.url));
        let only = app.get("/environments?name=staging");
        assert_eq!(
            only.json["_embedded"]["environments"][0]["uuid"],
            staging.as_str()
        );
        assert_eq!(
            only.json["_embedded"]["environments"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );

        let one = app.get(&format!("/environments/{uuid}"));
        assert_eq!(one.json["displayName"], "Prod2");
        for rel in [
            "pb:currently-deployed-deployed-versions",
            "pb:currently-supported-released-versions",
            "pb:environments",
        ] {
            assert!(
                one.json["_links"][rel]["href"].is_string(),
                "{rel}: {}",
                one.text
            );
        }
    });
}

#[test]
fn bad_or_duplicate_environments_are_refused() {
    each_backend(|app| {
        create_environment(app, "production");
        let dup = app.post(
            "/environments",
            &json!({"name": "production", "production": true}),
        );
        assert_eq!(dup.status, 409, "{}", dup.text);
        let spaced = app.post("/environments", &json!({"name": "prod eu"}));
        assert_eq!(spaced.status, 400);
        assert!(spaced.json["errors"]["name"].is_array(), "{}", spaced.text);
        let unnamed = app.post("/environments", &json!({"production": true}));
        assert_eq!(unnamed.status, 400);
        let typed = app.post("/environments", &json!({"name": "x", "production": "yes"}));
        assert_eq!(typed.status, 400);
        assert!(
            typed.json["errors"]["$.production"].is_array(),
            "{}",
            typed.text
        );
        assert_eq!(
            app.get("/environments").json["_embedded"]["environments"]
                .as_array()
                .map(Vec::len),
            Some(1),
            "nothing was written by the refused requests"
        );
        assert_eq!(app.get("/environments/no-such-uuid").status, 404);
    });
}

#[test]
fn an_environment_is_updated_and_deleted() {
    each_backend(|app| {
        let uuid = create_environment(app, "staging");
        create_environment(app, "test");
        let path = format!("/environments/{uuid}");
        let updated = app.put(&path, &json!({"displayName": "Staging EU"}));
        assert_eq!(updated.status, 200, "{}", updated.text);
        assert_eq!(
            updated.json["name"], "staging",
            "fields left out keep their value"
        );
        assert_eq!(updated.json["displayName"], "Staging EU");
        let taken = app.put(&path, &json!({"name": "test"}));
        assert_eq!(taken.status, 409);
        assert_eq!(delete(app, &path).status, 204);
        assert_eq!(app.get(&path).status, 404);
        assert_eq!(delete(app, &path).status, 404);
    });
}
