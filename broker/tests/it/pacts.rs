//! Reading pacts back: by version and its deprecated aliases, latest, by
//! tag, untagged, branch head (no fallback), by sha with metadata, the
//! pair collections, the provider collections and `/pacts/latest`.

use serde_json::json;

use crate::pact_docs::{http, pact, path_of, publish_ok};
use crate::support::{TestApp, each_backend};

/// c publishes for p: 1 (branch main, tag prod), 2 (main), 3 (feat).
fn seed(app: &TestApp) {
    publish_ok(
        app,
        "1",
        Some("main"),
        &["prod"],
        &[pact("c", "p", json!([http("/one", 200)]))],
    );
    publish_ok(
        app,
        "2",
        Some("main"),
        &[],
        &[pact("c", "p", json!([http("/two", 200)]))],
    );
    publish_ok(
        app,
        "3",
        Some("feat"),
        &[],
        &[pact("c", "p", json!([http("/three", 200)]))],
    );
}

fn path_of_pact(app: &TestApp, route: &str) -> String {
    let reply = app.get(route);
    assert_eq!(reply.status, 200, "{route}: {}", reply.text);
    reply.json["interactions"][0]["request"]["path"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}

#[test]
fn latest_tag_untagged_and_branch_head_pick_the_right_version() {
    each_backend(|app| {
        seed(app);
        let pair = "/pacts/provider/p/consumer/c";
        assert_eq!(path_of_pact(app, &format!("{pair}/latest")), "/three");
        assert_eq!(path_of_pact(app, &format!("{pair}/latest/prod")), "/one");
        assert_eq!(
            path_of_pact(app, &format!("{pair}/latest-untagged")),
            "/three"
        );
        assert_eq!(
            path_of_pact(app, &format!("{pair}/branch/main/latest")),
            "/two"
        );
        assert_eq!(
            path_of_pact(app, &format!("{pair}/branch/feat/latest")),
            "/three"
        );
        assert_eq!(app.get(&format!("{pair}/latest/nope")).status, 404);
        // version 4 is the head of main but has no pact for p: no fallback to 2
        publish_ok(
            app,
            "4",
            Some("main"),
            &[],
            &[pact("c", "other", json!([http("/x", 200)]))],
        );
        let head = app.get(&format!("{pair}/branch/main/latest"));
        assert_eq!(head.status, 404, "{}", head.text);
        assert_eq!(
            path_of_pact(app, &format!("{pair}/latest")),
            "/three",
            "4 has no pact for p"
        );
    });
}

#[test]
fn a_pact_reads_back_by_every_route_with_its_links() {
    each_backend(|app| {
        seed(app);
        for route in [
            "/pacts/provider/p/consumer/c/version/1",
            "/pacts/provider/p/consumer/c/versions/1",
            "/pact/provider/p/consumer/c/version/1",
        ] {
            assert_eq!(path_of_pact(app, route), "/one");
        }
        let one = app.get("/pacts/provider/p/consumer/c/version/1");
        let links = &one.json["_links"];
        assert!(one.json["createdAt"].is_string());
        for rel in [
            "self",
            "pb:consumer",
            "pb:consumer-version",
            "pb:provider",
            "pb:pact-version",
            "pb:latest-pact-version",
            "pb:all-pact-versions",
            "pb:publish-verification-results",
            "pb:latest-verification-results",
            "pb:pact-webhooks",
            "pb:consumer-webhooks",
            "pb:triggered-webhooks",
        ] {
            assert!(
                links[rel]["href"]
                    .as_str()
                    .is_some_and(|h| h.starts_with(&app.url)),
                "{rel}: {links}"
            );
        }
        let sha_path = path_of(app, &links["pb:pact-version"]["href"]);
        let sha = sha_path.rsplit('/').next().expect("sha").to_owned();
        assert_eq!(sha.len(), 64);
        assert_eq!(
            links["pb:publish-verification-results"]["href"]
                .as_str()
                .map(|h| h.ends_with(&format!("/pact-version/{sha}/verification-results"))),
            Some(true)
        );
        assert_eq!(path_of_pact(app, &sha_path), "/one");
        let with_meta = app.get(&format!("{sha_path}/metadata/c1ZbMF0"));
        assert_eq!(with_meta.status, 200, "{}", with_meta.text);
        let meta_links = &with_meta.json["_links"];
        assert!(
            meta_links["self"]["href"]
                .as_str()
                .is_some_and(|h| h.ends_with(&format!("/pact-version/{sha}/metadata/c1ZbMF0")))
        );
        assert!(
            meta_links["pb:publish-verification-results"]["href"]
                .as_str()
                .is_some_and(|h| h.ends_with(&format!(
                    "/pact-version/{sha}/metadata/c1ZbMF0/verification-results"
                )))
        );
        assert_eq!(
            app.get(&format!(
                "/pacts/provider/p/consumer/c/pact-version/{}",
                "0".repeat(64)
            ))
            .status,
            404
        );
        assert_eq!(
            app.get("/pacts/provider/p/consumer/nobody/latest").status,
            404
        );
        assert_eq!(
            app.get("/pacts/provider/p/consumer/c/version/99").status,
            404
        );
    });
}

#[test]
fn pair_collections_list_all_tagged_and_branch_pacts() {
    each_backend(|app| {
        seed(app);
        let count = |route: &str| {
            let reply = app.get(route);
            assert_eq!(reply.status, 200, "{route}: {}", reply.text);
            reply.json["_links"]["pb:pact-versions"]
                .as_array()
                .map(Vec::len)
                .unwrap_or(0)
        };
        let pair = "/pacts/provider/p/consumer/c";
        assert_eq!(count(&format!("{pair}/versions")), 3);
        assert_eq!(count(&format!("{pair}/tag/prod")), 1);
        assert_eq!(count(&format!("{pair}/branch/main")), 2);
        assert_eq!(
            count(&format!("{pair}/branch/versions")),
            2,
            "main is the main branch"
        );
        assert_eq!(count(&format!("{pair}/branch/latest/versions")), 1);
        assert_eq!(count(&format!("{pair}/branch/feat/latest/versions")), 1);
        let all = app.get(&format!("{pair}/versions"));
        assert_eq!(
            all.json["_links"]["pb:pact-versions"][0]["name"], "3",
            "newest first"
        );
    });
}

#[test]
fn provider_collections_carry_pb_pacts_and_the_deprecated_pacts() {
    each_backend(|app| {
        seed(app);
        publish_ok(
            app,
            "9",
            Some("main"),
            &["prod"],
            &[pact("d", "p", json!([http("/d", 200)]))],
        );
        let latest = app.get("/pacts/provider/p/latest");
        assert_eq!(latest.status, 200, "{}", latest.text);
        let links = &latest.json["_links"];
        for rel in ["pb:pacts", "pacts"] {
            let list = links[rel].as_array().expect("array");
            assert_eq!(list.len(), 2, "{rel}: {links}");
            assert_eq!(list[0]["name"], "c");
            assert!(
                list[0]["title"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("Pact between c (3)"))
            );
        }
        assert_eq!(links["pb:provider"]["name"], "p");
        assert_eq!(links["provider"]["name"], "p");
        let hrefs = |route: &str| -> Vec<String> {
            let reply = app.get(route);
            assert_eq!(reply.status, 200, "{route}: {}", reply.text);
            reply.json["_links"]["pb:pacts"]
                .as_array()
                .expect("pb:pacts")
                .iter()
                .map(|l| path_of(app, &l["href"]))
                .collect()
        };
        assert_eq!(hrefs("/pacts/provider/p").len(), 4);
        assert_eq!(
            hrefs("/pacts/provider/p/latest/prod"),
            vec![
                "/pacts/provider/p/consumer/c/version/1",
                "/pacts/provider/p/consumer/d/version/9"
            ]
        );
        assert_eq!(hrefs("/pacts/provider/p/tag/prod").len(), 2);
        assert_eq!(hrefs("/pacts/provider/p/branch").len(), 3);
        assert_eq!(
            hrefs("/pacts/provider/p/branch/latest"),
            vec![
                "/pacts/provider/p/consumer/c/version/2",
                "/pacts/provider/p/consumer/d/version/9"
            ]
        );
        assert_eq!(
            hrefs("/pacts/provider/p/branch/feat"),
            vec!["/pacts/provider/p/consumer/c/version/3"]
        );
        assert_eq!(
            hrefs("/pacts/provider/p/branch/feat/latest"),
            vec!["/pacts/provider/p/consumer/c/version/3"]
        );
        assert_eq!(app.get("/pacts/provider/nobody/latest").status, 404);
        let every = app.get("/pacts/latest");
        assert_eq!(
            every.json["pacts"].as_array().map(Vec::len),
            Some(2),
            "{}",
            every.text
        );
        let first = path_of(app, &every.json["_links"]["pb:pacts"][0]["href"]);
        assert_eq!(path_of_pact(app, &first), "/three");
    });
}

#[test]
fn names_with_spaces_round_trip_through_the_links() {
    each_backend(|app| {
        let doc = pact("Order Service", "Plan Agent", json!([http("/a", 200)]));
        let reply = publish_ok(app, "1.0 beta", Some("main"), &[], &[doc]);
        let href = &reply.json["_links"]["pb:contracts"][0]["href"];
        assert!(
            href.as_str().is_some_and(|h| h
                .contains("/provider/Plan%20Agent/consumer/Order%20Service/version/1.0%20beta")),
            "{href}"
        );
        let got = app.get(&path_of(app, href));
        assert_eq!(got.status, 200, "{}", got.text);
        assert_eq!(got.json["_links"]["pb:consumer"]["name"], "Order Service");
        let latest = app.get("/pacts/provider/Plan%20Agent/latest");
        assert_eq!(latest.json["_links"]["pacts"][0]["name"], "Order Service");
    });
}
