//! The pairs of the attribute walk (`mcp_attributes.rs`): for each
//! documented attribute, two contracts that differ only in it, and the
//! reference server's fault it guards against.

use accord_fixtures::mcp::McpFault;
use serde_json::{Value, json};

fn states() -> Value {
    json!([{"name": "a plan exists", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}},
           {"name": "a user named alice", "params": {"tenant": "tenant-a"}},
           {"name": "a user named bob", "params": {"tenant": "tenant-b"}}])
}

fn lookup() -> Value {
    json!({"type": "MCP/ToolCall", "description": "look up a plan", "providerStates": states(),
        "auth": {"principal": "alice", "tenant": "tenant-a"},
        "tool": "work_plan_lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"},
        "result": {"structuredContent": {"plan_id": "plan-1", "status": "draft", "steps": [{"title": "rotate keys"}]}}})
}

fn missing() -> Value {
    let mut i = lookup();
    i["arguments"]["plan_id"] = json!("plan-404");
    i["result"] = json!({"isError": true});
    i
}

fn unauthenticated() -> Value {
    let mut i = lookup();
    i["auth"] = json!({"credential": "none"});
    i["negative"] = json!(true);
    i["error"] = json!({"httpStatus": 401});
    i.as_object_mut().map(|o| o.remove("result"));
    i
}

fn draft() -> Value {
    json!({"type": "MCP/ToolCall", "description": "draft a plan", "providerStates": states(),
        "auth": {"principal": "alice", "tenant": "tenant-a"}, "sideEffects": {"records": 1},
        "tool": "work_plan_draft", "arguments": {"tenant_id": "tenant-a", "title": "rotate keys"},
        "result": {"structuredContent": {"plan_id": "plan-101", "status": "draft"},
            "matchingRules": {"body": {"$.structuredContent.plan_id": {"combine": "AND", "matchers": [{"match": "type"}]}}}}})
}

fn commit() -> Value {
    let mut s = states();
    s[2] = json!({"name": "an approval is granted", "params": {"tenant": "tenant-a", "plan_id": "plan-1"}});
    json!({"type": "MCP/ToolCall", "description": "commit an approved plan", "providerStates": s,
        "auth": {"principal": "alice", "tenant": "tenant-a"}, "approval": {"granted": true, "counter": "commits"},
        "tool": "work_plan_commit",
        "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1", "approval_id": "approval-1"},
        "result": {"structuredContent": {"plan_id": "plan-1", "status": "committed"}}})
}

fn tool() -> Value {
    json!({"name": "work_plan_lookup", "profile": "alice",
        "arguments": [{"name": "tenant_id", "type": "string", "alwaysSent": true},
                      {"name": "plan_id", "type": "string", "alwaysSent": true}],
        "resultFields": [{"path": "$.status", "type": "string", "enum": ["draft", "ready"]}],
        "annotations": {"readOnlyHint": true, "destructiveHint": false, "openWorldHint": false}})
}

fn doc(interactions: Vec<Value>, tools: Vec<Value>) -> Value {
    json!({"consumer": {"name": "orchestrator"}, "provider": {"name": "planning-tools"},
        "interactions": interactions, "mcpTools": tools,
        "metadata": {"pactSpecification": {"version": "4.0"},
            "accord": {"formatVersion": "1.0", "mcp": "2026-07-28", "jsonSchema": "2020-12"}}})
}

/// One attribute's pair: the contract without it (or with another value)
/// and with it, against the server with `fault`.
pub(crate) type Pair = crate::walk::Pair<McpFault>;

/// `v` with the value at `pointer` replaced, or added to its parent.
fn set(mut v: Value, pointer: &str, value: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').expect("a JSON pointer");
    match v.pointer_mut(parent) {
        Some(Value::Object(o)) => {
            o.insert(key.to_owned(), value);
        }
        Some(Value::Array(a)) => {
            let i: usize = key.parse().expect("an index");
            a[i] = value;
        }
        _ => panic!("no parent at {pointer}"),
    }
    v
}

fn one(i: Value) -> Value {
    doc(vec![i], vec![])
}

