use super::*;

fn delivery(state: &str, auth: Option<&str>) -> Delivery {
    let mut headers = vec![("x-a2a-notification-token".to_owned(), "tok-1".to_owned())];
    if let Some(a) = auth {
        headers.push(("authorization".to_owned(), a.to_owned()));
    }
    let body = json!({"statusUpdate": {"taskId": "t", "status": {"state": state}}});
    Delivery {
        headers,
        body: body.to_string().into_bytes(),
    }
}

fn scenario() -> PushScenario {
    PushScenario {
        token: Some("tok-1".into()),
        scheme: Some("Bearer".into()),
        expect_states: vec![TaskState::Working, TaskState::Completed],
        error: None,
    }
}

#[test]
fn expected_states_in_order_with_their_credentials_pass_even_twice() {
    let a = Some("Bearer s3cret");
    let got = [
        delivery("TASK_STATE_WORKING", a),
        delivery("TASK_STATE_WORKING", a),
        delivery("TASK_STATE_COMPLETED", a),
    ];
    assert!(judge(&scenario(), "s3cret", &got, Some("t")).is_empty());
}

#[test]
fn another_scheme_or_token_than_registered_is_not_delivered() {
    let mut basic = delivery("TASK_STATE_WORKING", Some("Basic s3cret"));
    let f = judge(
        &scenario(),
        "s3cret",
        std::slice::from_ref(&basic),
        Some("t"),
    );
    assert!(f.iter().any(|f| f.path == "push"), "{f:?}");
    basic.headers = vec![
        ("authorization".into(), "Bearer s3cret".into()),
        ("x-a2a-notification-token".into(), "tok-2".into()),
    ];
    let f = judge(
        &scenario(),
        "s3cret",
        std::slice::from_ref(&basic),
        Some("t"),
    );
    assert!(f.iter().any(|f| f.path == "push"), "{f:?}");
    let tokenless = PushScenario {
        token: None,
        ..scenario()
    };
    let f = judge(&tokenless, "s3cret", &[basic], Some("t"));
    assert!(f.iter().all(|f| f.path != "push"), "{f:?}");
}

#[test]
fn either_registered_credential_is_enough_as_each_sdk_sends_one() {
    let mut python = delivery("TASK_STATE_WORKING", None);
    let mut js = delivery("TASK_STATE_COMPLETED", Some("Bearer s3cret"));
    js.headers.retain(|(n, _)| n == "authorization");
    assert!(judge(&scenario(), "s3cret", &[python.clone(), js], Some("t")).is_empty());
    python.headers.clear();
    let f = judge(&scenario(), "s3cret", &[python], Some("t"));
    assert!(f.iter().any(|f| f.path == "push"), "{f:?}");
}

#[test]
fn notifications_are_ordered_by_their_timestamps_not_their_arrival() {
    let at = |state: &str, ts: &str| {
        let body =
            json!({"statusUpdate": {"taskId": "t", "status": {"state": state, "timestamp": ts}}});
        Delivery {
            headers: vec![("x-a2a-notification-token".to_owned(), "tok-1".to_owned())],
            body: body.to_string().into_bytes(),
        }
    };
    let got = [
        at("TASK_STATE_COMPLETED", "2026-01-01T00:00:02Z"),
        at("TASK_STATE_WORKING", "2026-01-01T00:00:01Z"),
    ];
    assert!(judge(&scenario(), "s3cret", &got, Some("t")).is_empty());
}

#[test]
fn a_missing_state_or_a_bare_delivery_is_not_delivered() {
    let a = Some("Bearer s3cret");
    let got = [
        delivery("TASK_STATE_COMPLETED", a),
        delivery("TASK_STATE_WORKING", a),
    ];
    let f = judge(&scenario(), "s3cret", &got, Some("t"));
    assert_eq!(f.len(), 1);
    assert!(
        f[0].detail.contains("TASK_STATE_COMPLETED"),
        "{}",
        f[0].detail
    );
    let mut bare = delivery("TASK_STATE_WORKING", None);
    bare.headers.clear();
    let got = [bare, delivery("TASK_STATE_COMPLETED", a)];
    let f = judge(&scenario(), "s3cret", &got, Some("t"));
    assert_eq!(
        f.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
        ["push"]
    );
}

#[test]
fn a_delivery_of_a_state_reached_after_the_delete_is_found_and_an_earlier_one_is_not() {
    // WORKING was reached before the delete: its notification may come late
    let in_flight = delivery("TASK_STATE_WORKING", None);
    let after = [TaskState::Completed];
    assert_eq!(after_delete(std::slice::from_ref(&in_flight), &after), None);
    let late = delivery("TASK_STATE_COMPLETED", None);
    let f = after_delete(&[in_flight, late], &after).expect("a finding");
    assert_eq!(f.reason_code, "PUSH_AFTER_CONFIG_DELETED");
    assert!(f.detail.contains("1 notification(s)") && f.detail.contains("COMPLETED"));
}

#[test]
fn a_notification_of_another_task_is_not_this_tasks() {
    let a = Some("Bearer s3cret");
    let other = |state: &str| {
        let mut d = delivery(state, a);
        d.body = json!({"statusUpdate": {"taskId": "u", "status": {"state": state}}})
            .to_string()
            .into_bytes();
        d
    };
    // every state under another task's id: none of this task's arrived
    let got = [other("TASK_STATE_WORKING"), other("TASK_STATE_COMPLETED")];
    let f = judge(&scenario(), "s3cret", &got, Some("t"));
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].reason_code, codes::PUSH_NOT_DELIVERED);
    assert!(
        f[0].detail.contains("2 more named another task (u)"),
        "{}",
        f[0].detail
    );
    // all of them in, and one more of another task: that one is the finding
    let got = [
        delivery("TASK_STATE_WORKING", a),
        other("TASK_STATE_WORKING"),
        delivery("TASK_STATE_COMPLETED", a),
    ];
    let f = judge(&scenario(), "s3cret", &got, Some("t"));
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].path, "push");
    // a task snapshot names its task by `id`
    let mut task = delivery("TASK_STATE_COMPLETED", a);
    task.body = json!({"task": {"id": "t", "status": {"state": "TASK_STATE_COMPLETED"}}})
        .to_string()
        .into_bytes();
    let got = [delivery("TASK_STATE_WORKING", a), task];
    assert!(judge(&scenario(), "s3cret", &got, Some("t")).is_empty());
}
