//! The mock's HTTP server: every request goes to one handler that reads
//! it (its body within the limit), answers the admin routes under
//! `/__accord/`, CORS pre-flights when asked, and otherwise the contract's
//! interactions; and what it saw is recorded for the report.

use std::net::SocketAddr;
use std::sync::Arc;

use accord_dsl::model::{Headers, HttpRequest as Request, Query, body_from_bytes, body_to_bytes};
use actix_web::dev::Server;
use actix_web::http::{Method, StatusCode};
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use indexmap::IndexMap;
use serde_json::json;

use crate::http::Found;
use crate::live::{Alive, Live};
use crate::report::{MockMismatch, report};
use crate::{MockError, Shared, limits};

/// Binds the listener (so a busy port fails here, before anything runs).
/// A request head must arrive within the head timeout (408, closed), an
/// idle keep-alive connection is closed after 5 s, a connection closed
/// after an early answer lingers at most a second, and past
/// [`MockOptions::max_connections`](crate::MockOptions::max_connections)
/// open connections the mock stops accepting (new ones wait in the
/// listen backlog, which holds no file descriptor of the mock's) until
/// one closes: the process's limit on open files is never what fails.
/// Each worker's app holds an [`Alive`] of `live` (`MockServer`'s drop).
pub(crate) fn bind(
    shared: Arc<Shared>,
    live: &Arc<Live>,
) -> Result<(SocketAddr, Server), MockError> {
    let options = &shared.options;
    let (host, port, workers) = (options.host.clone(), options.port, options.workers.max(1));
    let per_worker = options.max_connections.div_ceil(workers).max(1);
    let head_timeout = options.head_timeout;
    let data = web::Data::from(shared);
    let bind_error = |source| MockError::Bind {
        address: format!("{host}:{port}"),
        source,
    };
    let live = live.clone();
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .app_data(web::Data::new(Alive::new(&live)))
            .default_service(web::to(answer))
    })
    .workers(workers)
    .max_connections(per_worker)
    .keep_alive(std::time::Duration::from_secs(5))
    .client_request_timeout(head_timeout)
    .client_disconnect_timeout(std::time::Duration::from_secs(1))
    .disable_signals()
    .shutdown_timeout(1)
    .tcp_nodelay(true)
    .bind((host.as_str(), port))
    .map_err(bind_error)?;
    let addr = server
        .addrs()
        .first()
        .copied()
        .ok_or_else(|| bind_error(std::io::Error::other("no address bound")))?;
    Ok((addr, server.run()))
}

async fn answer(
    req: HttpRequest,
    mut payload: web::Payload,
    shared: web::Data<Shared>,
) -> HttpResponse {
    let path = percent_decoded(req.path());
    let body = match limits::read(&req, &mut payload, shared.body_rules()).await {
        Ok(body) => body,
        Err(refused) => return refuse(&req, path, &shared, &refused, payload),
    };
    // the body keeps its charge on the budget until its answer is built
    let limits::Body {
        bytes: body,
        charge: _charge,
    } = body;
    if path.starts_with("/__accord/") {
        return admin(&req, &path, &shared);
    }
    match shared.options.observer.clone() {
        None => route(&req, &path, body, shared).await,
        Some(observer) => crate::observe::answer(&observer, &req, path, body, shared).await,
    }
}

/// The answer of the surface whose path it is.
pub(crate) async fn route(
    req: &HttpRequest,
    path: &str,
    body: Vec<u8>,
    shared: web::Data<Shared>,
) -> HttpResponse {
    if let Some(a2a) = shared.a2a.as_ref().filter(|a| a.serves(path)) {
        return a2a.answer(shared.clone(), req, path, body).await;
    }
    if let Some(mcp) = shared.mcp.as_ref().filter(|m| m.serves(path)) {
        return mcp.answer(&shared, req, body).await;
    }
    answer_http(req, path, &body, &shared)
}

