//! `GET /ui/pacticipants/{name}?page=N`: one application — its versions
//! (newest first, `PAGE_SIZE` a page, saying what the page leaves out),
//! branches, tags, where it is live, its deployments and releases over
//! time, its integrations as consumer and as provider, and, for a
//! provider, what its recent verifications recorded (`sections`); its
//! webhooks and their latest deliveries when it has any (`webhooks`); a
//! link to its coverage page when a version of it declares anything.
//!
//! An unknown name is a 404 page; a `page` that is not a positive number is
//! a 400 (the query extractor), one past the last page a 404.

mod sections;
mod webhooks;

use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use self::sections::{HeadView, PlacementView, ResultView, VersionView};
use self::webhooks::{DeliveryView, WebhookView};
use super::home::integrations::{self as integration, IntegrationView};
use super::home::links;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::overview::Scope;
use crate::store::{declarations, pacticipants, versions};

/// Versions a page.
const PAGE_SIZE: i64 = 20;

/// The query string.
#[derive(Debug, Deserialize)]
pub struct PageParams {
    /// 1 for the newest versions.
    page: Option<u32>,
}

/// A pacticipant's page.
#[derive(Debug, Template)]
#[template(path = "pacticipant.html")]
struct PacticipantPage {
    name: String,
    display_name: Option<String>,
    main_branch: Option<String>,
    /// Only an http(s) URL becomes a link.
    repository_url: Option<String>,
    links: Vec<(&'static str, String)>,
    versions: Vec<VersionView>,
    pager: Pager,
    branches: Vec<HeadView>,
    branches_total: usize,
    tags: Vec<HeadView>,
    tags_total: usize,
    live: Vec<(String, String, String)>,
    deployments: Vec<PlacementView>,
    deployments_total: i64,
    releases: Vec<PlacementView>,
    releases_total: i64,
    as_consumer: Vec<IntegrationView>,
    as_provider: Vec<IntegrationView>,
    results: Vec<ResultView>,
    webhooks: Vec<WebhookView>,
    deliveries: Vec<DeliveryView>,
}

/// Where the versions page is in the list.
#[derive(Debug)]
struct Pager {
    page: i64,
    pages: i64,
    total: i64,
    first: i64,
    last: i64,
    newer_url: Option<String>,
    older_url: Option<String>,
}

impl Pager {
    fn new(name: &str, page: i64, total: i64, shown: i64) -> Pager {
        let pages = ((total + PAGE_SIZE - 1) / PAGE_SIZE).max(1);
        let first = (page - 1) * PAGE_SIZE + 1;
        let url = |p: i64| format!("{}?page={p}", links::pacticipant(name));
        Pager {
            page,
            pages,
            total,
            first,
            last: first + shown - 1,
            newer_url: (page > 1).then(|| url(page - 1)),
            older_url: (page < pages).then(|| url(page + 1)),
        }
    }
}

/// `GET /ui/pacticipants/{pacticipant}`.
pub async fn get_page(
    state: web::Data<AppState>,
    path: web::Path<String>,
    params: web::Query<PageParams>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    let page = match params.page {
        None => 1,
        Some(0) => return Err(BrokerError::bad_field("page", "must be 1 or more")),
        Some(n) => i64::from(n),
    };
    let view = state.run(move |conn| load(conn, &name, page)).await?;
    super::page(&view)
}

fn load(conn: &mut AnyConnection, name: &str, page: i64) -> Result<PacticipantPage, BrokerError> {
    let p = pacticipants::find_by_name(conn, name)?
        .ok_or_else(|| BrokerError::not_found(format!("Pacticipant '{name}'")))?;
    let (rows, total) =
        versions::list_page_for_pacticipant(conn, p.id, PAGE_SIZE, (page - 1) * PAGE_SIZE)?;
    if rows.is_empty() && page > 1 {
        return Err(BrokerError::not_found(format!(
            "Page {page} of the versions of '{name}' (it has {total} versions)"
        )));
    }
    let latest = (page == 1)
        .then(|| rows.first().map(|v| v.number.clone()))
        .flatten();
    let pager = Pager::new(&p.name, page, total, rows.len() as i64);
    let versions = sections::versions(conn, &p.name, rows)?;
    let (branches, branches_total) = sections::branches(conn, &p)?;
    let (tags, tags_total) = sections::tags(conn, &p)?;
    let (deployments, deployments_total, releases, releases_total) =
        sections::placements(conn, p.id)?;
    let as_provider = integration::load(conn, Scope::Provider(p.id))?;
    let results = if as_provider.is_empty() {
        Vec::new()
    } else {
        sections::results(conn, &p.name, p.id)?
    };
    let (webhooks, deliveries) = webhooks::load(conn, &p)?;
    let declares = declarations::latest_declaring_version(conn, p.id)?.is_some();
    Ok(PacticipantPage {
        webhooks,
        deliveries,
        links: page_links(&p.name, latest.as_deref(), declares),
        repository_url: p
            .repository_url
            .filter(|u| u.starts_with("https://") || u.starts_with("http://"))
            .map(|u| crate::web::contract::redact::redact_url(&u)),
        live: sections::live(conn, p.id)?,
        as_consumer: integration::load(conn, Scope::Consumer(p.id))?,
        as_provider,
        display_name: p.display_name,
        main_branch: p.main_branch,
        name: p.name,
        versions,
        pager,
        branches,
        branches_total,
        tags,
        tags_total,
        deployments,
        deployments_total,
        releases,
        releases_total,
        results,
    })
}

/// The other pages about this application.
fn page_links(name: &str, latest: Option<&str>, declares: bool) -> Vec<(&'static str, String)> {
    let mut out = vec![
        ("its network", links::network_focus(name)),
        ("matrix as consumer", links::matrix_of_consumer(name)),
        ("matrix as provider", links::matrix_of_provider(name)),
    ];
    if declares {
        out.push((
            "coverage of its declared operations",
            links::coverage(name, None),
        ));
    }
    if let Some(v) = latest {
        out.push((
            "can the latest version deploy?",
            links::can_i_deploy(name, v, None),
        ));
    }
    out
}
