//! Bodies of V1–V3 (raw JSON values typed by the content type) and V4
//! (`{content, contentType, encoded}`).

use serde_json::{Map, Value};

use super::decode_base64;
use crate::matching::{ContentKind, content_kind};
use crate::model::{Body, BodyContent};

/// A body written as a raw JSON value (V1–V3, and V4 files that do so).
///
/// An empty string is an empty body; a string with an XML, text or other
/// non-JSON content type (or, without a content type, one that looks like
/// XML) is text; anything else is JSON.
pub(super) fn body_from_raw(raw: &Value, content_type: Option<String>) -> Body {
    let content = match raw {
        Value::String(s) if s.is_empty() => BodyContent::Text(String::new()),
        Value::String(s) => text_or_json(s, content_type.as_deref()),
        other => BodyContent::Json(other.clone()),
    };
    Body::Present {
        content,
        content_type,
    }
}

fn text_or_json(s: &str, content_type: Option<&str>) -> BodyContent {
    match content_type.map(content_kind) {
        Some(ContentKind::Json) => json_text(s),
        Some(_) => BodyContent::Text(s.to_string()),
        None if s.trim_start().starts_with('<') => BodyContent::Text(s.to_string()),
        None => BodyContent::Json(Value::String(s.to_string())),
    }
}

/// A string declared as JSON: a serialised object or array is read as the
/// document it holds (as Pact tools write such bodies); anything else is a
/// JSON string.
fn json_text(s: &str) -> BodyContent {
    let t = s.trim_start();
    if (t.starts_with('{') || t.starts_with('['))
        && let Ok(v) = serde_json::from_str(s)
    {
        return BodyContent::Json(v);
    }
    BodyContent::Json(Value::String(s.to_string()))
}

/// A V4 body object. `header_type` is the `Content-Type` header (or message
/// metadata), used when the body has no `contentType`.
pub(super) fn body_from_v4(
    o: &Map<String, Value>,
    header_type: Option<String>,
) -> Result<Body, String> {
    let content_type = match o.get("contentType") {
        Some(Value::String(s)) => Some(s.clone()),
        None | Some(Value::Null) => header_type,
        Some(_) => return Err("contentType must be a string".into()),
    };
    let content = o.get("content").unwrap_or(&Value::Null);
    let kind = content_type.as_deref().map(content_kind);
    let body_content = match o.get("encoded") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => plain(content, kind),
        Some(Value::Bool(true)) => encoded(content, kind)?,
        Some(Value::String(e)) if e.eq_ignore_ascii_case("base64") => encoded(content, kind)?,
        Some(Value::String(e)) if e.eq_ignore_ascii_case("json") => match content {
            Value::String(s) => BodyContent::Json(
                serde_json::from_str(s).map_err(|e| format!("content is not valid JSON: {e}"))?,
            ),
            other => BodyContent::Json(other.clone()),
        },
        Some(other) => return Err(format!("unknown body encoding {other}")),
    };
    Ok(Body::Present {
        content: body_content,
        content_type,
    })
}

fn plain(content: &Value, kind: Option<ContentKind>) -> BodyContent {
    match (content, kind) {
        (Value::String(s), _) if s.is_empty() => BodyContent::Text(String::new()),
        (Value::String(s), Some(ContentKind::Json)) => json_text(s),
        (Value::String(s), Some(_)) => BodyContent::Text(s.clone()),
        (Value::String(s), None) => text_or_json(s, None),
        (other, _) => BodyContent::Json(other.clone()),
    }
}

fn encoded(content: &Value, kind: Option<ContentKind>) -> Result<BodyContent, String> {
    let text = content
        .as_str()
        .ok_or("an encoded body's content must be a string")?;
    let bytes = decode_base64(text)?;
    Ok(match kind {
        Some(ContentKind::Json) => match serde_json::from_slice(&bytes) {
            Ok(v) => BodyContent::Json(v),
            Err(_) => BodyContent::Bytes(bytes),
        },
        Some(ContentKind::Xml | ContentKind::Text) => match String::from_utf8(bytes) {
            Ok(s) => BodyContent::Text(s),
            Err(e) => BodyContent::Bytes(e.into_bytes()),
        },
        _ => BodyContent::Bytes(bytes),
    })
}
