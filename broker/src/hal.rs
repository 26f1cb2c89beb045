//! HAL+JSON building blocks: links, the request's base URL, path segments
//! percent-encoded the way Pact clients expand them.

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::error::BrokerError;
use crate::state::AppState;

/// The media type of every JSON resource.
pub const HAL_JSON: &str = "application/hal+json;charset=utf-8";

/// Characters left as they are in a path segment (RFC 3986 unreserved).
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes one path segment (pacticipant names contain spaces).
pub fn encode_segment(segment: &str) -> String {
    utf8_percent_encode(segment, SEGMENT).to_string()
}

/// One HAL link.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Link {
    pub href: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub templated: bool,
}

impl Link {
    /// A link to `href`.
    pub fn new(href: impl Into<String>) -> Self {
        Link {
            href: href.into(),
            title: None,
            name: None,
            templated: false,
        }
    }

    /// Adds a title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Adds a name (clients pick array members by it).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Marks the href as a URI template (`{provider}` …).
    pub fn templated(mut self) -> Self {
        self.templated = true;
        self
    }

    /// The link as JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The absolute URL every link starts with: the configured `--base-url`, or
/// the scheme and host the request came in on. No trailing slash.
#[derive(Debug, Clone)]
pub struct BaseUrl(pub String);

impl BaseUrl {
    /// `base/seg1/seg2…`, each segment percent-encoded.
    pub fn url(&self, segments: &[&str]) -> String {
        let mut out = self.0.clone();
        for s in segments {
            out.push('/');
            out.push_str(&encode_segment(s));
        }
        out
    }

    /// `base` + a path given verbatim (templates such as `/pacticipants/{pacticipant}`).
    pub fn raw(&self, path: &str) -> String {
        format!("{}{}", self.0, path)
    }

    fn from_request(req: &HttpRequest) -> BaseUrl {
        let state = req.app_data::<web::Data<AppState>>();
        if let Some(base) = state.and_then(|s| s.config.base_url.as_ref()) {
            return BaseUrl(base.trim_end_matches('/').to_owned());
        }
        let info = req.connection_info();
        let named = req.headers().contains_key(actix_web::http::header::HOST)
            || req.uri().authority().is_some()
            || req.headers().contains_key("forwarded")
            || req.headers().contains_key("x-forwarded-host");
        match state {
            Some(s) if !named => BaseUrl(format!("{}://{}", info.scheme(), s.listening_on)),
            _ => BaseUrl(format!("{}://{}", info.scheme(), info.host())),
        }
    }
}

impl FromRequest for BaseUrl {
    type Error = BrokerError;
    type Future = std::future::Ready<Result<BaseUrl, BrokerError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(Ok(BaseUrl::from_request(req)))
    }
}

/// `{"self": <link>}`: the `_links` of an object whose only link is to
/// itself, written by `Serialize` (no `Value` tree).
#[derive(Debug, Serialize)]
pub struct SelfLink {
    #[serde(rename = "self")]
    pub this: Link,
}

impl SelfLink {
    /// `{"self": {"href": href}}`.
    pub fn to(href: impl Into<String>) -> Self {
        SelfLink {
            this: Link::new(href),
        }
    }
}

/// A `_links` object under construction.
#[derive(Debug, Default)]
pub struct Links(Map<String, Value>);

impl Links {
    /// No links yet.
    pub fn new() -> Self {
        Links::default()
    }

    /// Adds relation `rel` → `link`.
    pub fn add(mut self, rel: &str, link: Link) -> Self {
        self.0.insert(rel.to_owned(), link.to_value());
        self
    }

    /// Adds relation `rel` → an array of links (selected by `name`).
    pub fn add_array(mut self, rel: &str, links: Vec<Link>) -> Self {
        self.0.insert(
            rel.to_owned(),
            Value::Array(links.iter().map(Link::to_value).collect()),
        );
        self
    }

    /// The `_links` value.
    pub fn into_value(self) -> Value {
        Value::Object(self.0)
    }
}

/// The `pb` curie every index carries.
pub fn curies(base: &BaseUrl) -> Value {
    json!([{ "name": "pb", "href": base.raw("/doc/{rel}?context=index"), "templated": true }])
}

/// A 200/201 response with a HAL+JSON body.
pub fn respond(status: actix_web::http::StatusCode, body: &Value) -> actix_web::HttpResponse {
    actix_web::HttpResponse::build(status)
        .content_type(HAL_JSON)
        .body(body.to_string())
}

/// 200 with a HAL+JSON body.
pub fn ok(body: &Value) -> actix_web::HttpResponse {
    respond(actix_web::http::StatusCode::OK, body)
}

/// 200 with a HAL+JSON body already written.
pub fn ok_bytes(body: Vec<u8>) -> actix_web::HttpResponse {
    actix_web::HttpResponse::Ok()
        .content_type(HAL_JSON)
        .body(body)
}

/// 201 with a HAL+JSON body.
pub fn created(body: &Value) -> actix_web::HttpResponse {
    respond(actix_web::http::StatusCode::CREATED, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_with_spaces_and_slashes_are_encoded() {
        let base = BaseUrl("http://b".into());
        assert_eq!(
            base.url(&["pacticipants", "Order Service/v2"]),
            "http://b/pacticipants/Order%20Service%2Fv2"
        );
    }

    #[test]
    fn a_link_omits_what_it_does_not_have() {
        let v = Link::new("http://b/x").name("prod").to_value();
        assert_eq!(v, json!({"href": "http://b/x", "name": "prod"}));
    }
}
