//! Admission state per provider version: DRAFT without a transition, each
//! recorded transition shown with from, to, when, cause and reason, and a
//! move the state machine refuses stores nothing.

use accord_broker::admission::{AdmissionState, Cause};
use accord_broker::store::admission::{self, TransitionError};
use serde_json::json;

use crate::support::{TestApp, each_backend};

/// Creates version `number` of `pacticipant`; its id.
pub fn create_version(app: &TestApp, pacticipant: &str, number: &str) -> i64 {
    let path = format!("/pacticipants/{pacticipant}/versions/{number}");
    let reply = app.put(&path, &json!({}));
    assert!(reply.status < 300, "{}", reply.text);
    let pool = accord_broker::db::connect(&app.database.url, 1).expect("connect");
    let mut conn = pool.get().expect("connection");
    let p = accord_broker::store::pacticipants::find_by_name(&mut conn, pacticipant)
        .expect("query")
        .expect("pacticipant");
    accord_broker::store::versions::find_by_number(&mut conn, p.id, number)
        .expect("query")
        .expect("version")
        .id
}

/// Moves version `id` to `to` directly through the store.
pub fn move_to(
    app: &TestApp,
    id: i64,
    to: AdmissionState,
    cause: Cause,
) -> Result<(), TransitionError> {
    let pool = accord_broker::db::connect(&app.database.url, 1).expect("connect");
    let mut conn = pool.get().expect("connection");
    admission::transition(&mut conn, id, to, &cause, "set by the test").map(|_| ())
}

#[test]
fn a_version_without_transitions_is_draft_and_an_unknown_one_is_404() {
    each_backend(|app| {
        create_version(app, "agent", "1.0.0");
        let got = app.get("/pacticipants/agent/versions/1.0.0/admission");
        assert_eq!(got.status, 200, "{}", got.text);
        assert_eq!(got.json["state"], "DRAFT");
        assert_eq!(got.json["transitions"], json!([]));
        assert!(got.json["reason"].as_str().is_some_and(|r| !r.is_empty()));
        assert!(
            got.json["_links"]["self"]["href"]
                .as_str()
                .is_some_and(|h| h.ends_with("/pacticipants/agent/versions/1.0.0/admission"))
        );
        let missing = app.get("/pacticipants/agent/versions/9/admission");
        assert_eq!(missing.status, 404, "{}", missing.text);
        assert_eq!(
            app.get("/pacticipants/nobody/versions/1/admission").status,
            404
        );
    });
}

#[test]
fn every_transition_is_shown_with_its_cause_and_the_last_one_is_the_state() {
    each_backend(|app| {
        let id = create_version(app, "agent", "2.0.0");
        move_to(
            app,
            id,
            AdmissionState::StaticValidated,
            Cause::Token("ci".into()),
        )
        .expect("allowed");
        move_to(app, id, AdmissionState::Quarantined, Cause::DriftReport(7)).expect("allowed");
        let got = app.get("/pacticipants/agent/versions/2.0.0/admission");
        assert_eq!(got.status, 200, "{}", got.text);
        assert_eq!(got.json["state"], "QUARANTINED");
        assert_eq!(got.json["reason"], "set by the test");
        let t = &got.json["transitions"];
        assert_eq!(t[0]["from"], "DRAFT");
        assert_eq!(t[0]["to"], "STATIC_VALIDATED");
        assert_eq!(t[0]["cause"], json!({"kind": "token", "name": "ci"}));
        assert_eq!(t[1]["from"], "STATIC_VALIDATED");
        assert_eq!(t[1]["cause"], json!({"kind": "driftReport", "id": 7}));
        assert!(t[1]["at"].as_str().is_some_and(|at| at.ends_with('Z')));
        assert_eq!(got.json["since"], t[1]["at"]);
    });
}

#[test]
fn a_move_the_state_machine_refuses_is_not_recorded() {
    each_backend(|app| {
        let id = create_version(app, "agent", "3.0.0");
        let refused = move_to(app, id, AdmissionState::Active, Cause::Broker)
            .expect_err("DRAFT cannot jump to ACTIVE");
        assert!(
            matches!(refused, TransitionError::Refused(_)),
            "{refused:?}"
        );
        move_to(app, id, AdmissionState::Deprecated, Cause::Broker).expect("allowed");
        let again = move_to(app, id, AdmissionState::Quarantined, Cause::DriftReport(1));
        assert!(
            matches!(again, Err(TransitionError::Refused(_))),
            "{again:?}"
        );
        let got = app.get("/pacticipants/agent/versions/3.0.0/admission");
        assert_eq!(got.json["state"], "DEPRECATED");
        assert_eq!(got.json["transitions"].as_array().map(Vec::len), Some(1));
    });
}
