//! `mcp:` interactions, `agent_card:` and `mcp_tools:`.

use super::*;

#[test]
fn mcp_calls_compile_arguments_results_and_protocol_errors() {
    let c = compile(
        "  - mcp: lookup\n    tool: t\n    arguments: { id: { $fromState: '${plan_id}', example: p-1 } }\n    expect: { structured: { status: { $enum: [draft, ready] } }, content_matches_structured: true }\n  - mcp: bad\n    tool: t\n    arguments: {}\n    error: { code: -32602, retryable: false }\n",
    );
    let call = &mcp(&c).call;
    assert_eq!(call.arguments["id"], "p-1");
    assert_eq!(
        call.rules.generators.to_v4_json()["body"]["$.arguments.id"]["expression"],
        "${plan_id}"
    );
    let r = call.result.as_ref().expect("a result");
    assert!(!r.is_error && r.content_matches_structured);
    assert_eq!(
        r.rules.matching_rules.to_v4_json()["body"]["$.structuredContent.status"]["matchers"][0]["regex"],
        "^(draft|ready)$"
    );
    let Some(Interaction::McpToolCall(bad)) = c.interactions.get(1) else {
        panic!("second call")
    };
    assert_eq!(
        bad.call.error.as_ref().map(|e| (e.code, e.retryable)),
        Some((Some(-32602), Some(false)))
    );
}

#[test]
fn agent_card_and_mcp_tool_expectations_compile() {
    let text = "consumer: a\nprovider: b\nagent_card:\n  skills: [s1, { id: s2, output_modes: [text/plain] }]\n  signed: true\n  capabilities: { streaming: true }\n  interfaces: [{ binding: JSONRPC }]\n  extensions: [urn:x]\nmcp_tools:\n  - name: t\n    arguments: { id: string }\n    reads: { 'items[*].title': string }\n    annotations: { read_only: true }\n";
    let c = compile_spec(text, "t.yaml", &NoSchemaFiles).expect("valid");
    let card = c.agent_card.as_ref().expect("card");
    assert_eq!(card.skills[1].output_modes, ["text/plain"]);
    assert_eq!(card.interfaces[0].protocol_version, "1.0");
    assert_eq!(card.extensions[0].uri, "urn:x");
    assert!(card.signed);
    let written = serde_json::to_value(card).expect("serialisable");
    assert_eq!(written["signed"], true);
    let tool = &c.mcp_tools[0];
    assert_eq!(tool.result_fields[0].path, "$.items[*].title");
    assert_eq!(tool.annotations.and_then(|a| a.read_only_hint), Some(true));
    let accord = c.accord.as_ref().expect("accord");
    assert_eq!(
        (accord.a2a.as_deref(), accord.mcp.as_deref()),
        (Some("1.0"), Some("2026-07-28"))
    );
}

#[test]
fn an_mcp_tool_carries_the_title_and_description_it_is_listed_with() {
    let text = "consumer: a\nprovider: b\nmcp_tools:\n  - name: t\n    title: Make a plan\n    description: Turn a goal into steps.\n";
    let c = compile_spec(text, "t.yaml", &NoSchemaFiles).expect("valid");
    let tool = &c.mcp_tools[0];
    assert_eq!(tool.title.as_deref(), Some("Make a plan"));
    assert_eq!(tool.description.as_deref(), Some("Turn a goal into steps."));
    let built = crate::builder::ContractBuilder::new("a", "b")
        .mcp_tool("t", |t| {
            t.title("Make a plan")
                .description("Turn a goal into steps.")
        })
        .build()
        .expect("builds");
    assert_eq!(
        built.mcp_tools, c.mcp_tools,
        "the builder and the spec agree"
    );
    let err = compile_spec(
        "consumer: a\nprovider: b\nmcp_tools:\n  - name: t\n    titel: x\n",
        "t.yaml",
        &NoSchemaFiles,
    )
    .expect_err("an unknown key is refused");
    assert!(err.to_string().contains("titel"), "{err}");
}

