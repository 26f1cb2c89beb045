//! Promotions (issue 25): `POST …/admission` allowed and refused with the
//! reason, no hand-made evidence states, no quarantine lifted by hand, bad
//! bodies named and nothing stored; deployments into stage environments;
//! can-i-deploy's `requireAdmission`.

use accord_broker::admission::{AdmissionState, Cause};
use serde_json::{Value, json};

use crate::admission::{create_version, move_to};
use crate::support::{TestApp, each_backend};
use crate::webhooks::{Receiver, each_backend_fast, hook, queued};

const ADMISSION: &str = "/pacticipants/agent/versions/1.2.0/admission";

/// Moves version `id` up the ladder, one rung at a time, to `to`.
fn climb(app: &TestApp, id: i64, to: AdmissionState) {
    use AdmissionState::*;
    for s in [StaticValidated, ConformanceVerified, SecurityVerified] {
        move_to(app, id, s, Cause::Broker).expect("evidence move");
        if s == to {
            return;
        }
    }
    move_to(app, id, RegistryAdmitted, Cause::Broker).expect("admitted");
}

fn promote(app: &TestApp, path: &str, body: Value) -> crate::support::Reply {
    app.post(path, &body)
}

fn transitions(app: &TestApp, path: &str) -> usize {
    let got = app.get(path);
    assert_eq!(got.status, 200, "{}", got.text);
    got.json["transitions"].as_array().map_or(0, Vec::len)
}

fn refused_with(reply: &crate::support::Reply, detail: &str) {
    assert_eq!(reply.status, 409, "{}", reply.text);
    assert_eq!(reply.json["detail"], detail, "{}", reply.text);
    assert_eq!(reply.json["type"], "urn:accord:problem:conflict");
}

#[test]
fn each_promotion_is_allowed_with_its_evidence_and_refused_without_it() {
    each_backend(|app| {
        let id = create_version(app, "agent", "1.2.0");
        climb(app, id, AdmissionState::StaticValidated);
        let no = promote(app, ADMISSION, json!({"to": "REGISTRY_ADMITTED"}));
        refused_with(
            &no,
            "REGISTRY_ADMITTED needs SECURITY_VERIFIED evidence; version 1.2.0 is STATIC_VALIDATED",
        );
        let no = promote(app, ADMISSION, json!({"to": "CANARY"}));
        refused_with(
            &no,
            "CANARY needs REGISTRY_ADMITTED; version 1.2.0 is STATIC_VALIDATED",
        );
        let no = promote(app, ADMISSION, json!({"to": "ACTIVE"}));
        refused_with(
            &no,
            "ACTIVE needs REGISTRY_ADMITTED; version 1.2.0 is STATIC_VALIDATED",
        );
        assert_eq!(transitions(app, ADMISSION), 1, "nothing stored");

        move_to(app, id, AdmissionState::ConformanceVerified, Cause::Broker).expect("cv");
        move_to(app, id, AdmissionState::SecurityVerified, Cause::Broker).expect("sv");
        let yes = promote(
            app,
            ADMISSION,
            json!({"to": "REGISTRY_ADMITTED", "reason": "release review 42"}),
        );
        assert_eq!(yes.status, 200, "{}", yes.text);
        assert_eq!(yes.json["state"], "REGISTRY_ADMITTED");
        assert_eq!(yes.json["reason"], "release review 42");
        let last = &yes.json["transitions"][3];
        assert_eq!(last["from"], "SECURITY_VERIFIED");
        assert_eq!(last["cause"], json!({"kind": "token"}), "an open broker");
        for to in ["CANARY", "ACTIVE"] {
            let yes = promote(app, ADMISSION, json!({ "to": to }));
            assert_eq!(yes.status, 200, "{}", yes.text);
            assert_eq!(yes.json["state"], to);
            assert_eq!(yes.json["reason"], format!("promoted to {to} by hand"));
        }
        let no = promote(app, ADMISSION, json!({"to": "REJECTED"}));
        assert_eq!(no.status, 409, "{}", no.text);
        assert!(
            no.json["detail"]
                .as_str()
                .is_some_and(|d| d.contains("not rejected"))
        );
        let yes = promote(app, ADMISSION, json!({"to": "DEPRECATED"}));
        assert_eq!(yes.status, 200, "{}", yes.text);
        let no = promote(app, ADMISSION, json!({"to": "ACTIVE"}));
        assert_eq!(no.status, 409, "{}", no.text);
        assert_eq!(transitions(app, ADMISSION), 7);

        create_version(app, "agent", "0.9.0");
        let path = "/pacticipants/agent/versions/0.9.0/admission";
        let yes = promote(app, path, json!({"to": "REJECTED", "reason": "unsafe"}));
        assert_eq!(yes.status, 200, "{}", yes.text);
        assert_eq!(yes.json["state"], "REJECTED");
        let missing = promote(
            app,
            "/pacticipants/agent/versions/9/admission",
            json!({"to": "DEPRECATED"}),
        );
        assert_eq!(missing.status, 404, "{}", missing.text);
    });
}

