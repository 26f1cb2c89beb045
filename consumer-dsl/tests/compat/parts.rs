//! Requests, responses and messages built from a table row.

use serde_json::Value;

use accord_dsl::generators::Generators;
use accord_dsl::matching::MatchingRules;
use accord_dsl::model::{
    Body, Headers, HttpInteraction, HttpRequest, HttpResponse, InteractionMeta, Message, PactSpec,
};

use crate::cells::{self, Record};
use crate::fixtures::Fixtures;

/// A request from the columns `method`, `path`, `query`, `headers`,
/// `content type`, `body`, `matching rules`, `generators` (all optional).
pub fn request(rec: &Record, fx: &Fixtures, base: HttpRequest) -> Result<HttpRequest, String> {
    let mut req = base;
    if let Some(m) = cell(rec, "method") {
        req.method = m.to_string();
    }
    if let Some(p) = cell(rec, "path") {
        req.path = p.to_string();
    }
    if let Some(q) = cell(rec, "query") {
        req.query = cells::query(q);
    }
    if let Some(h) = cell(rec, "headers") {
        req.headers = cells::headers(h);
    }
    if let Some(b) = rec.get("body") {
        req.body = fx.body(b, cell(rec, "content type"))?;
        with_content_type_header(&mut req.headers, &req.body);
    }
    if let Some(r) = cell(rec, "matching rules") {
        req.matching_rules = rules(fx, r)?;
    }
    if let Some(g) = cell(rec, "generators") {
        req.generators = generators(fx, g)?;
    }
    Ok(req)
}

/// A response from the columns `status`, `headers`, `content type`, `body`,
/// `matching rules`, `generators` (all optional).
pub fn response(rec: &Record, fx: &Fixtures, base: HttpResponse) -> Result<HttpResponse, String> {
    let mut res = base;
    if let Some(s) = cell(rec, "status") {
        res.status = s.parse().map_err(|e| format!("status {s:?}: {e}"))?;
    }
    if let Some(h) = cell(rec, "headers") {
        res.headers = cells::headers(h);
    }
    if let Some(b) = rec.get("body") {
        res.body = fx.body(b, cell(rec, "content type"))?;
        with_content_type_header(&mut res.headers, &res.body);
    }
    if let Some(r) = cell(rec, "matching rules") {
        res.matching_rules = rules(fx, r)?;
    }
    if let Some(g) = cell(rec, "generators") {
        res.generators = generators(fx, g)?;
    }
    Ok(res)
}

/// A message from the columns `body`, `metadata`, `generators`, `matching rules`.
pub fn message(rec: &Record, fx: &Fixtures, base: Message) -> Result<Message, String> {
    let mut msg = base;
    if let Some(b) = rec.get("body") {
        msg.contents = fx.body(b, cell(rec, "content type"))?;
    }
    if let Some(m) = cell(rec, "metadata") {
        match cells::json_cell(m)? {
            Value::Object(map) => msg.metadata.extend(map),
            other => return Err(format!("metadata must be a JSON object, got {other}")),
        }
    }
    if let Some(g) = cell(rec, "generators") {
        msg.generators = generators(fx, g)?;
    }
    if let Some(r) = cell(rec, "matching rules") {
        msg.matching_rules = rules(fx, r)?;
    }
    Ok(msg)
}

/// A non-empty cell of the row.
fn cell<'r>(rec: &'r Record, column: &str) -> Option<&'r str> {
    rec.get(column).map(|s| s.trim()).filter(|s| !s.is_empty())
}

/// Matching rules from a fixture file or `JSON: …`: the V2 flat form
/// (`{"$.body.one": …}`) or the V3/V4 form by category.
pub fn rules(fx: &Fixtures, cell: &str) -> Result<MatchingRules, String> {
    let json = fx.json(cell)?;
    let flat = json
        .as_object()
        .is_some_and(|o| o.keys().any(|k| k.starts_with('$')));
    let spec = if flat { PactSpec::V2 } else { PactSpec::V4 };
    MatchingRules::from_pact_json(&json, spec).map_err(|e| format!("matching rules {cell}: {e}"))
}

/// Generators from a fixture file or `JSON: …`.
pub fn generators(fx: &Fixtures, cell: &str) -> Result<Generators, String> {
    let json = fx.json(cell)?;
    Generators::from_pact_json(&json).map_err(|e| format!("generators {cell}: {e}"))
}

/// Sets the `Content-Type` header of a part to its body's type, as an HTTP
/// client sending that body would.
fn with_content_type_header(headers: &mut Option<Headers>, body: &Body) {
    let Some(ct) = body.content_type() else {
        return;
    };
    let h = headers.get_or_insert_with(Headers::new);
    if !h.keys().any(|k| k.eq_ignore_ascii_case("content-type")) {
        h.insert("Content-Type".into(), vec![ct.to_string()]);
    }
}

/// The interactions of a "the following HTTP interactions have been
/// defined" table: the request columns build the request, the `response …`
/// columns the response; each is named `interaction <No>`. (Used by the
/// verifier's and the mock's harnesses.)
#[allow(dead_code)]
pub fn http_interactions(
    table: Option<&gherkin::Table>,
    fx: &Fixtures,
) -> Result<Vec<HttpInteraction>, String> {
    let mut out = Vec::new();
    for rec in cells::records(table)? {
        let request = request(&rec, fx, HttpRequest::default())?;
        let response = response(&response_record(&rec), fx, HttpResponse::default())?;
        out.push(HttpInteraction {
            meta: InteractionMeta {
                description: format!("interaction {}", rec.get("No").map_or("?", |s| s.trim())),
                ..InteractionMeta::default()
            },
            request,
            response,
        });
    }
    Ok(out)
}

/// Renames the `response …` columns of a table row to the part columns.
pub fn response_record(rec: &Record) -> Record {
    let mut out = Record::new();
    for (k, v) in rec {
        let key = match k.as_str() {
            "response" => "status",
            "response headers" => "headers",
            "response content" => "content type",
            "response body" => "body",
            "response matching rules" => "matching rules",
            _ => continue,
        };
        out.insert(key.to_string(), v.clone());
    }
    out
}
