//! What a publication skips asking the database because the transaction
//! already knows it (issue 27: fewer statements per publish) must not
//! change an answer: a new version's second contract for the same provider
//! is still compared with the first, and repeated tags, branches and
//! versions are stored once.

use serde_json::{Value, json};

use crate::pact_docs::{http, pact, publish, publish_ok, request};
use crate::support::each_backend;

fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .map(|l| l.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default()
}

#[test]
fn a_new_versions_second_contract_for_one_provider_is_compared_with_the_first() {
    each_backend(|app| {
        let first = pact("web", "orders", json!([http("/orders/1", 200)]));
        let same = request("1", Some("main"), &[], &[first.clone(), first.clone()]);
        let reply = publish(app, &same);
        assert_eq!(reply.status, 200, "{}", reply.text);
        let notice = reply.json["notices"][2]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(
            notice.ends_with("(the same content was published before)."),
            "{notice}"
        );
        let other = pact("web", "orders", json!([http("/orders/2", 200)]));
        let changed = request("2", Some("main"), &[], &[first, other]);
        let reply = publish(app, &changed);
        assert_eq!(reply.status, 409, "{}", reply.text);
        // all or nothing: version 2 was not kept
        let version = app.get("/pacticipants/web/versions/2");
        assert_eq!(version.status, 404, "{}", version.text);
    });
}

#[test]
fn repeated_tags_branches_and_versions_are_stored_once() {
    each_backend(|app| {
        let doc = pact("web", "orders", json!([http("/orders/1", 200)]));
        let docs = [doc];
        publish_ok(app, "1", Some("main"), &["prod", "prod"], &docs);
        publish_ok(app, "1", Some("main"), &["prod", "test"], &docs);
        publish_ok(app, "1", Some("feat"), &["test"], &docs);
        let version = app.get("/pacticipants/web/versions/1");
        assert_eq!(version.status, 200, "{}", version.text);
        let embedded = &version.json["_embedded"];
        assert_eq!(names(&embedded["tags"]), ["prod", "test"]);
        assert_eq!(names(&embedded["branchVersions"]), ["feat", "main"]);
        let web = app.get("/pacticipants/web");
        assert_eq!(web.json["mainBranch"], "main", "{}", web.text);
    });
}

/// The pacticipant names in `GET /pacticipants`.
fn pacticipant_names(app: &crate::support::TestApp) -> Vec<String> {
    let list = app.get("/pacticipants");
    let mut all: Vec<String> = names(&list.json["_embedded"]["pacticipants"])
        .into_iter()
        .map(str::to_owned)
        .collect();
    all.sort();
    all
}

#[test]
fn providers_and_branches_found_with_the_consumer_give_the_same_answers() {
    each_backend(|app| {
        // new consumer, provider and branch: every look-up finds nothing
        let orders = pact("web", "orders", json!([http("/orders/1", 200)]));
        publish_ok(app, "1", Some("feat"), &[], std::slice::from_ref(&orders));
        // the first provider read with the consumer, the second made here
        let billing = pact("web", "billing", json!([http("/bills/1", 200)]));
        publish_ok(app, "2", Some("feat"), &[], &[orders, billing]);
        // a pact with itself, on a new branch
        let own = pact("web", "web", json!([http("/self", 200)]));
        publish_ok(app, "3", Some("other"), &[], &[own]);
        // a stored provider for a consumer that is not
        let mobile = pact("mobile", "orders", json!([http("/orders/2", 200)]));
        publish_ok(app, "1", Some("feat"), &[], &[mobile]);
        assert_eq!(
            pacticipant_names(app),
            ["billing", "mobile", "orders", "web"]
        );
        for (consumer, version, branch) in [
            ("web", "1", "feat"),
            ("web", "2", "feat"),
            ("web", "3", "other"),
            ("mobile", "1", "feat"),
        ] {
            let page = app.get(&format!("/pacticipants/{consumer}/versions/{version}"));
            assert_eq!(page.status, 200, "{}", page.text);
            let branches = names(&page.json["_embedded"]["branchVersions"]);
            assert_eq!(branches, [branch], "{consumer} {version}");
        }
        for (provider, consumer, version) in [
            ("orders", "web", "1"),
            ("orders", "web", "2"),
            ("billing", "web", "2"),
            ("web", "web", "3"),
            ("orders", "mobile", "1"),
        ] {
            let path = format!("/pacts/provider/{provider}/consumer/{consumer}/version/{version}");
            let pact = app.get(&path);
            assert_eq!(pact.status, 200, "{path}: {}", pact.text);
            assert_eq!(pact.json["provider"]["name"], provider, "{path}");
        }
        let feat = app.get("/pacticipants/web/branches/feat/versions");
        let numbers: Vec<&Value> = feat.json["_embedded"]["versions"]
            .as_array()
            .map(|l| l.iter().map(|v| &v["number"]).collect())
            .unwrap_or_default();
        assert_eq!(numbers, [&json!("2"), &json!("1")], "{}", feat.text);
    });
}

/// A first publication of content stored before is one `INSERT … SELECT`
/// that never reads the content's text: what is served afterwards — for
/// the new version, through `POST /contracts/publish` and through the
/// legacy `PUT`, which answers the pact itself — is still the text first
/// published, not the request's (client metadata differs, the sha not).
#[test]
fn stored_content_published_again_is_served_as_first_published() {
    each_backend(|app| {
        let mut first = pact("web", "orders", json!([http("/orders/1", 200)]));
        first["metadata"]["pactRust"] = json!({"models": "1.0.0"});
        let mut again = first.clone();
        again["metadata"]["pactRust"] = json!({"models": "2.0.0"});
        publish_ok(app, "1", Some("main"), &[], std::slice::from_ref(&first));
        publish_ok(app, "2", Some("main"), &[], std::slice::from_ref(&again));
        let put = app.put("/pacts/provider/orders/consumer/web/version/3", &again);
        assert_eq!(put.status, 201, "{}", put.text);
        for version in ["1", "2", "3"] {
            let served = app.get(&format!(
                "/pacts/provider/orders/consumer/web/version/{version}"
            ));
            assert_eq!(served.status, 200, "{}", served.text);
            assert_eq!(
                served.json["metadata"]["pactRust"]["models"], "1.0.0",
                "version {version}: {}",
                served.text
            );
        }
        assert_eq!(put.json["metadata"]["pactRust"]["models"], "1.0.0");
        assert_eq!(
            put.json["interactions"],
            app.get("/pacts/provider/orders/consumer/web/version/1")
                .json["interactions"]
        );
    });
}