#[test]
fn evidence_states_are_not_set_and_a_quarantine_not_lifted_by_hand() {
    each_backend(|app| {
        let id = create_version(app, "agent", "1.2.0");
        for to in [
            "DRAFT",
            "STATIC_VALIDATED",
            "CONFORMANCE_VERIFIED",
            "SECURITY_VERIFIED",
            "QUARANTINED",
        ] {
            let no = promote(app, ADMISSION, json!({ "to": to }));
            assert_eq!(no.status, 400, "{to}: {}", no.text);
            assert!(no.json["errors"]["$.to"].is_array(), "{}", no.text);
            assert!(no.json["detail"].as_str().is_some_and(|d| d.contains(to)));
        }
        assert_eq!(transitions(app, ADMISSION), 0);
        climb(app, id, AdmissionState::RegistryAdmitted);
        move_to(app, id, AdmissionState::Quarantined, Cause::DriftReport(1)).expect("q");
        for to in ["REGISTRY_ADMITTED", "CANARY", "ACTIVE"] {
            let no = promote(app, ADMISSION, json!({ "to": to }));
            refused_with(
                &no,
                "version 1.2.0 is QUARANTINED by runtime drift: a quarantine is lifted by a new verification that clears it, not by hand",
            );
        }
        assert_eq!(app.get(ADMISSION).json["state"], "QUARANTINED");
        let yes = promote(app, ADMISSION, json!({"to": "DEPRECATED"}));
        assert_eq!(yes.status, 200, "{}", yes.text);
    });
}

#[test]
fn bad_promotion_bodies_are_a_400_naming_the_field_and_store_nothing() {
    each_backend(|app| {
        create_version(app, "agent", "1.2.0");
        let long = "r".repeat(5000);
        let cases = [
            (json!({}), "$.to"),
            (json!({"to": "NOPE"}), "$.to"),
            (json!({"to": 5}), "$.to"),
            (json!({"to": ["DEPRECATED"]}), "$.to"),
            (json!({"to": "DEPRECATED", "reason": "a\u{0}b"}), "$.reason"),
            (json!({"to": "DEPRECATED", "reason": 7}), "$.reason"),
            (json!({"to": "DEPRECATED", "reason": long}), "$.reason"),
        ];
        for (body, field) in cases {
            let no = promote(app, ADMISSION, body.clone());
            assert_eq!(no.status, 400, "{body}: {}", no.text);
            assert!(no.json["errors"][field].is_array(), "{body}: {}", no.text);
        }
        assert_eq!(transitions(app, ADMISSION), 0);
    });
}

#[test]
fn the_cause_is_the_callers_token_and_each_promotion_fires_admission_changed_once() {
    each_backend_fast(|app| {
        let id = create_version(app, "agent", "1.2.0");
        climb(app, id, AdmissionState::SecurityVerified);
        let receiver = Receiver::start(&[]);
        let created = app.post(
            "/webhooks",
            &hook(&receiver, &["admission_changed"], None, Some("agent")),
        );
        assert_eq!(created.status, 201, "{}", created.text);
        let before = queued(app, "admission_changed");
        let token = app.post("/tokens", &json!({"name": "release-bot", "role": "admin"}));
        assert_eq!(token.status, 201, "{}", token.text);
        let secret = token.json["token"].as_str().expect("secret").to_owned();
        let post = |body: Value| {
            app.send(
                app.client()
                    .post(format!("{}{ADMISSION}", app.url))
                    .bearer_auth(&secret)
                    .header("Content-Type", "application/json")
                    .body(body.to_string()),
            )
        };
        let yes = post(json!({"to": "REGISTRY_ADMITTED"}));
        assert_eq!(yes.status, 200, "{}", yes.text);
        let last = &yes.json["transitions"][3];
        assert_eq!(
            last["cause"],
            json!({"kind": "token", "name": "release-bot"})
        );
        assert_eq!(queued(app, "admission_changed"), before + 1);
        let no = post(json!({"to": "REJECTED"}));
        assert_eq!(no.status, 409, "{}", no.text);
        assert_eq!(
            queued(app, "admission_changed"),
            before + 1,
            "a refusal fires nothing"
        );
        let anonymous = promote(app, ADMISSION, json!({"to": "CANARY"}));
        assert_eq!(anonymous.status, 401, "{}", anonymous.text);
    });
}
