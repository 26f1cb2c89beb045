//! One test per row of the judging table.

use std::time::Duration;

use serde_json::{Value, json};

use super::*;
use crate::mcp::schemas::pointer_to_path;

/// A call that is not a negative case.
fn judge4(call: &McpToolCall, era: Era, reply: &Reply, tool: Option<&Listed>) -> Judged {
    judge(call, era, reply, tool, false)
}

fn call(v: Value) -> McpToolCall {
    serde_json::from_value(v).expect("a tool call")
}

fn reply(status: u16, outcome: Result<Value, RpcError>) -> Reply {
    Reply {
        status,
        headers: Vec::new(),
        sse: false,
        outcome: Ok(outcome),
        ack: Duration::ZERO,
        total: Duration::ZERO,
        body: Vec::new(),
        task: None,
    }
}

fn codes_of(j: &Judged) -> Vec<&'static str> {
    j.findings.iter().map(|f| f.reason_code).collect()
}

fn plan_result() -> Value {
    json!({"content": [{"type": "text", "text": "{\"plan_id\":\"p-1\",\"status\":\"draft\"}"}],
           "structuredContent": {"plan_id": "p-1", "status": "draft"}, "isError": false})
}

fn lookup() -> McpToolCall {
    call(json!({"tool": "lookup", "arguments": {"id": "p-1"},
        "result": {"structuredContent": {"plan_id": "p-1", "status": "draft"},
                   "contentMatchesStructured": true,
                   "matchingRules": {"body": {"$.structuredContent.status": {"combine": "AND",
                       "matchers": [{"match": "regex", "regex": "^(draft|ready)$"}]}}}}}))
}

fn plan_tool() -> Listed {
    Listed::new(
        json!({"name": "lookup", "outputSchema": {"type": "object", "required": ["plan_id", "status"],
        "properties": {"plan_id": {"type": "string"}, "status": {"enum": ["draft", "ready"]}}}}),
    )
}

#[test]
fn a_matching_result_within_its_schema_passes_and_is_served() {
    let j = judge4(
        &lookup(),
        Era::Modern,
        &reply(200, Ok(plan_result())),
        Some(&plan_tool()),
    );
    assert_eq!(codes_of(&j), Vec::<&str>::new());
    assert!(j.served);
}

#[test]
fn a_value_outside_the_rule_is_a_response_mismatch_at_its_path() {
    let mut r = plan_result();
    r["structuredContent"]["status"] = json!("archived");
    r["content"][0]["text"] = json!("{\"plan_id\":\"p-1\",\"status\":\"archived\"}");
    let j = judge4(&lookup(), Era::Modern, &reply(200, Ok(r)), None);
    assert_eq!(codes_of(&j), ["RESPONSE_MISMATCH"]);
    assert_eq!(j.findings[0].path, "$.structuredContent.status");
}

#[test]
fn structured_content_outside_the_output_schema_is_a_violation() {
    let mut r = plan_result();
    r["structuredContent"] = json!({"plan_id": 7, "status": "draft"});
    r["content"][0]["text"] = json!("{\"plan_id\":7,\"status\":\"draft\"}");
    let loose = call(json!({"tool": "lookup", "result": {"isError": false}}));
    let j = judge4(&loose, Era::Modern, &reply(200, Ok(r)), Some(&plan_tool()));
    assert_eq!(codes_of(&j), ["OUTPUT_SCHEMA_VIOLATION"]);
    assert_eq!(j.findings[0].path, "$.structuredContent.plan_id");
}

#[test]
fn a_declared_output_schema_without_structured_content_is_a_violation() {
    let loose = call(json!({"tool": "lookup", "result": {"isError": false}}));
    let r = json!({"content": [{"type": "text", "text": "ok"}], "isError": false});
    let j = judge4(
        &loose,
        Era::Legacy("2025-11-25"),
        &reply(200, Ok(r)),
        Some(&plan_tool()),
    );
    assert_eq!(codes_of(&j), ["OUTPUT_SCHEMA_VIOLATION"]);
}