/// The answer to a body that was not read: recorded, and its connection
/// closed.
fn refuse(
    req: &HttpRequest,
    path: String,
    shared: &Shared,
    refused: &limits::Refused,
    payload: web::Payload,
) -> HttpResponse {
    let (method, why, status) = (req.method().to_string(), refused.reason(), refused.status());
    shared.progress(|| format!("{method} {path} -> {} ({why})", status.as_u16()));
    let answer = problem(status, &why, None);
    shared.unexpected(MockMismatch::RequestNotFound {
        method,
        path,
        query: query_of(req),
        reason: Some(why),
    });
    limits::refusal(refused, answer, payload)
}

/// The answer of the contract's HTTP interactions.
fn answer_http(req: &HttpRequest, path: &str, body: &[u8], shared: &Shared) -> HttpResponse {
    let method = req.method().as_str().to_owned();
    let actual = request_of(req, path, body);
    let found = shared.http.find(&actual);
    let cors = shared.options.cors;
    if cors && !matches!(found, Found::Matched(..)) && is_preflight(req) {
        shared.progress(|| format!("{method} {path} -> 204 (CORS pre-flight)"));
        return preflight(req);
    }
    let mut response = match found {
        Found::Matched(index, interaction) => {
            shared.exercised(index);
            let built = respond(&crate::http::response_for(interaction, shared.base_url()));
            shared.progress(|| {
                format!(
                    "{method} {path} -> {} ({})",
                    built.status().as_u16(),
                    interaction.meta.description
                )
            });
            built
        }
        Found::Mismatched(index, interaction, mismatches) => {
            let m = MockMismatch::RequestMismatch {
                interaction: index,
                description: interaction.meta.description.clone(),
                method: method.clone(),
                path: path.to_owned(),
                mismatches,
            };
            unanswered(shared, m, None)
        }
        Found::Nothing => {
            let m = MockMismatch::RequestNotFound {
                method: method.clone(),
                path: path.to_owned(),
                query: actual.query.clone(),
                reason: None,
            };
            unanswered(shared, m, Some("no interaction expects it"))
        }
    };
    if cors {
        let origin = header(req, "origin").unwrap_or("*").to_owned();
        response.headers_mut().insert(
            actix_web::http::header::ACCESS_CONTROL_ALLOW_ORIGIN,
            actix_web::http::header::HeaderValue::from_str(&origin)
                .unwrap_or(actix_web::http::header::HeaderValue::from_static("*")),
        );
    }
    response
}

/// A request no interaction answers: reported (`why`), recorded,
/// answered 500.
fn unanswered(shared: &Shared, m: MockMismatch, why: Option<&str>) -> HttpResponse {
    let detail = m.line();
    if let MockMismatch::RequestNotFound { method, path, .. }
    | MockMismatch::RequestMismatch { method, path, .. } = &m
    {
        let why = why.unwrap_or(&detail);
        shared.progress(|| format!("{method} {path} -> 500 ({why})"));
    }
    let answer = problem(StatusCode::INTERNAL_SERVER_ERROR, &detail, Some(&m));
    shared.unexpected(m);
    answer
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers().get(name).and_then(|v| v.to_str().ok())
}

fn is_preflight(req: &HttpRequest) -> bool {
    req.method() == Method::OPTIONS && req.headers().contains_key("access-control-request-method")
}

/// The answer to a CORS pre-flight: what was asked for is allowed.
fn preflight(req: &HttpRequest) -> HttpResponse {
    let origin = header(req, "origin").unwrap_or("*");
    let methods = header(req, "access-control-request-method").unwrap_or("GET");
    let mut r = HttpResponse::NoContent();
    r.insert_header(("access-control-allow-origin", origin))
        .insert_header((
            "access-control-allow-methods",
            format!("{methods}, GET, POST, PUT, PATCH, DELETE, OPTIONS"),
        ))
        .insert_header(("access-control-allow-credentials", "true"));
    if let Some(h) = header(req, "access-control-request-headers") {
        r.insert_header(("access-control-allow-headers", h));
    }
    r.finish()
}

