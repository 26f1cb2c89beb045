//! What A2A v1.0 itself rules out in a contract: follow-ups a terminal task
//! must refuse, and request params under names the protocol does not have.

use super::*;

#[test]
fn a_follow_up_expecting_a_terminal_task_to_accept_work_is_refused() {
    let table: &[(&str, &str)] = &[
        (
            "    expect: [{ state: COMPLETED }]\n    follow_ups: [{ op: SendMessage, send: { text: more }, expect: { state: WORKING } }]\n",
            "refuses SendMessage on a TASK_STATE_COMPLETED task with UNSUPPORTED_OPERATION",
        ),
        (
            "    expect: [{ state: COMPLETED }]\n    follow_ups: [{ op: CancelTask, expect: { state: CANCELED } }]\n",
            "TASK_NOT_CANCELABLE",
        ),
        (
            "    expect: [{ state: FAILED }]\n    follow_ups: [{ op: SubscribeToTask, expect: {} }]\n",
            "refuses SubscribeToTask",
        ),
        (
            "    expect: [{ state: INPUT_REQUIRED }]\n    cancel: { at: INPUT_REQUIRED }\n    follow_ups: [{ op: SendStreamingMessage, send: { text: x }, expect: {} }]\n",
            "TASK_STATE_CANCELED task",
        ),
        (
            "    expect: [{ state: INPUT_REQUIRED }]\n    follow_ups: [{ op: CancelTask, after: REJECTED, expect: {} }]\n",
            "TASK_NOT_CANCELABLE",
        ),
    ];
    for (rest, why) in table {
        refused_with(
            &format!("{HEAD}  - a2a: x\n    send: {{ text: hi }}\n{rest}"),
            &["follow_ups[0].expect", why],
        );
    }
}

#[test]
fn a_terminal_task_may_be_followed_by_a_new_task_or_the_expected_refusal() {
    let c = compile(
        "  - a2a: x\n    send: { text: hi }\n    expect: [{ state: COMPLETED }]\n    follow_ups:\n      - { op: SendMessage, send: { text: again }, expect: { new_task: true, state: COMPLETED } }\n      - { op: CancelTask, error: { reason: TASK_NOT_CANCELABLE } }\n      - { op: GetTask, expect: { state: COMPLETED } }\n  - a2a: y\n    send: { text: hi }\n    expect: [{ state: INPUT_REQUIRED }]\n    follow_ups: [{ op: SendMessage, send: { text: x }, expect: { state: COMPLETED } }]\n",
    );
    let f = &a2a(&c).task.follow_ups;
    assert_eq!(f[0].expect.as_ref().and_then(|e| e.new_task), Some(true));
    assert_eq!(
        f[1].error.as_ref().and_then(|e| e.code),
        Some(A2aErrorReason::TaskNotCancelable.json_rpc_code())
    );
}

#[test]
fn new_task_belongs_to_sends() {
    refused_with(
        &format!(
            "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    follow_ups: [{{ op: GetTask, expect: {{ new_task: true }} }}]\n"
        ),
        &["`new_task` belongs to SendMessage"],
    );
}

#[test]
fn follow_up_params_use_the_a2a_v1_names_and_ranges() {
    let table: &[(&str, &str, &str)] = &[
        (
            "GetTask",
            "{ history_length: 0 }",
            "GetTask takes historyLength",
        ),
        (
            "ListTasks",
            "{ page_size: 10 }",
            "ListTasks takes contextId, status, pageSize",
        ),
        ("ListTasks", "{ pageSize: 0 }", "from 1 to 100"),
        ("ListTasks", "{ pageSize: 101 }", "from 1 to 100"),
        ("ListTasks", "{ status: DONE }", "unknown task state 'DONE'"),
        ("GetTask", "{ historyLength: -1 }", "non-negative"),
        ("SubscribeToTask", "{ historyLength: 1 }", "takes no params"),
    ];
    for (op, params, why) in table {
        refused_with(
            &format!(
                "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    follow_ups: [{{ op: {op}, params: {params}, expect: {{}} }}]\n"
            ),
            &["follow_ups[0].params", why],
        );
    }
}

#[test]
fn a_list_tasks_status_filter_is_written_as_its_wire_name() {
    let c = compile(
        "  - a2a: x\n    send: { text: hi }\n    follow_ups:\n      - { op: ListTasks, params: { status: completed, pageSize: 100, includeArtifacts: true }, expect: { contains_task: true } }\n      - { op: GetTaskPushNotificationConfig, params: { id: cfg-1 }, error: { reason: PUSH_NOTIFICATION_NOT_SUPPORTED } }\n",
    );
    let f = &a2a(&c).task.follow_ups;
    assert_eq!(f[0].params["status"], json!("TASK_STATE_COMPLETED"));
    assert_eq!(f[0].params["pageSize"], json!(100));
    assert_eq!(f[1].operation, A2aOperation::GetTaskPushNotificationConfig);
}

#[test]
fn another_a2a_version_must_be_refused_by_the_agent() {
    for v in ["\"0.3\"", "\"\"", "\"2.0\""] {
        refused_with(
            &format!(
                "{HEAD}  - a2a: x\n    send: {{ text: hi, a2a_version: {v} }}\n    expect: [{{ state: COMPLETED }}]\n"
            ),
            &["VERSION_NOT_SUPPORTED"],
        );
    }
    let c = compile(
        "  - a2a: x\n    send: { text: hi, a2a_version: \"\" }\n    error: { reason: VERSION_NOT_SUPPORTED }\n  - a2a: y\n    send: { text: hi, a2a_version: \"1.1\" }\n",
    );
    let t = &a2a(&c).task;
    assert_eq!(t.a2a_version.as_deref(), Some(""));
    assert_eq!(t.error.as_ref().and_then(|e| e.code), Some(-32009));
    let v = serde_json::to_value(t).expect("serialisable");
    assert_eq!(v["a2aVersion"], json!(""));
    refused_with(
        &format!(
            "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    follow_ups: [{{ op: SendMessage, send: {{ text: y, a2a_version: \"0.3\" }}, error: {{ code: -32009 }} }}]\n"
        ),
        &["follow_ups[0].send.a2a_version"],
    );
}