#[test]
fn a_text_block_that_disagrees_with_structured_content_is_found() {
    let mut r = plan_result();
    r["content"][0]["text"] = json!("{\"plan_id\":\"p-2\",\"status\":\"draft\"}");
    let j = judge4(&lookup(), Era::Modern, &reply(200, Ok(r)), None);
    assert_eq!(codes_of(&j), ["STRUCTURED_CONTENT_DISAGREES"]);
}

#[test]
fn an_expected_tool_error_answered_as_success_is_disguised() {
    let c = call(json!({"tool": "commit", "result": {"isError": true}}));
    let j = judge4(
        &c,
        Era::Modern,
        &reply(200, Ok(json!({"content": [], "isError": false}))),
        None,
    );
    assert_eq!(codes_of(&j), ["ERROR_DISGUISED_AS_SUCCESS"]);
    assert!(j.served);
}

#[test]
fn an_expected_tool_error_answered_as_protocol_error_is_named() {
    let c = call(json!({"tool": "commit", "result": {"isError": true}}));
    let rpc = RpcError {
        code: -32603,
        message: "boom".into(),
        data: None,
    };
    let j = judge4(&c, Era::Modern, &reply(200, Err(rpc)), None);
    assert_eq!(codes_of(&j), ["TOOL_ERROR_AS_PROTOCOL_ERROR"]);
}

#[test]
fn a_success_answered_with_is_error_rejects_valid_input() {
    let r = json!({"content": [{"type": "text", "text": "validation failed"}], "isError": true});
    let j = judge4(&lookup(), Era::Modern, &reply(200, Ok(r)), None);
    assert!(
        codes_of(&j).contains(&"VALID_INPUT_REJECTED"),
        "{:?}",
        codes_of(&j)
    );
    assert!(!j.served);
}

#[test]
fn a_protocol_error_is_judged_by_code_status_and_message() {
    let c = call(
        json!({"tool": "nope", "error": {"code": -32602, "httpStatus": 400, "message": "^Unknown tool"}}),
    );
    let rpc = RpcError {
        code: -32602,
        message: "Unknown tool: nope".into(),
        data: None,
    };
    assert!(
        judge4(&c, Era::Modern, &reply(400, Err(rpc.clone())), None)
            .findings
            .is_empty()
    );
    let wrong = RpcError {
        code: -32601,
        ..rpc
    };
    let j = judge4(&c, Era::Modern, &reply(404, Err(wrong)), None);
    assert_eq!(
        codes_of(&j),
        ["ERROR_CODE_MISMATCH", "ERROR_CODE_MISMATCH"],
        "code and status"
    );
}

#[test]
fn an_unknown_tool_answered_with_is_error_is_a_warning_as_the_sdks_do() {
    let c = call(json!({"tool": "nope", "error": {"code": -32602}}));
    let r = json!({"content": [{"type": "text", "text": "Unknown tool: nope"}], "isError": true});
    let j = judge4(&c, Era::Legacy("2025-11-25"), &reply(200, Ok(r)), None);
    assert!(j.findings.is_empty());
    assert_eq!(j.warnings.len(), 1);
    assert!(!j.served);
}

#[test]
fn a_task_result_type_is_unsupported_not_judged_as_complete() {
    let r = json!({"resultType": "task", "taskId": "t-1"});
    let j = judge4(&lookup(), Era::Modern, &reply(200, Ok(r)), None);
    assert_eq!(codes_of(&j), ["RESULT_TYPE_UNSUPPORTED"]);
}

#[test]
fn an_answer_that_is_not_json_rpc_is_malformed() {
    let mut r = reply(200, Ok(Value::Null));
    r.outcome = Err("the answer is not JSON".into());
    assert_eq!(
        codes_of(&judge4(&lookup(), Era::Modern, &r, None)),
        ["MALFORMED_RESPONSE"]
    );
}

#[test]
fn json_pointers_become_json_paths() {
    assert_eq!(pointer_to_path("/steps/0/title"), ".steps[0].title");
    assert_eq!(pointer_to_path(""), "");
}

