//! The webhook API: create, read, upsert, list (scoped), delete, validation,
//! redaction, test runs.

use serde_json::json;

use super::{Receiver, each_backend_fast, hook, pacticipants};

#[test]
fn a_webhook_is_created_read_upserted_listed_and_deleted() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo", "Bar"]);
        let index = app.get("/");
        assert!(
            index.json["_links"]["pb:webhooks"]["href"].is_string(),
            "{}",
            index.text
        );
        let mut body = hook(&r, &["contract_published"], Some("Foo"), Some("Bar"));
        body["request"]["headers"]["Authorization"] = json!("Bearer s3cret-token");
        body["request"]["headers"]["X-Api-Key"] = json!("key-123");
        body["request"]["username"] = json!("user");
        body["request"]["password"] = json!("pa55word");
        let created = app.post("/webhooks", &body);
        assert_eq!(created.status, 201, "{}", created.text);
        assert!(
            !created.text.contains("s3cret-token")
                && !created.text.contains("key-123")
                && !created.text.contains("pa55word"),
            "{}",
            created.text
        );
        assert_eq!(
            created.json["request"]["headers"]["Content-Type"],
            "application/json"
        );
        assert_eq!(created.json["consumer"]["name"], "Foo");
        assert_eq!(created.json["events"][0]["name"], "contract_published");
        let uuid = created.json["uuid"].as_str().expect("uuid").to_owned();
        assert!(
            created
                .header("location")
                .ends_with(&format!("/webhooks/{uuid}"))
        );
        let read = app.get(&format!("/webhooks/{uuid}"));
        assert_eq!(read.status, 200);
        assert!(!read.text.contains("s3cret-token"));
        assert!(read.json["_links"]["pb:execute"]["href"].is_string());
        let list = app.get("/webhooks");
        assert_eq!(list.json["_links"]["pb:webhooks"][0]["name"], uuid.as_str());
        for scoped in [
            "/webhooks/provider/Bar/consumer/Foo",
            "/webhooks/provider/Bar",
            "/webhooks/consumer/Foo",
            "/pacts/provider/Bar/consumer/Foo/webhooks",
        ] {
            let l = app.get(scoped);
            assert_eq!(l.status, 200, "{scoped}: {}", l.text);
            assert_eq!(
                l.json["_links"]["pb:webhooks"].as_array().map(Vec::len),
                Some(1),
                "{scoped}"
            );
        }
        assert_eq!(
            app.get("/webhooks/consumer/Bar").json["_links"]["pb:webhooks"]
                .as_array()
                .map(Vec::len),
            Some(0)
        );
        assert_eq!(app.get("/webhooks/provider/Nobody").status, 404);
        // upsert with a client uuid: 201, then 200
        let put = app.put(
            "/webhooks/client-chosen-uuid-1",
            &hook(&r, &["contract_content_changed"], None, None),
        );
        assert_eq!(put.status, 201, "{}", put.text);
        let mut changed = hook(&r, &["contract_published"], None, None);
        changed["description"] = json!("renamed");
        changed["enabled"] = json!(false);
        let again = app.put("/webhooks/client-chosen-uuid-1", &changed);
        assert_eq!(again.status, 200, "{}", again.text);
        assert_eq!(again.json["description"], "renamed");
        assert_eq!(again.json["enabled"], false);
        let scoped = app.post(
            "/webhooks/provider/Bar/consumer/Foo",
            &hook(&r, &["contract_published"], None, None),
        );
        assert_eq!(scoped.status, 201, "{}", scoped.text);
        assert_eq!(scoped.json["provider"]["name"], "Bar");
        assert_eq!(
            app.json("DELETE", &format!("/webhooks/{uuid}"), &json!({}))
                .status,
            204
        );
        assert_eq!(app.get(&format!("/webhooks/{uuid}")).status, 404);
    });
}

