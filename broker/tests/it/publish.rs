//! `POST /contracts/publish` and the legacy PUT/PATCH: response shape,
//! `_id`s, content stored once per sha, 409 with a diff, merge, all-or-
//! nothing, and the 400/415/422 answers.

use base64::Engine;
use serde_json::json;

use crate::pact_docs::{
    http, pact, path_of, planning_agent_contract, publish, publish_ok, request,
};
use crate::support::{Reply, each_backend};

#[test]
fn a_publication_answers_notices_logs_and_links_and_reads_back() {
    each_backend(|app| {
        let doc = pact(
            "orchestrator",
            "planning-agent",
            json!([http("/plans/1", 200)]),
        );
        let mut body = request("1.0.0", Some("main"), &["main", "dev"], &[doc]);
        body["buildUrl"] = json!("http://ci.example/1");
        let reply = publish(app, &body);
        assert_eq!(reply.status, 200, "{}", reply.text);
        let notices = reply.json["notices"].as_array().expect("notices");
        assert_eq!(
            notices[0]["text"],
            "Created orchestrator version 1.0.0 with branch main and tags main, dev"
        );
        assert_eq!(notices[1]["type"], "success");
        assert_eq!(
            reply.json["logs"][0]["deprecationWarning"],
            "Replaced by notices"
        );
        assert_eq!(reply.json["_embedded"]["version"]["number"], "1.0.0");
        assert_eq!(
            reply.json["_embedded"]["version"]["buildUrl"],
            "http://ci.example/1"
        );
        assert_eq!(
            reply.json["_embedded"]["pacticipant"]["name"],
            "orchestrator"
        );
        let links = &reply.json["_links"];
        assert_eq!(links["pb:pacticipant-version"]["name"], "1.0.0");
        assert_eq!(
            links["pb:pacticipant-version-tags"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );
        let contract = &links["pb:contracts"][0];
        assert_eq!(contract["title"], "Pact");
        assert_eq!(
            contract["name"],
            "Pact between orchestrator (1.0.0) and planning-agent"
        );
        let got = app.get(&path_of(app, &contract["href"]));
        assert_eq!(got.status, 200, "{}", got.text);
        assert_eq!(got.json["interactions"][0]["request"]["path"], "/plans/1");
        let id = got.json["interactions"][0]["_id"].as_str().expect("_id");
        assert_eq!(id.len(), 40);
        let main = app.get("/pacticipants/orchestrator");
        assert_eq!(main.json["mainBranch"], "main", "a main branch is detected");
        assert!(
            app.get("/pacticipants/planning-agent").status == 200,
            "the provider is created"
        );
    });
}

#[test]
fn the_same_content_from_two_versions_is_stored_once() {
    each_backend(|app| {
        let doc = pact("c", "p", json!([http("/a", 200), http("/b", 200)]));
        publish_ok(app, "1", None, &[], std::slice::from_ref(&doc));
        let mut reordered = pact("c", "p", json!([http("/b", 200), http("/a", 200)]));
        reordered["metadata"]["pactRust"] = json!({"models": "1.3.16"});
        publish_ok(app, "2", None, &[], &[reordered]);
        let one = app.get("/pacts/provider/p/consumer/c/version/1");
        let two = app.get("/pacts/provider/p/consumer/c/version/2");
        let sha = |r: &Reply| r.json["_links"]["pb:pact-version"]["href"].clone();
        assert_eq!(sha(&one), sha(&two), "one content, two publications");
        assert_eq!(
            one.json["interactions"], two.json["interactions"],
            "one stored content, the same ids"
        );
        let changed = pact("c", "p", json!([http("/a", 200), http("/b", 404)]));
        publish_ok(app, "3", None, &[], &[changed]);
        let three = app.get("/pacts/provider/p/consumer/c/version/3");
        assert_ne!(sha(&one), sha(&three));
    });
}

#[test]
fn changed_content_for_a_version_is_a_409_with_a_diff_and_the_same_content_is_accepted() {
    each_backend(|app| {
        let doc = pact("c", "p", json!([http("/a", 200)]));
        publish_ok(app, "1", Some("main"), &[], std::slice::from_ref(&doc));
        let again = publish_ok(app, "1", Some("main"), &[], std::slice::from_ref(&doc));
        assert!(
            again.json["notices"][0]["text"]
                .as_str()
                .unwrap_or("")
                .starts_with("Updated c version 1")
        );
        let changed = pact("c", "p", json!([http("/a", 500)]));
        let reply = publish(app, &request("1", Some("main"), &[], &[changed]));
        assert_eq!(reply.status, 409, "{}", reply.text);
        let notices = &reply.json["notices"];
        assert_eq!(notices[0]["type"], "error");
        assert!(
            notices[0]["text"].as_str().unwrap_or("").starts_with(
                "Cannot change the content of the pact for c version 1 and provider p"
            )
        );
        let diff = notices[1]["text"].as_str().expect("diff notice");
        let line = |sign: char, text: &str| {
            diff.lines()
                .any(|l| l.starts_with(sign) && l.contains(text))
        };
        assert!(
            line('-', "\"status\": 200") && line('+', "\"status\": 500"),
            "{diff}"
        );
        assert!(reply.json["errors"]["content"].is_array());
        let stored = app.get("/pacts/provider/p/consumer/c/version/1");
        assert_eq!(stored.json["interactions"][0]["response"]["status"], 200);
    });
}

#[test]
fn a_failed_publication_leaves_nothing_behind() {
    each_backend(|app| {
        // the second contract conflicts with the first inside the transaction
        let first = pact("c", "p", json!([http("/a", 200)]));
        let second = pact("c", "p", json!([http("/a", 500)]));
        let reply = publish(
            app,
            &request("7", Some("main"), &["dev"], &[first.clone(), second]),
        );
        assert_eq!(reply.status, 409, "{}", reply.text);
        assert_eq!(
            app.get("/pacticipants/c").status,
            404,
            "the consumer was not kept"
        );
        assert_eq!(
            app.get("/pacticipants/p").status,
            404,
            "the provider was not kept"
        );
        // the second contract is refused by the model
        let invalid = pact(
            "c",
            "q",
            json!([{"description": "x", "request": {"method": 7, "path": "/"}, "response": {"status": 200}}]),
        );
        let reply = publish(app, &request("8", None, &[], &[first, invalid]));
        assert_eq!(reply.status, 422, "{}", reply.text);
        assert!(
            reply.json["errors"]["$.contracts[1].content"][0]
                .as_str()
                .unwrap_or("")
                .contains("$.interactions[0]"),
            "{}",
            reply.text
        );
        assert_eq!(
            app.get("/pacts/provider/p/consumer/c/version/8").status,
            404
        );
        assert_eq!(app.get("/pacticipants/c").status, 404);
    });
}

#[test]
fn on_conflict_merge_adds_interactions_and_names_a_conflicting_one() {
    each_backend(|app| {
        publish_ok(
            app,
            "1",
            None,
            &[],
            &[pact("c", "p", json!([http("/a", 200)]))],
        );
        let mut body = request("1", None, &[], &[pact("c", "p", json!([http("/b", 200)]))]);
        body["contracts"][0]["onConflict"] = json!("merge");
        let reply = publish(app, &body);
        assert_eq!(reply.status, 200, "{}", reply.text);
        assert!(
            reply.json["notices"][1]["text"]
                .as_str()
                .unwrap_or("")
                .contains("merged")
        );
        let merged = app.get("/pacts/provider/p/consumer/c/version/1");
        assert_eq!(
            merged.json["interactions"].as_array().map(Vec::len),
            Some(2)
        );
        let mut clash = request("1", None, &[], &[pact("c", "p", json!([http("/a", 404)]))]);
        clash["contracts"][0]["onConflict"] = json!("merge");
        let reply = publish(app, &clash);
        assert_eq!(reply.status, 409, "{}", reply.text);
        assert!(
            reply.json["detail"]
                .as_str()
                .unwrap_or("")
                .contains("a request for /a"),
            "{}",
            reply.text
        );
    });
}

#[test]
fn the_legacy_put_creates_then_accepts_the_same_and_patch_merges() {
    each_backend(|app| {
        let path = "/pacts/provider/p/consumer/c/version/1.0.0";
        let doc = pact("c", "p", json!([http("/a", 200)]));
        let created = app.put(path, &doc);
        assert_eq!(created.status, 201, "{}", created.text);
        assert!(created.json["interactions"][0]["_id"].is_string());
        assert_eq!(app.put(path, &doc).status, 200);
        assert_eq!(
            app.put(path, &pact("c", "p", json!([http("/a", 500)])))
                .status,
            409
        );
        let patched = app.json("PATCH", path, &pact("c", "p", json!([http("/b", 200)])));
        assert_eq!(patched.status, 200, "{}", patched.text);
        assert_eq!(
            patched.json["interactions"].as_array().map(Vec::len),
            Some(2)
        );
        let wrong = app.put("/pacts/provider/p/consumer/other/version/1", &doc);
        assert_eq!(wrong.status, 400);
        assert!(
            wrong.json["errors"]["$.consumer.name"].is_array(),
            "{}",
            wrong.text
        );
    });
}

#[test]
fn malformed_requests_are_refused_with_the_path_at_fault() {
    each_backend(|app| {
        let doc = pact("c", "p", json!([http("/a", 200)]));
        let mut body = request("1", None, &[], std::slice::from_ref(&doc));
        body["contracts"][0]["content"] = json!("%%% not base64");
        let reply = publish(app, &body);
        assert_eq!(reply.status, 400);
        assert!(
            reply.json["errors"]["$.contracts[0].content"][0]
                .as_str()
                .unwrap_or("")
                .contains("base64"),
            "{}",
            reply.text
        );
        body["contracts"][0]["content"] =
            json!(base64::engine::general_purpose::STANDARD.encode("{not json"));
        let reply = publish(app, &body);
        assert!(
            reply.json["errors"]["$.contracts[0].content"][0]
                .as_str()
                .unwrap_or("")
                .contains("JSON"),
            "{}",
            reply.text
        );
        let mut typed = request("1", None, &[], std::slice::from_ref(&doc));
        typed["pacticipantVersionNumber"] = json!(1);
        let reply = publish(app, &typed);
        assert_eq!(reply.status, 400);
        assert!(
            reply.json["errors"]["$.pacticipantVersionNumber"].is_array(),
            "{}",
            reply.text
        );
        let mut wrong = request("1", None, &[], std::slice::from_ref(&doc));
        wrong["contracts"][0]["consumerName"] = json!("someone-else");
        wrong["contracts"][0]["specification"] = json!("openapi");
        let reply = publish(app, &wrong);
        assert_eq!(reply.status, 400);
        assert!(
            reply.json["errors"]["$.contracts[0].consumerName"].is_array(),
            "{}",
            reply.text
        );
        assert!(
            reply.json["errors"]["$.contracts[0].specification"].is_array(),
            "{}",
            reply.text
        );
        let empty = publish(
            app,
            &json!({"pacticipantName": "c", "pacticipantVersionNumber": "1"}),
        );
        assert!(
            empty.json["errors"]["$.contracts"].is_array(),
            "{}",
            empty.text
        );
        let text = app.send(
            app.client()
                .post(format!("{}/contracts/publish", app.url))
                .header("Content-Type", "text/plain")
                .body("hello"),
        );
        assert_eq!(text.status, 415);
        assert_eq!(app.get("/pacticipants/c").status, 404);
    });
}

#[test]
fn a_v3_message_pact_and_an_accord_a2a_contract_publish() {
    each_backend(|app| {
        let messages = json!({
            "consumer": {"name": "listener"}, "provider": {"name": "emitter"},
            "messages": [{"description": "a plan was created", "contents": {"planId": "p-1"}, "providerStates": [{"name": "a plan"}]}],
            "metadata": {"pactSpecification": {"version": "3.0.0"}},
        });
        publish_ok(app, "1", Some("main"), &[], &[messages]);
        let got = app.get("/pacts/provider/emitter/consumer/listener/latest");
        assert!(got.json["messages"][0]["_id"].is_string(), "{}", got.text);
        let a2a = planning_agent_contract();
        let reply = publish(app, &request("2.0.0", Some("main"), &[], &[a2a]));
        assert_eq!(reply.status, 200, "{}", reply.text);
        let got =
            app.get_as_accord("/pacts/provider/planning-agent/consumer/orchestrator/version/2.0.0");
        let interactions = got.json["interactions"].as_array().expect("interactions");
        assert!(
            interactions.iter().any(|i| i["type"] == "A2A/Task"),
            "{}",
            got.text
        );
        assert!(interactions.iter().all(|i| i["_id"].is_string()));
        assert!(got.json["metadata"]["accord"].is_object());
    });
}

#[test]
fn two_transactions_storing_the_same_new_content_both_succeed_on_postgres() {
    use accord_broker::store::pacts::{NewContent, find_or_insert_content};
    use diesel::Connection;
    if !crate::support::backends().contains(&crate::support::TestDb::Postgres) {
        return;
    }
    let app = crate::support::TestApp::start(crate::support::TestDb::Postgres, |_| {});
    publish_ok(
        &app,
        "1",
        None,
        &[],
        &[pact("c", "p", json!([http("/a", 200)]))],
    );
    let pool = accord_broker::db::connect(&app.database.url, 2).expect("pool");
    let store = |pause_ms: u64| {
        let pool = pool.clone();
        std::thread::spawn(move || {
            let mut conn = pool.get().expect("connection");
            conn.transaction(|conn| {
                let c = accord_broker::store::pacticipants::find_by_name(conn, "c")?.expect("c");
                let p = accord_broker::store::pacticipants::find_by_name(conn, "p")?.expect("p");
                let new = NewContent {
                    sha: &"e".repeat(64),
                    consumer_id: c.id,
                    provider_id: p.id,
                    content: "{}",
                    interactions_count: 0,
                };
                let stored = find_or_insert_content(conn, &new)?;
                std::thread::sleep(std::time::Duration::from_millis(pause_ms));
                Ok::<_, accord_broker::store::StoreError>(stored.id)
            })
        })
    };
    let first = store(400);
    std::thread::sleep(std::time::Duration::from_millis(100));
    let second = store(0);
    let a = first.join().expect("first thread").expect("first stores");
    let b = second
        .join()
        .expect("second thread")
        .expect("second reads the winner's row");
    assert_eq!(a, b);
}
