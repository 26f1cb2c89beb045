//! Checks of generated values: reading a body path or a request part, and
//! the kinds the suite names ("integer", "UUID", "date-time", …).

use regex::Regex;
use serde_json::Value;

use accord_dsl::model::{Body, BodyContent, HttpRequest, HttpResponse};

/// The JSON document of a body.
pub fn body_json(body: &Body) -> Result<Value, String> {
    match body {
        Body::Present {
            content: BodyContent::Json(v),
            ..
        } => Ok(v.clone()),
        Body::Present {
            content: BodyContent::Text(t),
            ..
        } => serde_json::from_str(t).map_err(|e| format!("body is not JSON: {e}")),
        other => Err(format!("body is not JSON: {other:?}")),
    }
}

/// The value at a simple JSON path (`$.one`, `$.a.b[0]`) of a body.
pub fn json_at(body: &Body, path: &str) -> Result<Value, String> {
    let doc = body_json(body)?;
    let pointer = pointer_of(path)?;
    doc.pointer(&pointer)
        .cloned()
        .ok_or_else(|| format!("the body has no value at {path}"))
}

fn pointer_of(path: &str) -> Result<String, String> {
    let rest = path
        .strip_prefix('$')
        .ok_or(format!("{path:?} is not a JSON path"))?;
    let mut pointer = String::new();
    for seg in rest.replace('[', ".").replace(']', "").split('.') {
        if !seg.is_empty() {
            pointer.push('/');
            pointer.push_str(&seg.replace('~', "~0").replace('/', "~1"));
        }
    }
    Ok(pointer)
}

/// JSON as the suite prints it: strings without quotes.
pub fn as_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The generated value differs from the example and is `expected` as text.
pub fn replaced_with_value(before: &Value, after: &Value, expected: &str) -> Result<(), String> {
    if before == after {
        return Err(format!("the example {before} was not replaced"));
    }
    expect_eq(&as_text(after), expected)
}

/// The generated value differs from the example and is of the named kind.
pub fn replaced_with_kind(before: &Value, after: &Value, kind: &str) -> Result<(), String> {
    if before == after {
        return Err(format!("the example {before} was not replaced"));
    }
    if is_kind(after, kind)? {
        Ok(())
    } else {
        Err(format!("expected a(n) {kind}, got {after}"))
    }
}

/// Whether `v` is a value of the kind the suite names.
pub fn is_kind(v: &Value, kind: &str) -> Result<bool, String> {
    let text = as_text(v);
    let full = |re: &str| Regex::new(&format!("^(?:{re})$")).is_ok_and(|r| r.is_match(&text));
    let hex = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    Ok(match kind {
        "integer" => v.is_i64() || v.is_u64() || (v.is_string() && full(r"-?\d+")),
        "decimal number" => v.is_f64() || (v.is_string() && full(r"-?\d+\.\d+")),
        "hexadecimal number" => full("[0-9a-fA-F]+"),
        "random string" => v.as_str().is_some_and(|s| !s.is_empty()),
        "string from the regex" => v.is_string() && full(r"\d{1,8}"),
        "date" => full(r"\d{4}-\d{2}-\d{2}"),
        "time" => full(r"\d{2}:\d{2}:\d{2}"),
        "date-time" => {
            full(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?")
        }
        "UUID" => uuid::Uuid::parse_str(&text).is_ok(),
        "simple UUID" => full("[0-9a-f]{32}"),
        "lower-case-hyphenated UUID" => full(hex),
        "upper-case-hyphenated UUID" => full(&hex.replace("a-f", "A-F")),
        "URN UUID" => full(&format!("urn:uuid:{hex}")),
        "boolean" => v.is_boolean() || full("true|false"),
        other => return Err(format!("unknown value kind {other:?}")),
    })
}

/// `path`, `method`, `header[NAME]`, `queryParameter[NAME]` of a request.
pub fn request_part(req: &HttpRequest, part: &str) -> Result<String, String> {
    if let Some(name) = indexed(part, "header") {
        return first_value(req.headers.as_ref(), name, "header");
    }
    if let Some(name) = indexed(part, "queryParameter") {
        return first_value(req.query.as_ref(), name, "query parameter");
    }
    match part {
        "path" => Ok(req.path.clone()),
        "method" => Ok(req.method.clone()),
        other => Err(format!("unknown request part {other:?}")),
    }
}

/// `status`, `header[NAME]` of a response.
pub fn response_part(res: &HttpResponse, part: &str) -> Result<String, String> {
    if let Some(name) = indexed(part, "header") {
        return first_value(res.headers.as_ref(), name, "header");
    }
    match part {
        "status" => Ok(res.status.to_string()),
        other => Err(format!("unknown response part {other:?}")),
    }
}

fn indexed<'p>(part: &'p str, prefix: &str) -> Option<&'p str> {
    part.strip_prefix(prefix)?
        .strip_prefix('[')?
        .strip_suffix(']')
}

fn first_value(
    map: Option<&indexmap::IndexMap<String, Vec<String>>>,
    name: &str,
    what: &str,
) -> Result<String, String> {
    map.and_then(|m| {
        m.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.first())
    })
    .cloned()
    .ok_or_else(|| format!("there is no {what} {name:?}"))
}

pub fn expect_eq(got: &str, expected: &str) -> Result<(), String> {
    if got == expected {
        Ok(())
    } else {
        Err(format!("expected {expected:?}, got {got:?}"))
    }
}

/// The whole of `got` matches the regex.
pub fn expect_match(got: &str, regex: &str) -> Result<(), String> {
    let re = Regex::new(&format!("^(?:{regex})$")).map_err(|e| e.to_string())?;
    if re.is_match(got) {
        Ok(())
    } else {
        Err(format!("{got:?} does not match {regex:?}"))
    }
}

/// Two bodies hold the same content: equal JSON documents, or equal text or
/// bytes (the content types are checked by their own steps).
pub fn same_content(a: &Body, b: &Body) -> bool {
    match (body_json(a), body_json(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => raw(a) == raw(b),
    }
}

fn raw(body: &Body) -> Option<Vec<u8>> {
    match body {
        Body::Present { content, .. } => Some(match content {
            BodyContent::Json(v) => v.to_string().into_bytes(),
            BodyContent::Text(t) => t.clone().into_bytes(),
            BodyContent::Bytes(b) => b.clone(),
        }),
        _ => None,
    }
}

/// The body holds the same content as the fixture cell describes.
pub fn expect_same(got: &Body, want: &Body, what: &str) -> Result<(), String> {
    if same_content(got, want) {
        Ok(())
    } else {
        Err(format!("{what} is {got:?}, expected {want:?}"))
    }
}

/// The content type of a body is `want` (exactly, as written).
pub fn expect_content_type(body: &Body, want: &str) -> Result<(), String> {
    expect_eq(body.content_type().unwrap_or_default(), want)
}
