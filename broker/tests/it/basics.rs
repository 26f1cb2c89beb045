//! Index, heartbeat, pacticipants, error shapes, body limits, access.

use serde_json::json;

use crate::support::{TestApp, TestDb, each_backend};

#[test]
fn the_index_carries_the_relations_pact_clients_follow() {
    each_backend(|app| {
        let reply = app.get("/");
        assert_eq!(reply.status, 200);
        assert!(reply.content_type.starts_with("application/hal+json"));
        let links = &reply.json["_links"];
        for rel in [
            "pb:publish-contracts",
            "pb:environments",
            "pb:pacticipant",
            "pb:pacticipants",
            "pb:pacticipant-version",
            "pb:latest-version",
            "pb:latest-pact-versions",
            "pb:provider-pacts-for-verification",
            "pb:latest-provider-pacts",
        ] {
            assert!(
                links[rel]["href"]
                    .as_str()
                    .is_some_and(|h| h.starts_with(&app.url)),
                "{rel} missing: {links}"
            );
        }
        assert_eq!(links["pb:pacticipant"]["templated"], true);
    });
}

#[test]
fn a_pacticipant_is_created_read_patched_and_deleted() {
    each_backend(|app| {
        let created = app.post(
            "/pacticipants",
            &json!({"name": "Order Service", "mainBranch": "main"}),
        );
        assert_eq!(created.status, 201, "{}", created.text);
        assert_eq!(created.json["mainBranch"], "main");
        let again = app.post("/pacticipants", &json!({"name": "Order Service"}));
        assert_eq!(again.status, 409);
        let patched = app.send(
            app.client()
                .patch(format!("{}/pacticipants/Order%20Service", app.url))
                .header("Content-Type", "application/merge-patch+json")
                .body(r#"{"repositoryUrl":"https://git/x"}"#),
        );
        assert_eq!(patched.status, 200, "{}", patched.text);
        assert_eq!(patched.json["repositoryUrl"], "https://git/x");
        assert_eq!(
            patched.json["mainBranch"], "main",
            "PATCH keeps what it does not name"
        );
        let list = app.get("/pacticipants");
        assert_eq!(
            list.json["_embedded"]["pacticipants"][0]["name"],
            "Order Service"
        );
        let deleted = app.send(
            app.client()
                .delete(format!("{}/pacticipants/Order%20Service", app.url)),
        );
        assert_eq!(deleted.status, 204);
        assert_eq!(app.get("/pacticipants/Order%20Service").status, 404);
    });
}

#[test]
fn errors_are_problem_json_with_the_field_at_fault() {
    each_backend(|app| {
        let reply = app.send(
            app.client()
                .post(format!("{}/pacticipants", app.url))
                .header("Content-Type", "application/json")
                .header("Accept", "application/problem+json")
                .body(r#"{"name": 7}"#),
        );
        assert_eq!(reply.status, 400);
        assert!(
            reply.content_type.starts_with("application/problem+json"),
            "{}",
            reply.content_type
        );
        assert!(
            reply.json["errors"]["$.name"][0]
                .as_str()
                .is_some_and(|m| m.contains("invalid type")),
            "{}",
            reply.text
        );
        let unknown = app.get("/no/such/thing");
        assert_eq!(unknown.status, 404);
        assert_eq!(unknown.json["type"], "urn:accord:problem:not-found");
        let text = app.send(
            app.client()
                .post(format!("{}/pacticipants", app.url))
                .header("Content-Type", "text/plain")
                .body("name=x"),
        );
        assert_eq!(text.status, 415);
        assert_eq!(
            app.get("/pacticipants").json["_embedded"]["pacticipants"],
            json!([]),
            "nothing was written"
        );
    });
}

#[test]
fn a_body_over_the_limit_is_413() {
    let app = TestApp::start(TestDb::Sqlite, |c| c.body_limit = 1024);
    let big = json!({"name": "x".repeat(2000)});
    let reply = app.post("/pacticipants", &big);
    assert_eq!(reply.status, 413, "{}", reply.text);
    assert_eq!(reply.json["type"], "urn:accord:problem:payload-too-large");
}

#[test]
fn heartbeat_answers() {
    each_backend(|app| {
        let reply = app.get("/diagnostic/status/heartbeat");
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json["ok"], true);
        assert_eq!(app.get("/diagnostic/status/dependencies").json["ok"], true);
    });
}

#[test]
fn routes_match_names_outside_ascii() {
    // The route patterns are compiled with regex-lite (actix-web without
    // its `unicode` feature): a segment of any script must still match.
    each_backend(|app| {
        let created = app.put(
            "/pacticipants/Z%C3%BCrich%20%E8%A8%88%E7%94%BB/versions/1.0.0%CE%B2/tags/pr%C3%BCfung",
            &json!({}),
        );
        assert!(created.status < 300, "{} {}", created.status, created.text);
        let read = app.get("/pacticipants/Z%C3%BCrich%20%E8%A8%88%E7%94%BB/versions/1.0.0%CE%B2");
        assert_eq!(read.status, 200, "{}", read.text);
        assert_eq!(read.json["number"], "1.0.0β");
        let tags = read.json["_embedded"]["tags"].to_string();
        assert!(tags.contains("prüfung"), "{tags}");
        let pacticipant = app.get("/pacticipants/Z%C3%BCrich%20%E8%A8%88%E7%94%BB");
        assert_eq!(pacticipant.json["name"], "Zürich 計画");
    });
}