#[test]
fn interfaces_name_an_a2a_binding_and_a_major_minor_version() {
    let card = |i: &str| format!("consumer: c\nprovider: p\nagent_card:\n  interfaces: [{i}]\n");
    let table: &[(&str, &str)] = &[
        ("{ binding: JSON-RPC }", "interfaces[0].binding"),
        ("{ binding: REST }", "not an A2A protocol binding"),
        ("{ binding: JSONRPC, version: 1.0.1 }", "`Major.Minor`"),
        ("{ binding: GRPC, version: \"1\" }", "interfaces[0].version"),
    ];
    for (i, why) in table {
        refused_with(&card(i), &[why]);
    }
    let c = compile_spec(
        &card("{ binding: http+json }, { binding: \"urn:example:binding\", version: \"0.3\" }"),
        "t.yaml",
        &NoSchemaFiles,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<_> = c
        .agent_card
        .expect("a card")
        .interfaces
        .into_iter()
        .map(|i| (i.protocol_binding, i.protocol_version))
        .collect();
    assert_eq!(
        got,
        [
            ("HTTP+JSON".to_string(), "1.0".to_string()),
            ("urn:example:binding".to_string(), "0.3".to_string())
        ]
    );
}

#[test]
fn content_blocks_have_an_mcp_type_and_its_fields() {
    let table: &[(&str, &str)] = &[
        (
            "[{ text: hi }]",
            "one of text, image, audio, resource_link, resource",
        ),
        ("[{ type: file, uri: x }]", "content[0]"),
        (
            "[{ type: text, text: a }, { type: image, data: AAAA }]",
            "a `image` block needs `mimeType`",
        ),
        (
            "[{ type: resource_link, uri: \"test://x\" }]",
            "needs `name`",
        ),
    ];
    for (blocks, why) in table {
        refused_with(
            &format!("{HEAD}  - mcp: x\n    tool: t\n    expect: {{ content: {blocks} }}\n"),
            &["expect.content[", why],
        );
    }
    let c = compile(
        "  - mcp: x\n    tool: t\n    expect: { content: [{ type: audio, data: AAAA, mimeType: audio/wav }, { type: resource, resource: { uri: \"test://x\", text: t } }] }\n",
    );
    let result = mcp(&c).call.result.as_ref().expect("a result");
    assert_eq!(result.content.as_ref().map(Vec::len), Some(2));
}

#[test]
fn invalid_arguments_of_a_declared_tool_are_a_tool_error_not_32602() {
    let doc = |tools: &str| {
        format!(
            "consumer: c\nprovider: p\nprotocols: {{ mcp: \"2025-11-25\" }}\nmcp_tools: [{tools}]\ninteractions:\n  - mcp: bad args\n    tool: t\n    arguments: {{}}\n    error: {{ code: -32602 }}\n"
        )
    };
    let msg = refuse(&doc("{ name: t }")).to_string();
    assert!(
        msg.contains("interactions[0].error.code") && msg.contains("is_error: true"),
        "{msg}"
    );
    // A tool listed for one profile only may be unknown to this caller.
    compile_spec(
        &doc("{ name: t, profile: admin }"),
        "t.yaml",
        &NoSchemaFiles,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    compile_spec(&doc("{ name: other }"), "t.yaml", &NoSchemaFiles)
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn reads_and_arguments_may_name_the_enum_values_relied_on() {
    let text = "consumer: a\nprovider: b\nmcp_tools:\n  - name: t\n    arguments: { priority: { type: string, enum: [low, high] }, id: string }\n    reads: { status: { type: string, enum: [draft, ready] }, 'steps[*].state': { enum: [open] } }\n";
    let c = compile_spec(text, "t.yaml", &NoSchemaFiles).expect("valid");
    let tool = &c.mcp_tools[0];
    assert_eq!(tool.arguments[0].values, [json!("low"), json!("high")]);
    assert!(tool.arguments[1].values.is_empty());
    assert_eq!(
        tool.result_fields[0].values,
        [json!("draft"), json!("ready")]
    );
    assert_eq!(tool.result_fields[1].json_type, None);
    let json = serde_json::to_value(tool).expect("serialisable");
    assert_eq!(json["resultFields"][0]["enum"], json!(["draft", "ready"]));
    let bad = |reads: &str| {
        format!(
            "consumer: a\nprovider: b\nmcp_tools:\n  - name: t\n    reads: {{ status: {reads} }}\n"
        )
    };
    refused_with(
        &bad("{ type: string, enum: [] }"),
        &["`enum` lists no values"],
    );
    refused_with(
        &bad("{ type: string, values: [a] }"),
        &["unknown field `values`"],
    );
    refused_with(&bad("strung"), &["strung"]);
}

#[test]
fn approval_is_said_on_the_call_and_its_counter_on_the_call_or_the_tool() {
    let c = compile(
        "  - mcp: commit without approval\n    tool: commit\n    arguments: { plan_id: p }\n    approval: { granted: false }\n    expect: { is_error: true }\n  - mcp: commit\n    tool: commit\n    arguments: { plan_id: p }\n    approval: { granted: true, counter: commits }\n    expect: { structured: { ok: true } }\n",
    );
    let denied = mcp(&c)
        .meta
        .expectations
        .approval
        .clone()
        .expect("approval");
    assert!(!denied.granted && denied.counter.is_none());
    assert!(mcp(&c).meta.expectations.refusal_expected());
    let Some(Interaction::McpToolCall(granted)) = c.interactions.get(1) else {
        panic!("second call")
    };
    let a = granted
        .meta
        .expectations
        .approval
        .clone()
        .expect("approval");
    assert_eq!((a.granted, a.counter.as_deref()), (true, Some("commits")));
    assert!(!granted.meta.expectations.refusal_expected());
    let tools = "consumer: a\nprovider: b\nmcp_tools:\n  - name: commit\n    approval: { counter: commits }\n";
    let c = compile_spec(tools, "t.yaml", &NoSchemaFiles).expect("valid");
    assert_eq!(
        c.mcp_tools[0].approval.as_ref().map(|a| a.counter.as_str()),
        Some("commits")
    );
    refused_with(
        &format!(
            "{HEAD}  - mcp: x\n    tool: t\n    approval: {{ granted: false, by: bob }}\n    expect: {{ is_error: true }}\n"
        ),
        &["unknown field `by`"],
    );
}

#[test]
fn an_expected_mcp_result_takes_the_consumers_schema_and_lint_refuses_a_broken_one() {
    let c = compile(
        "  - mcp: lookup\n    tool: t\n    expect: { structured: { plan_id: p-1 }, schema: { type: object, required: [plan_id] } }\n",
    );
    let schema = mcp(&c).call.result.as_ref().and_then(|r| r.schema.clone());
    assert_eq!(
        schema,
        Some(json!({"type": "object", "required": ["plan_id"]}))
    );
    refused_with(
        &format!(
            "{HEAD}  - mcp: x\n    tool: t\n    expect: {{ is_error: true, schema: {{ type: object }} }}\n"
        ),
        &["interactions[0].expect.schema", "not a tool error"],
    );
    let mut broken = c.clone();
    let Some(Interaction::McpToolCall(call)) = broken.interactions.get_mut(0) else {
        panic!("an MCP call")
    };
    if let Some(r) = call.call.result.as_mut() {
        r.schema = Some(json!({"type": 42}));
    }
    let codes: Vec<String> = crate::pact::blocking(&broken)
        .into_iter()
        .map(|p| format!("{} {}", p.code, p.path))
        .collect();
    assert_eq!(codes, ["INVALID_SCHEMA $.interactions[0].result.schema"]);
}

#[test]
fn mcp_calls_take_the_progress_they_rely_on_and_error_data() {
    let c = compile(
        "  - mcp: slow\n    tool: t\n    progress: [0, { progress: 50, total: 100, message: half }, 100]\n    expect: { text: done }\n  - mcp: needs sampling\n    tool: u\n    error: { code: -32021, http_status: 400, data: { requiredCapabilities: { sampling: {} } } }\n",
    );
    let call = &mcp(&c).call;
    let values: Vec<String> = call
        .progress
        .iter()
        .map(|p| p.progress.to_string())
        .collect();
    assert_eq!(values, ["0", "50", "100"]);
    assert_eq!(call.progress[1].message.as_deref(), Some("half"));
    let Interaction::McpToolCall(refused) = &c.interactions[1] else {
        panic!("an MCP call");
    };
    let e = refused.call.error.as_ref().expect("an error");
    assert_eq!(
        e.data,
        Some(serde_json::json!({"requiredCapabilities": {"sampling": {}}}))
    );
    let written = accord_dsl_json(&c);
    assert_eq!(written["interactions"][0]["progress"][1]["total"], 100);
    assert_eq!(
        written["interactions"][1]["error"]["data"]["requiredCapabilities"]["sampling"],
        serde_json::json!({})
    );
}

#[test]
fn progress_must_increase_and_error_data_belongs_to_mcp() {
    let e = refuse(&format!(
        "{HEAD}  - mcp: slow\n    tool: t\n    progress: [10, 5]\n    expect: {{ text: done }}\n"
    ));
    assert!(e.to_string().contains("progress[1]"), "{e}");
    let e = refuse(&format!(
        "{HEAD}  - a2a: x\n    send: {{ text: hi }}\n    error: {{ reason: TASK_NOT_FOUND, data: {{ a: 1 }} }}\n"
    ));
    assert!(e.to_string().contains("error.data"), "{e}");
}

#[test]
fn mcp_calls_take_the_log_messages_they_rely_on_and_refuse_an_unknown_level() {
    let c = compile(
        "  - mcp: chatty\n    tool: t\n    logs:\n      - { level: info, logger: planner, data: starting }\n      - { level: error, data: { step: 2 } }\n    expect: { text: done }\n",
    );
    let call = &mcp(&c).call;
    assert_eq!(call.logs.len(), 2);
    assert_eq!(call.logs[0].logger.as_deref(), Some("planner"));
    assert_eq!(call.logs[1].data, serde_json::json!({"step": 2}));
    let written = accord_dsl_json(&c);
    assert_eq!(written["interactions"][0]["logs"][0]["level"], "info");
    let back = crate::pact::from_value(&written, "t").expect("read back");
    assert_eq!(mcp(&back).call.logs, call.logs);
    let e = refuse(&format!(
        "{HEAD}  - mcp: chatty\n    tool: t\n    logs: [{{ level: loud, data: x }}]\n    expect: {{ text: done }}\n"
    ));
    assert!(e.to_string().contains("logs[0].level"), "{e}");
    assert!(e.to_string().contains("emergency"), "{e}");
}

fn accord_dsl_json(c: &Contract) -> serde_json::Value {
    crate::pact::to_v4_json(c)
}
