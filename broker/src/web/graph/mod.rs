//! `GET /ui/network`: every application and integration as an inline SVG
//! drawn on the server (no script) for a screen and for a phone (the
//! stylesheet shows one), each edge coloured, dashed and titled by its
//! latest verdict, each application coloured and marked by the worst
//! verdict of its integrations, with a legend in words and the same
//! integrations as a table below. `?focus=NAME` shows one application with its consumers
//! and providers; `?q=TEXT` the applications whose names contain it, with
//! their neighbours. Only the applications of the integrations shown are
//! read by name (and those without any, up to the budget). Past
//! `layout::BUDGET` applications clusters are collapsed into one node each
//! (`layout`), and the applications without integrations into one more;
//! the page says which.

mod layout;

use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use std::collections::{BTreeSet, HashMap};

use self::layout::{App, Collapsed, Drawing, DrawnEdge, DrawnNode, Link, Lone};
use super::home::integrations::{self, IntegrationView, Verdict};
use super::home::links;
use super::matrix::cells::PENDING_WORD;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::directory;
use crate::store::overview::Scope;

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
    /// The same network for a screen and for a phone (the stylesheet shows one).
    drawings: [DrawingView; 2],
    collapsed: Vec<Collapsed>,
    collapsed_apps: usize,
    /// Applications without integrations drawn as one node.
    lone: Lone,
    not_drawn: usize,
    legend: Vec<LegendRow>,
    /// The one word for a failure while pending, in the legend's note.
    pending_word: &'static str,
    rows: Vec<IntegrationView>,
    rows_total: usize,
    apps_total: i64,
}

/// One drawing of the network, ready for the template.
#[derive(Debug)]
struct DrawingView {
    /// `network` (a screen) or `network-phone`; also the markers' prefix.
    class: &'static str,
    width: String,
    height: String,
    nodes: Vec<DrawnNode>,
    edges: Vec<DrawnEdge>,
}

impl DrawingView {
    fn new(class: &'static str, drawing: Drawing) -> Self {
        DrawingView {
            class,
            width: format!("{:.0}", drawing.width),
            height: format!("{:.0}", drawing.height),
            nodes: drawing.nodes,
            edges: drawing.edges,
        }
    }
}

/// A verdict in the legend: class word, word shown, edge dash, node mark,
/// what it means.
type LegendRow = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

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
    let all = integrations::load(conn, Scope::All)?;
    if !focus.is_empty() && crate::store::pacticipants::find_by_name(conn, &focus)?.is_none() {
        return Err(BrokerError::not_found(format!("Pacticipant '{focus}'")));
    }
    let needle = q.to_lowercase();
    let worst = worst_verdicts(&all);
    let rows = filtered(all, &focus, &needle);
    let connected: BTreeSet<String> = rows
        .iter()
        .flat_map(|r| [r.consumer.clone(), r.provider.clone()])
        .collect();
    let (unconnected, apps_total) = unconnected(conn, &focus, &needle, &connected)?;
    let (apps, lone) = apps(connected, unconnected, &focus, &needle, &q, &worst);
    let edges = graph_links(&apps, &rows);
    let draw = |shape| layout::draw(&apps, &edges, &lone, links::network_focus, shape);
    let (mut wide, phone) = (draw(layout::WIDE), draw(layout::PHONE));
    let collapsed = std::mem::take(&mut wide.collapsed);
    let rows_total = rows.len();
    let mut rows = rows;
    rows.truncate(TABLE_ROWS);
    Ok(NetworkPage {
        apps: apps.len() + lone.count,
        collapsed_apps: collapsed.iter().map(|c| c.size).sum(),
        not_drawn: wide.not_drawn,
        collapsed,
        drawings: [
            DrawingView::new("network", wide),
            DrawingView::new("network-phone", phone),
        ],
        lone,
        legend: legend(),
        pending_word: PENDING_WORD,
        rows,
        rows_total,
        apps_total,
        focus_url: links::pacticipant(&focus),
        focus,
        q,
    })
}

/// An edge per row between the applications drawn.
fn graph_links(apps: &[App], rows: &[IntegrationView]) -> Vec<Link> {
    let index: HashMap<&str, usize> = apps
        .iter()
        .enumerate()
        .map(|(i, a)| (a.name.as_str(), i))
        .collect();
    rows.iter()
        .filter_map(|r| {
            Some(Link {
                consumer: *index.get(r.consumer.as_str())?,
                provider: *index.get(r.provider.as_str())?,
                verdict: r.verdict,
                title: format!(
                    "{} → {}: {} ({})",
                    r.consumer,
                    r.provider,
                    r.verdict.label(),
                    r.detail
                ),
                url: r
                    .verification_url
                    .clone()
                    .unwrap_or_else(|| r.contract_url.clone()),
            })
        })
        .collect()
}

