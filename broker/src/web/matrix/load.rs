//! Loading the matrix page's rows with the API's own pieces (`resolve`,
//! `rows::load_between`, `rows::apply_latestby`, `partial::mark`), narrowed
//! to the consumer → provider direction asked for, then paginated: only the
//! page's rows get their details and findings (a fixed number of queries,
//! whatever the page size). The grid view pivots the same rows
//! (`all_rows`, see `grid`).

use std::collections::HashMap;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::matrix::resolve::{self, Fields, Resolved};
use crate::matrix::rows::{self, Row};
use crate::matrix::selector::{LatestBy, Selector};
use crate::matrix::{Details, partial};
use crate::names::PacticipantName;
use crate::store::{integrations, matrix_details, pacticipants};
use crate::web::matrix::cells::{self, Extra};
use crate::web::matrix::filters::Filters;

/// Validation errors name the page's parameters.
const FIELDS: Fields = Fields {
    pacticipant: "consumer",
    environment: "environment",
};

/// One page of rows, with what they show.
#[derive(Debug)]
pub struct RowsPage {
    pub rows: Vec<Row>,
    pub total: usize,
    pub details: Details,
    pub extras: HashMap<i64, Extra>,
}

/// One page of integrations (when no pacticipant is chosen): (consumer id,
/// provider id, consumer name, provider name).
#[derive(Debug)]
pub struct IntegrationsPage {
    pub pairs: Vec<(i64, i64, String, String)>,
    pub total: usize,
}

/// The first index of page `page` of rows, or a 404 past the last page.
pub fn offset(page: usize, per_page: usize, total: usize) -> Result<usize, BrokerError> {
    offset_of(page, per_page, total, "rows")
}

/// The first index of page `page` of `total` items called `what` (plural),
/// or a 404 past the last page.
pub fn offset_of(
    page: usize,
    per_page: usize,
    total: usize,
    what: &str,
) -> Result<usize, BrokerError> {
    let start = page.saturating_sub(1).saturating_mul(per_page);
    if page > 1 && start >= total {
        return Err(BrokerError::not_found(format!(
            "Page {page} (there are {} {what}, {per_page} a page)",
            cells::thousands(total)
        )));
    }
    Ok(start)
}

/// The rows of the chosen consumer and/or provider, page `filters.page`.
pub fn rows_page(conn: &mut AnyConnection, filters: &Filters) -> Result<RowsPage, BrokerError> {
    let mut all = all_rows(conn, filters)?;
    let total = all.len();
    let start = offset(filters.page, filters.per_page, total)?;
    let rows: Vec<Row> = all.drain(start..).take(filters.per_page).collect();
    let refs: Vec<&Row> = rows.iter().collect();
    let details = cells::load_details(conn, &refs)?;
    let extras = cells::load_extras(conn, &refs)?;
    Ok(RowsPage {
        rows,
        total,
        details,
        extras,
    })
}

fn resolve_named(
    conn: &mut AnyConnection,
    name: &PacticipantName,
    filters: &Filters,
) -> Result<Resolved, BrokerError> {
    if pacticipants::find_by_name(conn, name.as_str())?.is_none() {
        return Err(BrokerError::not_found(format!(
            "Pacticipant '{}'",
            name.as_str()
        )));
    }
    let selector = Selector {
        pacticipant: name.clone(),
        spec: filters.spec(),
    };
    resolve::resolve_specified(conn, &selector, FIELDS)
}

/// Every row between the chosen sides, newest consumer version first (as
/// `matrix::run` orders them), without details: the rows view pages them,
/// the grid pivots them.
pub fn all_rows(conn: &mut AnyConnection, filters: &Filters) -> Result<Vec<Row>, BrokerError> {
    let consumer = filters
        .consumer
        .as_ref()
        .map(|n| resolve_named(conn, n, filters))
        .transpose()?;
    let provider = filters
        .provider
        .as_ref()
        .map(|n| resolve_named(conn, n, filters))
        .transpose()?;
    let (c_id, p_id) = (
        consumer.as_ref().map(|r| r.pacticipant_id),
        provider.as_ref().map(|r| r.pacticipant_id),
    );
    let specified: Vec<Resolved> = consumer.into_iter().chain(provider).collect();
    let integrations: Vec<_> = resolve::integrations(conn, &specified, true)?
        .into_iter()
        .filter(|i| {
            c_id.is_none_or(|c| i.consumer_id == c) && p_id.is_none_or(|p| i.provider_id == p)
        })
        .collect();
    let inferred = match filters.target() {
        Some(t) => resolve::infer(conn, &specified, &integrations, &t, FIELDS)?,
        None => Vec::new(),
    };
    let selectors: Vec<Resolved> = specified.into_iter().chain(inferred).collect();
    let mut scopes = rows::scopes(&selectors);
    for i in &integrations {
        scopes.entry(i.consumer_id).or_insert(None);
        scopes.entry(i.provider_id).or_insert(None);
    }
    let loaded = rows::load_between(conn, &integrations, &scopes)?;
    let mut all = rows::apply_latestby(loaded, filters.latest.then_some(LatestBy::Cvp));
    partial::mark(conn, &mut all)?;
    all.sort_by_key(|r| {
        let pv = r.provider_version.as_ref().map_or(-1, |v| v.id);
        (
            std::cmp::Reverse(r.consumer_version.id),
            r.provider_id,
            std::cmp::Reverse(pv),
        )
    });
    Ok(all)
}

/// Every integration, by consumer then provider name, page `page`.
pub fn integrations_page(
    conn: &mut AnyConnection,
    page: usize,
    per_page: usize,
) -> Result<IntegrationsPage, BrokerError> {
    let all = integrations::list(conn)?;
    let mut ids: Vec<i64> = all
        .iter()
        .flat_map(|i| [i.consumer_id, i.provider_id])
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names: HashMap<i64, String> = matrix_details::pacticipant_names(conn, &ids)?
        .into_iter()
        .collect();
    let name = |id: i64| names.get(&id).cloned().unwrap_or_default();
    let mut pairs: Vec<(i64, i64, String, String)> = all
        .iter()
        .map(|i| {
            let (c, p) = (i.consumer_id, i.provider_id);
            (c, p, name(c), name(p))
        })
        .collect();
    pairs.sort_by(|a, b| (&a.2, &a.3).cmp(&(&b.2, &b.3)));
    let total = pairs.len();
    let start = offset(page, per_page, total)?;
    Ok(IntegrationsPage {
        pairs: pairs.into_iter().skip(start).take(per_page).collect(),
        total,
    })
}
