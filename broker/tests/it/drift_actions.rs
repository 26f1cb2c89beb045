//! What a drift report does: a card that differs from the verified one
//! quarantines the version (can-i-deploy and the matrix answer no, with
//! the reason), names the live consumer contracts that rely on the card,
//! climbs the ladder with the report behind each step; a signal under its
//! threshold only warns; only a new verification on the observed digests
//! clears the quarantine. And the drift policy's API.

use serde_json::{Value, json};

use crate::environments::create_environment;
use crate::pact_docs::{http, pact, planning_agent_contract, publish_ok};
use crate::support::{TestApp, each_backend};

pub const P: &str = "planning-agent";

pub fn digest(c: char) -> String {
    format!("sha256:{}", c.to_string().repeat(64))
}

pub fn card(d: &str) -> Value {
    json!({"kind": "a2a/agent-card", "profile": "anonymous", "protocolVersion": "1.0",
           "digest": d, "entries": 1})
}

/// The sha of the orchestrator's contract (version 1).
fn sha(app: &TestApp) -> String {
    let got = app.get(&format!(
        "/pacts/provider/{P}/consumer/orchestrator/version/1"
    ));
    let href = got.json["_links"]["pb:publish-verification-results"]["href"]
        .as_str()
        .expect("verification link")
        .to_owned();
    href.split("/pact-version/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("sha")
        .to_owned()
}

/// Publishes a result for provider version 2.0.0 declaring `declarations`.
pub fn verify(app: &TestApp, declarations: Value) -> Value {
    let path = format!(
        "/pacts/provider/{P}/consumer/orchestrator/pact-version/{}/verification-results",
        sha(app)
    );
    let body = json!({"success": true, "providerApplicationVersion": "2.0.0",
                      "declarations": declarations});
    let reply = app.post(&path, &body);
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json
}

/// Two live consumers (one relying on the card, one plain HTTP), provider
/// 2.0.0 verified on card `a`, and a production environment.
pub fn seed(app: &TestApp) {
    publish_ok(app, "1", Some("main"), &[], &[planning_agent_contract()]);
    let web = pact("web", P, json!([http("/plans/1", 200)]));
    publish_ok(app, "7", Some("main"), &[], &[web]);
    verify(app, json!([card(&digest('a'))]));
    create_environment(app, "production");
}

pub fn report(card_digest: char, unknown_error_codes: u32) -> Value {
    json!({
        "provider": P, "version": "2.0.0", "environment": "production",
        "window": {"start": "2026-12-05T04:00:00Z", "end": "2026-12-05T04:05:00Z"},
        "agentCardDigest": digest(card_digest),
        "counts": {"unknownErrorCodes": unknown_error_codes}
    })
}

fn can_i_deploy(app: &TestApp) -> Value {
    let cid = app.get(&format!(
        "/can-i-deploy?pacticipant={P}&version=2.0.0&environment=production"
    ));
    assert_eq!(cid.status, 200, "{}", cid.text);
    let reason = cid.json["summary"]["reason"].as_str().unwrap_or_default();
    if reason.contains("QUARANTINED") {
        // clients print the notices when there are any: the quarantine
        // must be among them, first
        assert!(
            cid.json["notices"][0]["text"]
                .as_str()
                .is_some_and(|t| t.contains("QUARANTINED")),
            "{}",
            cid.text
        );
    }
    cid.json["summary"].clone()
}

fn matrix(app: &TestApp) -> Value {
    let m = app.get(&format!(
        "/matrix?q%5B%5D%5Bpacticipant%5D={P}&q%5B%5D%5Bversion%5D=2.0.0&latestby=cvp&environment=production"
    ));
    assert_eq!(m.status, 200, "{}", m.text);
    m.json["summary"].clone()
}

#[test]
fn a_changed_card_quarantines_names_the_consumers_and_blocks_deployment() {
    each_backend(|app| {
        seed(app);
        assert_eq!(can_i_deploy(app)["deployable"], true);
        let posted = app.post("/drift-reports", &report('b', 1));
        assert_eq!(posted.status, 201, "{}", posted.text);
        let body = &posted.json;
        assert_eq!(body["drift"]["agentCardDiffers"], true, "{body}");
        assert_eq!(body["verified"]["agentCardDigests"], json!([digest('a')]));
        assert_eq!(body["admission"], "QUARANTINED");
        let consumers = body["consumers"].as_array().expect("consumers");
        assert_eq!(consumers.len(), 1, "{body}");
        assert_eq!(consumers[0]["consumer"], "orchestrator");
        assert_eq!(consumers[0]["note"], "relies on the card, must re-verify");
        let actions: Vec<&str> = body["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .filter_map(|a| a["action"].as_str())
            .collect();
        assert_eq!(actions, ["quarantine", "warn"]);
        for summary in [can_i_deploy(app), matrix(app)] {
            assert_eq!(summary["deployable"], false, "{summary}");
            assert!(
                summary["reason"]
                    .as_str()
                    .is_some_and(|r| r.contains("QUARANTINED")),
                "{summary}"
            );
        }
        let admission = app.get(&format!("/pacticipants/{P}/versions/2.0.0/admission"));
        assert_eq!(admission.json["transitions"][0]["cause"]["id"], body["id"]);
        let drift = app.get(&format!("/pacticipants/{P}/versions/2.0.0/drift"));
        assert_eq!(drift.status, 200, "{}", drift.text);
        let reached: Vec<bool> = drift.json["ladder"]
            .as_array()
            .expect("ladder")
            .iter()
            .map(|s| s["reached"] == true)
            .collect();
        assert_eq!(reached, [true, true, false, false, true]);
        assert_eq!(drift.json["ladder"][4]["reportId"], body["id"]);
        let page = app.get_page(&format!("/ui/providers/{P}/versions/2.0.0"));
        assert_eq!(page.status, 200, "{}", page.text);
        for shown in [
            "QUARANTINED",
            "orchestrator",
            "relies on the card, must re-verify",
        ] {
            assert!(page.text.contains(shown), "{shown} not on the page");
        }
        assert!(
            !page.text.contains("broken"),
            "the page must not claim a break"
        );
    });
}

#[test]
fn only_a_new_verification_on_the_observed_digests_clears_the_quarantine() {
    each_backend(|app| {
        seed(app);
        let posted = app.post("/drift-reports", &report('b', 0));
        assert_eq!(posted.json["admission"], "QUARANTINED", "{}", posted.text);
        verify(app, json!([card(&digest('a'))]));
        let still = app.get(&format!("/pacticipants/{P}/versions/2.0.0/admission"));
        assert_eq!(
            still.json["state"], "QUARANTINED",
            "the old digest proves nothing"
        );
        verify(app, json!([card(&digest('b'))]));
        let cleared = app.get(&format!("/pacticipants/{P}/versions/2.0.0/admission"));
        assert_eq!(cleared.json["state"], "DRAFT", "{}", cleared.text);
        assert_eq!(
            cleared.json["transitions"][1]["cause"]["kind"],
            "verification"
        );
        assert_eq!(can_i_deploy(app)["deployable"], true);
    });
}

#[test]
fn under_the_threshold_a_signal_only_warns_and_over_it_the_policy_acts() {
    each_backend(|app| {
        seed(app);
        let policy = json!({"drift_policy": {"rules": {
            "unknown_error_codes": {"threshold": 5, "action": "route_disable"}}}});
        let put = app.put(&format!("/pacticipants/{P}/drift-policy"), &policy);
        assert_eq!(put.status, 201, "{}", put.text);
        let under = app.post("/drift-reports", &report('a', 4));
        assert_eq!(under.status, 201, "{}", under.text);
        assert_eq!(under.json["admission"], "DRAFT");
        assert_eq!(under.json["actions"][0]["action"], "warn");
        assert_eq!(under.json["actions"][0]["overThreshold"], false);
        assert_eq!(under.json["consumers"], json!([]));
        let over = app.post("/drift-reports", &report('a', 5));
        assert_eq!(over.json["actions"][0]["action"], "route_disable");
        assert_eq!(over.json["admission"], "DRAFT");
        assert_eq!(can_i_deploy(app)["deployable"], true);
        let drift = app.get(&format!("/pacticipants/{P}/versions/2.0.0/drift"));
        assert_eq!(drift.json["ladder"][1]["reportId"], under.json["id"]);
        assert_eq!(drift.json["ladder"][3]["reportId"], over.json["id"]);
    });
}

#[test]
fn a_drift_policy_is_stored_read_back_and_a_wrong_one_refused_by_path() {
    each_backend(|app| {
        seed(app);
        let path = format!("/pacticipants/{P}/drift-policy");
        let empty = app.get(&path);
        assert_eq!(empty.status, 200, "{}", empty.text);
        assert_eq!(
            empty.json["defaults"]["agent_card_digest"]["action"],
            "quarantine"
        );
        let policy = json!({"rules": {"cross_tenant_allows": {"threshold": 1, "action": "quarantine"}},
                            "environments": {"production": {"tools_digest": {"threshold": 1, "action": "canary_stop"}}}});
        assert_eq!(app.put(&path, &policy).status, 201);
        assert_eq!(app.put(&path, &policy).status, 200);
        let got = app.get(&path);
        assert_eq!(got.json["drift_policy"], policy);
        for (bad, status, named) in [
            (
                json!({"rules": {"latency": {"threshold": 1, "action": "warn"}}}),
                400,
                "rules",
            ),
            (
                json!({"rules": {"tools_digest": {"threshold": 1, "action": "reboot"}}}),
                400,
                "action",
            ),
            (
                json!({"rules": {"tools_digest": {"threshold": 0, "action": "warn"}}}),
                400,
                "threshold",
            ),
            (json!({"drift_policy": {"rulez": {}}}), 400, "rulez"),
            (json!({"environments": {"staging": {}}}), 422, "staging"),
        ] {
            let refused = app.put(&path, &bad);
            assert_eq!(refused.status, status, "{bad}: {}", refused.text);
            assert!(refused.text.contains(named), "{bad}: {}", refused.text);
        }
        assert_eq!(
            app.get(&path).json["drift_policy"],
            policy,
            "nothing changed"
        );
        assert_eq!(app.get("/pacticipants/ghost/drift-policy").status, 404);
    });
}
