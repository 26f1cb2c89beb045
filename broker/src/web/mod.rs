//! The broker's pages for people (release managers, on-call): server-side
//! HTML rendered with askama from the templates in `web/templates/` (at the
//! repository's root) and served under `/ui/…`, beside the API. `GET /`
//! from a browser (`Accept: text/html`) is sent to `/ui`.
//!
//! Why `/ui/…` and not the API's own routes: a page gathers what several
//! API resources hold (the matrix page also shows branches, environments
//! and the failing layers of each cell), its URLs take filters the API does
//! not, and the API's answers stay the same whatever a client accepts.
//!
//! The pages read through the same code as the API — `matrix::run` for the
//! matrix and can-i-deploy, the `store` modules for everything else — so a
//! page cannot tell a different story than `accord can-i-deploy`. Errors
//! go through the one mapping point (`BrokerError`, then `negotiate`), which
//! renders them as an error page for a client that wants HTML: the same
//! status and text the API gives. Pages work without JavaScript and load
//! nothing from elsewhere: the stylesheet and the icon are compiled in and
//! linked by a fingerprinted URL (`assets`).

pub mod assets;
pub mod can_i_deploy;
pub mod contract;
pub mod coverage;
pub mod graph;
pub mod home;
pub mod matrix;
pub mod pacticipant;
pub mod spans;
pub mod verification;

use actix_web::HttpResponse;
use actix_web::http::header::{self, HeaderValue};
use askama::Template;

use crate::error::BrokerError;

/// A rendered page: `200 text/html`, never cached by a shared cache (a page
/// may be behind a token).
pub fn page(template: &impl Template) -> Result<HttpResponse, BrokerError> {
    let html = template.render().map_err(|e| BrokerError::Http {
        status: 500,
        detail: format!("the page could not be rendered: {e}"),
        errors: Vec::new(),
    })?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .body(html))
}

/// `GET /ui/static/{file}`: the stylesheet and the icon, by fingerprinted
/// or fixed name.
pub async fn get_static(path: actix_web::web::Path<String>) -> Result<HttpResponse, BrokerError> {
    assets::serve(path.as_str())
}

/// `GET /favicon.ico`: browsers ask for it whatever the page links.
pub async fn get_favicon() -> HttpResponse {
    assets::favicon()
}

/// `303 See Other` to `to` (a path of this broker).
pub fn see_other(to: &str) -> HttpResponse {
    let mut res = HttpResponse::SeeOther().finish();
    if let Ok(v) = HeaderValue::from_str(to) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    res
}

/// True when a request's `Accept` asks for a page rather than JSON: it
/// names `text/html` (browsers do), or it is a path under `/ui` and names
/// no JSON type.
pub fn wants_html(path: &str, accept: &str) -> bool {
    let accept = accept.to_ascii_lowercase();
    if accept.contains("text/html") {
        return true;
    }
    (path == "/ui" || path.starts_with("/ui/")) && !accept.contains("json")
}

/// The error page: the status, title and text the API would give, and each
/// field at fault.
#[derive(Template)]
#[template(path = "error.html")]
pub struct ErrorPage {
    pub status: u16,
    pub title: String,
    pub detail: String,
    pub errors: Vec<(String, String)>,
}

impl ErrorPage {
    /// From a problem+json body.
    pub fn of_problem(problem: &serde_json::Value) -> ErrorPage {
        let text = |k: &str| problem[k].as_str().unwrap_or_default().to_owned();
        let mut errors = Vec::new();
        if let Some(map) = problem["errors"].as_object() {
            for (field, messages) in map {
                for m in messages.as_array().into_iter().flatten() {
                    errors.push((field.clone(), m.as_str().unwrap_or_default().to_owned()));
                }
            }
        }
        ErrorPage {
            status: problem["status"]
                .as_u64()
                .and_then(|s| u16::try_from(s).ok())
                .unwrap_or(500),
            title: text("title"),
            detail: text("detail"),
            errors,
        }
    }
}

impl std::fmt::Debug for ErrorPage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ErrorPage")
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

/// Escapes a path segment for a link (names may hold `/`, spaces, `#`…).
/// Names made only of dots, which URL resolution would remove, are refused
/// where names enter (`names.rs`).
pub fn seg(text: &str) -> String {
    crate::hal::encode_segment(text)
}

/// Escapes a query value for a link.
pub fn q(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browser_or_a_bare_ui_request_gets_html_and_an_api_client_json() {
        let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        assert!(wants_html("/pacticipants/x", browser));
        assert!(wants_html("/ui/matrix", ""));
        assert!(wants_html("/ui", "*/*"));
        assert!(!wants_html(
            "/ui/matrix",
            "application/hal+json, application/problem+json"
        ));
        assert!(!wants_html("/pacticipants/x", ""));
        assert!(!wants_html("/uid", ""));
    }

    #[test]
    fn the_error_page_says_what_the_problem_says() {
        let problem = serde_json::json!({"status": 404, "title": "Not found",
            "detail": "Pacticipant 'x' was not found", "errors": {"q": ["too long"]}});
        let html = ErrorPage::of_problem(&problem).render().expect("renders");
        assert!(html.contains("<title>404 Not found"), "{html}");
        assert!(
            html.contains("Pacticipant &#39;x&#39; was not found"),
            "{html}"
        );
        assert!(html.contains("too long"), "{html}");
    }
}
