//! The bad-input corpus: values for path parameters, query strings, and
//! bodies (whole-body garbage, and every field of a valid body turned into
//! something else).

use base64::Engine;
use serde_json::{Value, json};

use super::Seeded;

/// How a path parameter is filled.
#[derive(Debug, Clone)]
pub struct PathValue {
    /// The raw (percent-encoded) segment.
    pub raw: String,
    /// True when the edge must refuse it with a 400 naming the parameter.
    pub refused_at_edge: bool,
}

fn value(raw: impl Into<String>, refused_at_edge: bool) -> PathValue {
    PathValue {
        raw: raw.into(),
        refused_at_edge,
    }
}

/// Hostile segments: blank, huge, separators, dot segments, NUL and other
/// control characters, bytes that are not UTF-8, unicode, SQL.
pub fn hostile_segments() -> Vec<PathValue> {
    vec![
        value("%20", false),
        value("%20%20%20", false),
        value("x".repeat(300), false),
        value("y".repeat(6000), false),
        value("%2F", false),
        value("a%2Fb", false),
        value("..", false),
        value("%2E%2E", false),
        value("%00", true),
        value("a%00b", true),
        value("a%0Ab", true),
        value("%0D%0A", true),
        value("%7F", true),
        value("%C2%85", true),
        value("%1B%5B31m", true),
        value("%FF", true),
        value("%C3%28", true),
        value("%ED%A0%80", true),
        value("caf%C3%A9", false),
        value("%F0%9F%98%80", false),
        value("%E2%80%AE", false),
        value("'%3B%20DROP%20TABLE%20pacticipants%3B--", false),
        value("%25", false),
        value("%3F%23", false),
        value("a+b", false),
        value("-1", false),
        value("99999999999999999999999999", false),
    ]
}

/// Well-formed values naming nothing that exists.
pub fn unknown_value(param: &str) -> String {
    match param {
        "sha" => "a".repeat(64),
        "uuid" => "0b7a9c1e-0000-4000-8000-000000000000".into(),
        "number" => "999999".into(),
        "metadata" => "Zm9v".into(),
        "version" => "9.9.9".into(),
        _ => "ghost".into(),
    }
}

/// The seeded value of a path parameter, for the route `path`.
pub fn valid_value(seeded: &Seeded, path: &str, param: &str) -> String {
    match param {
        "pacticipant" | "consumer" => "c".into(),
        "provider" => "p".into(),
        "version" => "1".into(),
        "tag" => "prod".into(),
        "branch" => "main".into(),
        "environment" => "production".into(),
        "sha" => seeded.sha.clone(),
        "metadata" => "e30".into(),
        "number" => seeded.verification.clone(),
        "name" => "nobody".into(),
        "file" => "style.css".into(),
        "id" => "1".into(),
        "profile" => "alice".into(),
        "label" => "team".into(),
        "uuid" if path.starts_with("/deployed-versions/") => seeded.deployed.clone(),
        "uuid" if path.starts_with("/released-versions/") => seeded.released.clone(),
        "uuid" => seeded.environment.clone(),
        other => panic!("no seeded value for the path parameter {{{other}}} of {path}: add one"),
    }
}

/// A query string and whether the edge must refuse it naming `field`.
#[derive(Debug, Clone)]
pub struct Query {
    pub raw: String,
    pub refused_field: Option<&'static str>,
}

fn query(raw: impl Into<String>, refused_field: Option<&'static str>) -> Query {
    Query {
        raw: raw.into(),
        refused_field,
    }
}

/// Garbage query strings, sent to every route.
pub fn hostile_queries() -> Vec<Query> {
    vec![
        query("%00=1", Some("\u{fffd}")),
        query("x=%00", Some("x")),
        query("name=a%0Ab", Some("name")),
        query("a=%FF", Some("a")),
        query("size=-1&page=-5", None),
        query("size=0&page=0", None),
        query(
            "size=99999999999999999999999&page=99999999999999999999",
            None,
        ),
        query("page=abc&size=xyz", None),
        query("name=a&name=b", None),
        query("pacticipant=c&pacticipant=p&version=1&version=2", None),
        query("q[][pacticipant]=c&q[][version]=%00", Some("q[][version]")),
        query(
            "q[][pacticipant]=c&q[][latest]=maybe&latestby=nonsense",
            None,
        ),
        query("q[]=1&q[][x]=2&q=3", None),
        query(
            "pacticipant=c&version=1&to=prod&environment=production",
            None,
        ),
        query(
            "includePendingStatus=maybe&includeWipPactsSince=yesterday",
            None,
        ),
        query(format!("z={}", "w".repeat(6000)), None),
        query("=&&=&%", None),
        query("%zz=%zz", None),
        query("label=%3Cscript%3E", None),
    ]
}

