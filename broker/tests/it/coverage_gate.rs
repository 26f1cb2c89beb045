//! Coverage as a gate (issue 25), opt-in per request: can-i-deploy with
//! `requireCoverage=true` and a promotion with `"requireCoverage": true`
//! refuse a provider version whose coverage report has gaps, naming the
//! first gaps and how many there are; without the flag gaps gate nothing;
//! a bad value is a 400 naming it and stores nothing.

use accord_broker::admission::{AdmissionState, Cause};
use serde_json::{Value, json};

use crate::admission::{create_version, move_to};
use crate::operation_coverage::{self as cov, declare, publish};
use crate::support::{Reply, TestApp, each_backend};

const ADMISSION: &str = "/pacticipants/plan-tools/versions/2.0/admission";

/// The live contracts cover every operation plan-tools declares.
fn covering() -> String {
    [
        cov::CALL,
        cov::UNAUTHENTICATED,
        cov::CROSS_TENANT,
        cov::NO_APPROVAL,
        cov::LOOKUP,
        cov::LOOKUP_ERROR,
    ]
    .concat()
}

fn cid(app: &TestApp, extra: &str) -> Reply {
    let reply = app.get(&format!(
        "/can-i-deploy?pacticipant=plan-tools&version=2.0&environment=production{extra}"
    ));
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply
}

/// How many gaps plan-tools 2.0 has, from its coverage report.
fn gap_count(app: &TestApp) -> usize {
    let body = app.get("/pacticipants/plan-tools/coverage?version=2.0");
    assert_eq!(body.status, 200, "{}", body.text);
    body.json["gaps"].as_array().map_or(0, Vec::len)
}

/// What a refusal naming `n` gaps says (its first line: can-i-deploy's
/// reason goes on with the matrix's own).
fn names_gaps(text: &str, n: usize) {
    let text = text.lines().next().unwrap_or_default();
    assert!(
        text.contains(&format!("has {n} coverage gaps: tool ")),
        "{text}"
    );
    assert!(text.contains("COVERAGE_"), "{text}");
    if n > 3 {
        assert!(text.ends_with(&format!("; and {} more", n - 3)), "{text}");
    }
}

/// plan-tools 2.0 declared, with only `planner`'s call of the destructive
/// tool live (gaps), moved up to SECURITY_VERIFIED; its id.
fn with_gaps(app: &TestApp) -> i64 {
    publish(app, "planner", "1.0", "main", cov::CALL);
    declare(app, "2.0", &[]);
    let id = create_version(app, "plan-tools", "2.0");
    use AdmissionState::*;
    for s in [StaticValidated, ConformanceVerified, SecurityVerified] {
        // the static check may already have reached the first rung
        let _ = move_to(app, id, s, Cause::Broker);
    }
    let got = app.get(ADMISSION);
    assert_eq!(got.json["state"], "SECURITY_VERIFIED", "{}", got.text);
    id
}

#[test]
fn can_i_deploy_with_require_coverage_refuses_a_version_with_gaps() {
    each_backend(|app| {
        let env = json!({"name": "production", "production": true});
        assert_eq!(app.post("/environments", &env).status, 201);
        with_gaps(app);
        let n = gap_count(app);
        assert!(n > 3, "the call alone leaves gaps: {n}");
        let plain = cid(app, "");
        assert_eq!(plain.json["summary"]["deployable"], true, "{}", plain.text);
        assert!(
            !plain.text.contains("coverage gap"),
            "opt-in: {}",
            plain.text
        );

        let no = cid(app, "&requireCoverage=true");
        assert_eq!(no.json["summary"]["deployable"], false, "{}", no.text);
        let reason = no.json["summary"]["reason"].as_str().unwrap_or("");
        assert!(
            reason.starts_with("coverage: plan-tools 2.0 has "),
            "{reason}"
        );
        names_gaps(reason, n);
        let notice = &no.json["notices"][0];
        assert_eq!(notice["type"], "error", "{}", no.text);
        assert_eq!(
            notice["text"].as_str(),
            reason.lines().next(),
            "{}",
            no.text
        );
        let off = cid(app, "&requireCoverage=false");
        assert_eq!(off.json["summary"]["deployable"], true, "{}", off.text);

        for bad in ["maybe", "1", "TRUE"] {
            let query = format!(
                "/can-i-deploy?pacticipant=plan-tools&version=2.0&environment=production&requireCoverage={bad}"
            );
            let no = app.get(&query);
            assert_eq!(no.status, 400, "{bad}: {}", no.text);
            assert!(
                no.json["errors"]["requireCoverage"].is_array(),
                "{}",
                no.text
            );
        }

        // the live contracts now cover every operation: nothing to refuse
        publish(app, "planner", "1.1", "main", &covering());
        assert_eq!(gap_count(app), 0);
        let yes = cid(app, "&requireCoverage=true");
        assert_eq!(yes.json["summary"]["deployable"], true, "{}", yes.text);
    });
}

fn promote(app: &TestApp, body: Value) -> Reply {
    app.post(ADMISSION, &body)
}

fn transitions(app: &TestApp) -> usize {
    app.get(ADMISSION).json["transitions"]
        .as_array()
        .map_or(0, Vec::len)
}

#[test]
fn a_promotion_requiring_coverage_is_refused_while_gaps_remain() {
    each_backend(|app| {
        with_gaps(app);
        let n = gap_count(app);
        let before = transitions(app);
        let no = promote(
            app,
            json!({"to": "REGISTRY_ADMITTED", "requireCoverage": true}),
        );
        assert_eq!(no.status, 409, "{}", no.text);
        let detail = no.json["detail"].as_str().unwrap_or("");
        assert!(
            detail.starts_with(
                "REGISTRY_ADMITTED with coverage required needs no coverage gaps; version 2.0 has "
            ),
            "{detail}"
        );
        names_gaps(detail, n);
        assert!(
            no.json["errors"]["$.requireCoverage"].is_array(),
            "{}",
            no.text
        );
        assert_eq!(no.json["state"], "SECURITY_VERIFIED", "{}", no.text);
        for bad in [json!("yes"), json!(1), json!({})] {
            let body = json!({"to": "REGISTRY_ADMITTED", "requireCoverage": bad});
            let no = promote(app, body.clone());
            assert_eq!(no.status, 400, "{body}: {}", no.text);
            assert!(
                no.json["errors"]["$.requireCoverage"].is_array(),
                "{}",
                no.text
            );
        }
        assert_eq!(transitions(app), before, "nothing stored");

        // opt-in: the same promotion without the flag goes through
        let yes = promote(app, json!({"to": "REGISTRY_ADMITTED"}));
        assert_eq!(yes.status, 200, "{}", yes.text);
        let no = promote(app, json!({"to": "CANARY", "requireCoverage": true}));
        assert_eq!(no.status, 409, "{}", no.text);
        publish(app, "planner", "1.1", "main", &covering());
        let yes = promote(app, json!({"to": "CANARY", "requireCoverage": true}));
        assert_eq!(yes.status, 200, "covered now: {}", yes.text);
        assert_eq!(yes.json["state"], "CANARY");
    });
}
