//! `/pacticipants/{p}/versions…`: list (newest first), read, create or
//! update (PUT replaces `buildUrl`, PATCH merges; both auto-create the
//! pacticipant and the version), delete, and the latest (tagged) version.

use std::collections::HashMap;

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::api::pacticipants::{find_required, parse_name};
use crate::api::reply::created_or_ok;
use crate::api::version_view::{
    VersionView, find_version, parse_number, version_json, version_summary_json,
};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::names::{FreeText, TagName};
use crate::state::AppState;
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::tags::Tag;
use crate::store::versions::{self, Version};
use crate::store::{branches, tags};

/// The body of PUT/PATCH on a version.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionRequest {
    #[serde(default)]
    pub build_url: Option<FreeText>,
    #[serde(default)]
    pub tags: Option<Vec<TagRequest>>,
}

/// One tag in a version body.
#[derive(Debug, Deserialize)]
pub struct TagRequest {
    pub name: String,
}

/// Renders a list of versions of `p` (newest first) as `_embedded.versions`.
pub fn versions_page(
    conn: &mut AnyConnection,
    base: &BaseUrl,
    p: &Pacticipant,
    list: &[Version],
    self_href: String,
) -> Result<Value, BrokerError> {
    let ids: Vec<i64> = list.iter().map(|v| v.id).collect();
    let mut tags_of: HashMap<i64, Vec<Tag>> = HashMap::new();
    for t in tags::list_for_versions(conn, &ids)? {
        tags_of.entry(t.version_id).or_default().push(t);
    }
    let mut branches_of: HashMap<i64, Vec<String>> = HashMap::new();
    for (id, name) in branches::names_for_versions(conn, &ids)? {
        branches_of.entry(id).or_default().push(name);
    }
    let items: Vec<Value> = list
        .iter()
        .map(|v| {
            let tags = tags_of.get(&v.id).map(Vec::as_slice).unwrap_or(&[]);
            let branches = branches_of.get(&v.id).map(Vec::as_slice).unwrap_or(&[]);
            version_summary_json(base, &p.name, v, tags, branches)
        })
        .collect();
    let links = Links::new()
        .add("self", Link::new(self_href).title("Versions"))
        .add(
            "pb:pacticipant",
            Link::new(base.url(&["pacticipants", &p.name]))
                .title("Pacticipant")
                .name(p.name.clone()),
        );
    Ok(json!({ "_embedded": { "versions": items }, "_links": links.into_value() }))
}

/// `?pageNumber=&pageSize=` of the versions list (both or neither).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageQuery {
    pub page_number: Option<String>,
    pub page_size: Option<String>,
}

/// The largest page a client may ask for.
const MAX_PAGE_SIZE: i64 = 1000;

impl PageQuery {
    /// `(number, size)` when paging was asked for.
    fn parse(&self) -> Result<Option<(i64, i64)>, BrokerError> {
        if self.page_number.is_none() && self.page_size.is_none() {
            return Ok(None);
        }
        let read = |field: &str, text: Option<&str>, default: i64, max: i64| {
            let Some(text) = text else { return Ok(default) };
            match text.parse::<i64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(BrokerError::bad_field(
                    field,
                    format!("must be a whole number from 1 to {max}"),
                )),
            }
        };
        let number = read(
            "pageNumber",
            self.page_number.as_deref(),
            1,
            i64::MAX / MAX_PAGE_SIZE,
        )?;
        let size = read("pageSize", self.page_size.as_deref(), 100, MAX_PAGE_SIZE)?;
        Ok(Some((number, size)))
    }
}

/// `GET /pacticipants/{p}/versions`: every version, newest first, or one
/// page of them (`pageNumber`, `pageSize`; `page` and `next`/`previous` links).
pub async fn list_versions(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, BrokerError> {
    let paging = query.parse()?;
    let name = path.into_inner();
    let page = state
        .run(move |conn| {
            let p = find_required(conn, &name)?;
            let href = base.url(&["pacticipants", &p.name, "versions"]);
            let Some((number, size)) = paging else {
                let list = versions::list_for_pacticipant(conn, p.id)?;
                return versions_page(conn, &base, &p, &list, href);
            };
            let (list, total) =
                versions::list_page_for_pacticipant(conn, p.id, size, (number - 1) * size)?;
            let mut page = versions_page(conn, &base, &p, &list, href.clone())?;
            add_paging(&mut page, &href, number, size, total);
            Ok(page)
        })
        .await?;
    Ok(hal::ok(&page))
}

/// Pact's `page` object and `next`/`previous` links.
fn add_paging(page: &mut Value, href: &str, number: i64, size: i64, total: i64) {
    let pages = (total + size - 1) / size;
    page["page"] =
        json!({ "number": number, "size": size, "totalElements": total, "totalPages": pages });
    let at = |n: i64| Link::new(format!("{href}?pageNumber={n}&pageSize={size}")).to_value();
    if number < pages {
        page["_links"]["next"] = at(number + 1);
    }
    if number > 1 {
        page["_links"]["previous"] = at(number - 1);
    }
}

/// `GET /pacticipants/{p}/versions/{v}`.
pub async fn get_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v) = path.into_inner();
    let view = state
        .run(move |conn| {
            let (p, v) = find_version(conn, &p, &v)?;
            VersionView::load(conn, p, v)
        })
        .await?;
    Ok(hal::ok(&version_json(&base, &view)))
}

