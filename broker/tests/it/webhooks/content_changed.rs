//! `contract_content_changed` as the Pact Broker decides it: a consumer
//! version on a branch is compared with the previous pact on that branch;
//! one with tags (and no branch) with the previous pact with each of its
//! tags; one with neither with the pair's previous pact; a first
//! publication (of the pair, branch or tag) fires. The decision is taken at
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
    pacticipants(app, &["Foo", "Bar"]);
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
/// follow the same decision: the provider has no main branch and nothing
/// deployed, so one each).
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

#[test]
fn a_branch_is_compared_with_the_previous_pact_on_that_branch() {
    each_backend_fast(|app| {
        subscribed(app);
        assert_eq!(
            publish(app, "1", Some("main"), &[], "a"),
            1,
            "first of the pair"
        );
        assert_eq!(
            publish(app, "2", Some("main"), &[], "a"),
            1,
            "same as main's previous"
        );
        assert_eq!(
            publish(app, "3", Some("feat"), &[], "a"),
            2,
            "first on feat"
        );
        assert_eq!(publish(app, "4", Some("feat"), &[], "b"), 3, "feat changed");
        // the pair's previous pact (4, on feat) differs, main's (2) does not
        assert_eq!(
            publish(app, "5", Some("main"), &[], "a"),
            3,
            "main unchanged"
        );
        assert_eq!(
            publish(app, "6", Some("main"), &["dev"], "b"),
            4,
            "main changed"
        );
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
fn without_branch_or_tag_the_pairs_previous_pact_decides() {
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