pub(crate) fn pairs() -> Vec<Pair> {
    let p = |attribute, without: Value, with: Value, fault| Pair {
        attribute,
        without,
        with,
        fault,
    };
    let with_tool = |t: Value| doc(vec![lookup()], vec![t]);
    let wrong_id = set(lookup(), "/arguments/plan_id", json!("plan-wrong"));
    let generated = set(
        wrong_id.clone(),
        "/generators",
        json!({"body": {"$.arguments.plan_id": {"type": "ProviderState", "expression": "${plan_id}", "dataType": "STRING"}}}),
    );
    let mut stateless = lookup();
    stateless["providerStates"] = json!([states()[1], states()[2]]);
    let ready = set(lookup(), "/result/structuredContent/status", json!("ready"));
    let ruled = set(
        ready.clone(),
        "/result/matchingRules",
        json!({"body": {"$.structuredContent.status": {"combine": "AND", "matchers": [{"match": "regex", "regex": "^(draft|ready)$"}]}}}),
    );
    let unknown_tool = json!({"type": "MCP/ToolCall", "description": "an unknown tool", "providerStates": states(),
        "auth": {"principal": "alice"}, "tool": "work_plan_shred", "arguments": {}, "error": {"code": -32602}});
    let bob = set(lookup(), "/auth/principal", json!("bob"));
    let bob_refused = set(
        set(bob.clone(), "/result", json!({"isError": true})),
        "/auth/tenant",
        json!("tenant-b"),
    );
    let probed = set(
        lookup(),
        "/auth/probes",
        json!([{"principal": "bob", "tenant": "tenant-b", "unknown": {"plan_id": "plan-nope"}}]),
    );
    let failing = set(lookup(), "/result/structuredContent/status", json!("gone"));
    let mut t = tool();
    t["arguments"][1]["alwaysSent"] = json!(false);
    let sometimes = t;
    vec![
        p(
            "tool",
            one(lookup()),
            one(set(lookup(), "/tool", json!("work_plan_nope"))),
            None,
        ),
        p("arguments", one(lookup()), one(wrong_id), None),
        p(
            "generators",
            one(set(lookup(), "/arguments/plan_id", json!("plan-wrong"))),
            one(generated),
            None,
        ),
        p("providerStates", one(lookup()), one(stateless), None),
        p(
            "result.isError",
            one(lookup()),
            one(set(lookup(), "/result", json!({"isError": true}))),
            None,
        ),
        p(
            "result.structuredContent",
            one(lookup()),
            one(ready.clone()),
            None,
        ),
        p(
            "result.content",
            one(lookup()),
            one(set(
                lookup(),
                "/result/content",
                json!([{"type": "text", "text": "nope"}]),
            )),
            None,
        ),
        p(
            "result.contentMatchesStructured",
            one(lookup()),
            one(set(
                lookup(),
                "/result/contentMatchesStructured",
                json!(true),
            )),
            Some(McpFault::ContentDisagrees),
        ),
        p("result.matchingRules", one(ready), one(ruled), None),
        p(
            "result.schema",
            one(lookup()),
            one(set(
                lookup(),
                "/result/schema",
                json!({"type": "object", "required": ["owner"]}),
            )),
            None,
        ),
        p(
            "result.retryable",
            one(missing()),
            one(set(missing(), "/result/retryable", json!(false))),
            None,
        ),
        p(
            "error.code",
            one(unknown_tool.clone()),
            one(set(unknown_tool, "/error/code", json!(-32601))),
            None,
        ),
        p(
            "error.httpStatus",
            one(unauthenticated()),
            one(set(unauthenticated(), "/error/httpStatus", json!(403))),
            None,
        ),
        p(
            "error.retryable",
            one(unauthenticated()),
            one(set(unauthenticated(), "/error/retryable", json!(true))),
            None,
        ),
        p(
            "sideEffects",
            one(lookup()),
            one(set(lookup(), "/sideEffects", json!({"records": 1}))),
            None,
        ),
        p("auth.principal", one(lookup()), one(bob), None),
        p(
            "auth.credential",
            one(lookup()),
            one(set(lookup(), "/auth/credential", json!("none"))),
            None,
        ),
        p(
            "auth.probes",
            one(lookup()),
            one(probed),
            Some(McpFault::CrossTenant),
        ),
        p(
            "negative",
            one(bob_refused.clone()),
            one(set(bob_refused.clone(), "/negative", json!(true))),
            Some(McpFault::CrossTenant),
        ),
        p(
            "negative.kind",
            one(set(bob_refused.clone(), "/negative", json!(true))),
            one(set(bob_refused, "/negative", json!("invalid_input"))),
            Some(McpFault::CrossTenant),
        ),
        p(
            "repeat.sameFields",
            one(set(
                lookup(),
                "/repeat",
                json!({"times": 2, "sameFields": ["$.structuredContent.plan_id"]}),
            )),
            one(set(
                lookup(),
                "/repeat",
                json!({"times": 2, "sameFields": ["$.structuredContent.nothing"]}),
            )),
            None,
        ),
        p(
            "repeat",
            one(draft()),
            one(set(draft(), "/repeat", json!({"times": 2}))),
            None,
        ),
        p(
            "approval",
            one(commit()),
            one(set(commit(), "/approval/granted", json!(false))),
            None,
        ),
        p(
            "pending",
            one(failing.clone()),
            one(set(failing, "/pending", json!(true))),
            None,
        ),
        p(
            "mcpTools.name",
            with_tool(tool()),
            with_tool(set(tool(), "/name", json!("work_plan_gone"))),
            None,
        ),
        p(
            "mcpTools.profile",
            with_tool(tool()),
            with_tool(set(tool(), "/profile", json!("carol"))),
            None,
        ),
        p(
            "mcpTools.arguments.type",
            with_tool(tool()),
            with_tool(set(tool(), "/arguments/0/type", json!("integer"))),
            None,
        ),
        p(
            "mcpTools.arguments.alwaysSent",
            with_tool(tool()),
            with_tool(sometimes),
            None,
        ),
        p(
            "mcpTools.arguments.enum",
            doc(
                vec![draft()],
                vec![
                    json!({"name": "work_plan_draft", "profile": "alice", "arguments": [{"name": "priority", "enum": ["low"]}]}),
                ],
            ),
            doc(
                vec![draft()],
                vec![
                    json!({"name": "work_plan_draft", "profile": "alice", "arguments": [{"name": "priority", "enum": ["urgent"]}]}),
                ],
            ),
            None,
        ),
        p(
            "mcpTools.resultFields.path",
            with_tool(tool()),
            with_tool(set(tool(), "/resultFields/0/path", json!("$.owner"))),
            None,
        ),
        p(
            "mcpTools.resultFields.type",
            with_tool(tool()),
            with_tool(set(tool(), "/resultFields/0/type", json!("integer"))),
            None,
        ),
        p(
            "mcpTools.resultFields.enum",
            with_tool(tool()),
            with_tool(set(
                tool(),
                "/resultFields/0/enum",
                json!(["draft", "archived"]),
            )),
            None,
        ),
        p(
            "mcpTools.annotations.readOnlyHint",
            with_tool(tool()),
            with_tool(set(tool(), "/annotations/readOnlyHint", json!(false))),
            None,
        ),
        p(
            "mcpTools.annotations.destructiveHint",
            with_tool(tool()),
            with_tool(set(tool(), "/annotations/destructiveHint", json!(true))),
            None,
        ),
        p(
            "mcpTools.annotations.idempotentHint",
            with_tool(tool()),
            with_tool(set(tool(), "/annotations/idempotentHint", json!(false))),
            None,
        ),
        p(
            "mcpTools.annotations.openWorldHint",
            with_tool(tool()),
            with_tool(set(tool(), "/annotations/openWorldHint", json!(true))),
            None,
        ),
        p(
            "mcpTools.approval",
            doc(
                vec![set(
                    commit(),
                    "/approval",
                    json!({"granted": true, "counter": "commits"}),
                )],
                vec![],
            ),
            doc(
                vec![set(commit(), "/approval", json!({"granted": true}))],
                vec![json!({"name": "work_plan_commit", "approval": {"counter": "records"}})],
            ),
            None,
        ),
    ]
}
