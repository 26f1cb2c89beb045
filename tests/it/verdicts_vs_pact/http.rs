//! Response headers and status codes, text and XML bodies, empty bodies.

use serde_json::{Value, json};

use super::harness::{Expect, Expect::Pass, Spec, Table, get, mismatch, served};

const JSON: (&str, &str) = ("Content-Type", "application/json");

fn status(path: &'static str) -> Expect {
    mismatch(path)
}

fn with_headers(headers: Value) -> Value {
    json!({ "status": 200, "headers": headers })
}

#[test]
fn v3_headers_status_and_plain_bodies_agree_with_pact() {
    let mut t = Table::new(Spec::V3);
    let h = |t: &mut Table, d: &str, want: Value, got: &[(&str, &str)], e: Expect| {
        let path = format!("/h/{}", t.cases.len());
        t.push(get(d, &path, with_headers(want)), served(200, got, b""), e);
    };
    h(
        &mut t,
        "header name in another case",
        json!({"X-Trace": "abc"}),
        &[("x-trace", "abc")],
        Pass,
    );
    h(
        &mut t,
        "header value differs",
        json!({"X-Trace": "abc"}),
        &[("X-Trace", "abd")],
        mismatch("X-Trace"),
    );
    h(
        &mut t,
        "header missing",
        json!({"X-Trace": "abc"}),
        &[],
        mismatch("X-Trace"),
    );
    h(
        &mut t,
        "content type with a charset",
        json!({"Content-Type": "application/json"}),
        &[("Content-Type", "application/json; charset=utf-8")],
        Pass,
    );
    h(
        &mut t,
        "content type charset case",
        json!({"Content-Type": "application/json;charset=UTF-8"}),
        &[("Content-Type", "application/json; charset=utf-8")],
        Pass,
    );
    h(
        &mut t,
        "content type differs",
        json!({"Content-Type": "application/json"}),
        &[("Content-Type", "text/plain")],
        mismatch("Content-Type"),
    );
    h(
        &mut t,
        "multi-value header as two lines",
        json!({"Allow": "GET, POST"}),
        &[("Allow", "GET"), ("Allow", "POST")],
        Pass,
    );
    h(
        &mut t,
        "multi-value header missing one",
        json!({"Allow": "GET, POST"}),
        &[("Allow", "GET")],
        mismatch("Allow"),
    );
    let regex = json!({"status": 200, "headers": {"X-Id": "12"},
                       "matchingRules": {"header": {"X-Id": {"matchers": [{"match": "regex", "regex": "^\\d+$"}]}}}});
    t.push(
        get("header regex ok", "/h/regex-ok", regex.clone()),
        served(200, &[("X-Id", "907")], b""),
        Pass,
    );
    t.push(
        get("header regex wrong", "/h/regex-bad", regex),
        served(200, &[("X-Id", "9a")], b""),
        mismatch("X-Id"),
    );
    t.push(
        get("status differs", "/s/1", json!({"status": 200})),
        served(201, &[], b""),
        status("status"),
    );
    t.push(
        get(
            "no body expected, one returned",
            "/s/2",
            json!({"status": 404}),
        ),
        served(404, &[JSON], br#"{"error":"x"}"#),
        Pass,
    );
    let text = json!({"status": 200, "headers": {"Content-Type": "text/plain"}, "body": "hello"});
    t.push(
        get("text body ok", "/t/1", text.clone()),
        served(200, &[("Content-Type", "text/plain")], b"hello"),
        Pass,
    );
    t.push(
        get("text body wrong", "/t/2", text),
        served(200, &[("Content-Type", "text/plain")], b"hullo"),
        mismatch("$"),
    );
    let text_rule = json!({"status": 200, "headers": {"Content-Type": "text/plain"}, "body": "ID-1",
                           "matchingRules": {"body": {"$": {"matchers": [{"match": "regex", "regex": "^ID-\\d+$"}]}}}});
    t.push(
        get("text body regex ok", "/t/3", text_rule.clone()),
        served(
            200,
            &[("Content-Type", "text/plain; charset=utf-8")],
            b"ID-77",
        ),
        Pass,
    );
    t.push(
        get("text body regex wrong", "/t/4", text_rule),
        served(200, &[("Content-Type", "text/plain")], b"ID-x"),
        mismatch("$"),
    );
    let xml = json!({"status": 200, "headers": {"Content-Type": "application/xml"},
                     "body": "<item><id>1</id><name>a</name></item>",
                     "matchingRules": {"body": {"$.item.name['#text']": {"matchers": [{"match": "type"}]}}}});
    let xml_ct = [("Content-Type", "application/xml")];
    t.push(
        get("xml body ok", "/x/1", xml.clone()),
        served(
            200,
            &xml_ct,
            b"<item>\n  <id>1</id>\n  <name>zz</name>\n</item>",
        ),
        Pass,
    );
    t.push(
        get("xml body wrong", "/x/2", xml.clone()),
        served(200, &xml_ct, b"<item><id>2</id><name>a</name></item>"),
        mismatch("$.item.id['#text']"),
    );
    t.push(
        get("xml element missing", "/x/3", xml),
        served(200, &xml_ct, b"<item><id>1</id></item>"),
        mismatch("$.item"),
    );
    t.run("v3-http");
}

#[test]
fn v4_status_classes_and_multi_value_headers_agree_with_pact() {
    let mut t = Table::new(Spec::V4);
    let class = |class: &str, example: u16| json!({"status": example, "matchingRules": {"status": {"matchers": [{"match": "statusCode", "status": class}]}}});
    t.push(
        get("status success ok", "/s/1", class("success", 200)),
        served(204, &[], b""),
        Pass,
    );
    t.push(
        get("status success wrong", "/s/2", class("success", 200)),
        served(500, &[], b""),
        status("status"),
    );
    t.push(
        get("status clientError ok", "/s/3", class("clientError", 400)),
        served(404, &[], b""),
        Pass,
    );
    t.push(
        get(
            "status clientError wrong",
            "/s/4",
            class("clientError", 400),
        ),
        served(200, &[], b""),
        status("status"),
    );
    let list = json!({"status": 200, "headers": {"Vary": ["Accept", "Origin"]}});
    t.push(
        get("v4 header list ok", "/h/1", list.clone()),
        served(200, &[("Vary", "Accept, Origin")], b""),
        Pass,
    );
    t.push(
        get("v4 header list as lines", "/h/2", list.clone()),
        served(200, &[("vary", "Accept"), ("vary", "Origin")], b""),
        Pass,
    );
    t.push(
        get("v4 header list wrong", "/h/3", list),
        served(200, &[("Vary", "Origin")], b""),
        mismatch("Vary"),
    );
    let empty = json!({"status": 200, "body": {"content": "", "contentType": "text/plain", "encoded": false}});
    t.push(
        get("v4 empty text body ok", "/e/1", empty.clone()),
        served(200, &[], b""),
        Pass,
    );
    t.push(
        get("v4 empty text body returned one", "/e/2", empty),
        served(200, &[("Content-Type", "text/plain")], b"surprise"),
        mismatch("$"),
    )
    // Pact names the body of an expected-empty response "/" (its
    // "expected no body" check), Accord "$" like any other body mismatch.
    .pact_path = Some("/");
    t.run("v4-http");
}

/// A description, the expected headers, the served ones, the verdict.
type HeaderCase<'a> = (&'a str, Value, &'a [(&'a str, &'a str)], Expect);

#[test]
fn header_value_edges_agree_with_pact() {
    let mut t = Table::new(Spec::V3);
    let cases: [HeaderCase; 7] = [
        (
            "list header without spaces",
            json!({"Cache-Control": "no-cache,no-store"}),
            &[("Cache-Control", "no-cache, no-store")],
            Pass,
        ),
        (
            "list header in another order",
            json!({"Cache-Control": "no-cache, no-store"}),
            &[("Cache-Control", "no-store, no-cache")],
            mismatch("Cache-Control"),
        ),
        (
            "header value in another case",
            json!({"X-Mode": "fast"}),
            &[("X-Mode", "Fast")],
            mismatch("X-Mode"),
        ),
        (
            "content type with extra params",
            json!({"Content-Type": "application/json"}),
            &[("Content-Type", "application/json;charset=utf-8;v=2")],
            Pass,
        ),
        (
            "content type charset missing",
            json!({"Content-Type": "application/json; charset=utf-8"}),
            &[("Content-Type", "application/json")],
            mismatch("Content-Type"),
        ),
        (
            "content type charset differs",
            json!({"Content-Type": "text/plain; charset=utf-8"}),
            &[("Content-Type", "text/plain; charset=iso-8859-1")],
            mismatch("Content-Type"),
        ),
        (
            "header with surrounding spaces",
            json!({"X-Mode": "fast"}),
            &[("X-Mode", " fast ")],
            Pass,
        ),
    ];
    for (description, headers, got, expect) in cases {
        let path = format!("/hv/{}", t.cases.len());
        t.push(
            get(description, &path, with_headers(headers)),
            served(200, got, b""),
            expect,
        );
    }
    // Media type and subtype are case-insensitive (RFC 9110 8.3.1), so a
    // provider answering "Application/JSON" is right. Pact's verifier
    // compares the type case-sensitively ("Expected header 'Content-Type'
    // to have value 'application/json' but was 'Application/JSON'").
    t.push(
        get(
            "content type in capitals",
            "/hv/caps",
            with_headers(json!({"Content-Type": "application/json"})),
        ),
        served(200, &[("Content-Type", "Application/JSON")], b""),
        Pass,
    )
    .pact_wrong = Some("compares the media type case-sensitively (RFC 9110 8.3.1: it is not)");
    let rule = json!({"status": 200, "headers": {"Content-Type": "application/json"},
                      "matchingRules": {"header": {"Content-Type": {"matchers": [{"match": "regex", "regex": "^application/(hal\\+)?json.*"}]}}}});
    t.push(
        get("content type under a regex", "/hv/rx1", rule.clone()),
        served(
            200,
            &[("Content-Type", "application/hal+json; charset=utf-8")],
            b"{}",
        ),
        Pass,
    );
    t.push(
        get("content type under a regex, wrong", "/hv/rx2", rule),
        served(200, &[("Content-Type", "text/json")], b"{}"),
        mismatch("Content-Type"),
    );
    t.run("v3-header-values");
}