/// A valid body for each route that takes one; `None` for a new body
/// route, which the test then reports so its sample is added here.
pub fn sample_body(seeded: &Seeded, method: &str, path: &str) -> Option<Value> {
    let pact = seeded.pact.clone();
    Some(match (method, path) {
        ("POST", "/tokens") => json!({"name": "t-sample", "role": "read"}),
        ("POST", "/pacticipants") => json!({"name": "new-p", "displayName": "New"}),
        (_, "/pacticipants/{pacticipant}") => json!({
            "displayName": "C", "repositoryUrl": "https://git.example/c",
            "repositoryName": "c", "repositoryNamespace": "team", "mainBranch": "main"
        }),
        (_, p) if p.ends_with("/verification-results") => json!({
            "success": true, "providerApplicationVersion": "2",
            "buildUrl": "https://ci.example/1", "testResults": [],
            "verifiedBy": {"implementation": "accord"},
            "findings": [{"layer": "schema", "reasonCode": "SCHEMA_VIOLATION",
                          "interactionId": "x", "path": "$.a", "expected": 1, "actual": 2,
                          "missing": ["priority"], "unexpected": ["debug"]}],
            "producerDigest": format!("sha256:{}", "c".repeat(64)), "evidenceTtlSeconds": 3600
        }),
        ("POST", "/pacts/provider/{provider}/for-verification") => json!({
            "consumerVersionSelectors": [{"mainBranch": true}, {"tag": "prod", "latest": true},
                                         {"deployedOrReleased": true}],
            "includePendingStatus": true, "includeWipPactsSince": "2020-01-01",
            "providerVersionBranch": "main", "providerVersionTags": ["main"]
        }),
        (_, "/pacticipants/{pacticipant}/versions/{version}") => {
            json!({"buildUrl": "https://ci.example/2", "tags": [{"name": "t"}]})
        }
        ("PUT", "/pacticipants/{pacticipant}/versions/{version}/tags/{tag}") => json!({}),
        ("PUT", "/pacticipants/{pacticipant}/labels/{label}") => json!({}),
        ("PUT", "/pacticipants/{pacticipant}/branches/{branch}/versions/{version}") => {
            json!({"name": "main"})
        }
        ("POST", "/environments") => json!({
            "name": "staging", "displayName": "Staging", "production": false,
            "admissionStage": "canary",
            "contacts": [{"name": "team", "details": {"email": "a@example.com"}}]
        }),
        ("PUT", "/environments/{uuid}") => {
            json!({"name": "production", "displayName": "Prod", "production": true})
        }
        (_, p) if p.contains("/deployed-versions/environment/") => {
            json!({"applicationInstance": "blue", "target": "blue"})
        }
        ("POST", "/pacticipants/{pacticipant}/versions/{version}/admission") => {
            json!({"to": "DEPRECATED", "reason": "sample"})
        }
        ("PATCH", "/deployed-versions/{uuid}") => json!({"currentlyDeployed": false}),
        (_, p) if p.contains("/released-versions/environment/") => json!({}),
        ("PATCH", "/released-versions/{uuid}") => json!({"currentlySupported": false}),
        ("POST", "/contracts/publish") => json!({
            "pacticipantName": "c", "pacticipantVersionNumber": "1", "branch": "main",
            "tags": ["prod"], "buildUrl": "https://ci.example/3",
            "contracts": [{
                "consumerName": "c", "providerName": "p", "specification": "pact",
                "contentType": "application/json",
                "content": base64::engine::general_purpose::STANDARD.encode(pact.to_string()),
                "onConflict": "merge"
            }]
        }),
        (_, "/pacts/provider/{provider}/consumer/{consumer}/version/{version}") => pact,
        ("PUT", "/pacticipants/{pacticipant}/drift-policy") => json!({"drift_policy": {
            "rules": {"agent_card_digest": {"threshold": 1, "action": "quarantine"},
                      "unknown_error_codes": {"threshold": 5, "action": "route_disable"}},
            "environments": {"production": {"cross_tenant_allows": {"threshold": 1, "action": "quarantine"}}}
        }}),
        ("POST", "/registry/check") => json!({
            "provider": "p", "version": "1", "environment": "production",
            "cardDigest": format!("sha256:{}", "a".repeat(64))
        }),
        ("POST", "/drift-reports") => json!({
            "provider": "p", "version": "1", "environment": "production",
            "window": {"start": "2026-12-05T04:00:00Z", "end": "2026-12-05T04:05:00Z"},
            "source": "gateway-1",
            "agentCardDigest": format!("sha256:{}", "a".repeat(64)),
            "toolsDigests": {"default": format!("sha256:{}", "b".repeat(64))},
            "counts": {"outputSchemaViolations": 2, "crossTenantAllows": 0},
            "observations": [{"signal": "unknownErrorCodes", "count": 1,
                              "mcp.method.name": "tools/call", "gen_ai.tool.name": "lookup",
                              "error.type": "-32099"}]
        }),
        ("PUT", "/pacticipants/{pacticipant}/versions/{version}/declarations/agent-card") => {
            json!({
                "name": "p", "description": "A provider", "version": "1.0.0", "capabilities": {"streaming": false},
                "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
                "supportedInterfaces": [{"url": "http://127.0.0.1:9/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
                "skills": [{"id": "quote", "name": "Quote", "description": "Prices", "tags": ["price"]}]
            })
        }
        (
            "PUT",
            "/pacticipants/{pacticipant}/versions/{version}/declarations/mcp-tools/{profile}",
        ) => json!({
            "tools": [{"name": "search", "description": "Finds", "inputSchema": {"type": "object",
                       "properties": {"q": {"type": "string"}}, "required": ["q"]}}]
        }),
        ("POST", "/pacticipants/{pacticipant}/versions/{version}/evaluations") => json!({
            "dataset": "golden", "score": 0.9, "threshold": 0.8, "higherIsBetter": true,
            "pass": true, "evaluator": {"name": "evalkit", "version": "2.1"},
            "url": "https://evals.example/runs/7"
        }),
        ("POST", "/webhooks/{uuid}/execute") => json!({}),
        (_, p) if p.starts_with("/webhooks") || p.ends_with("/webhooks") => json!({
            "description": "sample", "enabled": true,
            "consumer": {"name": "c"}, "provider": {"name": "p"},
            "events": [{"name": "contract_published"}],
            "request": {"method": "POST", "url": "https://127.0.0.1:1/hook?c=${pactbroker.consumerName}",
                        "headers": {"Content-Type": "application/json", "Authorization": "Bearer x"},
                        "body": {"pactUrl": "${pactbroker.pactUrl}"}, "username": "u", "password": "p"}
        }),
        _ => return None,
    })
}

/// Whole bodies that are not what any route takes: not JSON, the wrong
/// JSON type, nested far too deep, not UTF-8.
pub fn garbage_bodies() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("empty object with trailing garbage", b"{} x".to_vec()),
        ("truncated", b"{\"name\":".to_vec()),
        ("unterminated string", b"{\"name\":\"abc".to_vec()),
        ("array", b"[]".to_vec()),
        ("string", b"\"x\"".to_vec()),
        ("number", b"42".to_vec()),
        ("null", b"null".to_vec()),
        ("boolean", b"true".to_vec()),
        ("deep arrays", "[".repeat(100_000).into_bytes()),
        ("deep objects", "{\"a\":".repeat(50_000).into_bytes()),
        ("invalid UTF-8", b"{\"name\":\"\xff\xfe\"}".to_vec()),
        (
            "NUL escape",
            b"{\"name\":\"a\\u0000b\",\"displayName\":\"\\u0000\"}".to_vec(),
        ),
        ("lone surrogate", b"{\"name\":\"\\ud800\"}".to_vec()),
        ("huge number", b"{\"size\":1e999999}".to_vec()),
        (
            "duplicate keys",
            b"{\"name\":\"a\",\"name\":\"b\"}".to_vec(),
        ),
    ]
}

