//! Tests of `errors.rs`: expectations against actual errors, reasons and codes.

use super::*;

#[test]
fn an_error_message_pattern_takes_look_around_like_a_body_matcher() {
    let e = ErrorExpectation {
        message: Some("not found(?! for tenant)".into()),
        ..ErrorExpectation::default()
    };
    let said = |m: &str| ActualError {
        message: Some(m.into()),
        ..ActualError::default()
    };
    assert!(e.disagreements(&said("task t-1 not found")).is_empty());
    assert_eq!(e.disagreements(&said("not found for tenant b")).len(), 1);
}

#[test]
fn expected_error_data_must_be_held_by_the_actual_data() {
    let e = ErrorExpectation {
        code: Some(-32021),
        data: Some(serde_json::json!({"requiredCapabilities": {"sampling": {}}})),
        ..ErrorExpectation::default()
    };
    let with = |data: Option<serde_json::Value>| ActualError {
        code: Some(-32021),
        data,
        ..ActualError::default()
    };
    let more = serde_json::json!({"requiredCapabilities": {"sampling": {}}, "hint": "x"});
    assert!(e.disagreements(&with(Some(more))).is_empty());
    let other = serde_json::json!({"requiredCapabilities": {"elicitation": {}}});
    let why = e.disagreements(&with(Some(other)));
    assert_eq!(why.len(), 1);
    assert!(why[0].starts_with("expected error data"), "{why:?}");
    assert_eq!(e.disagreements(&with(None)).len(), 1);
}

#[test]
fn reasons_carry_the_a2a_json_rpc_codes() {
    assert_eq!(A2aErrorReason::TaskNotFound.json_rpc_code(), -32001);
    assert_eq!(A2aErrorReason::UnsupportedOperation.json_rpc_code(), -32004);
    assert_eq!(A2aErrorReason::VersionNotSupported.json_rpc_code(), -32009);
}

#[test]
fn an_error_agrees_only_when_every_set_field_does() {
    let e = ErrorExpectation {
        message: Some("not found".into()),
        ..ErrorExpectation::a2a(A2aErrorReason::TaskNotFound)
    };
    let mut actual = ActualError {
        code: Some(-32001),
        reason: Some("TASK_NOT_FOUND".into()),
        http_status: Some(200),
        message: Some("task t-1 not found".into()),
        data: None,
    };
    assert!(e.disagreements(&actual).is_empty());
    actual.reason = Some("UNSUPPORTED_OPERATION".into());
    actual.message = None;
    let d = e.disagreements(&actual);
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d[0].contains("expected reason TASK_NOT_FOUND, got UNSUPPORTED_OPERATION"));
}

#[test]
fn an_http_json_error_is_judged_by_its_reason_not_a_json_rpc_code() {
    let e = ErrorExpectation::a2a(A2aErrorReason::TaskNotFound);
    let rest = ActualError {
        code: None,
        reason: Some("TASK_NOT_FOUND".into()),
        http_status: Some(404),
        message: Some("Task not found".into()),
        data: None,
    };
    assert!(
        e.disagreements(&rest).is_empty(),
        "{:?}",
        e.disagreements(&rest)
    );
    let wrong = ActualError {
        reason: Some("UNSUPPORTED_OPERATION".into()),
        ..rest
    };
    let d = e.disagreements(&wrong);
    assert!(
        d[0].contains("expected JSON-RPC code -32001, got -32004"),
        "{d:?}"
    );
}

#[test]
fn a_json_rpc_error_in_http_200_is_judged_by_code_not_status() {
    let e = ErrorExpectation {
        http_status: Some(404),
        ..ErrorExpectation::a2a(A2aErrorReason::TaskNotFound)
    };
    let json_rpc = ActualError {
        code: Some(-32001),
        reason: Some("TASK_NOT_FOUND".into()),
        http_status: Some(200),
        message: None,
        data: None,
    };
    assert!(e.disagreements(&json_rpc).is_empty());
    let rest_500 = ActualError {
        code: None,
        http_status: Some(500),
        ..json_rpc
    };
    assert_eq!(
        e.disagreements(&rest_500),
        ["expected HTTP status 404, got 500"]
    );
}

#[test]
fn either_a2a_status_mapping_is_accepted_for_the_same_reason() {
    let e = ErrorExpectation {
        http_status: Some(400),
        ..ErrorExpectation::a2a(A2aErrorReason::TaskNotCancelable)
    };
    let v1_0_0 = ActualError {
        code: None,
        reason: Some("TASK_NOT_CANCELABLE".into()),
        http_status: Some(409),
        message: None,
        data: None,
    };
    assert!(e.disagreements(&v1_0_0).is_empty());
    let teapot = ActualError {
        http_status: Some(418),
        ..v1_0_0
    };
    assert_eq!(e.disagreements(&teapot).len(), 1);
}

#[test]
fn an_error_without_error_info_is_known_by_its_code_and_mapped_by_it() {
    let by_reason = ErrorExpectation {
        reason: Some(A2aErrorReason::TaskNotCancelable),
        ..ErrorExpectation::default()
    };
    let bare = ActualError {
        code: Some(-32002),
        reason: None,
        http_status: Some(200),
        message: None,
        data: None,
    };
    assert!(by_reason.disagreements(&bare).is_empty());
    let by_code = ErrorExpectation {
        code: Some(-32002),
        http_status: Some(409),
        ..ErrorExpectation::default()
    };
    let rest = ActualError {
        code: None,
        reason: Some("TASK_NOT_CANCELABLE".into()),
        http_status: Some(400),
        message: None,
        data: None,
    };
    assert!(by_code.disagreements(&rest).is_empty());
}

#[test]
fn codes_and_wire_names_lead_back_to_their_reason() {
    for r in A2aErrorReason::ALL {
        assert_eq!(A2aErrorReason::from_wire(r.as_str()), Some(r));
        assert_eq!(
            A2aErrorReason::from_json_rpc_code(r.json_rpc_code()),
            Some(r)
        );
    }
    assert_eq!(A2aErrorReason::from_json_rpc_code(-32602), None);
    assert_eq!(A2aErrorReason::from_wire("task_not_found"), None);
}

#[test]
fn reasons_serialise_as_their_wire_names() {
    for r in A2aErrorReason::ALL {
        assert_eq!(
            serde_json::to_value(r).expect("serialisable"),
            serde_json::Value::from(r.as_str())
        );
    }
}
