//! Pending status per provider branch and per tag, WIP pacts, and the
//! verifier's whole flow over HTTP (publish → for-verification → pact →
//! results → pending ends).

use serde_json::{Value, json};

use crate::for_verification::{assert_verifier_can_read, descriptions, select, shas};
use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

fn publish_result(app: &TestApp, pact: &Value, version: &str, success: bool) {
    let href = pact["_links"]["self"]["href"].as_str().expect("href");
    let path = href.strip_prefix(&app.url).expect("this broker");
    let reply = app.post(
        &format!("{path}/verification-results"),
        &json!({"success": success, "providerApplicationVersion": version}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text);
}

fn pending_of(pacts: &[Value]) -> Vec<Value> {
    pacts
        .iter()
        .map(|p| p["verificationProperties"]["pending"].clone())
        .collect()
}

#[test]
fn pending_per_provider_branch() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed.publish("Foo", "1", "Bar", "x");
        let ask = |branch: &str| {
            select(
                app,
                json!({"consumerVersionSelectors": [{"latest": true}], "includePendingStatus": true,
                       "providerVersionBranch": branch}),
            )
        };
        let first = ask("main");
        assert_eq!(pending_of(&first), vec![json!(true)]);
        let notices = &first[0]["verificationProperties"]["notices"];
        assert!(
            notices[1]["text"]
                .as_str()
                .expect("text")
                .contains("pending state")
        );
        // a failure on main keeps it pending; a success elsewhere (dev) does not count for main
        seed.branch("Bar", "p1", "main");
        publish_result(app, &first[0], "p1", false);
        seed.branch("Bar", "p2", "dev");
        publish_result(app, &first[0], "p2", true);
        seed.branch("Bar", "p0", "main"); // main existed before dev's success
        assert_eq!(pending_of(&ask("main")), vec![json!(true)]);
        seed.branch("Bar", "p3", "main");
        publish_result(app, &ask("main")[0], "p3", true);
        let verified = ask("main");
        assert_eq!(pending_of(&verified), vec![json!(false)]);
        let text = verified[0]["verificationProperties"]["notices"][1]["text"]
            .as_str()
            .expect("text");
        assert!(text.starts_with("This pact has previously been successfully verified by a version of Bar from branch 'main'"));
        // a failure afterwards does not make it pending again
        seed.branch("Bar", "p4", "main");
        publish_result(app, &verified[0], "p4", false);
        assert_eq!(pending_of(&ask("main")), vec![json!(false)]);
        // a branch created after the successes inherits them
        assert_eq!(pending_of(&ask("brand-new")), vec![json!(false)]);
    });
}

#[test]
fn pending_per_provider_tag_and_without_either() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed.publish("Foo", "1", "Bar", "x");
        let ask = |tags: Value| {
            let mut body = json!({"consumerVersionSelectors": [{"latest": true}], "includePendingStatus": true});
            if !tags.is_null() {
                body["providerVersionTags"] = tags;
            }
            select(app, body)
        };
        let pacts = ask(json!(["main", "ci"]));
        assert_eq!(pending_of(&pacts), vec![json!(true)]);
        assert_eq!(pending_of(&ask(Value::Null)), vec![json!(true)]);
        seed.tag("Bar", "p1", "main");
        publish_result(app, &pacts[0], "p1", true);
        assert_eq!(pending_of(&ask(json!(["main"]))), vec![json!(false)]);
        assert_eq!(
            pending_of(&ask(json!(["main", "ci"]))),
            vec![json!(true)],
            "pending while any tag lacks a success"
        );
        assert_eq!(
            pending_of(&ask(Value::Null)),
            vec![json!(false)],
            "any success counts without branch or tags"
        );
    });
}

#[test]
fn wip_pacts_are_heads_not_selected_and_not_yet_verified() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed.pacticipant("Foo", Some("main"));
        let main = seed.publish("Foo", "1", "Bar", "main");
        seed.branch("Foo", "1", "main");
        let feat = seed.publish("Foo", "2", "Bar", "feat");
        seed.branch("Foo", "2", "feat-x");
        let old_feat = seed.publish("Foo", "3", "Bar", "feat-old-tag");
        seed.tag("Foo", "3", "t");
        let newer_t = seed.publish("Foo", "4", "Bar", "feat-new-tag");
        seed.tag("Foo", "4", "t");
        let ask = |branch: Option<&str>, since: &str| {
            let mut body = json!({"consumerVersionSelectors": [{"mainBranch": true}],
                                  "includePendingStatus": true, "includeWipPactsSince": since});
            if let Some(b) = branch {
                body["providerVersionBranch"] = json!(b);
            }
            select(app, body)
        };
        let pacts = ask(Some("main"), "2000-01-01");
        assert_eq!(
            shas(&pacts),
            vec![main.clone(), feat.clone(), newer_t.clone()]
        );
        assert!(!shas(&pacts).contains(&old_feat), "only heads are WIP");
        let wip = &pacts[1]["verificationProperties"];
        assert_eq!(
            (wip["wip"].clone(), wip["pending"].clone()),
            (json!(true), json!(true))
        );
        assert!(pacts[0]["verificationProperties"].get("wip").is_none());
        assert!(
            wip["notices"][0]["text"]
                .as_str()
                .expect("text")
                .contains("work in progress")
        );
        assert!(
            ask(Some("main"), "2999-01-01").len() == 1,
            "published before the date: not WIP"
        );
        assert_eq!(
            ask(None, "2000-01-01").len(),
            1,
            "no provider branch or tags: no WIP"
        );

        // a successful WIP verification leaves it WIP
        seed.branch("Bar", "p1", "main");
        publish_result(app, &pacts[1], "p1", true);
        assert!(shas(&ask(Some("main"), "2000-01-01")).contains(&feat));
        // a successful non-WIP verification on the provider branch ends it
        let explicit = select(
            app,
            json!({"consumerVersionSelectors": [{"branch": "feat-x"}], "providerVersionBranch": "main"}),
        );
        seed.branch("Bar", "p2", "main");
        publish_result(app, &explicit[0], "p2", true);
        let after = ask(Some("main"), "2000-01-01");
        assert_eq!(shas(&after), vec![main, newer_t]);
        // selecting a WIP candidate explicitly makes it a normal entry
        let chosen = select(
            app,
            json!({"consumerVersionSelectors": [{"tag": "t", "latest": true}], "providerVersionBranch": "main",
                   "includePendingStatus": true, "includeWipPactsSince": "2000-01-01"}),
        );
        assert_eq!(chosen.len(), 2);
        assert!(chosen[0]["verificationProperties"].get("wip").is_none());
    });
}

