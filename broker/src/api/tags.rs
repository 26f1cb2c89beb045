//! Version tags: `GET/PUT/DELETE /pacticipants/{p}/versions/{v}/tags/{t}`
//! (PUT auto-creates the pacticipant and version; 201 when the tag is new,
//! 200 when it existed) and `GET /pacticipants/{p}/tags/{t}/versions`.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::api::pacticipants::{find_required, parse_name};
use crate::api::reply::created_or_ok;
use crate::api::version_view::{find_version, parse_number, version_url};
use crate::api::versions::versions_page;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::names::TagName;
use crate::state::AppState;
use crate::store::tags::{self, Tag};
use crate::store::{branches, pacticipants, versions};

/// The body of PUT: `{}`, empty, or `{"name": …}` (which must match the path).
#[derive(Debug, Deserialize)]
pub struct TagBody {
    #[serde(default)]
    pub name: Option<String>,
}

/// A tag embedded in a version (`{name, _links.self}`).
pub fn tag_summary_json(base: &BaseUrl, p: &str, number: &str, tag: &str) -> Value {
    json!({
        "name": tag,
        "_links": { "self": Link::new(version_url(base, p, number, &["tags", tag]))
            .title("Tag").name(tag).to_value() },
    })
}

fn tag_json(base: &BaseUrl, p: &str, number: &str, tag: &Tag) -> Value {
    let links = Links::new()
        .add(
            "self",
            Link::new(version_url(base, p, number, &["tags", &tag.name]))
                .title("Tag")
                .name(tag.name.clone()),
        )
        .add(
            "pb:version",
            Link::new(version_url(base, p, number, &[]))
                .title("Version")
                .name(number),
        )
        .add(
            "pb:pacticipant",
            Link::new(base.url(&["pacticipants", p]))
                .title("Pacticipant")
                .name(p),
        );
    json!({
        "name": tag.name,
        "createdAt": crate::api::time(tag.created_at),
        "_links": links.into_value(),
    })
}

/// `GET /pacticipants/{p}/versions/{v}/tags/{t}`.
pub async fn get_tag(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v, t) = path.into_inner();
    let body = state
        .run(move |conn| {
            let (p, v) = find_version(conn, &p, &v)?;
            let tag = tags::find(conn, v.id, &t)?.ok_or_else(|| tag_not_found(&t, &v))?;
            Ok(tag_json(&base, &p.name, &v.number, &tag))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// `PUT /pacticipants/{p}/versions/{v}/tags/{t}`.
pub async fn put_tag(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: TagBody = body::parse(&req, &bytes)?;
    let (p, v, t) = path.into_inner();
    let name = parse_name("pacticipant", &p)?;
    let number = parse_number("version", &v)?;
    let tag = TagName::parse(&t).map_err(|e| BrokerError::bad_field("tag", e.to_string()))?;
    if request.name.as_deref().is_some_and(|n| n != tag.as_str()) {
        return Err(BrokerError::bad_field(
            "name",
            "must match the tag name in the path",
        ));
    }
    let (body, created) = state
        .transaction(move |conn| {
            let p = pacticipants::find_or_create(conn, &name)?;
            let v = versions::find_or_create(conn, p.id, &number)?;
            let v = locked(conn, v)?;
            let (row, created) = tags::add(conn, &v, &tag)?;
            branches::auto_detect_main_branch(conn, p.id, tag.as_str())?;
            Ok((tag_json(&base, &p.name, &v.number, &row), created))
        })
        .await?;
    Ok(created_or_ok(&body, created))
}

/// `v` under its row lock (the version's tags change only under it), or
/// 404 when it was deleted meanwhile.
pub fn locked(
    conn: &mut crate::db::AnyConnection,
    v: versions::Version,
) -> Result<versions::Version, BrokerError> {
    versions::lock(conn, v.id)?
        .ok_or_else(|| BrokerError::not_found(format!("Version '{}'", v.number)))
}

fn tag_not_found(tag: &str, version: &versions::Version) -> BrokerError {
    BrokerError::not_found(format!("Tag '{tag}' of version '{}'", version.number))
}

/// `DELETE /pacticipants/{p}/versions/{v}/tags/{t}`: 204, or 404.
pub async fn delete_tag(
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v, t) = path.into_inner();
    state
        .transaction(move |conn| {
            let (_, v) = find_version(conn, &p, &v)?;
            let v = locked(conn, v)?;
            if tags::delete(conn, v.id, &t)? {
                Ok(())
            } else {
                Err(tag_not_found(&t, &v))
            }
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /pacticipants/{p}/tags/{t}/versions`: the tagged versions, newest first.
pub async fn list_tag_versions(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, t) = path.into_inner();
    let page = state
        .run(move |conn| {
            let p = find_required(conn, &p)?;
            let list = tags::versions_with(conn, p.id, &t)?;
            let href = base.url(&["pacticipants", &p.name, "tags", &t, "versions"]);
            versions_page(conn, &base, &p, &list, href)
        })
        .await?;
    Ok(hal::ok(&page))
}