/// The integrations the filters keep (`needle`: `q` in lower case).
fn filtered(all: Vec<IntegrationView>, focus: &str, needle: &str) -> Vec<IntegrationView> {
    let matches = |name: &str| name.to_lowercase().contains(needle);
    let touches =
        |i: &IntegrationView, hit: &dyn Fn(&str) -> bool| hit(&i.consumer) || hit(&i.provider);
    all.into_iter()
        .filter(|i| focus.is_empty() || touches(i, &|n| n == focus))
        .filter(|i| needle.is_empty() || touches(i, &matches))
        .collect()
}

/// The applications the view keeps that have no integration in it.
#[derive(Debug, Default)]
struct Unconnected {
    total: usize,
    /// Their names, all of them whenever they fit the budget.
    names: Vec<String>,
}

/// The view's applications without integrations: the focus, or those
/// whose name contains `needle`, or (unfiltered) all the others; and how
/// many applications there are. Names are read only as far as the budget:
/// past it they are drawn as one node.
fn unconnected(
    conn: &mut AnyConnection,
    focus: &str,
    needle: &str,
    connected: &BTreeSet<String>,
) -> Result<(Unconnected, i64), BrokerError> {
    let budget = layout::BUDGET as i64;
    let (first, apps_total) = directory::list_names(conn, budget)?;
    let (total, names): (i64, Vec<String>) = if !focus.is_empty() {
        let lone = !connected.contains(focus);
        (
            i64::from(lone),
            lone.then(|| focus.to_owned()).into_iter().collect(),
        )
    } else if !needle.is_empty() {
        let (found, matching) = directory::search_names(conn, needle, budget)?;
        let shown = connected
            .iter()
            .filter(|n| n.to_lowercase().contains(needle));
        let total = matching - shown.count() as i64;
        (total, found.into_iter().map(|(_, name, _)| name).collect())
    } else {
        let total = apps_total - connected.len() as i64;
        (total, first.into_iter().map(|(_, name)| name).collect())
    };
    let unconnected = Unconnected {
        total: usize::try_from(total).unwrap_or(0),
        names: names
            .into_iter()
            .filter(|n| !connected.contains(n))
            .collect(),
    };
    Ok((unconnected, apps_total))
}

/// The applications to draw, by name, and the node standing for those
/// without integrations when drawing each would pass the budget.
fn apps(
    connected: BTreeSet<String>,
    unconnected: Unconnected,
    focus: &str,
    needle: &str,
    q: &str,
    worst: &HashMap<String, Verdict>,
) -> (Vec<App>, Lone) {
    let over = connected.len() + unconnected.total > layout::BUDGET;
    let mut names = connected;
    let lone = if over {
        Lone {
            count: unconnected.total,
            url: format!("/ui/search?q={}", super::q(q)),
        }
    } else {
        names.extend(unconnected.names);
        Lone::default()
    };
    let marked = |n: &str| n == focus || (!needle.is_empty() && n.to_lowercase().contains(needle));
    let apps = names
        .into_iter()
        .map(|n| App {
            url: links::pacticipant(&n),
            marked: marked(&n),
            verdict: worst.get(&n).copied(),
            name: n,
        })
        .collect();
    (apps, lone)
}

/// Each verdict's row of the legend, worst first.
fn legend() -> Vec<LegendRow> {
    Verdict::ALL
        .iter()
        .map(|v| {
            let mark = layout::mark(Some(*v));
            (v.word(), v.label(), layout::dash(*v), mark, v.meaning())
        })
        .collect()
}

/// The worst verdict of each application's integrations, whether the view
/// draws them or not (a focus does not make an application look better).
fn worst_verdicts(rows: &[IntegrationView]) -> HashMap<String, Verdict> {
    let mut worst: HashMap<String, Verdict> = HashMap::new();
    for r in rows {
        for name in [&r.consumer, &r.provider] {
            worst
                .entry(name.clone())
                .and_modify(|w| *w = (*w).min(r.verdict))
                .or_insert(r.verdict);
        }
    }
    worst
}
