//! The registry check a router asks: unknown, reverify (a card the version
//! was not verified on), disabled (route disabled by drift in that
//! environment, or quarantined), admitted (only for an admitted state).

use accord_broker::admission::{AdmissionState, Cause};
use serde_json::{Value, json};

use crate::admission::move_to;
use crate::drift_actions::{P, digest, report, seed};
use crate::support::{TestApp, each_backend};

fn check(app: &TestApp, version: &str, card: char, environment: Option<&str>) -> Value {
    let mut body = json!({"provider": P, "version": version, "cardDigest": digest(card)});
    if let Some(env) = environment {
        body["environment"] = json!(env);
    }
    let reply = app.post("/registry/check", &body);
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

/// Moves 2.0.0 up the ladder to REGISTRY_ADMITTED (the evidence-driven
/// moves are not built yet: a token stands in for them).
fn admit(app: &TestApp) {
    let id = version_id(app);
    for to in [
        AdmissionState::StaticValidated,
        AdmissionState::ConformanceVerified,
        AdmissionState::SecurityVerified,
        AdmissionState::RegistryAdmitted,
    ] {
        move_to(app, id, to, Cause::Token("test".into())).expect("allowed");
    }
}

fn version_id(app: &TestApp) -> i64 {
    let pool = accord_broker::db::connect(&app.database.url, 1).expect("connect");
    let mut conn = pool.get().expect("connection");
    let p = accord_broker::store::pacticipants::find_by_name(&mut conn, P)
        .expect("query")
        .expect("provider");
    accord_broker::store::versions::find_by_number(&mut conn, p.id, "2.0.0")
        .expect("query")
        .expect("version")
        .id
}

#[test]
fn the_check_answers_unknown_reverify_admitted_and_disabled() {
    each_backend(|app| {
        seed(app);
        assert_eq!(check(app, "9.9.9", 'a', None)["decision"], "unknown");
        let draft = check(app, "2.0.0", 'a', None);
        assert_eq!(draft["decision"], "unknown", "{draft}");
        assert!(
            draft["reason"]
                .as_str()
                .is_some_and(|r| r.contains("DRAFT"))
        );
        assert_eq!(check(app, "2.0.0", 'b', None)["decision"], "reverify");
        assert_eq!(app.get("/registry/agents").json["agents"], json!([]));
        admit(app);
        assert_eq!(check(app, "2.0.0", 'a', None)["decision"], "admitted");
        let listed = app.get("/registry/agents");
        assert_eq!(listed.status, 200, "{}", listed.text);
        assert_eq!(
            listed.json["agents"],
            json!([{"provider": P, "version": "2.0.0", "admission": "REGISTRY_ADMITTED",
                    "agentCardDigests": [digest('a')]}])
        );
        skills_filter_the_listing(app);
        let policy =
            json!({"rules": {"unknown_error_codes": {"threshold": 1, "action": "route_disable"}}});
        let put = app.put(&format!("/pacticipants/{P}/drift-policy"), &policy);
        assert_eq!(put.status, 201, "{}", put.text);
        crate::environments::create_environment(app, "staging");
        let posted = app.post("/drift-reports", &report('a', 2));
        assert_eq!(posted.status, 201, "{}", posted.text);
        let disabled = check(app, "2.0.0", 'a', Some("production"));
        assert_eq!(disabled["decision"], "disabled", "{disabled}");
        assert_eq!(
            check(app, "2.0.0", 'a', Some("staging"))["decision"],
            "admitted"
        );
        let quarantined = app.post("/drift-reports", &report('b', 0));
        assert_eq!(
            quarantined.json["admission"], "QUARANTINED",
            "{}",
            quarantined.text
        );
        assert_eq!(
            check(app, "2.0.0", 'a', Some("staging"))["decision"],
            "disabled"
        );
    });
}

#[test]
fn a_bad_question_is_refused_naming_the_field() {
    each_backend(|app| {
        seed(app);
        let bad_digest = json!({"provider": P, "version": "2.0.0", "cardDigest": "md5:1"});
        let refused = app.post("/registry/check", &bad_digest);
        assert_eq!(refused.status, 400, "{}", refused.text);
        assert!(refused.text.contains("cardDigest"), "{}", refused.text);
        let unknown_env = json!({"provider": P, "version": "2.0.0", "cardDigest": digest('a'),
                                 "environment": "mars"});
        let refused = app.post("/registry/check", &unknown_env);
        assert_eq!(refused.status, 422, "{}", refused.text);
        let extra = json!({"provider": P, "version": "2.0.0", "cardDigest": digest('a'), "x": 1});
        assert_eq!(app.post("/registry/check", &extra).status, 400);
    });
}

/// Agent Card `skills` declared for 2.0.0.
fn declared_card(skills: &[&str]) -> Value {
    json!({
        "name": P, "description": "Plans work", "version": "2.0.0", "capabilities": {},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
        "supportedInterfaces": [{"url": "http://127.0.0.1:9/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "skills": skills.iter().map(|id| json!({"id": id, "name": id, "description": "d", "tags": []})).collect::<Vec<_>>()
    })
}

/// With 2.0.0 admitted: no declared card, no skill match; declaring a card
/// (a new digest) sends the version back to DRAFT; admitted again, it is
/// listed by its card's skills, saying the digest is not the verified one.
fn skills_filter_the_listing(app: &TestApp) {
    let agents = |q: &str| {
        let got = app.get(&format!("/registry/agents{q}"));
        assert_eq!(got.status, 200, "{}", got.text);
        got.json["agents"].clone()
    };
    assert_eq!(agents("?skill=work-planning"), json!([]));
    let put = app.put(
        &format!("/pacticipants/{P}/versions/2.0.0/declarations/agent-card"),
        &declared_card(&["work-planning", "review"]),
    );
    assert_eq!(put.status, 201, "{}", put.text);
    assert_eq!(
        agents("?skill=work-planning"),
        json!([]),
        "a new card digest starts the version's evidence over"
    );
    assert_eq!(
        put.json["staticCheck"]["admission"], "DRAFT",
        "{}",
        put.text
    );
    admit(app);
    let listed = agents("?skill=work-planning");
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(listed[0]["version"], "2.0.0");
    assert_eq!(listed[0]["declaredAgentCardDigest"], put.json["digest"]);
    assert_eq!(listed[0]["declaredAgentCardVerified"], false);
    assert!(
        listed[0]["note"]
            .as_str()
            .is_some_and(|n| n.contains("reverify"))
    );
    assert_eq!(agents("?skill=review"), listed);
    assert_eq!(agents("?skill=translate"), json!([]));
    assert_eq!(app.get("/registry/agents?skill=").status, 400);
    let long = "s".repeat(300);
    assert_eq!(
        app.get(&format!("/registry/agents?skill={long}")).status,
        400
    );
}
