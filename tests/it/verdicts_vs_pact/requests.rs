//! Requests the provider checks: it answers 400 unless it receives exactly
//! the query, headers and body it expects, so a verifier that sends
//! something else than the contract describes fails a correct provider.

use accord_fixtures::stub::RequestCheck;
use serde_json::{Value, json};

use super::harness::{Expect, Expect::Pass, Spec, Table, mismatch, served_json};

/// A request interaction the provider checks: it answers 200 `{"ok":true}`
/// only if it receives exactly `check`.
fn checked(t: &mut Table, description: &str, request: Value, check: RequestCheck, expect: Expect) {
    let response = json!({"status": 200, "body": {"ok": true}});
    let interaction = json!({"description": description, "request": request, "response": response});
    let case = t.push(interaction, served_json(json!({"ok": true})), expect);
    case.check = Some(check);
}

fn pairs(list: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
    Some(
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
    )
}

#[test]
fn requests_reach_the_provider_as_the_contract_describes() {
    let mut t = Table::new(Spec::V3);
    let query = RequestCheck {
        query: pairs(&[("a", "1"), ("a", "2"), ("q", "two words & more")]),
        ..Default::default()
    };
    let request = json!({"method": "GET", "path": "/r/query", "query": {"a": ["1", "2"], "q": ["two words & more"]}});
    checked(
        &mut t,
        "query with repeats and escapes",
        request,
        query.clone(),
        Pass,
    );
    let request = json!({"method": "GET", "path": "/r/query-wrong", "query": {"a": ["1"], "q": ["two words & more"]}});
    checked(
        &mut t,
        "query the provider refuses",
        request,
        query,
        mismatch("status"),
    );
    let body = json!({"name": "x", "n": 1, "tags": ["a", "b"]});
    let check = RequestCheck {
        body: Some(body.to_string().into_bytes()),
        headers: vec![("content-type".into(), vec!["application/json".into()])],
        ..Default::default()
    };
    let request = json!({"method": "POST", "path": "/r/body", "headers": {"Content-Type": "application/json"}, "body": body});
    checked(&mut t, "json request body", request, check.clone(), Pass);
    let request = json!({"method": "POST", "path": "/r/body-wrong", "headers": {"Content-Type": "application/json"}, "body": {"name": "x", "n": 2, "tags": ["a", "b"]}});
    checked(
        &mut t,
        "json request body the provider refuses",
        request,
        check,
        mismatch("status"),
    );
    let check = RequestCheck {
        body: Some(b"plain words".to_vec()),
        headers: vec![("x-api-key".into(), vec!["k1".into()])],
        ..Default::default()
    };
    let request = json!({"method": "PUT", "path": "/r/text", "headers": {"Content-Type": "text/plain", "X-Api-Key": "k1"}, "body": "plain words"});
    checked(
        &mut t,
        "text request body and header",
        request,
        check.clone(),
        Pass,
    );
    let request = json!({"method": "PUT", "path": "/r/text-wrong", "headers": {"Content-Type": "text/plain", "X-Api-Key": "k2"}, "body": "plain words"});
    checked(
        &mut t,
        "request header the provider refuses",
        request,
        check,
        mismatch("status"),
    );
    let check = RequestCheck {
        body: Some(Vec::new()),
        ..Default::default()
    };
    checked(
        &mut t,
        "delete without a body",
        json!({"method": "DELETE", "path": "/r/delete"}),
        check,
        Pass,
    );
    t.run("v3-requests");
}

#[test]
fn v2_query_strings_reach_the_provider_decoded_as_written() {
    let mut t = Table::new(Spec::V2);
    let check = RequestCheck {
        query: pairs(&[("q", "a+b c"), ("tag", "x"), ("tag", "y")]),
        ..Default::default()
    };
    let request =
        json!({"method": "GET", "path": "/r/v2-query", "query": "q=a%2Bb%20c&tag=x&tag=y"});
    checked(&mut t, "v2 query string with escapes", request, check, Pass);
    let check = RequestCheck {
        query: pairs(&[("q", "a b")]),
        ..Default::default()
    };
    let request = json!({"method": "GET", "path": "/r/v2-plus", "query": "q=a+b"});
    checked(&mut t, "v2 query string with a plus", request, check, Pass);
    t.run("v2-requests");
}

#[test]
fn v4_request_headers_and_bodies_reach_the_provider_as_written() {
    let mut t = Table::new(Spec::V4);
    let check = RequestCheck {
        headers: vec![("x-tags".into(), vec!["a, b".into()])],
        ..Default::default()
    };
    let request =
        json!({"method": "GET", "path": "/r/v4-header", "headers": {"X-Tags": ["a", "b"]}});
    checked(&mut t, "v4 request header list", request, check, Pass);
    let check = RequestCheck {
        body: Some(b"\x00\x01binary\xff".to_vec()),
        ..Default::default()
    };
    let request = json!({"method": "POST", "path": "/r/v4-binary",
        "headers": {"Content-Type": ["application/octet-stream"]},
        "body": {"content": "AAFiaW5hcnn/", "contentType": "application/octet-stream", "encoded": "base64"}});
    checked(&mut t, "v4 base64 request body", request, check, Pass);
    let check = RequestCheck {
        body: Some(b"a=1&b=two+words".to_vec()),
        ..Default::default()
    };
    let request = json!({"method": "POST", "path": "/r/v4-form",
        "headers": {"Content-Type": ["application/x-www-form-urlencoded"]},
        "body": {"content": "a=1&b=two+words", "contentType": "application/x-www-form-urlencoded", "encoded": false}});
    checked(&mut t, "v4 form request body", request, check, Pass);
    t.run("v4-requests");
}

#[test]
fn provider_state_values_reach_the_query_headers_and_body() {
    let mut t = Table::new(Spec::V3);
    t.state_reply = Some(json!({"id": 77}));
    let from_state = |expression: &str| json!({"type": "ProviderState", "expression": expression});
    let check = RequestCheck {
        query: pairs(&[("ref", "77")]),
        headers: vec![
            ("x-ref".into(), vec!["77".into()]),
            ("x-owner".into(), vec!["ann".into()]),
        ],
        body: Some(json!({"ref": 77, "name": "n"}).to_string().into_bytes()),
    };
    let request = json!({
        "method": "POST", "path": "/r/generated", "query": {"ref": ["1"]},
        "headers": {"X-Ref": "1", "X-Owner": "bob", "Content-Type": "application/json"},
        "body": {"ref": 1, "name": "n"},
        "generators": {
            "query": {"ref": from_state("${id}")},
            "header": {"X-Ref": from_state("${id}"), "X-Owner": from_state("${owner}")},
            "body": {"$.ref": {"type": "ProviderState", "expression": "${id}", "dataType": "INTEGER"}}
        }
    });
    let response = json!({"status": 200, "body": {"ok": true}});
    let interaction = json!({
        "description": "values from the state change and its params",
        // `owner` only in the params, `id` only in the state change's reply.
        "providerStates": [{"name": "a thing exists", "params": {"owner": "ann"}}],
        "request": request, "response": response
    });
    t.push(interaction, served_json(json!({"ok": true})), Pass)
        .check = Some(check);
    t.run("v3-generated-requests");
}
