//! What users read from the broker, as reviewed snapshots (`insta`, files in
//! `snapshots/`): the index, a pact as Pact clients get it, a verification
//! result and a problem+json error, each with its status and content type.
//! The broker's address and the dates are redacted; the rest (shas, `_id`s,
//! titles) is stable by construction, so any change to what users see shows
//! up as a snapshot diff. Both backends must give the same bodies.

use serde_json::json;

use crate::pact_docs::{http, pact, publish_ok};
use crate::support::{Reply, TestApp, each_backend};

/// Snapshots `reply` as `name`: status, content type and body.
fn snapshot(name: &str, reply: &Reply) {
    let shown = json!({
        "status": reply.status,
        "contentType": reply.content_type,
        "body": reply.json,
    });
    insta::with_settings!({
        filters => vec![(r"http://127\.0\.0\.1:\d+", "http://[broker]")],
        omit_expression => true,
    }, {
        insta::assert_json_snapshot!(name, shown, {
            ".**.createdAt" => "[date]",
            ".**.verificationDate" => "[date]",
        });
    });
}

/// Foo 1 (branch main, tag dev) has a pact with Bar; returns its sha.
fn published(app: &TestApp) -> String {
    let doc = pact("Foo", "Bar", json!([http("/items/7", 200)]));
    publish_ok(app, "1", Some("main"), &["dev"], &[doc]);
    let pact = app.get("/pacts/provider/Bar/consumer/Foo/version/1");
    let href = pact.json["_links"]["pb:pact-version"]["href"].as_str();
    href.and_then(|h| h.rsplit('/').next())
        .expect("pb:pact-version")
        .to_owned()
}

#[test]
fn the_index() {
    each_backend(|app| snapshot("index", &app.get("/")));
}

#[test]
fn a_pact_as_pact_clients_read_it() {
    each_backend(|app| {
        published(app);
        snapshot(
            "pact",
            &app.get("/pacts/provider/Bar/consumer/Foo/version/1"),
        );
    });
}

#[test]
fn a_published_verification_result() {
    each_backend(|app| {
        let sha = published(app);
        let reply = app.post(
            &format!("/pacts/provider/Bar/consumer/Foo/pact-version/{sha}/verification-results"),
            &json!({
                "success": false,
                "providerApplicationVersion": "2",
                "buildUrl": "https://ci.example/builds/42",
                "verifiedBy": {"implementation": "Accord", "version": "0.1.0"},
                "findings": [{"layer": "schema", "reasonCode": "RESPONSE_MISMATCH",
                              "interactionDescription": "a request for /items/7",
                              "path": "$.path", "expected": "/items/7", "actual": "/items/8"}],
            }),
        );
        snapshot("verification_result", &reply);
    });
}

#[test]
fn a_problem() {
    each_backend(|app| {
        let reply = app.send(
            app.client()
                .post(format!("{}/contracts/publish", app.url))
                .header("Content-Type", "application/json")
                .header("Accept", "application/hal+json, application/problem+json")
                .body(
                    json!({"pacticipantName": "Foo", "pacticipantVersionNumber": " ", "contracts": []})
                        .to_string(),
                ),
        );
        snapshot("problem", &reply);
    });
}
