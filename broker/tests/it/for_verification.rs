//! Pacts for verification: every selector kind, fallbacks, de-duplication,
//! ordering, pending per branch and per tag, WIP, validation, and the
//! response shape the Rust verifier can read.

use serde_json::{Value, json};

use crate::seed::Seed;
use crate::support::{TestApp, each_backend};

const FV: &str = "/pacts/provider/Bar/for-verification";

fn select(app: &TestApp, body: Value) -> Vec<Value> {
    let reply = app.post(FV, &body);
    assert_eq!(reply.status, 200, "{body}: {}", reply.text);
    assert_verifier_can_read(&reply.json);
    reply.json["_embedded"]["pacts"]
        .as_array()
        .expect("pacts")
        .clone()
}

fn selectors(app: &TestApp, selectors: Value) -> Vec<Value> {
    select(app, json!({ "consumerVersionSelectors": selectors }))
}

/// The shape pact_verifier deserialises: string shortDescription, object
/// links only, notices with string values only.
fn assert_verifier_can_read(body: &Value) {
    for pact in body["_embedded"]["pacts"].as_array().expect("pacts array") {
        assert!(pact["shortDescription"].is_string(), "{pact}");
        for (rel, link) in pact["_links"].as_object().expect("links") {
            assert!(
                link.is_object() && link["href"].is_string(),
                "{rel}: {link}"
            );
        }
        for notice in pact["verificationProperties"]["notices"]
            .as_array()
            .expect("notices")
        {
            assert!(
                notice
                    .as_object()
                    .expect("notice")
                    .values()
                    .all(Value::is_string),
                "{notice}"
            );
        }
    }
}

/// (consumer, sha) of each entry, from its self link.
fn shas(pacts: &[Value]) -> Vec<String> {
    pacts
        .iter()
        .map(|p| {
            let href = p["_links"]["self"]["href"].as_str().expect("href");
            let after = href.split("/pact-version/").nth(1).expect("permalink");
            after.split('/').next().expect("sha").to_owned()
        })
        .collect()
}

fn descriptions(pacts: &[Value]) -> Vec<String> {
    pacts
        .iter()
        .map(|p| p["shortDescription"].as_str().expect("text").to_owned())
        .collect()
}

#[test]
fn the_get_answers_with_the_link_to_post_to() {
    each_backend(|app| {
        Seed::new(app).pacticipant("Bar", None);
        let reply = app.get(FV);
        assert_eq!(reply.status, 200);
        assert_eq!(
            reply.json["_links"]["self"]["href"],
            format!("{}{FV}", app.url)
        );
        assert!(
            reply.json.get("_embedded").is_none(),
            "the GET does no selection"
        );
        assert_eq!(
            app.get("/pacts/provider/Nobody/for-verification").status,
            404
        );
        assert_eq!(
            app.post("/pacts/provider/Nobody/for-verification", &json!({}))
                .status,
            404
        );
    });
}

#[test]
fn main_branch_and_branch_select_the_head_only_and_fallback_branch_applies() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed.pacticipant("Foo", Some("main"));
        let old = seed.publish("Foo", "1", "Bar", "main-old");
        seed.branch("Foo", "1", "main");
        let head = seed.publish("Foo", "2", "Bar", "main-head");
        seed.branch("Foo", "2", "main");
        let pacts = selectors(app, json!([{"mainBranch": true}]));
        assert_eq!(shas(&pacts), vec![head.clone()]);
        assert!(!shas(&pacts).contains(&old));
        assert_eq!(descriptions(&pacts), vec!["latest from main branch"]);
        let name = pacts[0]["_links"]["self"]["name"].as_str().expect("name");
        assert_eq!(name, "Pact between Foo (2) and Bar");

        // feat-x's head has no pact for Bar: nothing, unless a fallback is named
        seed.version("Foo", "3");
        seed.branch("Foo", "3", "feat-x");
        assert!(selectors(app, json!([{"branch": "feat-x"}])).is_empty());
        let fell_back = selectors(app, json!([{"branch": "feat-x", "fallbackBranch": "main"}]));
        assert_eq!(shas(&fell_back), vec![head.clone()]);
        assert_eq!(
            descriptions(&fell_back),
            vec!["latest from fallback branch main"]
        );
        let text = fell_back[0]["verificationProperties"]["notices"][0]["text"]
            .as_str()
            .expect("text");
        assert!(text.contains("fallback branch used"), "{text}");

        let feat = seed.publish("Foo", "4", "Bar", "feat");
        seed.branch("Foo", "4", "feat-x");
        let own = selectors(app, json!([{"branch": "feat-x", "fallbackBranch": "main"}]));
        assert_eq!(
            shas(&own),
            vec![feat],
            "the fallback is used only when the branch has no pact"
        );
        assert!(selectors(app, json!([{"branch": "nope"}])).is_empty());
    });
}

