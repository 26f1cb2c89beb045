//! Small response helpers shared by the resource handlers.

use actix_web::{HttpRequest, HttpResponse};
use serde_json::Value;

use crate::hal::{self, BaseUrl};

/// 201 for a resource the request created, 200 for one that already existed.
pub fn created_or_ok(body: &Value, created: bool) -> HttpResponse {
    if created {
        hal::created(body)
    } else {
        hal::ok(body)
    }
}

/// The absolute URL of this request, query string included (a list's `self`).
pub fn self_href_with_query(base: &BaseUrl, req: &HttpRequest) -> String {
    match req.query_string() {
        "" => base.raw(req.path()),
        q => format!("{}?{q}", base.raw(req.path())),
    }
}