#[test]
fn an_expected_part_keeps_its_filename() {
    let c = compile(
        "  - a2a: x\n    send: { text: hi }\n    expect:\n      - artifact: { parts: [{ url: \"https://x/a.pdf\", media_type: application/pdf, filename: a.pdf }] }\n",
    );
    let Some(TaskStep::Artifact(art)) = a2a(&c).task.steps.first() else {
        panic!("an artifact step")
    };
    assert_eq!(art.parts[0].filename.as_deref(), Some("a.pdf"));
    let v = serde_json::to_value(&art.parts[0]).expect("serialisable");
    assert_eq!(v["filename"], json!("a.pdf"));
}

#[test]
fn nothing_happens_after_input_required_until_the_client_answers() {
    refused_with(
        &format!(
            "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    expect: [{{ state: INPUT_REQUIRED }}, {{ state: WORKING }}]\n"
        ),
        &["expect[1]", "SendMessage follow-up"],
    );
}

#[test]
fn cancel_limits_need_a_cancel_and_an_observation_window() {
    let table: &[(&str, &str)] = &[
        (
            "  - a2a: x\n    send: { text: hi }\n    within: { cancellation_effect_ms: 100 }\n",
            "within.cancellation_effect_ms",
        ),
        (
            "  - a2a: x\n    send: { text: hi, stream: true }\n    cancel: { at: WORKING }\n    within: { no_side_effects_after_cancel_ack: true }\n",
            "needs an A2A `cancel` scenario with `observe_ms`",
        ),
        (
            "  - mcp: x\n    tool: t\n    expect: {}\n    within: { no_side_effects_after_cancel_ack: true }\n",
            "within.no_side_effects_after_cancel_ack",
        ),
    ];
    for (it, why) in table {
        refused_with(&format!("{HEAD}{it}"), &[why]);
    }
    let c = compile(
        "  - a2a: x\n    send: { text: hi, return_immediately: true }\n    follow_ups: [{ op: CancelTask, after: WORKING, expect: { state: CANCELED } }]\n    within: { cancellation_effect_ms: 100 }\n",
    );
    assert_eq!(
        a2a(&c).task.follow_ups[0].operation,
        A2aOperation::CancelTask
    );
}

#[test]
fn operations_needing_an_undeclared_capability_must_be_expected_to_fail() {
    let doc = |caps: &str, it: &str| {
        format!(
            "consumer: c\nprovider: p\nagent_card: {{ capabilities: {caps} }}\ninteractions:\n  - a2a: x\n    send: {{ text: hi{it}\n"
        )
    };
    let table: &[(&str, &str, &str)] = &[
        (
            "{ streaming: false }",
            ", stream: true }",
            "refuses SendStreamingMessage with UNSUPPORTED_OPERATION",
        ),
        (
            "{ push_notifications: false }",
            " }\n    push: { token: t }",
            "interactions[0].push",
        ),
        (
            "{ streaming: false }",
            ", return_immediately: true }\n    follow_ups: [{ op: SubscribeToTask, after: WORKING, expect: {} }]",
            "interactions[0].follow_ups[0]",
        ),
        (
            "{ extended_agent_card: false }",
            " }\n    follow_ups: [{ op: GetExtendedAgentCard, expect: {} }]",
            "refuses GetExtendedAgentCard",
        ),
    ];
    for (caps, it, why) in table {
        refused_with(&doc(caps, it), &[why]);
    }
    let ok = doc(
        "{ streaming: false, push_notifications: false }",
        ", stream: true }\n    error: { reason: UNSUPPORTED_OPERATION }",
    );
    compile_spec(&ok, "t.yaml", &NoSchemaFiles).unwrap_or_else(|e| panic!("{e}"));
    let undeclared_push = doc(
        "{ push_notifications: false }",
        " }\n    push: { error: { reason: PUSH_NOTIFICATION_NOT_SUPPORTED } }",
    );
    compile_spec(&undeclared_push, "t.yaml", &NoSchemaFiles).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_blocking_send_cannot_cancel_or_follow_up_before_it_answers() {
    let table: &[(&str, &str)] = &[
        ("cancel: { at: WORKING }", "interactions[0].cancel"),
        ("cancel: {}", "the moment the task is created"),
        (
            "follow_ups: [{ op: GetTask, after: SUBMITTED, expect: {} }]",
            "interactions[0].follow_ups[0].after",
        ),
    ];
    for (rest, why) in table {
        refused_with(
            &format!("{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    {rest}\n"),
            &[why, "blocking SendMessage"],
        );
    }
    let c = compile(
        "  - a2a: x\n    send: { text: hi }\n    expect: [{ state: INPUT_REQUIRED }]\n    cancel: { at: INPUT_REQUIRED }\n    follow_ups: [{ op: GetTask, after: CANCELED, expect: { state: CANCELED } }]\n",
    );
    assert_eq!(
        a2a(&c).task.cancel.as_ref().and_then(|c| c.at),
        Some(TaskState::InputRequired)
    );
}