/// What a field of a valid body is replaced with.
pub fn field_replacements() -> Vec<(&'static str, Value)> {
    vec![
        ("a number", json!(42)),
        ("a negative number", json!(-1)),
        ("a huge number", json!(1e308)),
        ("a huge integer", json!(18_446_744_073_709_551_615u64)),
        ("a string", json!("x")),
        ("an empty string", json!("")),
        ("NUL", json!("a\u{0}b")),
        ("a line break", json!("a\nb")),
        ("DEL", json!("\u{7f}")),
        ("a long string", json!("z".repeat(10_000))),
        ("an array", json!([1, "two", null])),
        ("an object", json!({"x": {"y": [1]}})),
        ("null", Value::Null),
        ("a boolean", json!(true)),
    ]
}

/// Every field of `body` at depth one and two (inside objects and the first
/// element of arrays), as (JSON path, parent pointer, key).
pub fn fields(body: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let Value::Object(top) = body else {
        return out;
    };
    for (k, v) in top {
        out.push((format!("$.{k}"), String::new(), k.clone()));
        let inner = match v {
            Value::Object(_) => Some((format!("$.{k}"), format!("/{k}"), v)),
            Value::Array(items) => items
                .first()
                .map(|first| (format!("$.{k}[0]"), format!("/{k}/0"), first)),
            _ => None,
        };
        if let Some((path, pointer, Value::Object(map))) = inner {
            for key in map.keys() {
                out.push((format!("{path}.{key}"), pointer.clone(), key.clone()));
            }
        }
    }
    out
}
