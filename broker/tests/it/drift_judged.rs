//! A drift judged per consumer: when the broker holds the observed
//! `tools/list` (the new build was declared), the change from the verified
//! one is classified against each live consumer's own expectations — it
//! breaks the consumer that switches on the removed enum value and leaves
//! the other unaffected; an observed digest the broker does not know keeps
//! "must re-verify". In the report's answer, the ladder and the page; and
//! a card drift: a skill removed breaks the consumer that uses it.

use serde_json::{Value, json};

use crate::declarations_diff::{publish, tools};
use crate::environments::create_environment;
use crate::support::{TestApp, each_backend};

const P: &str = "plan-tools";

/// Declares `status` as version `version`'s carol tools; the digest.
fn declare(app: &TestApp, version: &str, status: &[&str]) -> String {
    let path = format!("/pacticipants/{P}/versions/{version}/declarations/mcp-tools/carol");
    let reply = app.put(&path, &tools(status));
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["digest"].as_str().expect("digest").to_owned()
}

/// A successful verification of planner's contract by 3.4 on `digest`.
fn verify(app: &TestApp, digest: &str) {
    let got = app.get(&format!("/pacts/provider/{P}/consumer/planner/version/1.0"));
    let href = got.json["_links"]["pb:publish-verification-results"]["href"]
        .as_str()
        .expect("verification link");
    let path = href.split_once("://").map_or(href, |(_, rest)| {
        rest.split_once('/').map_or(rest, |(_, p)| p)
    });
    let body = json!({"success": true, "providerApplicationVersion": "3.4",
        "declarations": [{"kind": "mcp/tools/list", "profile": "carol",
            "protocolVersion": "2026-07-28", "digest": digest, "entries": 1}]});
    let reply = app.post(&format!("/{path}"), &body);
    assert_eq!(reply.status, 201, "{}", reply.text);
}

/// planner switches on `draft`, auditor does not; 3.4 verified on the
/// full enum; production exists.
fn seed(app: &TestApp) {
    publish(app, "planner", "draft, ready");
    publish(app, "auditor", "ready, rejected");
    let verified = declare(app, "3.4", &["draft", "ready", "rejected"]);
    verify(app, &verified);
    create_environment(app, "production");
}

fn report(app: &TestApp, observed: &str) -> Value {
    let body = json!({"provider": P, "version": "3.4", "environment": "production",
        "window": {"start": "2026-12-05T04:00:00Z", "end": "2026-12-05T04:05:00Z"},
        "toolsDigests": {"carol": observed}});
    let reply = app.post("/drift-reports", &body);
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json
}

fn consumer<'a>(consumers: &'a Value, name: &str) -> &'a Value {
    consumers
        .as_array()
        .and_then(|all| all.iter().find(|c| c["consumer"] == name))
        .unwrap_or_else(|| panic!("{name} in {consumers}"))
}

fn assert_judged(consumers: &Value) {
    let planner = consumer(consumers, "planner");
    assert_eq!(planner["verdict"], "breaks", "{consumers}");
    assert_eq!(planner["breaks"][0]["code"], "BREAKING_ENUM_REMOVAL");
    assert_eq!(
        planner["breaks"][0]["path"],
        "mcpTools[review].result.status"
    );
    assert_eq!(
        planner["note"],
        "breaks planner 1.0: BREAKING_ENUM_REMOVAL at mcpTools[review].result.status"
    );
    let auditor = consumer(consumers, "auditor");
    assert_eq!(auditor["verdict"], "unaffected", "{consumers}");
    assert_eq!(auditor["breaks"], json!([]));
}

#[test]
fn a_declared_drift_breaks_the_consumer_relying_on_the_removed_value_only() {
    each_backend(|app| {
        seed(app);
        let observed = declare(app, "3.5", &["ready", "rejected"]);
        let answer = report(app, &observed);
        assert_eq!(answer["drift"]["toolsDiffer"], json!(["carol"]));
        assert_judged(&answer["consumers"]);
        let ladder = app.get(&format!("/pacticipants/{P}/versions/3.4/drift"));
        assert_eq!(ladder.status, 200, "{}", ladder.text);
        assert_judged(&ladder.json["consumers"]);
        let page = app.get_page(&format!("/ui/providers/{P}/versions/3.4"));
        assert!(
            page.text.contains(
                "breaks planner 1.0: BREAKING_ENUM_REMOVAL at mcpTools[review].result.status"
            ),
            "{}",
            page.text
        );
        assert!(page.text.contains("verdict-unaffected"), "{}", page.text);
    });
}

