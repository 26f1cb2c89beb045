//! The coverage report (issue 25), `GET /pacticipants/{p}/coverage`: every
//! operation a provider version declares, its risk class, and whether the
//! live consumer contracts cover it by the seed's policy — gaps named by
//! operation, risk class and missing case kind; a contract that is not
//! live does not count.

use base64::Engine;
use serde_json::{Value, json};

use crate::support::{TestApp, each_backend};

pub const CALL: &str = "  - mcp: delete a plan\n    as: alice\n    tool: plan_delete\n    \
    arguments: { plan_id: plan-1 }\n    expect: { structured: { deleted: true } }\n    \
    comments: { tags: [incident] }\n";
pub const UNAUTHENTICATED: &str = "  - mcp: no token\n    credential: none\n    negative: true\n    \
    tool: plan_delete\n    arguments: { plan_id: plan-1 }\n    expect: { is_error: true }\n";
pub const CROSS_TENANT: &str = "  - mcp: other tenant\n    as: bob\n    negative: cross_tenant\n    \
    tool: plan_delete\n    arguments: { plan_id: plan-1 }\n    expect: { is_error: true }\n";
pub const NO_APPROVAL: &str = "  - mcp: no approval\n    as: alice\n    approval: { granted: false }\n    \
    tool: plan_delete\n    arguments: { plan_id: plan-1 }\n    expect: { is_error: true }\n";
pub const LOOKUP: &str = "  - mcp: look up\n    as: alice\n    tool: plan_lookup\n    \
    arguments: { plan_id: plan-1 }\n    expect: { structured: { status: ready } }\n";
pub const LOOKUP_ERROR: &str = "  - mcp: unknown plan\n    as: alice\n    tool: plan_lookup\n    \
    arguments: { plan_id: nope }\n    expect: { is_error: true }\n";

/// Publishes `consumer` `version` on `branch` with these interactions.
pub fn publish(app: &TestApp, consumer: &str, version: &str, branch: &str, interactions: &str) {
    let text = format!(
        "consumer: {consumer}\nprovider: plan-tools\nprotocols: {{ mcp: \"2026-07-28\" }}\n\
         principals:\n  alice: {{ tenant: tenant-a }}\n  bob: {{ tenant: tenant-b }}\n\
         interactions:\n{interactions}"
    );
    let none = |_: &str| -> Result<Value, accord_dsl::spec::ResolveError> { Ok(Value::Null) };
    let contract = accord_dsl::spec::compile_spec(&text, "c.yaml", &none).expect("compiles");
    let content = accord_dsl::pact::to_v4_json(&contract).to_string();
    let reply = app.post("/contracts/publish", &json!({
        "pacticipantName": consumer, "pacticipantVersionNumber": version, "branch": branch,
        "contracts": [{"consumerName": consumer, "providerName": "plan-tools", "specification": "pact",
            "contentType": "application/json",
            "content": base64::engine::general_purpose::STANDARD.encode(content)}]
    }));
    assert_eq!(reply.status, 200, "{}", reply.text);
}

/// Declares plan-tools `version`'s tools: a destructive delete and a
/// read-only lookup (and `extra` tools).
pub fn declare(app: &TestApp, version: &str, extra: &[Value]) {
    let mut tools = vec![
        json!({"name": "plan_delete", "inputSchema": {"type": "object"},
            "annotations": {"destructiveHint": true}}),
        json!({"name": "plan_lookup", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true}}),
    ];
    tools.extend_from_slice(extra);
    let path = format!("/pacticipants/plan-tools/versions/{version}/declarations/mcp-tools/alice");
    let reply = app.put(&path, &json!({ "tools": tools }));
    assert_eq!(reply.status, 201, "{}", reply.text);
}