fn percent_decoded(path: &str) -> String {
    percent_encoding::percent_decode_str(path)
        .decode_utf8_lossy()
        .into_owned()
}

/// The received query parameters (repeated names keep every value, in
/// order), if there are any.
fn query_of(req: &HttpRequest) -> Option<Query> {
    let pairs = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(web::Query::into_inner)
        .unwrap_or_default();
    let mut query = Query::new();
    for (k, v) in pairs {
        query.entry(k).or_default().push(v);
    }
    (!query.is_empty()).then_some(query)
}

/// The received request as a contract request.
fn request_of(req: &HttpRequest, path: &str, body: &[u8]) -> Request {
    let mut headers: Headers = IndexMap::new();
    for (name, value) in req.headers() {
        let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
        headers
            .entry(name.as_str().to_owned())
            .or_default()
            .push(value);
    }
    Request {
        method: req.method().as_str().to_owned(),
        path: path.to_owned(),
        query: query_of(req),
        headers: (!headers.is_empty()).then_some(headers),
        body: body_from_bytes(body, header(req, "content-type")),
        ..Request::default()
    }
}

/// The HTTP answer of a contract response.
fn respond(r: &accord_dsl::model::HttpResponse) -> HttpResponse {
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::OK);
    let mut b = HttpResponse::build(status);
    let mut typed = false;
    for (name, values) in r.headers.iter().flatten() {
        typed |= name.eq_ignore_ascii_case("content-type");
        for value in values {
            b.append_header((name.as_str(), value.as_str()));
        }
    }
    match body_to_bytes(&r.body) {
        Some((bytes, content_type)) => {
            if let (false, Some(ct)) = (typed, content_type) {
                b.insert_header(("content-type", ct));
            }
            b.body(bytes)
        }
        None => b.finish(),
    }
}

/// A problem+json answer (what the mock could not do, and why).
fn problem(status: StatusCode, detail: &str, mismatch: Option<&MockMismatch>) -> HttpResponse {
    let mut body = json!({"type": "about:blank", "title": status.canonical_reason().unwrap_or(""),
        "status": status.as_u16(), "detail": detail});
    if let Some(m) = mismatch {
        body["mismatch"] = json!(m);
    }
    HttpResponse::build(status)
        .content_type("application/problem+json")
        .body(body.to_string())
}

/// `GET /__accord/interactions`, `GET /__accord/mismatches`,
/// `GET /__accord/report`, `POST /__accord/reset`.
fn admin(req: &HttpRequest, path: &str, shared: &Shared) -> HttpResponse {
    let get = req.method() == Method::GET;
    let post = req.method() == Method::POST;
    let json = |v: serde_json::Value| {
        HttpResponse::Ok()
            .content_type("application/json")
            .body(v.to_string())
    };
    match path.trim_end_matches('/') {
        "/__accord/interactions" if get => {
            let r = report(shared);
            json(json!({"ok": r.ok, "interactions": r.interactions}))
        }
        "/__accord/mismatches" if get => {
            let r = report(shared);
            json(json!({"ok": r.ok, "mismatches": r.mismatches}))
        }
        "/__accord/report" if get => json(json!(report(shared))),
        "/__accord/reset" if post => {
            shared.reset();
            json(json!({"reset": true}))
        }
        "/__accord/interactions"
        | "/__accord/mismatches"
        | "/__accord/report"
        | "/__accord/reset" => problem(
            StatusCode::METHOD_NOT_ALLOWED,
            &format!("{} is not allowed on {path}", req.method()),
            None,
        ),
        _ => problem(
            StatusCode::NOT_FOUND,
            &format!("no admin route {path} (interactions, mismatches, report, reset)"),
            None,
        ),
    }
}