/// The Rust verifier's whole flow over HTTP only: index → GET
/// for-verification → POST to its self href → GET each pact → POST the
/// result to the pact's `pb:publish-verification-results` (with metadata).
#[test]
fn the_verifier_flow_works_over_http_from_publish_to_results() {
    use crate::pact_docs::{http, pact, path_of, publish_ok};
    each_backend(|app| {
        let document = pact("Foo", "Bar", json!([http("/plans/42", 200)]));
        publish_ok(
            app,
            "1.0.0",
            Some("main"),
            &[],
            std::slice::from_ref(&document),
        );
        let deployed = pact("Foo", "Bar", json!([http("/plans/41", 200)]));
        publish_ok(app, "0.9.0", None, &[], std::slice::from_ref(&deployed));
        crate::environments::create_environment(app, "production");
        let version = app.get("/pacticipants/Foo/versions/0.9.0");
        let record = version.json["_links"]["pb:record-deployment"]
            .as_array()
            .and_then(|links| links.iter().find(|l| l["name"] == "production"))
            .expect("record-deployment link")
            .clone();
        assert_eq!(
            app.post(&path_of(app, &record["href"]), &json!({})).status,
            201
        );

        let index = app.get("/");
        let template = index.json["_links"]["pb:provider-pacts-for-verification"]["href"]
            .as_str()
            .expect("rel");
        let fv = app.get(&template.replace("{provider}", "Bar").replace(&app.url, ""));
        let post_to = path_of(app, &fv.json["_links"]["self"]["href"]);
        let body = json!({"consumerVersionSelectors": [{"branch": "main"}, {"deployedOrReleased": true}],
                          "providerVersionBranch": "main", "includePendingStatus": true,
                          "includeWipPactsSince": "2020-01-01"});
        let reply = app.post(&post_to, &body);
        assert_eq!(reply.status, 200, "{}", reply.text);
        assert_verifier_can_read(&reply.json);
        let pacts = reply.json["_embedded"]["pacts"]
            .as_array()
            .expect("pacts")
            .clone();
        // 1.0.0 was created before 0.9.0: version order is creation order
        assert_eq!(
            descriptions(&pacts),
            vec!["latest from branch main", "deployed to production"]
        );
        // as the verifier does before publishing: put the provider version on its branch
        assert_eq!(
            app.put("/pacticipants/Bar/branches/main/versions/2.0.0", &json!({}))
                .status
                / 100,
            2
        );
        for entry in &pacts {
            assert_eq!(entry["verificationProperties"]["pending"], true);
            let fetched = app.get(&path_of(app, &entry["_links"]["self"]["href"]));
            assert_eq!(fetched.status, 200, "{}", fetched.text);
            let publish_to = &fetched.json["_links"]["pb:publish-verification-results"]["href"];
            assert!(
                publish_to
                    .as_str()
                    .is_some_and(|h| h.contains("/metadata/")),
                "{publish_to}"
            );
            let result = app.post(
                &path_of(app, publish_to),
                &json!({"success": true, "providerApplicationVersion": "2.0.0",
                        "findings": [{"layer": "behavior", "reasonCode": "UNEXPECTED_SIDE_EFFECT"}]}),
            );
            assert_eq!(result.status, 201, "{}", result.text);
            assert_eq!(
                result.json["pending"], true,
                "the metadata said it was pending"
            );
        }
        let after = app.post(&post_to, &body);
        assert_eq!(
            pending_of(after.json["_embedded"]["pacts"].as_array().expect("pacts")),
            vec![json!(false), json!(false)]
        );
        let latest = app.get("/pacts/provider/Bar/consumer/Foo/latest/verification-results/latest");
        assert_eq!(
            latest.json["findings"][0]["reasonCode"],
            "UNEXPECTED_SIDE_EFFECT"
        );
    });
}