#[test]
fn bad_definitions_are_refused_with_the_path_at_fault_and_store_nothing() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo"]);
        let cases = [
            (
                json!({"events": [{"name": "contract_exploded"}], "request": {"method": "POST", "url": "http://127.0.0.1/x"}}),
                "$.events[0].name",
            ),
            (json!({"request": {"method": "POST"}}), "$.request.url"),
            (
                json!({"request": {"url": "http://127.0.0.1/x"}}),
                "$.request.method",
            ),
            (json!({}), "$.request.url"),
            (
                json!({"consumer": {"name": "Foo", "label": "x"}, "request": {"method": "POST", "url": "http://127.0.0.1/x"}}),
                "$.consumer",
            ),
            (
                json!({"consumer": {"name": "Nobody"}, "request": {"method": "POST", "url": "http://127.0.0.1/x"}}),
                "$.consumer.name",
            ),
            (
                json!({"request": {"method": "POST", "url": "ftp://127.0.0.1/x"}}),
                "$.request.url",
            ),
            (
                json!({"request": {"method": "DELETE", "url": "http://127.0.0.1/x"}}),
                "$.request.method",
            ),
            (
                json!({"request": {"method": "POST", "url": "http://127.0.0.1/x", "headers": {"A": 1}}}),
                "$.request.headers.A",
            ),
        ];
        for (body, path) in cases {
            let refused = app.post("/webhooks", &body);
            assert_eq!(refused.status, 400, "{body}: {}", refused.text);
            assert!(
                refused.json["errors"][path].is_array(),
                "{body} should name {path}: {}",
                refused.text
            );
        }
        assert_eq!(
            app.put(
                "/webhooks/bad%20uuid",
                &hook(&r, &["contract_published"], None, None)
            )
            .status,
            400
        );
        assert_eq!(
            app.get("/webhooks").json["_links"]["pb:webhooks"]
                .as_array()
                .map(Vec::len),
            Some(0)
        );
    });
}

#[test]
fn a_test_run_answers_the_rendered_request_and_the_response_or_the_refusal() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        let mut body = hook(&r, &["contract_published"], None, None);
        body["request"]["headers"]["Authorization"] = json!("Bearer s3cret");
        let created = app.post("/webhooks", &body);
        let uuid = created.json["uuid"].as_str().expect("uuid").to_owned();
        let run = app.post(&format!("/webhooks/{uuid}/execute"), &json!({}));
        assert_eq!(run.status, 200, "{}", run.text);
        assert_eq!(run.json["success"], true, "{}", run.text);
        assert_eq!(run.json["response"]["status"], 200);
        assert_eq!(run.json["response"]["body"], "received");
        assert_eq!(run.json["request"]["body"]["event"], "contract_published");
        assert!(!run.text.contains("s3cret"), "{}", run.text);
        let got = r.wait_for(1);
        assert_eq!(
            got[0].header("authorization"),
            Some("Bearer s3cret"),
            "sent as given"
        );
        assert_eq!(got[0].json()["event"], "contract_published");
        assert_eq!(got[0].method, "POST");
        // unsaved
        let unsaved = app.post(
            "/webhooks/execute",
            &hook(&r, &["contract_content_changed"], None, None),
        );
        assert_eq!(unsaved.json["success"], true, "{}", unsaved.text);
        assert_eq!(r.wait_for(2).len(), 2);
        // a dead receiver: an error, not a success
        let dead = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            l.local_addr().expect("addr").port()
        };
        let mut gone = hook(&r, &["contract_published"], None, None);
        gone["request"]["url"] = json!(format!("http://127.0.0.1:{dead}/x"));
        let failed = app.post("/webhooks/execute", &gone);
        assert_eq!(failed.status, 200);
        assert_eq!(failed.json["success"], false, "{}", failed.text);
        assert!(failed.json["error"].is_string(), "{}", failed.text);
    });
}

#[test]
fn a_test_run_with_a_chunked_body_over_the_limit_is_413() {
    use crate::raw_http::{Framing, RawRequest, send};
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo", "Bar"]);
        let created = app.post(
            "/webhooks",
            &hook(&r, &["contract_published"], Some("Foo"), Some("Bar")),
        );
        let uuid = created.json["uuid"].as_str().expect("uuid").to_owned();
        let over = vec![b' '; accord_broker::config::DEFAULT_BODY_LIMIT + 1];
        let request = RawRequest::new("POST", format!("/webhooks/{uuid}/execute"))
            .header("Content-Type", "application/json")
            .body(over, Framing::Chunked);
        let reply = send(app.url.trim_start_matches("http://"), &request);
        assert_eq!(reply.status, 413, "{}", reply.text());
        assert!(r.received().is_empty(), "nothing is sent for a refused run");
    });
}
