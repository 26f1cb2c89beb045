//! The HTTP+JSON binding under `/a2a/rest`: each route, query and body
//! becomes the params of the operation (`accord_dsl`'s route table, which
//! the reference agent shares). Success bodies are `application/a2a+json`;
//! errors are AIP-193 bodies in `application/json` with the v1.0.1
//! statuses.

use accord_dsl::model::accord::{RestRouteError, rest_operation};
use actix_web::{HttpRequest, HttpResponse, web};

use super::error::A2aError;
use super::ops::{Call, Reply};
use super::store::{self, Framing};
use super::{A2aSurface, card};
use crate::Shared;
use crate::report::MockMismatch;
use crate::wire::{self, RpcError};

/// A request under the interface's URL (`tail` after `/a2a/rest`).
pub(crate) async fn answer(
    surface: &A2aSurface,
    shared: web::Data<Shared>,
    req: &HttpRequest,
    tail: &str,
    body: &[u8],
) -> HttpResponse {
    let query: Vec<(String, String)> =
        web::Query::<Vec<(String, String)>>::from_query(req.query_string())
            .map(web::Query::into_inner)
            .unwrap_or_default();
    let method = req.method().as_str();
    let path = format!("{}{tail}", card::REST_PATH);
    let (op, params) = match rest_operation(method, tail, &query, body) {
        Ok(found) => found,
        Err(e) => {
            let (error, why) = match e {
                RestRouteError::NotFound => (
                    A2aError::Rpc(RpcError::method_not_found(&path), 404),
                    format!("no A2A operation is {method} {path}"),
                ),
                RestRouteError::Parse(why) => (A2aError::Rpc(RpcError::parse(&why), 400), why),
                RestRouteError::InvalidParams(why) => (A2aError::invalid_params(&why), why),
            };
            shared.progress(|| format!("{method} {path} -> {} ({why})", error.status()));
            shared.unexpected(MockMismatch::RequestNotFound {
                method: method.to_owned(),
                path: path.clone(),
                query: None,
                reason: Some(why),
            });
            return error_response(&error);
        }
    };
    let call = Call::new(surface, shared.clone(), req, card::REST_PATH, op);
    match call.run(&params).await {
        Ok(Reply::Json(result)) => HttpResponse::Ok()
            .content_type("application/a2a+json")
            .body(result.to_string()),
        Ok(Reply::Stream(s)) => store::respond(&surface.store, shared, s, Framing::Rest),
        Err(e) => error_response(&e),
    }
}

fn error_response(e: &A2aError) -> HttpResponse {
    e.unauthorized()
        .unwrap_or_else(|| wire::json_response(e.status(), "application/json", &e.to_rest()))
}
