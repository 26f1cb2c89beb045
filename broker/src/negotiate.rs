//! Every error leaves in one shape: `application/problem+json` (also the
//! ones actix answers by itself — a 404 for an unknown path, a body it
//! could not read — which are rebuilt here as a `BrokerError`), relabelled
//! `application/json` for clients that accept JSON but not problem+json
//! (the Pact CLIs).

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{ResponseError, web};

use crate::error::{BrokerError, FieldError, PROBLEM_JSON};
use crate::state::AppState;

/// What the client's `Accept` asks of an error body.
#[derive(Debug, Clone, Copy)]
pub struct Wants {
    /// JSON but not problem+json: relabel.
    json_only: bool,
    /// A page (a browser, or `/ui/…`): the error page.
    html: bool,
    limit: usize,
}

impl Wants {
    /// Read off the request.
    pub fn of(req: &ServiceRequest) -> Wants {
        let accept = req
            .headers()
            .get_all(header::ACCEPT)
            .filter_map(|v| v.to_str().ok())
            .collect::<Vec<_>>()
            .join(",");
        let limit = req
            .app_data::<web::Data<AppState>>()
            .map(|s| s.config.body_limit)
            .unwrap_or(crate::config::DEFAULT_BODY_LIMIT);
        Wants {
            json_only: !accept.contains(PROBLEM_JSON) && accept.contains("json"),
            html: crate::web::wants_html(req.match_info().as_str(), &accept),
            limit,
        }
    }
}

/// The middleware.
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let wants = Wants::of(&req);
    let res = next.call(req).await?.map_into_boxed_body();
    Ok(present(res, wants).await)
}

/// `res` as the client should see it: a success unchanged, an error as
/// problem+json (or JSON).
pub async fn present(res: ServiceResponse<BoxBody>, wants: Wants) -> ServiceResponse<BoxBody> {
    let status = res.status();
    if !status.is_client_error() && !status.is_server_error() {
        return res;
    }
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    let mut res = if is_problem {
        res
    } else {
        let (req, answer) = res.into_parts();
        // what actix said besides its body (`Allow`, …) is kept
        let kept: Vec<_> = answer
            .headers()
            .iter()
            .filter(|(n, _)| *n != header::CONTENT_TYPE && *n != header::CONTENT_LENGTH)
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect();
        let error = actix_error(status, answer, wants.limit).await;
        let mut rebuilt = error.error_response();
        for (n, v) in kept {
            rebuilt.headers_mut().insert(n, v);
        }
        ServiceResponse::new(req, rebuilt)
    };
    if wants.html {
        return as_page(res).await;
    }
    if wants.json_only {
        res.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
    }
    res
}

/// A problem+json answer as the error page, with the same status and
/// headers (a 401 also asks the browser for credentials: a token's name
/// and secret, or an account, as HTTP Basic).
async fn as_page(res: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    use askama::Template;
    let (req, answer) = res.into_parts();
    let status = answer.status();
    let kept: Vec<_> = answer
        .headers()
        .iter()
        .filter(|(n, _)| *n != header::CONTENT_TYPE && *n != header::CONTENT_LENGTH)
        .map(|(n, v)| (n.clone(), v.clone()))
        .collect();
    let problem = actix_web::body::to_bytes_limited(answer.into_body(), 64 * 1024)
        .await
        .ok()
        .and_then(Result::ok)
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let page = crate::web::ErrorPage::of_problem(&problem);
    // never the detail unescaped: it may quote the request
    let html = page
        .render()
        .unwrap_or_else(|_| format!("<!doctype html><title>{status}</title><h1>{status}</h1>"));
    let mut rebuilt = actix_web::HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .body(html);
    for (n, v) in kept {
        rebuilt.headers_mut().insert(n, v);
    }
    if status == StatusCode::UNAUTHORIZED {
        rebuilt.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Basic realm=\"Accord broker\", charset=\"UTF-8\""),
        );
    }
    ServiceResponse::new(req, rebuilt)
}

/// An error actix answered by itself (not through `BrokerError`), in the
/// one shape every error has.
async fn actix_error(
    status: StatusCode,
    answer: actix_web::HttpResponse,
    limit: usize,
) -> BrokerError {
    match status.as_u16() {
        404 => return BrokerError::not_found("This resource"),
        413 => return BrokerError::PayloadTooLarge { limit },
        _ => {}
    }
    let said = actix_web::body::to_bytes_limited(answer.into_body(), 4096)
        .await
        .ok()
        .and_then(Result::ok)
        .map(|b| String::from_utf8_lossy(&b).trim().to_owned())
        .unwrap_or_default();
    let detail = if said.is_empty() {
        status.canonical_reason().unwrap_or("refused").to_owned()
    } else {
        said
    };
    let errors = if status == StatusCode::BAD_REQUEST {
        vec![FieldError::new("request", detail.clone())]
    } else {
        Vec::new()
    };
    BrokerError::Http {
        status: status.as_u16(),
        detail,
        errors,
    }
}
