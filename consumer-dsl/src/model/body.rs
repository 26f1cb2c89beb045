//! Request, response and message bodies.

use serde_json::Value;

/// A body as Pact distinguishes it: absent, JSON `null`, or present.
///
/// A present but zero-length body is `Present` with empty text.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Body {
    /// No body attribute at all: nothing is expected (or nothing was sent).
    #[default]
    Missing,
    /// The body attribute is JSON `null`.
    Null,
    /// A body with content.
    Present {
        content: BodyContent,
        /// The content type: from the V4 `contentType` attribute or, for older
        /// specifications, the `Content-Type` header.
        content_type: Option<String>,
    },
}

/// The content of a present body.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyContent {
    /// A JSON document (any JSON value).
    Json(Value),
    /// Text: XML, plain text, form data, …
    Text(String),
    /// Binary content (base64 `encoded` in V4 files).
    Bytes(Vec<u8>),
}

impl Body {
    /// A JSON body with content type `application/json`.
    pub fn json(value: Value) -> Self {
        Body::Present {
            content: BodyContent::Json(value),
            content_type: Some("application/json".into()),
        }
    }

    /// A text body with the given content type.
    pub fn text(text: impl Into<String>, content_type: Option<&str>) -> Self {
        Body::Present {
            content: BodyContent::Text(text.into()),
            content_type: content_type.map(str::to_string),
        }
    }

    /// True for `Missing`.
    pub fn is_missing(&self) -> bool {
        matches!(self, Body::Missing)
    }

    /// The content type, if the body is present and has one.
    pub fn content_type(&self) -> Option<&str> {
        match self {
            Body::Present { content_type, .. } => content_type.as_deref(),
            _ => None,
        }
    }

    /// The JSON value, if this is a JSON body.
    pub fn as_json(&self) -> Option<&Value> {
        match self {
            Body::Present {
                content: BodyContent::Json(v),
                ..
            } => Some(v),
            _ => None,
        }
    }
}
