//! Publishing verification results (Pact body plus layered findings) and
//! reading them back.

use serde_json::{Value, json};

use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

const PAIR: &str = "/pacts/provider/Bar/consumer/Foo";

fn results_path(sha: &str) -> String {
    format!("{PAIR}/pact-version/{sha}/verification-results")
}

fn body(version: &str, success: bool) -> Value {
    json!({
        "success": success,
        "providerApplicationVersion": version,
        "buildUrl": "https://ci.example/42",
        "verifiedBy": {"implementation": "Pact-Rust", "version": "1.4.8"},
        "testResults": [{"interactionId": "abc", "success": success,
                          "mismatches": [{"attribute": "body", "identifier": "$.id", "description": "Expected 1 but received 2"}]}],
        "findings": [
            {"layer": "schema", "reasonCode": "RESPONSE_MISMATCH", "interactionId": "abc",
             "interactionDescription": "a plan", "path": "$.id", "expected": 1, "actual": 2, "detail": "wrong id"},
            {"layer": "temporal", "reasonCode": "ACK_DEADLINE_MISSED", "expected": null}
        ]
    })
}

fn strip(href: &str, app: &TestApp) -> String {
    href.strip_prefix(&app.url)
        .expect("absolute href on this broker")
        .to_owned()
}

#[test]
fn a_result_with_findings_is_stored_and_read_back_every_way() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let sha = seed.publish("Foo", "1.0.0", "Bar", "a plan");
        let created = app.post(&results_path(&sha), &body("2.0.0", false));
        assert_eq!(created.status, 201, "{}", created.text);
        let v = &created.json;
        assert_eq!(v["providerName"], "Bar");
        assert_eq!(v["providerApplicationVersion"], "2.0.0");
        assert_eq!(v["success"], false);
        assert_eq!(v["buildUrl"], "https://ci.example/42");
        assert_eq!(v["testResults"][0]["mismatches"][0]["identifier"], "$.id");
        assert_eq!(v["verifiedBy"]["implementation"], "Pact-Rust");
        assert_eq!(v["findings"][0]["layer"], "schema");
        assert_eq!(v["findings"][0]["reasonCode"], "RESPONSE_MISMATCH");
        assert_eq!(v["findings"][0]["actual"], 2);
        assert!(
            v["findings"][1]
                .as_object()
                .expect("finding")
                .contains_key("expected")
        );
        assert!(
            v["verificationDate"]
                .as_str()
                .is_some_and(|d| d.ends_with('Z'))
        );
        assert!(
            seed.has_version("Bar", "2.0.0"),
            "the provider version is created"
        );
        let pact_link = v["_links"]["pb:pact-version"]["href"]
            .as_str()
            .expect("pact link");
        assert!(pact_link.ends_with(&format!("/pact-version/{sha}")));
        let self_path = strip(v["_links"]["self"]["href"].as_str().expect("self"), app);

        let by_number = app.get(&self_path);
        assert_eq!(by_number.status, 200, "{}", by_number.text);
        assert_eq!(by_number.json["findings"], v["findings"]);

        let second = app.post(
            &results_path(&sha),
            &json!({"success": true, "providerApplicationVersion": "2.0.1"}),
        );
        assert_eq!(second.status, 201, "{}", second.text);
        assert_eq!(second.json["findings"], json!([]));
        for path in [
            format!("{PAIR}/pact-version/{sha}/verification-results/latest"),
            format!("{PAIR}/version/1.0.0/verification-results/latest"),
            format!("{PAIR}/latest/verification-results/latest"),
        ] {
            let latest = app.get(&path);
            assert_eq!(latest.status, 200, "{path}: {}", latest.text);
            assert_eq!(latest.json["providerApplicationVersion"], "2.0.1", "{path}");
        }
        let summary = app.get("/verification-results/consumer/Foo/version/1.0.0/latest");
        assert_eq!(summary.status, 200, "{}", summary.text);
        assert_eq!(summary.json["success"], true);
        assert_eq!(
            summary.json["providerSummary"]["successful"],
            json!(["Bar"])
        );
        assert_eq!(
            summary.json["_embedded"]["verificationResults"][0]["success"],
            true
        );
    });
}

#[test]
fn a_consumer_version_with_an_unverified_pact_is_not_a_success() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed.publish("Foo", "1", "Bar", "x");
        seed.publish("Foo", "1", "Baz", "y");
        let summary = app.get("/verification-results/consumer/Foo/version/1/latest");
        assert_eq!(summary.json["success"], false);
        assert_eq!(
            summary.json["providerSummary"]["unknown"],
            json!(["Bar", "Baz"])
        );
        assert_eq!(
            app.get(&format!("{PAIR}/version/1/verification-results/latest"))
                .status,
            404
        );
        assert_eq!(
            app.get("/verification-results/consumer/Foo/version/9/latest")
                .status,
            404
        );
    });
}