#[test]
fn a_refused_call_is_not_also_judged_for_its_examples() {
    let r = json!({"content": [{"type": "text", "text": "validation error: region is required"}], "isError": true});
    let j = judge4(
        &lookup(),
        Era::Modern,
        &reply(200, Ok(r)),
        Some(&plan_tool()),
    );
    assert_eq!(codes_of(&j), ["VALID_INPUT_REJECTED"]);
}

#[test]
fn a_value_the_schema_refuses_is_not_also_a_rule_mismatch_at_that_path() {
    let mut r = plan_result();
    r["structuredContent"]["status"] = json!(42);
    r["content"][0]["text"] = json!(r["structuredContent"].to_string());
    let j = judge4(
        &lookup(),
        Era::Modern,
        &reply(200, Ok(r)),
        Some(&plan_tool()),
    );
    assert_eq!(codes_of(&j), ["OUTPUT_SCHEMA_VIOLATION"]);
}

#[test]
fn a_served_negative_call_is_left_to_the_authorization_judgement() {
    let c = call(json!({"tool": "lookup", "result": {"isError": true}}));
    let j = judge(
        &c,
        Era::Modern,
        &reply(200, Ok(plan_result())),
        Some(&plan_tool()),
        true,
    );
    assert!(j.findings.is_empty(), "{:?}", codes_of(&j));
    assert!(j.served);
}

#[test]
fn a_success_without_the_declared_structured_result_is_not_service() {
    let c = call(json!({"tool": "lookup", "result": {"isError": true}}));
    let r =
        json!({"content": [{"type": "text", "text": "error: plan not found"}], "isError": false});
    let j = judge(
        &c,
        Era::Modern,
        &reply(200, Ok(r)),
        Some(&plan_tool()),
        true,
    );
    assert_eq!(codes_of(&j), ["ERROR_DISGUISED_AS_SUCCESS"]);
    assert!(!j.served);
}

#[test]
fn an_http_refusal_is_what_a_negative_call_or_an_expected_status_asks_for() {
    let mut r = reply(401, Ok(Value::Null));
    r.outcome = Err("an error without a numeric code".into());
    let c = call(json!({"tool": "lookup", "result": {"isError": true}}));
    assert!(
        judge(&c, Era::Modern, &r, None, true).findings.is_empty(),
        "refused, as it must be"
    );
    assert_eq!(
        codes_of(&judge(&c, Era::Modern, &r, None, false)),
        ["MALFORMED_RESPONSE"]
    );
    let wants_401 = call(json!({"tool": "lookup", "error": {"httpStatus": 401}}));
    assert!(
        judge4(&wants_401, Era::Modern, &r, None)
            .findings
            .is_empty()
    );
    let wants_403 = call(json!({"tool": "lookup", "error": {"httpStatus": 403}}));
    assert_eq!(
        codes_of(&judge4(&wants_403, Era::Modern, &r, None)),
        ["ERROR_CODE_MISMATCH"]
    );
}

#[test]
fn a_protocol_error_for_an_unlisted_tool_is_only_a_warning_where_a_tool_error_was_expected() {
    let c = call(json!({"tool": "gone", "result": {"isError": true}}));
    let rpc = RpcError {
        code: -32602,
        message: "Unknown tool".into(),
        data: None,
    };
    let j = judge4(&c, Era::Modern, &reply(400, Err(rpc.clone())), None);
    assert!(j.findings.is_empty());
    assert_eq!(j.warnings.len(), 1);
    let listed = Listed::new(json!({"name": "gone"}));
    let j = judge4(&c, Era::Modern, &reply(400, Err(rpc)), Some(&listed));
    assert_eq!(codes_of(&j), ["TOOL_ERROR_AS_PROTOCOL_ERROR"]);
}

#[test]
fn a_served_negative_call_expecting_a_protocol_error_is_left_to_authorization() {
    let c = call(json!({"tool": "lookup", "error": {"code": -32001}}));
    let j = judge(&c, Era::Modern, &reply(200, Ok(plan_result())), None, true);
    assert!(j.findings.is_empty());
    assert!(j.served);
}

