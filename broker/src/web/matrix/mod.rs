//! `GET /ui/matrix`: the compatibility matrix — consumer versions × provider
//! versions of the chosen consumer and/or provider, filtered by branch, tag
//! or environment, 50 rows a page (`per_page` up to 1,000), each cell's
//! verdict in words with the failing layers; with both chosen, also as a
//! grid (`view=grid`, see `grid`); with no pacticipant chosen, the landing:
//! every integration with its verdict on the main branch and in each
//! environment (`landing`, `verdicts`). `GET /ui/providers/{p}/versions/{v}`
//! (`candidate`): which consumers one provider build breaks, and on which
//! layer.

pub mod candidate;
pub mod cells;
pub mod drift;
pub mod evaluations;
pub mod filters;
pub mod grid;
pub mod landing;
pub mod load;
pub mod verdicts;

use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::environments;
use crate::web::{q, seg};
use cells::{RowView, thousands};
use filters::{Filters, View};
use grid::Grid;

pub use candidate::get_candidate;

/// "Showing 1–50 of 1,000 rows" and the links to the pages around.
#[derive(Debug, Clone)]
pub struct Pager {
    pub status: String,
    pub prev: Option<String>,
    pub next: Option<String>,
}

impl Pager {
    /// The pager of page `f.page` of `total` items called `what` (plural).
    pub fn new(f: &Filters, total: usize, what: &str) -> Pager {
        let (page, per_page) = (f.page, f.per_page);
        let start = (page - 1).saturating_mul(per_page).min(total);
        let end = start.saturating_add(per_page).min(total);
        let status = if total == 0 {
            format!("No {what}")
        } else if end - start == total {
            format!("Showing all {} {what}", thousands(total))
        } else {
            format!(
                "Showing {what} {}–{} of {}; {} more on other pages",
                thousands(start + 1),
                thousands(end),
                thousands(total),
                thousands(total - (end - start))
            )
        };
        Pager {
            status,
            prev: (page > 1).then(|| f.href(page - 1)),
            next: (end < total).then(|| f.href(page + 1)),
        }
    }
}

/// An integration to open the matrix of.
#[derive(Debug, Clone)]
pub struct IntegrationLink {
    pub consumer_id: i64,
    pub provider_id: i64,
    pub consumer: String,
    pub consumer_href: String,
    pub provider: String,
    pub provider_href: String,
    pub matrix_href: String,
}

/// The form's current values.
#[derive(Debug, Clone, Default)]
pub struct FormValues {
    pub consumer: String,
    pub provider: String,
    pub branch: String,
    pub tag: String,
    pub latest: bool,
    /// Rows per page when not the default (kept through the form), else "".
    pub per_page: String,
    /// The grid was asked for (kept through the form).
    pub grid: bool,
    /// (environment name, selected?)
    pub environments: Vec<(String, bool)>,
}

/// The links between the rows and the grid of a consumer and a provider,
/// each keeping the filters.
#[derive(Debug, Clone)]
pub struct Views {
    /// The grid is the one shown.
    pub grid: bool,
    pub rows_href: String,
    pub grid_href: String,
}

/// The matrix page.
#[derive(Debug, Template)]
#[template(path = "matrix.html")]
pub struct MatrixPage {
    pub form: FormValues,
    pub caption: String,
    pub rows: Vec<RowView>,
    /// Some: no pacticipant chosen, the integrations with their verdicts.
    pub landing: Option<landing::Landing>,
    /// Some: the grid view of a consumer and a provider.
    pub grid: Option<Grid>,
    /// Some: a consumer and a provider chosen, the views to switch between.
    pub views: Option<Views>,
    /// Why the view asked for is not the one shown, if it is not.
    pub notice: Option<String>,
    pub pager: Pager,
}

impl MatrixPage {
    /// A page showing nothing yet but its form, caption and status.
    fn new(f: &Filters, form: FormValues, caption: String, pager: Pager) -> MatrixPage {
        MatrixPage {
            form,
            caption,
            rows: Vec::new(),
            landing: None,
            grid: None,
            views: f.is_pair().then(|| Views {
                grid: f.view == View::Grid,
                rows_href: f.href_at(View::Rows, 1, 1),
                grid_href: f.href_at(View::Grid, 1, 1),
            }),
            notice: (f.view == View::Grid && !f.is_pair()).then(|| {
                "The grid needs both a consumer and a provider: choose both to see it.".to_owned()
            }),
            pager,
        }
    }
}

