//! `contract_content_changed` as the Pact Broker decides it
//! (`find_previous_pacts`): a consumer version with tags is compared with
//! the previous pact with each of its tags; one without tags with the
//! previous untagged pact, whatever its branch (branches are not
//! consulted); a first publication (of the pair or of a tag) fires. The decision is taken at
//! fan-out from the ids the publish recorded, and
//! `contract_requiring_verification_published` follows it.

use serde_json::json;

use super::{Receiver, each_backend_fast, hook, pacticipants, queued};
use crate::pact_docs::{http, pact, publish_ok};
use crate::support::TestApp;

const CHANGED: &str = "contract_content_changed";
const REQUIRING: &str = "contract_requiring_verification_published";

fn subscribed(app: &TestApp) {
    let r = Receiver::start(&[]);
    let bar = app.post(
        "/pacticipants",
        &json!({"name": "Bar", "mainBranch": "main"}),
    );
    assert_eq!(bar.status, 201, "{}", bar.text);
    let head = app.put("/pacticipants/Bar/branches/main/versions/100", &json!({}));
    assert!(head.status == 200 || head.status == 201, "{}", head.text);
    pacticipants(app, &["Foo"]);
    for event in [CHANGED, REQUIRING] {
        assert_eq!(
            app.post("/webhooks", &hook(&r, &[event], None, None))
                .status,
            201
        );
    }
}

/// Publishes `content` ("a" or "b") for `version` and answers how many
/// content-changed events are queued then (requiring-verification ones
/// follow the same decision: the head of the provider's main branch, 100,
/// verifies nothing, so one each).
fn publish(
    app: &TestApp,
    version: &str,
    branch: Option<&str>,
    tags: &[&str],
    content: &str,
) -> i64 {
    let doc = pact("Foo", "Bar", json!([http(&format!("/{content}"), 200)]));
    publish_ok(app, version, branch, tags, &[doc]);
    let changed = queued(app, CHANGED);
    assert_eq!(queued(app, REQUIRING), changed, "version {version}");
    changed
}

/// A version, its branch, its tags, its content, the events queued after it, why.
type Step = (
    &'static str,
    Option<&'static str>,
    &'static [&'static str],
    &'static str,
    i64,
    &'static str,
);

#[test]
fn branches_are_not_consulted_an_untagged_version_is_compared_with_the_previous_untagged_pact() {
    each_backend_fast(|app| {
        subscribed(app);
        let steps: [Step; 7] = [
            ("1", Some("main"), &[], "a", 1, "first of the pair"),
            ("2", Some("main"), &[], "a", 1, "same as the previous"),
            ("3", Some("feat"), &[], "a", 1, "a new branch is no change"),
            ("4", Some("feat"), &[], "b", 2, "changed"),
            // main's previous pact (2) is the same; the previous untagged (4) is not
            ("5", Some("main"), &[], "a", 3, "changed against 4"),
            ("6", Some("main"), &["dev"], "b", 4, "first with dev"),
            // the tagged 6 is not an untagged pact: 5 decides
            ("7", Some("main"), &[], "a", 4, "same as 5"),
        ];
        for (version, branch, tags, content, expected, why) in steps {
            assert_eq!(
                publish(app, version, branch, tags, content),
                expected,
                "{why}"
            );
        }
    });
}

#[test]
fn tags_are_compared_with_the_previous_pact_with_each_tag() {
    each_backend_fast(|app| {
        subscribed(app);
        assert_eq!(
            publish(app, "1", None, &["dev"], "a"),
            1,
            "first of the pair"
        );
        assert_eq!(
            publish(app, "2", None, &["dev"], "a"),
            1,
            "same as dev's previous"
        );
        assert_eq!(
            publish(app, "3", None, &["prod"], "a"),
            2,
            "first with prod"
        );
        assert_eq!(publish(app, "4", None, &["dev"], "b"), 3, "dev changed");
        // the pair's previous pact (4) differs, prod's (3) does not
        assert_eq!(publish(app, "5", None, &["prod"], "a"), 3, "prod unchanged");
        // dev's previous (4) is the same, prod's (5) differs: one event
        assert_eq!(
            publish(app, "6", None, &["dev", "prod"], "b"),
            4,
            "one tag changed"
        );
        assert_eq!(
            publish(app, "7", None, &["dev", "prod"], "b"),
            4,
            "neither changed"
        );
    });
}

#[test]
fn without_tags_the_previous_untagged_pact_decides() {
    each_backend_fast(|app| {
        subscribed(app);
        assert_eq!(publish(app, "1", None, &[], "a"), 1, "first of the pair");
        assert_eq!(publish(app, "2", None, &[], "a"), 1, "same");
        assert_eq!(publish(app, "3", None, &[], "b"), 2, "changed");
        assert_eq!(publish(app, "4", None, &[], "b"), 2, "same");
        assert_eq!(publish(app, "5", None, &[], "a"), 3, "back to a: changed");
        // a republication of the same content for the same version
        assert_eq!(publish(app, "5", None, &[], "a"), 3, "republished");
    });
}
