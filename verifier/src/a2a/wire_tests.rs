use super::*;

#[test]
fn a_json_rpc_error_carries_its_code_and_error_info_reason() {
    let body = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found",
        "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}]}});
    let o = outcome(Binding::JsonRpc, 200, body.to_string().as_bytes());
    assert_eq!(
        o,
        Outcome::Error(A2aError {
            code: Some(-32001),
            reason: Some("TASK_NOT_FOUND".into()),
            message: "Task not found".into()
        })
    );
}

#[test]
fn a_rest_error_is_judged_by_its_reason_and_a_rest_success_is_the_body() {
    let body = json!({"error": {"code": 404, "status": "NOT_FOUND", "message": "Task not found",
        "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND"}]}});
    let Outcome::Error(e) = outcome(Binding::HttpJson, 404, body.to_string().as_bytes()) else {
        panic!("an error");
    };
    assert_eq!(
        (e.code, e.reason.as_deref()),
        (None, Some("TASK_NOT_FOUND"))
    );
    let ok = outcome(Binding::HttpJson, 200, br#"{"task": {"id": "t"}}"#);
    assert_eq!(ok, Outcome::Result(json!({"task": {"id": "t"}})));
    assert_eq!(
        outcome(Binding::HttpJson, 204, b""),
        Outcome::Result(json!({}))
    );
}

#[test]
fn another_id_or_a_refusal_without_a2a_body_is_no_a2a_answer() {
    let other = json!({"jsonrpc": "2.0", "id": 7, "result": {}});
    assert!(matches!(
        outcome(Binding::JsonRpc, 200, other.to_string().as_bytes()),
        Outcome::NotA2a(_)
    ));
    assert!(matches!(
        outcome(Binding::HttpJson, 401, br#"{"detail": "no"}"#),
        Outcome::NotA2a(_)
    ));
}