#[test]
fn the_consumers_own_schema_is_checked_besides_the_output_schema_once_per_path() {
    let mut c = lookup();
    let result = c.result.as_mut().expect("a result");
    result.schema = Some(json!({"type": "object", "required": ["plan_id", "owner"],
        "properties": {"plan_id": {"type": "string", "pattern": "^p-"}, "status": {"enum": ["draft", "ready"]}}}));
    let j = judge4(
        &c,
        Era::Modern,
        &reply(200, Ok(plan_result())),
        Some(&plan_tool()),
    );
    // `owner` is missing: the consumer's schema refuses what the tool's allows
    assert_eq!(codes_of(&j), ["RESPONSE_MISMATCH"]);
    assert_eq!(j.findings[0].path, "$.structuredContent");
    assert!(
        j.findings[0].detail.contains("owner"),
        "{}",
        j.findings[0].detail
    );
    // a value both schemas refuse is the tool's outputSchema violation only
    let mut bad = plan_result();
    bad["structuredContent"] = json!({"plan_id": "p-1", "status": "gone", "owner": "o"});
    bad["content"][0]["text"] = json!(bad["structuredContent"].to_string());
    let j = judge4(&c, Era::Modern, &reply(200, Ok(bad)), Some(&plan_tool()));
    let paths: Vec<(&str, &str)> = j
        .findings
        .iter()
        .map(|f| (f.reason_code, f.path.as_str()))
        .collect();
    assert_eq!(
        paths,
        [("OUTPUT_SCHEMA_VIOLATION", "$.structuredContent.status")]
    );
}

/// A listing of tools named `names`, each declaring `status` as one of
/// `statuses` in its `outputSchema`.
fn listing_of(tools: &[(&str, &[&str])]) -> crate::mcp::listing::Tools {
    let values: Vec<Value> = tools
        .iter()
        .map(|(name, statuses)| {
            json!({"name": name, "outputSchema": {"type": "object",
                "properties": {"status": {"enum": statuses}}}})
        })
        .collect();
    crate::mcp::listing::Tools::of(&values)
}

#[test]
fn each_listed_tool_is_judged_by_its_own_compiled_output_schema() {
    let served = |status: &str| {
        let mut r = plan_result();
        r["structuredContent"]["status"] = json!(status);
        r["content"][0]["text"] = json!(r["structuredContent"].to_string());
        reply(200, Ok(r))
    };
    let codes = |tools: &crate::mcp::listing::Tools, name: &str, status: &str| {
        let mut c = lookup();
        c.tool = name.to_owned();
        codes_of(&judge4(&c, Era::Modern, &served(status), tools.find(name))).join(",")
    };
    // two tools of one listing, two schemas: each judged by its own,
    // whichever was compiled first and however often
    let one = listing_of(&[("lookup", &["draft"]), ("audit", &["ready"])]);
    for _ in 0..2 {
        assert_eq!(codes(&one, "lookup", "draft"), "");
        assert_eq!(codes(&one, "audit", "draft"), "OUTPUT_SCHEMA_VIOLATION");
        assert_eq!(codes(&one, "lookup", "ready"), "OUTPUT_SCHEMA_VIOLATION");
        assert_eq!(codes(&one, "audit", "ready"), "");
    }
    // the same tool name in another profile's listing (another server, or
    // another principal) keeps that listing's schema
    let other = listing_of(&[("lookup", &["ready"])]);
    assert_eq!(codes(&other, "lookup", "ready"), "");
    assert_eq!(codes(&other, "lookup", "draft"), "OUTPUT_SCHEMA_VIOLATION");
    assert_eq!(codes(&one, "lookup", "draft"), "");
}

#[test]
fn an_output_schema_that_does_not_compile_is_said_on_every_call() {
    let broken = Listed::new(json!({"name": "lookup", "outputSchema": {"type": 7}}));
    for _ in 0..2 {
        let j = judge4(
            &lookup(),
            Era::Modern,
            &reply(200, Ok(plan_result())),
            Some(&broken),
        );
        assert_eq!(codes_of(&j), ["OUTPUT_SCHEMA_VIOLATION"]);
        assert_eq!(j.findings[0].path, "outputSchema");
    }
}