#[test]
fn an_observed_content_the_broker_does_not_know_must_be_re_verified() {
    each_backend(|app| {
        seed(app);
        let unknown = format!("sha256:{}", "e".repeat(64));
        let answer = report(app, &unknown);
        for name in ["planner", "auditor"] {
            let c = consumer(&answer["consumers"], name);
            assert_eq!(c["verdict"], "mustReverify", "{answer}");
            assert_eq!(c["note"], "relies on the tools, must re-verify");
        }
    });
}

/// An Agent Card of planning-agent listing `skills`.
fn card(skills: &[&str]) -> Value {
    json!({
        "name": "planning-agent", "description": "Plans work", "version": "2", "capabilities": {},
        "defaultInputModes": ["application/json"], "defaultOutputModes": ["application/json"],
        "supportedInterfaces": [{"url": "http://127.0.0.1:9/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "skills": skills.iter().map(|id| json!({"id": id, "name": id, "description": "d", "tags": []})).collect::<Vec<_>>()
    })
}

fn declare_card(app: &TestApp, version: &str, skills: &[&str]) -> String {
    let path = format!("/pacticipants/planning-agent/versions/{version}/declarations/agent-card");
    let reply = app.put(&path, &card(skills));
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["digest"].as_str().expect("digest").to_owned()
}

#[test]
fn a_declared_card_without_a_skill_breaks_the_consumer_using_it() {
    use crate::drift_actions as actions;
    each_backend(|app| {
        actions::seed(app);
        let verified = declare_card(app, "2.0.0", &["work-planning", "plan-review"]);
        actions::verify(
            app,
            json!([{"kind": "a2a/agent-card", "profile": "anonymous", "protocolVersion": "1.0",
                    "digest": verified, "entries": 2}]),
        );
        let observed = declare_card(app, "2.0.1", &["work-planning"]);
        let body = json!({"provider": "planning-agent", "version": "2.0.0",
            "environment": "production",
            "window": {"start": "2026-12-05T04:00:00Z", "end": "2026-12-05T04:05:00Z"},
            "agentCardDigest": observed});
        let reply = app.post("/drift-reports", &body);
        assert_eq!(reply.status, 201, "{}", reply.text);
        let orchestrator = consumer(&reply.json["consumers"], "orchestrator");
        assert_eq!(orchestrator["verdict"], "breaks", "{}", reply.text);
        let codes: Vec<&Value> = orchestrator["breaks"]
            .as_array()
            .map(|b| b.iter().map(|b| &b["code"]).collect())
            .unwrap_or_default();
        assert!(
            codes.contains(&&json!("BREAKING_SKILL_REMOVED")),
            "{}",
            reply.text
        );
    });
}

/// Ingestion speed when every report is judged per consumer (a declared
/// observed tools list, two live consumers) on SQLite. Measures, never
/// asserts a time (the machine is shared):
/// `cargo test -p accord-broker --test it -- --ignored measure_judged_drift_ingestion --nocapture`
#[test]
#[ignore = "a measurement: prints reports per second"]
fn measure_judged_drift_ingestion() {
    let app = TestApp::start(crate::support::TestDb::Sqlite, |_| {});
    seed(&app);
    let observed = declare(&app, "3.5", &["ready", "rejected"]);
    // warn only: a quarantine would not change the work per report
    let policy = json!({"rules": {"tools_digest": {"threshold": 1, "action": "warn"}}});
    assert_eq!(
        app.put(&format!("/pacticipants/{P}/drift-policy"), &policy)
            .status,
        201
    );
    let body = json!({"provider": P, "version": "3.4", "environment": "production",
        "window": {"start": "2026-12-05T04:00:00Z", "end": "2026-12-05T04:05:00Z"},
        "toolsDigests": {"carol": observed}})
    .to_string();
    crate::drift_reports::ingest(&app, "judged drift report ingestion", &body, 250, |reply| {
        let planner = consumer(&reply.json["consumers"], "planner");
        assert_eq!(planner["verdict"], "breaks");
    });
}
