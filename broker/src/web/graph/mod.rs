//! `GET /ui/network`: every application and integration as an inline SVG
//! drawn on the server (no script), each edge coloured, dashed and titled
//! by its latest verdict, with a text legend and the same integrations as
//! a table below. `?focus=NAME` shows one application with its consumers
//! and providers; `?q=TEXT` the applications whose names contain it, with
//! their neighbours. Past `layout::BUDGET` applications clusters are
//! collapsed into one node each (`layout`), and the page says which.

mod layout;

use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use self::layout::{App, Collapsed, Drawing, DrawnEdge, DrawnNode, Link};
use super::home::integrations::{self, IntegrationView, Verdict};
use super::home::links;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::directory;
use crate::store::overview::Scope;

/// The most applications read (beyond: the search page finds them).
const MAX_APPS: i64 = 5_000;
/// Rows of the integrations table.
const TABLE_ROWS: usize = 500;
/// The longest `q` or `focus`.
const MAX_TEXT: usize = 200;

/// The query string.
#[derive(Debug, Deserialize)]
pub struct GraphParams {
    focus: Option<String>,
    q: Option<String>,
}

/// The network page.
#[derive(Debug, Template)]
#[template(path = "network.html")]
struct NetworkPage {
    focus: String,
    focus_url: String,
    q: String,
    apps: usize,
    width: String,
    height: String,
    nodes: Vec<DrawnNode>,
    edges: Vec<DrawnEdge>,
    collapsed: Vec<Collapsed>,
    collapsed_apps: usize,
    not_drawn: usize,
    legend: Vec<(&'static str, &'static str, &'static str)>,
    rows: Vec<IntegrationView>,
    rows_total: usize,
    apps_total: i64,
}

/// `GET /ui/network`.
pub async fn get_page(
    state: web::Data<AppState>,
    params: web::Query<GraphParams>,
) -> Result<HttpResponse, BrokerError> {
    let params = params.into_inner();
    let focus = checked("focus", params.focus)?;
    let q = checked("q", params.q)?;
    let page = state.run(move |conn| load(conn, focus, q)).await?;
    super::page(&page)
}

/// The parameter trimmed, refused past `MAX_TEXT` characters.
fn checked(field: &str, value: Option<String>) -> Result<String, BrokerError> {
    let value = value.unwrap_or_default().trim().to_owned();
    if value.chars().count() > MAX_TEXT {
        return Err(BrokerError::bad_field(
            field,
            format!("must be at most {MAX_TEXT} characters"),
        ));
    }
    Ok(value)
}

fn load(conn: &mut AnyConnection, focus: String, q: String) -> Result<NetworkPage, BrokerError> {
    let (names, apps_total) = directory::list_names(conn, MAX_APPS)?;
    let all = integrations::load(conn, Scope::All)?;
    if !focus.is_empty() && crate::store::pacticipants::find_by_name(conn, &focus)?.is_none() {
        return Err(BrokerError::not_found(format!("Pacticipant '{focus}'")));
    }
    let (apps, rows) = view(names, all, &focus, &q);
    let index: std::collections::HashMap<&str, usize> = apps
        .iter()
        .enumerate()
        .map(|(i, a)| (a.name.as_str(), i))
        .collect();
    let graph_links: Vec<Link> = rows
        .iter()
        .filter_map(|r| {
            Some(Link {
                consumer: *index.get(r.consumer.as_str())?,
                provider: *index.get(r.provider.as_str())?,
                verdict: r.verdict,
                title: format!(
                    "{} → {}: {} ({})",
                    r.consumer,
                    r.provider,
                    r.verdict.word(),
                    r.detail
                ),
                url: r
                    .verification_url
                    .clone()
                    .unwrap_or_else(|| r.contract_url.clone()),
            })
        })
        .collect();
    let drawing: Drawing = layout::draw(&apps, &graph_links, links::network_focus);
    let rows_total = rows.len();
    let mut rows = rows;
    rows.truncate(TABLE_ROWS);
    Ok(NetworkPage {
        apps: apps.len(),
        width: format!("{:.0}", drawing.width),
        height: format!("{:.0}", drawing.height),
        collapsed_apps: drawing.collapsed.iter().map(|c| c.size).sum(),
        not_drawn: drawing.not_drawn,
        nodes: drawing.nodes,
        edges: drawing.edges,
        collapsed: drawing.collapsed,
        legend: legend(),
        rows,
        rows_total,
        apps_total,
        focus_url: links::pacticipant(&focus),
        focus,
        q,
    })
}

/// The applications and integrations the filters keep.
fn view(
    names: Vec<(i64, String)>,
    all: Vec<IntegrationView>,
    focus: &str,
    q: &str,
) -> (Vec<App>, Vec<IntegrationView>) {
    let needle = q.to_lowercase();
    let matches = |name: &str| !needle.is_empty() && name.to_lowercase().contains(&needle);
    let touches =
        |i: &IntegrationView, hit: &dyn Fn(&str) -> bool| hit(&i.consumer) || hit(&i.provider);
    let rows: Vec<IntegrationView> = all
        .into_iter()
        .filter(|i| focus.is_empty() || touches(i, &|n| n == focus))
        .filter(|i| needle.is_empty() || touches(i, &matches))
        .collect();
    let mut keep: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for r in &rows {
        keep.insert(&r.consumer);
        keep.insert(&r.provider);
    }
    let unfiltered = focus.is_empty() && needle.is_empty();
    let apps = names
        .iter()
        .filter(|(_, n)| unfiltered || keep.contains(n.as_str()) || n == focus || matches(n))
        .map(|(_, n)| App {
            url: links::pacticipant(n),
            marked: n == focus || matches(n),
            name: n.clone(),
        })
        .collect();
    (apps, rows)
}

/// (verdict, stroke colour, dash pattern) with what each means.
fn legend() -> Vec<(&'static str, &'static str, &'static str)> {
    Verdict::ALL
        .iter()
        .map(|v| (v.word(), layout::dash(*v), v.meaning()))
        .collect()
}