/// `GET /ui/matrix?consumer=&provider=&branch=|tag=|environment=&latest=&page=&per_page=`,
/// and for a consumer and a provider `view=grid&col_page=`.
pub async fn get_matrix(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> Result<HttpResponse, BrokerError> {
    let filters = Filters::parse(req.query_string())?;
    let page = state.run(move |conn| build(conn, &filters)).await?;
    super::page(&page)
}

fn build(conn: &mut crate::db::AnyConnection, f: &Filters) -> Result<MatrixPage, BrokerError> {
    let form = form_values(conn, f)?;
    if f.consumer.is_none() && f.provider.is_none() {
        let found = load::integrations_page(conn, f.page, f.per_page)?;
        let pager = Pager::new(f, found.total, "integrations");
        let title = "Integrations: each one's verdict on the main branch and in each environment; choose one to see its versions".to_owned();
        let mut page = MatrixPage::new(f, form, title, pager);
        let ids: Vec<(i64, i64)> = found.pairs.iter().map(|i| (i.0, i.1)).collect();
        let links = found
            .pairs
            .iter()
            .map(|(c_id, p_id, c, p)| integration_link(f, (*c_id, *p_id), c, p))
            .collect();
        page.landing = Some(landing::build(conn, &ids, links)?);
        return Ok(page);
    }
    if f.view == View::Grid && f.is_pair() {
        return grid_page(conn, f, form);
    }
    let found = load::rows_page(conn, f)?;
    let pager = Pager::new(f, found.total, "rows");
    let mut page = MatrixPage::new(f, form, caption(f), pager);
    page.rows = found
        .rows
        .iter()
        .map(|r| cells::row_view(r, &found.details, &found.extras))
        .collect();
    Ok(page)
}

/// The grid of the chosen consumer and provider (`view=grid`).
fn grid_page(
    conn: &mut crate::db::AnyConnection,
    f: &Filters,
    form: FormValues,
) -> Result<MatrixPage, BrokerError> {
    let grid = grid::build(conn, f)?;
    let pager = Pager {
        status: grid.status.clone(),
        prev: None,
        next: None,
    };
    let title = format!(
        "{}: one row per consumer version, one column per provider version that verified one of them, newest first",
        caption(f)
    );
    let mut page = MatrixPage::new(f, form, title, pager);
    page.grid = Some(grid);
    Ok(page)
}

fn form_values(
    conn: &mut crate::db::AnyConnection,
    f: &Filters,
) -> Result<FormValues, BrokerError> {
    let envs = environments::list(conn)?;
    if let Some(wanted) = &f.environment
        && !envs.iter().any(|e| &e.name == wanted)
    {
        return Err(BrokerError::bad_field(
            "environment",
            format!("Environment with name '{wanted}' does not exist"),
        ));
    }
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    let name = |v: &Option<crate::names::PacticipantName>| {
        v.as_ref()
            .map(|n| n.as_str().to_owned())
            .unwrap_or_default()
    };
    Ok(FormValues {
        consumer: name(&f.consumer),
        provider: name(&f.provider),
        branch: text(&f.branch),
        tag: text(&f.tag),
        latest: f.latest,
        grid: f.view == View::Grid,
        per_page: if f.per_page == filters::DEFAULT_PER_PAGE {
            String::new()
        } else {
            f.per_page.to_string()
        },
        environments: envs
            .into_iter()
            .map(|e| {
                let selected = f.environment.as_deref() == Some(e.name.as_str());
                (e.name, selected)
            })
            .collect(),
    })
}

fn integration_link(
    f: &Filters,
    (consumer_id, provider_id): (i64, i64),
    consumer: &str,
    provider: &str,
) -> IntegrationLink {
    let mut href = format!(
        "/ui/matrix?consumer={}&provider={}",
        q(consumer),
        q(provider)
    );
    let base = f.href_at(f.view, 1, 1);
    if let Some((_, rest)) = base.split_once('?') {
        href.push('&');
        href.push_str(rest);
    }
    IntegrationLink {
        consumer_id,
        provider_id,
        consumer: consumer.to_owned(),
        consumer_href: format!("/ui/pacticipants/{}", seg(consumer)),
        provider: provider.to_owned(),
        provider_href: format!("/ui/pacticipants/{}", seg(provider)),
        matrix_href: href,
    }
}

/// "Versions of Foo (consumer) × versions of Bar (provider), in production".
fn caption(f: &Filters) -> String {
    let side = |n: &Option<crate::names::PacticipantName>, role: &str| match n {
        Some(n) => format!("versions of {} ({role})", n.as_str()),
        None => format!("versions of every {role}"),
    };
    let mut text = format!(
        "{} × {}",
        side(&f.consumer, "consumer"),
        side(&f.provider, "provider")
    );
    if let Some(b) = &f.branch {
        text.push_str(&format!(", on branch {b}"));
    }
    if let Some(t) = &f.tag {
        text.push_str(&format!(", tagged {t}"));
    }
    if let Some(e) = &f.environment {
        text.push_str(&format!(", currently in {e}"));
    }
    if f.latest {
        text.push_str(", latest verification per consumer version");
    }
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}
