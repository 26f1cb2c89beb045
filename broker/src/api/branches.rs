//! Branches: `GET /pacticipants/{p}/branches`, `GET/DELETE …/branches/{b}`,
//! `…/branches/{b}/versions`, `GET/PUT/DELETE …/branches/{b}/versions/{v}`
//! (PUT auto-creates pacticipant, branch and version) and
//! `…/branches/{b}/latest-version`.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::api::pacticipants::{find_required, parse_name};
use crate::api::reply::created_or_ok;
use crate::api::version_view::{
    VersionView, find_version, parse_number, version_json, version_url,
};
use crate::api::versions::versions_page;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::names::BranchName;
use crate::state::AppState;
use crate::store::branches::{self, Branch};
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::versions::{self, Version};

/// The body of PUT on a branch version: `{}`, empty or `{"name": …}`.
#[derive(Debug, Deserialize)]
pub struct BranchVersionBody {
    #[serde(default)]
    pub name: Option<String>,
}

fn branch_url(base: &BaseUrl, p: &str, b: &str, rest: &[&str]) -> String {
    let mut segs = vec!["pacticipants", p, "branches", b];
    segs.extend_from_slice(rest);
    base.url(&segs)
}

fn branch_json(base: &BaseUrl, p: &str, branch: &Branch) -> Value {
    let b = branch.name.as_str();
    let links = Links::new()
        .add(
            "self",
            Link::new(branch_url(base, p, b, &[]))
                .title("Branch")
                .name(b),
        )
        .add(
            "pb:latest-version",
            Link::new(branch_url(base, p, b, &["latest-version"])).title("Latest version"),
        )
        .add(
            "pb:versions",
            Link::new(branch_url(base, p, b, &["versions"])).title("Versions"),
        )
        .add(
            "pb:pacticipant",
            Link::new(base.url(&["pacticipants", p]))
                .title("Pacticipant")
                .name(p),
        );
    json!({
        "name": b,
        "createdAt": crate::api::time(branch.created_at),
        "_links": links.into_value(),
    })
}

fn branch_version_json(base: &BaseUrl, p: &str, branch: &Branch, v: &Version) -> Value {
    let b = branch.name.as_str();
    let links = Links::new()
        .add(
            "self",
            Link::new(branch_url(base, p, b, &["versions", &v.number])).title("Branch version"),
        )
        .add(
            "pb:branch",
            Link::new(branch_url(base, p, b, &[]))
                .title("Branch")
                .name(b),
        )
        .add(
            "pb:version",
            Link::new(version_url(base, p, &v.number, &[]))
                .title("Version")
                .name(v.number.clone()),
        );
    json!({
        "name": b,
        "number": v.number,
        "_embedded": { "branch": branch_json(base, p, branch) },
        "_links": links.into_value(),
    })
}

fn find_branch(
    conn: &mut AnyConnection,
    p: &str,
    b: &str,
) -> Result<(Pacticipant, Branch), BrokerError> {
    let p = find_required(conn, p)?;
    let branch = branches::find_by_name(conn, p.id, b)?.ok_or_else(|| {
        BrokerError::not_found(format!("Branch '{b}' of pacticipant '{}'", p.name))
    })?;
    Ok((p, branch))
}

/// `GET /pacticipants/{p}/branches`.
pub async fn list_branches(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    let (p, list) = state
        .run(move |conn| {
            let p = find_required(conn, &name)?;
            let list = branches::list_for_pacticipant(conn, p.id)?;
            Ok((p, list))
        })
        .await?;
    let items: Vec<Value> = list
        .iter()
        .map(|b| branch_json(&base, &p.name, b))
        .collect();
    let links = Links::new()
        .add(
            "self",
            Link::new(base.url(&["pacticipants", &p.name, "branches"])).title("Branches"),
        )
        .add(
            "pb:pacticipant",
            Link::new(base.url(&["pacticipants", &p.name]))
                .title("Pacticipant")
                .name(p.name.clone()),
        );
    Ok(hal::ok(
        &json!({ "_embedded": { "branches": items }, "_links": links.into_value() }),
    ))
}

