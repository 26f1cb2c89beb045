//! A body's bytes on the wire: read by content type, written with its
//! content type (shared by the verifier, which sends requests and reads
//! responses, and the consumer mock, which does the opposite).

use serde_json::Value;

use super::{Body, BodyContent};
use crate::matching::{ContentKind, content_kind};

/// The body that arrived: JSON for JSON content types (and for no
/// content type when the bytes parse), text for text types, else bytes.
/// An empty body is `Missing`.
pub fn body_from_bytes(bytes: &[u8], content_type: Option<&str>) -> Body {
    if bytes.is_empty() {
        return Body::Missing;
    }
    let kind = content_type.map(content_kind);
    let content = match kind {
        Some(ContentKind::Json) | None => match serde_json::from_slice::<Value>(bytes) {
            Ok(v) => BodyContent::Json(v),
            Err(_) => text_or_bytes(bytes),
        },
        Some(ContentKind::Binary) => BodyContent::Bytes(bytes.to_vec()),
        Some(_) => text_or_bytes(bytes),
    };
    let content_type = content_type.map(str::to_string).or_else(|| match content {
        BodyContent::Json(_) => Some("application/json".into()),
        _ => None,
    });
    Body::Present {
        content,
        content_type,
    }
}

fn text_or_bytes(bytes: &[u8]) -> BodyContent {
    match std::str::from_utf8(bytes) {
        Ok(s) => BodyContent::Text(s.to_string()),
        Err(_) => BodyContent::Bytes(bytes.to_vec()),
    }
}

/// The bytes to send for a body, and its content type.
pub fn body_to_bytes(body: &Body) -> Option<(Vec<u8>, Option<String>)> {
    let Body::Present {
        content,
        content_type,
    } = body
    else {
        return None;
    };
    let bytes = match content {
        BodyContent::Json(v) => v.to_string().into_bytes(),
        BodyContent::Text(s) => s.clone().into_bytes(),
        BodyContent::Bytes(b) => b.clone(),
    };
    let content_type = content_type.clone().or_else(|| match content {
        BodyContent::Json(_) => Some("application/json".into()),
        _ => None,
    });
    Some((bytes, content_type))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn json_bytes_become_a_json_body_and_text_stays_text() {
        let b = body_from_bytes(br#"{"a":1}"#, Some("application/json; charset=utf-8"));
        assert_eq!(b.as_json(), Some(&json!({"a": 1})));
        let t = body_from_bytes(b"hello", Some("text/plain"));
        assert!(
            matches!(t, Body::Present { content: BodyContent::Text(ref s), .. } if s == "hello")
        );
        assert_eq!(body_from_bytes(b"", Some("text/plain")), Body::Missing);
        assert_eq!(body_from_bytes(b"[1]", None).as_json(), Some(&json!([1])));
    }

    #[test]
    fn a_body_round_trips_to_bytes() {
        let (bytes, ct) = body_to_bytes(&Body::json(json!({"x": true}))).expect("present");
        assert_eq!(bytes, br#"{"x":true}"#);
        assert_eq!(ct.as_deref(), Some("application/json"));
        assert!(body_to_bytes(&Body::Missing).is_none());
    }
}
