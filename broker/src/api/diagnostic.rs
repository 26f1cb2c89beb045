//! `/diagnostic/status/heartbeat` (always public) and `/dependencies`
//! (answers only when the database does).

use actix_web::{HttpResponse, web};
use serde_json::json;

use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;

/// `{"ok": true}` while the process serves.
pub async fn get_heartbeat(base: BaseUrl) -> HttpResponse {
    let links = Links::new().add("self", Link::new(base.raw("/diagnostic/status/heartbeat")));
    hal::ok(&json!({ "ok": true, "_links": links.into_value() }))
}

/// `{"ok": true}` when a database round trip works, 503 otherwise.
pub async fn get_dependencies(
    state: web::Data<AppState>,
    base: BaseUrl,
) -> Result<HttpResponse, BrokerError> {
    state
        .run(|conn| {
            crate::store::ping(conn)?;
            Ok(())
        })
        .await?;
    let links = Links::new().add(
        "self",
        Link::new(base.raw("/diagnostic/status/dependencies")),
    );
    Ok(hal::ok(
        &json!({ "ok": true, "dependencies": { "database": { "ok": true } }, "_links": links.into_value() }),
    ))
}