#[test]
fn tags_select_the_latest_or_all_and_fallback_tag_applies() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let a = seed.publish("Foo", "1", "Bar", "a");
        seed.tag("Foo", "1", "prod");
        let b = seed.publish("Foo", "2", "Bar", "b");
        seed.tag("Foo", "2", "prod");
        seed.version("Foo", "3");
        seed.tag("Foo", "3", "prod"); // no pact: the latest tagged *pact* is still 2
        assert_eq!(
            shas(&selectors(app, json!([{"tag": "prod", "latest": true}]))),
            vec![b.clone()]
        );
        let all = selectors(app, json!([{"tag": "prod"}]));
        assert_eq!(shas(&all), vec![a.clone(), b.clone()]);
        assert_eq!(descriptions(&all), vec!["one of prod", "one of prod"]);
        assert!(selectors(app, json!([{"tag": "dev", "latest": true}])).is_empty());
        let fallback = selectors(
            app,
            json!([{"tag": "dev", "latest": true, "fallbackTag": "prod"}]),
        );
        assert_eq!(shas(&fallback), vec![b]);
        assert_eq!(
            descriptions(&fallback),
            vec!["latest with fallback tag prod"]
        );
    });
}

#[test]
fn latest_and_consumer_narrow_to_one_consumer() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed.publish("Foo", "1", "Bar", "foo-1");
        let foo2 = seed.publish("Foo", "2", "Bar", "foo-2");
        let zed = seed.publish("Zed", "1", "Bar", "zed-1");
        assert_eq!(
            shas(&selectors(app, json!([{"latest": true}]))),
            vec![foo2.clone(), zed]
        );
        assert_eq!(
            shas(&selectors(
                app,
                json!([{"latest": true, "consumer": "Foo"}])
            )),
            vec![foo2]
        );
        assert!(selectors(app, json!([{"latest": true, "consumer": "Nobody"}])).is_empty());
    });
}

#[test]
fn deployed_released_and_environment_selectors() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let d = seed.publish("Foo", "1", "Bar", "deployed");
        let r = seed.publish("Foo", "2", "Bar", "released");
        let ended = seed.publish("Foo", "3", "Bar", "ended");
        let s = seed.publish("Foo", "4", "Bar", "staging");
        seed.deploy("Foo", "1", "production", "");
        seed.deploy("Foo", "4", "staging", "blue");
        seed.release("Foo", "2", "production", false);
        seed.release("Foo", "3", "production", true);
        assert_eq!(
            shas(&selectors(app, json!([{"deployed": true}]))),
            vec![d.clone(), s.clone()]
        );
        assert_eq!(
            shas(&selectors(app, json!([{"released": true}]))),
            vec![r.clone()]
        );
        assert!(!shas(&selectors(app, json!([{"released": true}]))).contains(&ended));
        let both = selectors(app, json!([{"deployedOrReleased": true}]));
        assert_eq!(shas(&both), vec![d.clone(), r.clone(), s.clone()]);
        let prod = selectors(app, json!([{"environment": "production"}]));
        assert_eq!(shas(&prod), vec![d.clone(), r]);
        assert_eq!(
            descriptions(&prod),
            vec!["deployed to production", "released in production"]
        );
        assert_eq!(
            shas(&selectors(
                app,
                json!([{"deployed": true, "environment": "staging"}])
            )),
            vec![s]
        );
        let reply = app.post(
            FV,
            &json!({"consumerVersionSelectors": [{"latest": true}, {"environment": "nowhere"}]}),
        );
        assert_eq!(reply.status, 400);
        assert!(
            reply.json["errors"]["$.consumerVersionSelectors[1].environment"].is_array(),
            "{}",
            reply.text
        );
    });
}

#[test]
fn matching_branch_uses_the_provider_branch() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let feat = seed.publish("Foo", "1", "Bar", "feat");
        seed.branch("Foo", "1", "feat-x");
        let pacts = select(
            app,
            json!({"consumerVersionSelectors": [{"matchingBranch": true}], "providerVersionBranch": "feat-x"}),
        );
        assert_eq!(shas(&pacts), vec![feat]);
        let reply = app.post(
            FV,
            &json!({"consumerVersionSelectors": [{"matchingBranch": true}]}),
        );
        assert_eq!(reply.status, 400);
        assert!(reply.json["errors"]["$.consumerVersionSelectors[0]"].is_array());
    });
}

