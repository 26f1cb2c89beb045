//! `canary_stop`: a drift report whose policy says so stops the live
//! deployment of the version in that environment — shown on the
//! deployed-version resource (`canaryStoppedBy`) and the version page, and
//! the registry check there answers `disabled` naming the report; recording
//! the deployment again clears it.

use serde_json::{Value, json};

use crate::drift_actions::{P, digest, report, seed};
use crate::support::{TestApp, each_backend};

fn production_uuid(app: &TestApp) -> String {
    let got = app.get("/environments");
    assert_eq!(got.status, 200, "{}", got.text);
    got.json["_embedded"]["environments"]
        .as_array()
        .and_then(|all| all.iter().find(|e| e["name"] == "production"))
        .and_then(|e| e["uuid"].as_str())
        .expect("production")
        .to_owned()
}

/// Records 2.0.0 as deployed to production; the deployed-version resource.
fn deploy(app: &TestApp, expected: u16) -> Value {
    let env = production_uuid(app);
    let path = format!("/pacticipants/{P}/versions/2.0.0/deployed-versions/environment/{env}");
    let reply = app.post(&path, &json!({}));
    assert_eq!(reply.status, expected, "{}", reply.text);
    reply.json
}

fn check(app: &TestApp) -> Value {
    let body = json!({"provider": P, "version": "2.0.0", "cardDigest": digest('a'),
                      "environment": "production"});
    let reply = app.post("/registry/check", &body);
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

fn deployed(app: &TestApp, uuid: &Value) -> Value {
    let got = app.get(&format!(
        "/deployed-versions/{}",
        uuid.as_str().expect("uuid")
    ));
    assert_eq!(got.status, 200, "{}", got.text);
    got.json
}

#[test]
fn a_canary_stop_stops_the_deployment_until_it_is_recorded_again() {
    each_backend(|app| {
        seed(app);
        let uuid = deploy(app, 201)["uuid"].clone();
        let policy =
            json!({"rules": {"unknown_error_codes": {"threshold": 1, "action": "canary_stop"}}});
        let put = app.put(&format!("/pacticipants/{P}/drift-policy"), &policy);
        assert_eq!(put.status, 201, "{}", put.text);
        assert!(deployed(app, &uuid).get("canaryStoppedBy").is_none());
        let posted = app.post("/drift-reports", &report('a', 3));
        assert_eq!(posted.status, 201, "{}", posted.text);
        let id = posted.json["id"].clone();
        let stopped = deployed(app, &uuid);
        assert_eq!(stopped["canaryStoppedBy"]["driftReport"], id, "{stopped}");
        let answer = check(app);
        assert_eq!(answer["decision"], "disabled", "{answer}");
        assert_eq!(
            answer["reason"],
            format!("canary stopped by drift report {id}")
        );
        let page = app.get_page(&format!("/ui/providers/{P}/versions/2.0.0"));
        assert!(
            page.text
                .contains(&format!("production: canary stopped by drift report {id}")),
            "{}",
            page.text
        );
        let again = deploy(app, 200);
        assert_eq!(again["uuid"], uuid);
        assert!(again.get("canaryStoppedBy").is_none(), "{again}");
        assert!(deployed(app, &uuid).get("canaryStoppedBy").is_none());
        assert_ne!(check(app)["decision"], "disabled");
    });
}

#[test]
fn a_report_under_the_threshold_stops_nothing() {
    each_backend(|app| {
        seed(app);
        let uuid = deploy(app, 201)["uuid"].clone();
        let policy =
            json!({"rules": {"unknown_error_codes": {"threshold": 5, "action": "canary_stop"}}});
        let put = app.put(&format!("/pacticipants/{P}/drift-policy"), &policy);
        assert_eq!(put.status, 201, "{}", put.text);
        assert_eq!(app.post("/drift-reports", &report('a', 2)).status, 201);
        assert!(deployed(app, &uuid).get("canaryStoppedBy").is_none());
        assert_ne!(check(app)["decision"], "disabled");
    });
}
