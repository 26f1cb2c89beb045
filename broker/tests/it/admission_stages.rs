//! Environments marked for an admission stage (`admissionStage`): a
//! deployment moves an admitted version to CANARY / ACTIVE in the same
//! request, and leaves an unadmitted one where it is (recorded, and said);
//! can-i-deploy's `requireAdmission` gate.

use accord_broker::admission::{AdmissionState, Cause};
use serde_json::{Value, json};

use crate::admission::{create_version, move_to};
use crate::support::{TestApp, each_backend};

fn environment(app: &TestApp, body: Value) -> String {
    let created = app.post("/environments", &body);
    assert_eq!(created.status, 201, "{}", created.text);
    created.json["uuid"].as_str().expect("uuid").to_owned()
}

fn deploy(app: &TestApp, version: &str, env: &str) -> Value {
    let path =
        format!("/pacticipants/agent/versions/{version}/deployed-versions/environment/{env}");
    let reply = app.post(&path, &json!({}));
    assert!(matches!(reply.status, 200 | 201), "{}", reply.text);
    reply.json
}

fn admitted(app: &TestApp, version: &str) -> i64 {
    use AdmissionState::*;
    let id = create_version(app, "agent", version);
    for s in [
        StaticValidated,
        ConformanceVerified,
        SecurityVerified,
        RegistryAdmitted,
    ] {
        move_to(app, id, s, Cause::Broker).expect("climb");
    }
    id
}

fn admission(app: &TestApp, version: &str) -> Value {
    let got = app.get(&format!("/pacticipants/agent/versions/{version}/admission"));
    assert_eq!(got.status, 200, "{}", got.text);
    got.json
}