/// `PUT` (replace `buildUrl` and tags) and `PATCH` (merge) on a version;
/// 201 when the version was created, 200 otherwise.
pub async fn update_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: VersionRequest = body::parse(&req, &bytes)?;
    let (p, v) = path.into_inner();
    let name = parse_name("pacticipant", &p)?;
    let number = parse_number("version", &v)?;
    let replace = req.method() == actix_web::http::Method::PUT;
    let tag_names = parse_tags(request.tags.as_deref())?;
    let (view, created) = state
        .transaction(move |conn| {
            let p = pacticipants::find_or_create(conn, &name)?;
            let (v, created) = versions::find_or_insert(conn, p.id, &number, None)?;
            // held to the end: a concurrent PUT of the tags waits, then sees ours
            let mut v = crate::api::tags::locked(conn, v)?;
            if replace || request.build_url.is_some() {
                v = versions::update_build_url(
                    conn,
                    v.id,
                    request.build_url.as_ref().map(FreeText::as_str),
                )?;
            }
            if let Some(names) = tag_names {
                apply_tags(conn, &p, &v, &names, replace)?;
            }
            let p = find_required(conn, &p.name)?;
            Ok((VersionView::load(conn, p, v)?, created))
        })
        .await?;
    let body = version_json(&base, &view);
    Ok(created_or_ok(&body, created))
}

fn parse_tags(list: Option<&[TagRequest]>) -> Result<Option<Vec<TagName>>, BrokerError> {
    let Some(list) = list else { return Ok(None) };
    list.iter()
        .enumerate()
        .map(|(i, t)| {
            TagName::parse(&t.name)
                .map_err(|e| BrokerError::bad_field(format!("$.tags[{i}].name"), e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Adds `names` to the version; with `replace`, removes the tags not named.
fn apply_tags(
    conn: &mut AnyConnection,
    p: &Pacticipant,
    v: &Version,
    names: &[TagName],
    replace: bool,
) -> Result<(), BrokerError> {
    if replace {
        for old in tags::list_for_version(conn, v.id)? {
            if !names.iter().any(|n| n.as_str() == old.name) {
                tags::delete(conn, v.id, &old.name)?;
            }
        }
    }
    for name in names {
        tags::add(conn, v, name)?;
        branches::auto_detect_main_branch(conn, p.id, name.as_str())?;
    }
    Ok(())
}

/// `DELETE /pacticipants/{p}/versions/{v}`: 204.
pub async fn delete_version(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v) = path.into_inner();
    state
        .transaction(move |conn| {
            let (_, v) = find_version(conn, &p, &v)?;
            versions::delete(conn, v.id)?;
            Ok(())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /pacticipants/{p}/latest-version`.
pub async fn get_latest_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    let view = state
        .run(move |conn| {
            let p = find_required(conn, &name)?;
            let v = versions::find_latest(conn, p.id)?.ok_or_else(|| {
                BrokerError::not_found(format!("A version of pacticipant '{name}'"))
            })?;
            VersionView::load(conn, p, v)
        })
        .await?;
    Ok(hal::ok(&version_json(&base, &view)))
}

/// `GET /pacticipants/{p}/latest-version/{tag}`.
pub async fn get_latest_tagged_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (name, tag) = path.into_inner();
    let view = state
        .run(move |conn| {
            let p = find_required(conn, &name)?;
            let v = tags::latest_version_with(conn, p.id, &tag)?.ok_or_else(|| {
                BrokerError::not_found(format!(
                    "A version of pacticipant '{name}' with tag '{tag}'"
                ))
            })?;
            VersionView::load(conn, p, v)
        })
        .await?;
    Ok(hal::ok(&version_json(&base, &view)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(number: Option<&str>, size: Option<&str>) -> PageQuery {
        PageQuery {
            page_number: number.map(str::to_owned),
            page_size: size.map(str::to_owned),
        }
    }

    #[test]
    fn without_parameters_every_version_is_listed() {
        assert_eq!(query(None, None).parse().expect("valid"), None);
    }

    #[test]
    fn a_page_number_alone_uses_pages_of_one_hundred() {
        assert_eq!(
            query(Some("3"), None).parse().expect("valid"),
            Some((3, 100))
        );
    }

    #[test]
    fn zero_negative_or_oversized_pages_are_refused_naming_the_parameter() {
        for (number, size, field) in [
            (Some("0"), None, "pageNumber"),
            (None, Some("-1"), "pageSize"),
            (None, Some("1001"), "pageSize"),
            (Some("x"), Some("10"), "pageNumber"),
        ] {
            let err = query(number, size).parse().expect_err("refused");
            assert!(err.body()["errors"][field].is_array(), "{field}");
        }
    }

    #[test]
    fn the_last_page_has_no_next_link() {
        let mut page = json!({ "_links": {} });
        add_paging(&mut page, "http://b/v", 2, 2, 3);
        assert_eq!(page["page"]["totalPages"], 2);
        assert!(page["_links"]["next"].is_null());
        assert_eq!(
            page["_links"]["previous"]["href"],
            "http://b/v?pageNumber=1&pageSize=2"
        );
    }
}
