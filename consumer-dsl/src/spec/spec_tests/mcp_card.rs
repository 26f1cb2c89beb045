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
        call.generators.to_v4_json()["body"]["$.arguments.id"]["expression"],
        "${plan_id}"
    );
    let r = call.result.as_ref().expect("a result");
    assert!(!r.is_error && r.content_matches_structured);
    assert_eq!(
        r.matching_rules.to_v4_json()["body"]["$.structuredContent.status"]["matchers"][0]["regex"],
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
    let text = "consumer: a\nprovider: b\nagent_card:\n  skills: [s1, { id: s2, output_modes: [text/plain] }]\n  capabilities: { streaming: true }\n  interfaces: [{ binding: JSONRPC }]\n  extensions: [urn:x]\nmcp_tools:\n  - name: t\n    arguments: { id: string }\n    reads: { 'items[*].title': string }\n    annotations: { read_only: true }\n";
    let c = compile_spec(text, "t.yaml", &NoSchemaFiles).expect("valid");
    let card = c.agent_card.as_ref().expect("card");
    assert_eq!(card.skills[1].output_modes, ["text/plain"]);
    assert_eq!(card.interfaces[0].protocol_version, "1.0");
    assert_eq!(card.extensions[0].uri, "urn:x");
    let tool = &c.mcp_tools[0];
    assert_eq!(tool.result_fields[0].path, "$.items[*].title");
    assert_eq!(tool.annotations.and_then(|a| a.read_only_hint), Some(true));
    let accord = c.accord.as_ref().expect("accord");
    assert_eq!(
        (accord.a2a.as_deref(), accord.mcp.as_deref()),
        (Some("1.0"), Some("2026-07-28"))
    );
}