#[test]
fn one_content_selected_many_ways_is_one_entry_with_every_reason() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed.pacticipant("Foo", Some("main"));
        let same = seed.publish("Foo", "1", "Bar", "same");
        seed.deploy("Foo", "1", "production", "");
        assert_eq!(
            seed.publish("Foo", "2", "Bar", "same"),
            same,
            "identical content, one sha"
        );
        seed.branch("Foo", "2", "main");
        let pacts = selectors(app, json!([{"mainBranch": true}, {"deployed": true}]));
        assert_eq!(pacts.len(), 1);
        assert_eq!(
            descriptions(&pacts),
            vec!["latest from main branch, deployed to production"]
        );
        let text = pacts[0]["verificationProperties"]["notices"][0]["text"]
            .as_str()
            .expect("text");
        assert!(
            text.contains("the main branch 'main' (2)")
                && text.contains("deployed to production (1)"),
            "{text}"
        );
        assert!(
            pacts[0]["verificationProperties"].get("pending").is_none(),
            "pending only when asked"
        );
    });
}

#[test]
fn entries_are_ordered_by_consumer_name_then_version() {
    each_backend(|app| {
        let seed = Seed::new(app);
        let z = seed.publish("Zed", "1", "Bar", "z");
        let a2 = seed.publish("Abe", "2", "Bar", "a2");
        let a1 = seed.publish("Abe", "1", "Bar", "a1");
        for (c, v) in [("Zed", "1"), ("Abe", "2"), ("Abe", "1")] {
            seed.tag(c, v, "t");
        }
        // Abe 2 was created before Abe 1: version order is creation order
        assert_eq!(
            shas(&selectors(app, json!([{"tag": "t"}]))),
            vec![a2, a1, z]
        );
    });
}

#[test]
fn without_selectors_the_defaults_apply() {
    each_backend(|app| {
        let seed = Seed::new(app);
        seed.pacticipant("Foo", Some("main"));
        let main = seed.publish("Foo", "1", "Bar", "main");
        seed.branch("Foo", "1", "main");
        seed.publish("Foo", "2", "Bar", "feat"); // newer, but not on main
        let deployed = seed.publish("Foo", "0", "Bar", "deployed");
        seed.deploy("Foo", "0", "production", "");
        let tagged = seed.publish("Tag", "1", "Bar", "tagged");
        seed.pacticipant("Tag", Some("trunk"));
        seed.tag("Tag", "1", "trunk");
        seed.publish("Tag", "2", "Bar", "untagged");
        let latest = seed.publish("Plain", "1", "Bar", "plain");
        let pacts = select(app, json!({"consumerVersionSelectors": []}));
        let mut got = shas(&pacts);
        got.sort();
        let mut want = vec![main, deployed, tagged, latest];
        want.sort();
        assert_eq!(got, want);
    });
}

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

#[test]
fn invalid_requests_name_the_selector_at_fault() {
    each_backend(|app| {
        Seed::new(app).pacticipant("Bar", None);
        let cases = [
            (
                json!({"consumerVersionSelectors": [{"mainBranch": true}, {"consumer": "Foo"}]}),
                "$.consumerVersionSelectors[1]",
            ),
            (
                json!({"consumerVersionSelectors": [{"tag": "a", "branch": "b"}]}),
                "$.consumerVersionSelectors[0]",
            ),
            (
                json!({"consumerVersionSelectors": [{"branch": "b", "environment": "prod"}]}),
                "$.consumerVersionSelectors[0]",
            ),
            (
                json!({"consumerVersionSelectors": [{"tag": 3}]}),
                "$.consumerVersionSelectors[0].tag",
            ),
            (
                json!({"includeWipPactsSince": "soon", "providerVersionBranch": "main"}),
                "$.includeWipPactsSince",
            ),
            (
                json!({"includePendingStatus": true, "providerVersionBranch": ""}),
                "$.providerVersionBranch",
            ),
        ];
        for (body, field) in cases {
            let reply = app.post(FV, &body);
            assert_eq!(reply.status, 400, "{body}: {}", reply.text);
            assert!(
                reply.json["errors"][field].is_array(),
                "{body}: expected {field} in {}",
                reply.text
            );
        }
    });
}