/// `GET /pacticipants/{p}/branches/{b}`.
pub async fn get_branch(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, b) = path.into_inner();
    let (p, branch) = state.run(move |conn| find_branch(conn, &p, &b)).await?;
    Ok(hal::ok(&branch_json(&base, &p.name, &branch)))
}

/// `DELETE /pacticipants/{p}/branches/{b}`: 204 (its versions stay).
pub async fn delete_branch(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, b) = path.into_inner();
    state
        .transaction(move |conn| {
            let (_, branch) = find_branch(conn, &p, &b)?;
            branches::delete(conn, branch.id)?;
            Ok(())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /pacticipants/{p}/branches/{b}/versions`: newest first.
pub async fn list_branch_versions(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, b) = path.into_inner();
    let page = state
        .run(move |conn| {
            let (p, branch) = find_branch(conn, &p, &b)?;
            let list = branches::list_versions(conn, branch.id)?;
            let href = branch_url(&base, &p.name, &branch.name, &["versions"]);
            versions_page(conn, &base, &p, &list, href)
        })
        .await?;
    Ok(hal::ok(&page))
}

/// `GET /pacticipants/{p}/branches/{b}/versions/{v}`.
pub async fn get_branch_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, b, v) = path.into_inner();
    let body = state
        .run(move |conn| {
            let (p, branch) = find_branch(conn, &p, &b)?;
            let (_, v) = find_version(conn, &p.name, &v)?;
            if !branches::contains_version(conn, branch.id, v.id)? {
                return Err(not_on_branch(&v, &branch));
            }
            Ok(branch_version_json(&base, &p.name, &branch, &v))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// `PUT /pacticipants/{p}/branches/{b}/versions/{v}`: 201 when the version
/// was newly put on the branch, 200 when it already was.
pub async fn put_branch_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    // `name` is accepted (the Pact CLI sends the branch name) and not needed.
    let _: BranchVersionBody = body::parse(&req, &bytes)?;
    let (p, b, v) = path.into_inner();
    let name = parse_name("pacticipant", &p)?;
    let branch_name =
        BranchName::parse(&b).map_err(|e| BrokerError::bad_field("branch", e.to_string()))?;
    let number = parse_number("version", &v)?;
    let (body, created) = state
        .transaction(move |conn| {
            let p = pacticipants::find_or_create(conn, &name)?;
            let version = versions::find_or_create(conn, p.id, &number)?;
            let version = crate::api::tags::locked(conn, version)?;
            let branch = branches::find_or_create(conn, p.id, &branch_name)?;
            let created = !branches::contains_version(conn, branch.id, version.id)?;
            branches::add_version(conn, &branch, version.id)?;
            branches::auto_detect_main_branch(conn, p.id, branch_name.as_str())?;
            Ok((
                branch_version_json(&base, &p.name, &branch, &version),
                created,
            ))
        })
        .await?;
    Ok(created_or_ok(&body, created))
}

fn not_on_branch(version: &Version, branch: &Branch) -> BrokerError {
    BrokerError::not_found(format!(
        "Version '{}' on branch '{}'",
        version.number, branch.name
    ))
}

/// `DELETE /pacticipants/{p}/branches/{b}/versions/{v}`: 204, or 404.
pub async fn delete_branch_version(
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, b, v) = path.into_inner();
    state
        .transaction(move |conn| {
            let (p, branch) = find_branch(conn, &p, &b)?;
            let (_, v) = find_version(conn, &p.name, &v)?;
            if branches::remove_version(conn, branch.id, v.id)? {
                Ok(())
            } else {
                Err(not_on_branch(&v, &branch))
            }
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /pacticipants/{p}/branches/{b}/latest-version`.
pub async fn get_branch_latest_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, b) = path.into_inner();
    let view = state
        .run(move |conn| {
            let (p, branch) = find_branch(conn, &p, &b)?;
            let v = branches::head(conn, branch.id)?.ok_or_else(|| {
                BrokerError::not_found(format!("A version on branch '{}'", branch.name))
            })?;
            VersionView::load(conn, p, v)
        })
        .await?;
    Ok(hal::ok(&version_json(&base, &view)))
}