#[test]
fn bad_results_are_refused_with_the_field_at_fault_and_leave_nothing() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let sha = seed.publish("Foo", "1", "Bar", "x");
        let path = results_path(&sha);
        let cases = [
            (json!({"providerApplicationVersion": "9"}), "success"),
            (
                json!({"success": "yes", "providerApplicationVersion": "9"}),
                "$.success",
            ),
            (
                json!({"success": true, "providerApplicationVersion": "  "}),
                "providerApplicationVersion",
            ),
            (json!({"success": true}), "providerApplicationVersion"),
            (
                json!({"success": true, "providerApplicationVersion": "9", "buildUrl": "not a url"}),
                "buildUrl",
            ),
            (
                json!({"success": true, "providerApplicationVersion": "9", "findings": [
                    {"layer": "schema", "reasonCode": "A"}, {"layer": "schema", "reasonCode": "B"},
                    {"layer": "vibes", "reasonCode": "C"}]}),
                "$.findings[2].layer",
            ),
            (
                json!({"success": true, "providerApplicationVersion": "9", "findings": [{"layer": "schema", "reasonCode": "bad code"}]}),
                "$.findings[0].reasonCode",
            ),
            (
                json!({"success": true, "providerApplicationVersion": "9", "findings": [{"layer": "schema"}]}),
                "$.findings[0]",
            ),
        ];
        for (bad, field) in cases {
            let reply = app.post(&path, &bad);
            assert_eq!(reply.status, 400, "{bad}: {}", reply.text);
            assert!(
                reply.json["errors"]
                    .as_object()
                    .is_some_and(|e| e.contains_key(field)),
                "{bad}: expected {field} in {}",
                reply.text
            );
        }
        assert!(
            !seed.has_version("Bar", "9"),
            "a refused result creates no provider version"
        );
        let garbage = app.post(
            &format!("{PAIR}/pact-version/{sha}/metadata/%21%21/verification-results"),
            &body("9", true),
        );
        assert_eq!(garbage.status, 400, "{}", garbage.text);
        assert!(garbage.json["errors"]["metadata"].is_array());
        assert!(!seed.has_version("Bar", "9"));
        assert_eq!(
            app.get(&format!("{path}/latest")).status,
            404,
            "nothing was stored"
        );
    });
}

#[test]
fn an_unknown_sha_or_another_pairs_sha_is_404() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed.publish("Foo", "1", "Bar", "x");
        let other = seed.publish("Qux", "1", "Bar", "y");
        let unknown = "0".repeat(64);
        assert_eq!(
            app.post(&results_path(&unknown), &body("9", true)).status,
            404
        );
        assert_eq!(
            app.post(&results_path("not-a-sha"), &body("9", true))
                .status,
            404
        );
        assert_eq!(
            app.post(&results_path(&other), &body("9", true)).status,
            404
        );
        assert_eq!(
            app.post(
                &format!(
                    "/pacts/provider/Nobody/consumer/Foo/pact-version/{other}/verification-results"
                ),
                &body("9", true)
            )
            .status,
            404
        );
        assert!(!seed.has_version("Bar", "9"));
        let created = app.post(
            &format!("/pacts/provider/Bar/consumer/Qux/pact-version/{other}/verification-results"),
            &body("9", true),
        );
        assert_eq!(created.status, 201);
        let n = created.json["number"].as_i64().expect("number");
        let x = seed.publish("Foo", "1", "Bar", "x");
        assert_eq!(
            app.get(&format!("{PAIR}/pact-version/{x}/verification-results/{n}"))
                .status,
            404,
            "a result is read only under its own pact"
        );
    });
}

#[test]
fn metadata_from_the_url_is_stored_on_the_verification() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let sha = seed.publish("Foo", "1", "Bar", "x");
        let m = accord_broker::metadata::PactMetadata {
            consumer_version_numbers: vec!["1".into()],
            pending: true,
            wip: true,
            ..Default::default()
        }
        .encode();
        let reply = app.post(
            &format!("{PAIR}/pact-version/{sha}/metadata/{m}/verification-results"),
            &body("3", true),
        );
        assert_eq!(reply.status, 201, "{}", reply.text);
        assert_eq!(reply.json["wip"], true);
        assert_eq!(reply.json["pending"], true);
        let stored = seed.with(|conn| {
            let content = accord_broker::store::pacts::find_content_by_sha(conn, &sha)
                .expect("query")
                .expect("content");
            accord_broker::store::verifications::find_by_number(
                conn,
                content.id,
                reply.json["number"].as_i64().expect("n"),
            )
            .expect("query")
            .expect("row")
        });
        assert!(
            stored
                .selectors
                .expect("selectors stored")
                .contains("\"cvn\":[\"1\"]")
        );
    });
}

#[test]
fn declarations_the_provider_made_are_stored_and_a_bad_one_refused() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let sha = seed.publish("Foo", "1.0.0", "Bar", "a plan");
        let card = json!({"kind": "a2a/agent-card", "profile": "as written", "protocolVersion": "1.0",
                          "digest": format!("sha256:{}", "0a".repeat(32)), "entries": 2,
                          "etag": "\"v7\"", "used": ["JSONRPC http://127.0.0.1:1/a2a"]});
        let mut result = body("2.0.0", true);
        result["declarations"] = json!([card]);
        let created = app.post(&results_path(&sha), &result);
        assert_eq!(created.status, 201, "{}", created.text);
        assert_eq!(created.json["declarations"], json!([card]));
        let read = app.get(&strip(
            created.json["_links"]["self"]["href"]
                .as_str()
                .expect("self"),
            app,
        ));
        assert_eq!(read.json["declarations"], json!([card]));
        // a Pact client sends none: an empty list
        let plain = app.post(&results_path(&sha), &body("2.0.1", true));
        assert_eq!(plain.json["declarations"], json!([]));
        let mut bad = body("2.0.2", true);
        bad["declarations"] = json!([{"kind": "mcp/tools/list", "profile": "x", "protocolVersion": "2025-11-25",
                                      "digest": "md5:abc", "entries": 1}]);
        let refused = app.post(&results_path(&sha), &bad);
        assert_eq!(refused.status, 400, "{}", refused.text);
        assert!(
            refused.json["errors"]["$.declarations[0].digest"].is_array(),
            "{}",
            refused.text
        );
        let versions = app.get("/pacticipants/Bar/versions/2.0.2");
        assert_eq!(
            versions.status, 404,
            "nothing half-written: {}",
            versions.text
        );
    });
}