#[test]
fn an_environment_carries_its_stage_and_refuses_an_unknown_one() {
    each_backend(|app| {
        let uuid = environment(app, json!({"name": "canary", "admissionStage": "canary"}));
        let got = app.get(&format!("/environments/{uuid}"));
        assert_eq!(got.json["admissionStage"], "canary", "{}", got.text);
        let plain = environment(app, json!({"name": "staging"}));
        assert!(
            app.get(&format!("/environments/{plain}"))
                .json
                .get("admissionStage")
                .is_none()
        );
        for bad in [json!("beta"), json!(3), json!("CANARY")] {
            let body = json!({"name": "x", "admissionStage": bad});
            let no = app.post("/environments", &body);
            assert_eq!(no.status, 400, "{body}: {}", no.text);
            assert!(
                no.json["errors"]["$.admissionStage"].is_array(),
                "{}",
                no.text
            );
        }
        let listed = app.get("/environments");
        assert_eq!(
            listed.json["_embedded"]["environments"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );
        let put = app.put(
            &format!("/environments/{uuid}"),
            &json!({"admissionStage": "active"}),
        );
        assert_eq!(put.json["admissionStage"], "active", "{}", put.text);
        let kept = app.put(
            &format!("/environments/{uuid}"),
            &json!({"displayName": "Canary"}),
        );
        assert_eq!(kept.json["admissionStage"], "active", "{}", kept.text);
        let cleared = app.put(
            &format!("/environments/{uuid}"),
            &json!({"admissionStage": null}),
        );
        assert!(
            cleared.json.get("admissionStage").is_none(),
            "{}",
            cleared.text
        );
    });
}

#[test]
fn a_deployment_into_a_stage_environment_moves_an_admitted_version() {
    each_backend(|app| {
        let canary = environment(app, json!({"name": "canary", "admissionStage": "canary"}));
        let prod = environment(
            app,
            json!({"name": "production", "production": true, "admissionStage": "active"}),
        );
        admitted(app, "2.0.0");
        let d = deploy(app, "2.0.0", &canary);
        assert_eq!(d["admission"]["moved"], true, "{d}");
        assert_eq!(d["admission"]["state"], "CANARY");
        let a = admission(app, "2.0.0");
        assert_eq!(a["state"], "CANARY");
        let last = &a["transitions"][4];
        assert_eq!(
            last["cause"],
            json!({"kind": "deployment", "uuid": d["uuid"]})
        );
        assert_eq!(last["reason"], "deployed to canary environment canary");
        let d = deploy(app, "2.0.0", &prod);
        assert_eq!(d["admission"]["state"], "ACTIVE", "{d}");
        assert_eq!(admission(app, "2.0.0")["state"], "ACTIVE");
        let again = deploy(app, "2.0.0", &canary);
        assert_eq!(again["admission"]["moved"], false, "{again}");
        assert_eq!(admission(app, "2.0.0")["state"], "ACTIVE", "no move back");

        // REGISTRY_ADMITTED may skip CANARY
        admitted(app, "2.1.0");
        let d = deploy(app, "2.1.0", &prod);
        assert_eq!(d["admission"]["state"], "ACTIVE", "{d}");
    });
}

#[test]
fn a_deployment_of_an_unadmitted_version_is_recorded_and_moves_nothing() {
    each_backend(|app| {
        let canary = environment(app, json!({"name": "canary", "admissionStage": "canary"}));
        let plain = environment(app, json!({"name": "staging"}));
        let id = create_version(app, "agent", "1.0.0");
        move_to(app, id, AdmissionState::StaticValidated, Cause::Broker).expect("sv");
        let d = deploy(app, "1.0.0", &canary);
        assert_eq!(d["currentlyDeployed"], true, "the deployment is a fact");
        assert_eq!(d["admission"]["moved"], false, "{d}");
        assert_eq!(d["admission"]["state"], "STATIC_VALIDATED");
        let a = admission(app, "1.0.0");
        assert_eq!(a["state"], "STATIC_VALIDATED");
        assert_eq!(a["transitions"].as_array().map(Vec::len), Some(1));
        let held = &a["deploymentsNotMoved"][0];
        assert_eq!(held["environment"], "canary", "{a}");
        assert_eq!(held["state"], "STATIC_VALIDATED");
        assert!(
            held["reason"]
                .as_str()
                .is_some_and(|r| r.contains("REGISTRY_ADMITTED is needed"))
        );
        assert!(
            held["deployedVersion"]
                .as_str()
                .is_some_and(|h| h.ends_with(d["uuid"].as_str().unwrap_or("?")))
        );
        let live = app.get(&format!(
            "/environments/{canary}/deployed-versions/currently-deployed"
        ));
        assert_eq!(
            live.json["_embedded"]["deployedVersions"]
                .as_array()
                .map(Vec::len),
            Some(1),
            "{}",
            live.text
        );

        let d = deploy(app, "1.0.0", &plain);
        assert!(d.get("admission").is_none(), "no stage, nothing said: {d}");
        assert_eq!(
            admission(app, "1.0.0")["deploymentsNotMoved"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
        // recorded again (twice) into the same stage environment: still one
        // row for this version, environment and reason
        for _ in 0..2 {
            let again = deploy(app, "1.0.0", &canary);
            assert_eq!(again["admission"]["moved"], false, "{again}");
        }
        let a = admission(app, "1.0.0");
        assert_eq!(
            a["deploymentsNotMoved"].as_array().map(Vec::len),
            Some(1),
            "{a}"
        );
        // and the provider version page says it in its admission block
        let page = app.get_page("/ui/providers/agent/versions/1.0.0");
        assert_eq!(page.status, 200, "{}", page.text);
        assert!(
            page.text
                .contains("Deployments that did not move the admission"),
            "{}",
            page.text
        );
        assert!(
            page.text.contains("REGISTRY_ADMITTED is needed"),
            "{}",
            page.text
        );
    });
}

fn cid(app: &TestApp, extra: &str) -> crate::support::Reply {
    app.get(&format!(
        "/can-i-deploy?pacticipant=agent&version=1.2.0&environment=production{extra}"
    ))
}

#[test]
fn can_i_deploy_refuses_a_version_below_the_required_admission() {
    each_backend(|app| {
        environment(app, json!({"name": "production", "production": true}));
        let id = create_version(app, "agent", "1.2.0");
        move_to(app, id, AdmissionState::StaticValidated, Cause::Broker).expect("sv");
        let plain = cid(app, "");
        assert_eq!(plain.status, 200, "{}", plain.text);
        assert_eq!(plain.json["summary"]["deployable"], true, "{}", plain.text);

        let no = cid(app, "&requireAdmission=REGISTRY_ADMITTED");
        assert_eq!(no.status, 200, "{}", no.text);
        assert_eq!(no.json["summary"]["deployable"], false, "{}", no.text);
        let reason = no.json["summary"]["reason"].as_str().unwrap_or("");
        assert!(
            reason
                .starts_with("admission: agent 1.2.0 is STATIC_VALIDATED, below REGISTRY_ADMITTED"),
            "{reason}"
        );
        let notice = &no.json["notices"][0];
        assert_eq!(notice["type"], "error", "{}", no.text);
        assert!(
            notice["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("admission: "))
        );
        let yes = cid(app, "&requireAdmission=STATIC_VALIDATED");
        assert_eq!(yes.json["summary"]["deployable"], true, "{}", yes.text);

        for s in [
            AdmissionState::ConformanceVerified,
            AdmissionState::SecurityVerified,
            AdmissionState::RegistryAdmitted,
        ] {
            move_to(app, id, s, Cause::Broker).expect("climb");
        }
        let yes = cid(app, "&requireAdmission=REGISTRY_ADMITTED");
        assert_eq!(yes.json["summary"]["deployable"], true, "{}", yes.text);
        let no = cid(app, "&requireAdmission=ACTIVE");
        assert_eq!(no.json["summary"]["deployable"], false, "{}", no.text);

        move_to(app, id, AdmissionState::Quarantined, Cause::DriftReport(1)).expect("q");
        let no = cid(app, "&requireAdmission=DRAFT");
        let reason = no.json["summary"]["reason"].as_str().unwrap_or("");
        assert!(
            reason.contains("QUARANTINED, off the admission ladder"),
            "{reason}"
        );

        for bad in ["BOGUS", "DEPRECATED", "registry_admitted"] {
            let no = cid(app, &format!("&requireAdmission={bad}"));
            assert_eq!(no.status, 400, "{bad}: {}", no.text);
            assert!(
                no.json["errors"]["requireAdmission"].is_array(),
                "{}",
                no.text
            );
        }
    });
}
