//! `a2a:` interactions: steps, terminal states, cancel and follow-ups.

use super::*;

#[test]
fn a2a_steps_compile_to_states_artifacts_and_a_terminal_state() {
    let c = compile(
        "  - a2a: plan\n    send: { stream: true, data: { a: 1 } }\n    expect:\n      - state: WORKING\n      - artifact: { media_type: application/json, schema: { type: object }, data: { id: { $like: p-1 } } }\n      - state: TASK_STATE_COMPLETED\n",
    );
    let t = &a2a(&c).task;
    assert!(t.streaming);
    assert_eq!(t.terminal_state, Some(TaskState::Completed));
    let TaskStep::Artifact(a) = &t.steps[1] else {
        panic!("artifact step")
    };
    assert_eq!(a.parts[0].schema, Some(json!({"type": "object"})));
    assert_eq!(
        a.parts[0].rules.matching_rules.to_v4_json()["body"]["$.data.id"]["matchers"][0]["match"],
        "type"
    );
    assert_eq!(
        t.request.message.parts[0].content,
        crate::model::accord::PartContent::Data(json!({"a": 1}))
    );
}

#[test]
fn a_state_after_a_terminal_state_is_refused() {
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    expect: [{{ state: COMPLETED }}, {{ state: WORKING }}]\n"
    ));
    assert!(e.to_string().contains("interactions[0].expect[1]"), "{e}");
    assert!(e.to_string().contains("terminal"), "{e}");
}

#[test]
fn follow_ups_carry_outcomes_and_errors_after_the_task_ends() {
    let c = compile(
        "  - a2a: x\n    send: { text: hi }\n    expect: [{ state: COMPLETED }]\n    follow_ups:\n      - { op: GetTask, expect: { state: COMPLETED } }\n      - { op: SendMessage, send: { text: more }, error: { reason: UNSUPPORTED_OPERATION } }\n      - { op: CancelTask, error: { reason: TASK_NOT_CANCELABLE } }\n      - { op: SubscribeToTask, error: { reason: UNSUPPORTED_OPERATION } }\n      - { op: ListTasks, expect: { contains_task: true } }\n",
    );
    let f = &a2a(&c).task.follow_ups;
    use A2aOperation::*;
    assert_eq!(
        f.iter().map(|f| f.operation).collect::<Vec<_>>(),
        [GetTask, SendMessage, CancelTask, SubscribeToTask, ListTasks]
    );
    assert_eq!(f[1].error.as_ref().and_then(|e| e.code), Some(-32004));
    assert_eq!(
        f[2].error.as_ref().and_then(|e| e.reason),
        Some(A2aErrorReason::TaskNotCancelable)
    );
    assert_eq!(
        f[4].expect.as_ref().and_then(|e| e.contains_task),
        Some(true)
    );
}

#[test]
fn cancel_at_a_state_with_an_observation_window() {
    let c = compile(
        "  - a2a: x\n    send: { text: hi, stream: true }\n    expect: [{ state: WORKING }]\n    cancel: { at: WORKING, observe_ms: 2000 }\n    within: { cancellation_effect_ms: 500, no_side_effects_after_cancel_ack: true }\n",
    );
    let t = a2a(&c);
    let cancel = t.task.cancel.as_ref().expect("cancel");
    assert_eq!(
        (cancel.at, cancel.expect_state, cancel.observe_ms),
        (
            Some(TaskState::Working),
            Some(TaskState::Canceled),
            Some(2000)
        )
    );
    let temporal = t.meta.expectations.temporal.as_ref().expect("temporal");
    assert_eq!(temporal.cancellation_effect_within_ms, Some(500));
    assert!(temporal.no_new_side_effect_after_cancel_ack);
}

#[test]
fn cancel_cannot_wait_for_a_terminal_state() {
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    cancel: {{ at: COMPLETED }}\n"
    ));
    assert!(e.to_string().contains("interactions[0].cancel.at"), "{e}");
}

#[test]
fn a_bad_state_name_is_refused_where_it_is_written() {
    let e = refuse(
        "consumer: a\nprovider: b\ninteractions:\n  - a2a: x\n    send: { text: hi }\n    expect:\n      - state: DONE\n",
    );
    let msg = e.to_string();
    assert!(msg.contains("unknown task state 'DONE'"), "{msg}");
    assert_eq!(e.location().map(|l| l.0), Some(7), "{msg}");
}

#[test]
fn a_direct_reply_cannot_have_task_states() {
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    returns: message\n    expect: [{{ state: COMPLETED }}]\n"
    ));
    assert!(e.to_string().contains("direct reply"), "{e}");
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    expect: [{{ reply: {{ text: yes }} }}]\n"
    ));
    assert!(e.to_string().contains("returns: message"), "{e}");
}
