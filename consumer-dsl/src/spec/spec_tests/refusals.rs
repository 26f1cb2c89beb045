//! Impossible combinations, refused with the field that is wrong.

use super::*;

#[test]
fn impossible_combinations_are_refused_with_their_field() {
    let table: &[(&str, &str, &str)] = &[
        (
            "  - a2a: x\n    send: { parts: [{ data: {}, schema: { type: object } }] }\n",
            "interactions[0].send.parts[0]",
            "expected parts",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    follow_ups: [{ op: GetTask, expect: {}, error: { code: -32001 } }]\n",
            "interactions[0].follow_ups[0]",
            "exactly one of",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    follow_ups: [{ op: GetTask, expect: { contains_task: true } }]\n",
            "contains_task",
            "ListTasks",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    follow_ups: [{ op: SendMessage, expect: {} }]\n",
            "interactions[0].follow_ups[0]",
            "needs `send`",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    error: { code: -32001 }\n    expect: [{ state: WORKING }]\n",
            "interactions[0].error",
            "creates no task",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    error: { reason: TASK_NOT_FOUND, code: -32004 }\n",
            "interactions[0].error",
            "-32001",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    error: { retryable: true }\n",
            "interactions[0].error",
            "needs `code`",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    terminal: WORKING\n",
            "interactions[0].terminal",
            "not a terminal state",
        ),
        (
            "  - a2a: x\n    send: {}\n",
            "interactions[0].send",
            "at least one part",
        ),
        (
            "  - a2a: x\n    send: { parts: [{ text: a, data: {} }] }\n",
            "interactions[0].send.parts[0]",
            "exactly one of",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    expect: [{ artifact: { name: a } }]\n",
            "interactions[0].expect[0].artifact",
            "needs its content",
        ),
        (
            "  - a2a: x\n    send: { text: hi }\n    expect: [{ state: WORKING, artifact: { text: a } }]\n",
            "interactions[0].expect[0]",
            "exactly one of",
        ),
        (
            "  - mcp: x\n    tool: t\n",
            "interactions[0]",
            "exactly one of `expect`",
        ),
        (
            "  - mcp: x\n    tool: t\n    error: { reason: TASK_NOT_FOUND }\n",
            "interactions[0].error.reason",
            "MCP protocol error",
        ),
        (
            "  - mcp: x\n    tool: t\n    expect: { text: a, content: [] }\n",
            "interactions[0].expect",
            "not both",
        ),
        (
            "  - mcp: x\n    tool: t\n    expect: { retryable: true }\n",
            "interactions[0].expect.retryable",
            "is_error",
        ),
        (
            "  - mcp: x\n    tool: t\n    arguments: [1]\n    expect: {}\n",
            "interactions[0].arguments",
            "a map",
        ),
        (
            "  - mcp: x\n    tool: t\n    expect: {}\n    repeat: 0\n",
            "interactions[0].repeat",
            "at least once",
        ),
        (
            "  - http: x\n    request: { method: GET, path: plans }\n    response: { status: 200 }\n",
            "interactions[0].request.path",
            "starts with `/`",
        ),
        (
            "  - http: x\n    request: { method: GET, path: /p }\n    response: { status: 700 }\n",
            "interactions[0].response.status",
            "100 to 599",
        ),
        (
            "  - http: x\n    request: { method: GET, path: /p }\n",
            "interactions[0]",
            "`request` and `response`",
        ),
        ("  - message: x\n", "interactions[0]", "needs `contents`"),
        (
            "  - mcp: x\n    tool: t\n    expect: {}\n    probe_as: [carol]\n",
            "interactions[0].probe_as[0]",
            "unknown principal",
        ),
    ];
    for (interactions, path, reason) in table {
        let e = refuse(&format!("{HEAD}{interactions}"));
        let msg = e.to_string();
        assert!(
            msg.contains(path) && msg.contains(reason),
            "{interactions}: `{msg}` lacks `{path}` or `{reason}`"
        );
    }
}

#[test]
fn a_kind_of_refusal_and_repeat_paths_compile_or_are_refused_with_their_field() {
    let c = compile(
        "  - mcp: x\n    tool: t\n    arguments: { request_id: r-1 }\n    negative: invalid_input\n    repeat: { times: 2, key: $.arguments.request_id, same_fields: [$.structuredContent.id] }\n    expect: {}\n",
    );
    let e = &mcp(&c).meta.expectations;
    assert_eq!(
        e.negative,
        crate::model::accord::Negative::Kind(crate::model::accord::RefusalKind::InvalidInput)
    );
    let r = e.repeat.as_ref().expect("a repeat");
    assert_eq!(r.key.as_deref(), Some("$.arguments.request_id"));
    assert_eq!(r.same_fields, ["$.structuredContent.id"]);
    let table: &[(&str, &[&str])] = &[
        (
            "  - mcp: x\n    tool: t\n    negative: unauthenticated\n    expect: {}\n",
            &[
                "interactions[0].negative",
                "credential: none",
                "NEGATIVE_KIND_CONFLICT",
            ],
        ),
        (
            "  - mcp: x\n    tool: t\n    credential: none\n    negative: cross_tenant\n    expect: {}\n",
            &["interactions[0].negative", "unauthenticated"],
        ),
        (
            "  - mcp: x\n    tool: t\n    negative: terminal_task\n    expect: {}\n",
            &["A2A interactions only"],
        ),
        (
            "  - mcp: x\n    tool: t\n    negative: sideways\n    expect: {}\n",
            &["unknown kind of refusal `sideways`", "expired_credential"],
        ),
        (
            "  - mcp: x\n    tool: t\n    arguments: { a: 1 }\n    repeat: { times: 2, key: $.arguments.b }\n    expect: {}\n",
            &[
                "interactions[0].repeat.key",
                "selects nothing",
                "$.name, $.arguments",
            ],
        ),
        (
            "  - mcp: x\n    tool: t\n    repeat: { times: 2, same_fields: ['$..x'] }\n    expect: {}\n",
            &["same_fields[0]", "is not a path"],
        ),
    ];
    for (text, needles) in table {
        refused_with(&format!("{HEAD}{text}"), needles);
    }
}