fn coverage(app: &TestApp, query: &str) -> Value {
    let reply = app.get(&format!("/pacticipants/plan-tools/coverage{query}"));
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

/// (operation, missing, code) of every gap.
fn gaps(body: &Value) -> Vec<(String, String, String)> {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    body["gaps"]
        .as_array()
        .expect("gaps")
        .iter()
        .map(|g| (s(&g["operation"]), s(&g["missing"]), s(&g["code"])))
        .collect()
}

fn gap(op: &str, missing: &str, code: &str) -> (String, String, String) {
    (op.into(), missing.into(), code.into())
}

#[test]
fn a_destructive_tool_with_all_three_cases_and_a_bounded_lookup_are_covered() {
    each_backend(|app| {
        let all = [
            CALL,
            UNAUTHENTICATED,
            CROSS_TENANT,
            NO_APPROVAL,
            LOOKUP,
            LOOKUP_ERROR,
        ];
        publish(app, "planner", "1.0", "main", &all.concat());
        declare(app, "2.0", &[]);
        let body = coverage(app, "");
        assert_eq!(body["version"], "2.0", "the newest declaring version");
        assert_eq!(body["covered"], true, "{body}");
        assert_eq!(gaps(&body), vec![]);
        let delete = &body["operations"][0];
        assert_eq!(delete["name"], "plan_delete");
        assert_eq!(delete["risk"], "destructive");
        assert_eq!(
            delete["present"],
            json!(["authorization", "tenant_probe", "approval", "boundary"])
        );
        assert_eq!(delete["consumers"], json!(["planner"]));
        assert_eq!(body["operations"][1]["risk"], "read-only");
        assert_eq!(body["kept"][0]["interaction"], "delete a plan");
        assert_eq!(body["kept"][0]["operation"], "plan_delete");
        let links = &body["_links"];
        assert!(
            links["self"]["href"]
                .as_str()
                .unwrap_or_default()
                .ends_with("/pacticipants/plan-tools/coverage?version=2.0"),
            "{links}"
        );
        assert!(
            links["pb:declarations"]["href"]
                .as_str()
                .unwrap_or_default()
                .ends_with("/versions/2.0/declarations")
        );
    });
}

#[test]
fn each_missing_case_kind_is_a_named_gap_from_the_live_head_only() {
    each_backend(|app| {
        declare(app, "2.0", &[]);
        let cases = [
            (
                UNAUTHENTICATED,
                "authorization",
                "COVERAGE_AUTHORIZATION_CASE_MISSING",
            ),
            (
                CROSS_TENANT,
                "tenant_probe",
                "COVERAGE_TENANT_PROBE_CASE_MISSING",
            ),
            (NO_APPROVAL, "approval", "COVERAGE_APPROVAL_CASE_MISSING"),
        ];
        for (n, (left_out, missing, code)) in cases.iter().enumerate() {
            let rest: String = cases
                .iter()
                .filter(|c| c.0 != *left_out)
                .map(|c| c.0)
                .collect();
            // a newer main-branch version: the earlier one is no longer live
            let version = format!("1.{n}");
            publish(
                app,
                "planner",
                &version,
                "main",
                &format!("{CALL}{rest}{LOOKUP}{LOOKUP_ERROR}"),
            );
            let body = coverage(app, "?version=2.0");
            assert_eq!(
                gaps(&body),
                vec![gap("plan_delete", missing, code)],
                "{body}"
            );
            assert_eq!(body["covered"], false);
            let detail = body["gaps"][0]["detail"].as_str().unwrap_or_default();
            assert!(
                detail
                    .starts_with("tool plan_delete (destructive): no live consumer contract has a"),
                "{detail}"
            );
            assert_eq!(body["gaps"][0]["risk"], "destructive");
        }
    });
}

#[test]
fn a_read_only_tool_without_a_boundary_case_and_an_unused_tool_are_gaps() {
    each_backend(|app| {
        let archive = json!({"name": "plan_archive", "inputSchema": {"type": "object"}});
        declare(app, "2.0", &[archive]);
        let all = [CALL, UNAUTHENTICATED, CROSS_TENANT, NO_APPROVAL, LOOKUP];
        publish(app, "planner", "1.0", "main", &all.concat());
        let body = coverage(app, "");
        assert_eq!(
            gaps(&body),
            vec![
                gap("plan_archive", "contract", "COVERAGE_NO_CONTRACT"),
                gap("plan_lookup", "boundary", "COVERAGE_BOUNDARY_CASE_MISSING"),
            ]
        );
        let archive = &body["gaps"][0];
        assert_eq!(
            archive["risk"], "destructive",
            "no annotations: MCP's default"
        );
        assert_eq!(
            archive["detail"],
            "tool plan_archive (destructive) is used by no live consumer contract"
        );
        assert_eq!(body["gaps"][1]["risk"], "read-only");
    });
}

#[test]
fn a_contract_that_is_not_live_does_not_count() {
    each_backend(|app| {
        declare(app, "2.0", &[]);
        publish(app, "planner", "1.0", "main", LOOKUP);
        let all = [
            CALL,
            UNAUTHENTICATED,
            CROSS_TENANT,
            NO_APPROVAL,
            LOOKUP_ERROR,
        ];
        let reply = app.json(
            "PATCH",
            "/pacticipants/auditor",
            &json!({"mainBranch": "main"}),
        );
        assert!(reply.status < 300, "{}", reply.text);
        publish(app, "auditor", "7.0", "feature-x", &all.concat());
        publish(app, "auditor", "6.0", "main", LOOKUP);
        let body = coverage(app, "");
        assert_eq!(
            gaps(&body),
            vec![
                gap("plan_delete", "contract", "COVERAGE_NO_CONTRACT"),
                gap("plan_lookup", "boundary", "COVERAGE_BOUNDARY_CASE_MISSING"),
            ],
            "the auditor's feature branch is not live: its main branch head is"
        );
        assert_eq!(body["kept"], json!([]));
    });
}

#[test]
fn an_older_version_is_asked_for_by_number_and_unknown_ones_are_404s() {
    each_backend(|app| {
        publish(app, "planner", "1.0", "main", LOOKUP);
        declare(app, "2.0", &[]);
        let only_lookup = json!({"tools": [{"name": "plan_lookup", "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true}}]});
        let reply = app.put(
            "/pacticipants/plan-tools/versions/1.5/declarations/mcp-tools/alice",
            &only_lookup,
        );
        assert_eq!(reply.status, 201, "{}", reply.text);
        assert_eq!(
            coverage(app, "")["version"],
            "1.5",
            "the newest declaring version"
        );
        let older = coverage(app, "?version=2.0");
        assert_eq!(older["operations"].as_array().map(Vec::len), Some(2));
        for (path, what) in [
            ("/pacticipants/nobody/coverage", "Pacticipant 'nobody'"),
            (
                "/pacticipants/plan-tools/coverage?version=9.9",
                "Version '9.9'",
            ),
            (
                "/pacticipants/planner/coverage",
                "A version of 'planner' that declares",
            ),
        ] {
            let url = format!("{}{path}", app.url);
            let asked = app
                .client()
                .get(url)
                .header("Accept", "application/problem+json");
            let reply = app.send(asked);
            assert_eq!(reply.status, 404, "{path}: {}", reply.text);
            assert!(
                reply
                    .header("content-type")
                    .starts_with("application/problem+json"),
                "{path}"
            );
            assert!(
                reply.json["detail"]
                    .as_str()
                    .unwrap_or_default()
                    .contains(what),
                "{path}: {}",
                reply.text
            );
        }
        let reply = app.get("/pacticipants/planner/coverage?version=1.0");
        assert_eq!(
            reply.status, 404,
            "a version that declares nothing: {}",
            reply.text
        );
        let reply = app.get("/pacticipants/plan-tools/coverage?version=%00");
        assert_eq!(reply.status, 400, "{}", reply.text);
        assert!(reply.text.contains("version"), "{}", reply.text);
    });
}

#[test]
fn the_gate_function_answers_the_same_gaps() {
    each_backend(|app| {
        publish(app, "planner", "1.0", "main", LOOKUP);
        declare(app, "2.0", &[]);
        let pool = accord_broker::db::connect(&app.database.url, 1).expect("connect");
        let mut conn = pool.get().expect("connection");
        let p = accord_broker::store::pacticipants::find_by_name(&mut conn, "plan-tools")
            .expect("query")
            .expect("provider");
        let v = accord_broker::store::versions::find_by_number(&mut conn, p.id, "2.0")
            .expect("query")
            .expect("version");
        let found = accord_broker::coverage::gaps(&mut conn, v.id).expect("gaps");
        let codes: Vec<&str> = found.iter().map(|g| g.code()).collect();
        assert_eq!(
            codes,
            vec!["COVERAGE_NO_CONTRACT", "COVERAGE_BOUNDARY_CASE_MISSING"]
        );
    });
}

/// How long the report takes through the API for a provider with 100 live
/// consumer contracts and 50 declared tools (the static check's setup). A
/// measurement, not an assertion (a noisy machine):
///
/// `cargo test -p accord-broker --test it -- --ignored coverage_speed --nocapture`
#[test]
#[ignore = "a measurement: run it on purpose"]
fn coverage_speed() {
    use crate::static_check_speed::{CONSUMERS, TOOLS, listing, publish};
    each_backend(|app| {
        for c in 0..CONSUMERS {
            publish(app, c);
        }
        let path = "/pacticipants/wide-tools/versions/1.0/declarations/mcp-tools/default";
        assert_eq!(app.put(path, &listing()).status, 201);
        let mut took = Vec::new();
        for _ in 0..5 {
            let started = std::time::Instant::now();
            let reply = app.get("/pacticipants/wide-tools/coverage");
            took.push(started.elapsed().as_millis());
            assert_eq!(reply.status, 200, "{}", reply.text);
            assert_eq!(
                reply.json["operations"].as_array().map(Vec::len),
                Some(TOOLS)
            );
        }
        took.sort_unstable();
        println!(
            "coverage, {CONSUMERS} consumers x {TOOLS} tools, GET through the API: median {} ms (of {:?})",
            took[2], took
        );
    });
}
