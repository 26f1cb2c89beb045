//! The grid view of `/ui/matrix` (`view=grid`, a consumer and a provider
//! chosen): one row per consumer version, one column per provider version
//! that verified some version of the pact, both newest first. Each cell is
//! the verdict of the latest verification of that consumer version's pact by
//! that provider version, in the rows view's words (`cells::row_view`), or
//! "not verified". Both axes are paginated — `page` over consumer versions
//! (20 a screen), `col_page` over provider versions (10 a screen) — and the
//! status line says what each axis hides. Built from `load::all_rows`: one
//! load, then a pivot; details and findings only for what the screen shows.

use std::cmp::Reverse;
use std::collections::HashMap;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::matrix::Details;
use crate::matrix::rows::Row;
use crate::store::matrix::VersionRef;
use crate::web::matrix::cells::{self, Cell, Side, thousands};
use crate::web::matrix::filters::{Filters, View};
use crate::web::matrix::load;
use crate::web::seg;

/// Consumer versions (grid rows) a screen shows.
pub const GRID_ROWS: usize = 20;
/// Provider versions (grid columns) a screen shows.
pub const GRID_COLS: usize = 10;

/// One cell: a verdict, or nothing verified.
#[derive(Debug, Clone)]
pub struct GridCell {
    /// None: this provider version did not verify this consumer version.
    pub cell: Option<Cell>,
    /// "not verified: Foo 3 with Bar 57" (read when `cell` is None).
    pub label: String,
}

/// One row: a consumer version and its cells, one per shown column.
#[derive(Debug, Clone)]
pub struct GridRow {
    pub consumer: Side,
    /// The consumer version's contract with the provider.
    pub contract_href: String,
    pub cells: Vec<GridCell>,
}

/// The grid as the page shows it.
#[derive(Debug, Clone)]
pub struct Grid {
    pub consumer: String,
    pub provider: String,
    /// The shown provider versions, newest first.
    pub columns: Vec<Side>,
    pub rows: Vec<GridRow>,
    /// What is shown and hidden on each axis.
    pub status: String,
    pub nav: GridNav,
}

/// The links to the neighbouring screens, each keeping the filters and the
/// other axis' page (None: nothing that way).
#[derive(Debug, Clone)]
pub struct GridNav {
    pub newer_rows: Option<String>,
    pub older_rows: Option<String>,
    pub newer_cols: Option<String>,
    pub older_cols: Option<String>,
}

impl GridNav {
    fn new(f: &Filters, rows: &Axis, cols: &Axis) -> GridNav {
        let at = |page: usize, col_page: usize| f.href_at(View::Grid, page, col_page);
        GridNav {
            newer_rows: (f.page > 1).then(|| at(f.page - 1, f.col_page)),
            older_rows: (rows.end() < rows.total).then(|| at(f.page + 1, f.col_page)),
            newer_cols: (f.col_page > 1).then(|| at(f.page, f.col_page - 1)),
            older_cols: (cols.end() < cols.total).then(|| at(f.page, f.col_page + 1)),
        }
    }
}

/// One axis: the versions a screen shows out of all of them.
#[derive(Debug)]
struct Axis {
    shown: Vec<VersionRef>,
    start: usize,
    total: usize,
}

impl Axis {
    /// The distinct `versions`, newest first, page `page` of `per` each.
    fn page<'a>(
        versions: impl Iterator<Item = &'a VersionRef>,
        page: usize,
        per: usize,
        what: &str,
    ) -> Result<Axis, BrokerError> {
        let mut all: Vec<&VersionRef> = versions.collect();
        all.sort_by_key(|v| Reverse(v.id));
        all.dedup_by_key(|v| v.id);
        let total = all.len();
        let start = load::offset_of(page, per, total, what)?;
        let shown = all.into_iter().skip(start).take(per).cloned().collect();
        Ok(Axis {
            shown,
            start,
            total,
        })
    }

    fn end(&self) -> usize {
        self.start + self.shown.len()
    }

    /// "consumer versions 1–20 of 340 (320 more on other pages)".
    fn status(&self, what: &str) -> String {
        match self.total {
            0 => format!("no {what}"),
            t if self.shown.len() == t => format!("all {} {what}", thousands(t)),
            t => format!(
                "{what} {}–{} of {} ({} more on other pages)",
                thousands(self.start + 1),
                thousands(self.end()),
                thousands(t),
                thousands(t - self.shown.len())
            ),
        }
    }

    fn contains(&self, id: i64) -> bool {
        self.shown.iter().any(|v| v.id == id)
    }
}

/// The grid of the chosen consumer and provider, screen (`page`, `col_page`).
pub fn build(conn: &mut AnyConnection, f: &Filters) -> Result<Grid, BrokerError> {
    let all = load::all_rows(conn, f)?;
    let rows = Axis::page(
        all.iter().map(|r| &r.consumer_version),
        f.page,
        GRID_ROWS,
        "consumer versions",
    )?;
    let cols = Axis::page(
        all.iter().filter_map(|r| r.provider_version.as_ref()),
        f.col_page,
        GRID_COLS,
        "provider versions",
    )?;
    let by_pair = cell_rows(&all, &rows, &cols);
    let cell_refs: Vec<&Row> = by_pair.values().copied().collect();
    let details = cells::load_details(conn, &heading_rows(&all, &rows, &cols, &cell_refs))?;
    let extras = cells::load_extras(conn, &cell_refs)?;
    let names = Names::of(f);
    let body = rows
        .shown
        .iter()
        .map(|cv| grid_row(cv, &cols, &by_pair, &details, &extras, &names))
        .collect();
    Ok(Grid {
        columns: cols
            .shown
            .iter()
            .map(|pv| cells::side(&details, names.provider.clone(), Some(pv)))
            .collect(),
        rows: body,
        status: format!(
            "Showing {}; {}",
            rows.status("consumer versions"),
            cols.status("provider versions")
        ),
        nav: GridNav::new(f, &rows, &cols),
        consumer: names.consumer,
        provider: names.provider,
    })
}

/// The chosen pair's names.
struct Names {
    consumer: String,
    provider: String,
}

impl Names {
    fn of(f: &Filters) -> Names {
        let name = |n: &Option<crate::names::PacticipantName>| {
            n.as_ref()
                .map(|n| n.as_str().to_owned())
                .unwrap_or_default()
        };
        Names {
            consumer: name(&f.consumer),
            provider: name(&f.provider),
        }
    }
}

/// The row of each shown (consumer version, provider version) cell; the
/// first one wins (there is one: the latest verification of the pair).
fn cell_rows<'a>(all: &'a [Row], rows: &Axis, cols: &Axis) -> HashMap<(i64, i64), &'a Row> {
    let mut found = HashMap::new();
    for r in all {
        let Some(pv) = &r.provider_version else {
            continue;
        };
        if rows.contains(r.consumer_version.id) && cols.contains(pv.id) {
            found.entry((r.consumer_version.id, pv.id)).or_insert(r);
        }
    }
    found
}

/// The cells' rows plus one row for each shown version, so the headings'
/// branches, tags and environments load with the cells' (bounded by the screen).
fn heading_rows<'a>(
    all: &'a [Row],
    rows: &Axis,
    cols: &Axis,
    cell_refs: &[&'a Row],
) -> Vec<&'a Row> {
    let mut picked: Vec<&Row> = cell_refs.to_vec();
    for cv in &rows.shown {
        picked.extend(all.iter().find(|r| r.consumer_version.id == cv.id));
    }
    for pv in &cols.shown {
        picked.extend(
            all.iter()
                .find(|r| r.provider_version.as_ref().is_some_and(|v| v.id == pv.id)),
        );
    }
    picked
}

fn grid_row(
    cv: &VersionRef,
    cols: &Axis,
    by_pair: &HashMap<(i64, i64), &Row>,
    details: &Details,
    extras: &HashMap<i64, cells::Extra>,
    names: &Names,
) -> GridRow {
    let consumer = cells::side(details, names.consumer.clone(), Some(cv));
    let shown = cols
        .shown
        .iter()
        .map(|pv| match by_pair.get(&(cv.id, pv.id)) {
            Some(row) => GridCell {
                cell: Some(cells::row_view(row, details, extras).cell),
                label: String::new(),
            },
            None => GridCell {
                cell: None,
                label: format!(
                    "not verified: {} {} with {} {}",
                    names.consumer, cv.number, names.provider, pv.number
                ),
            },
        })
        .collect();
    GridRow {
        contract_href: format!(
            "/ui/pacts/provider/{}/consumer/{}/version/{}",
            seg(&names.provider),
            seg(&names.consumer),
            seg(&cv.number)
        ),
        consumer,
        cells: shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versions(ids: &[i64]) -> Vec<VersionRef> {
        ids.iter()
            .map(|&id| VersionRef {
                id,
                pacticipant_id: 1,
                number: id.to_string(),
            })
            .collect()
    }

    #[test]
    fn an_axis_is_distinct_versions_newest_first_saying_what_it_hides() {
        let all = versions(&[3, 1, 3, 2, 5, 4, 2]);
        let axis = Axis::page(all.iter(), 2, 2, "consumer versions").expect("page 2");
        let shown: Vec<i64> = axis.shown.iter().map(|v| v.id).collect();
        assert_eq!(shown, [3, 2]);
        assert_eq!(
            axis.status("consumer versions"),
            "consumer versions 3–4 of 5 (3 more on other pages)"
        );
        let whole = Axis::page(all.iter(), 1, 10, "x").expect("page 1");
        assert_eq!(whole.status("provider versions"), "all 5 provider versions");
        let none = Axis::page(std::iter::empty::<&VersionRef>(), 1, 10, "x").expect("empty page 1");
        assert_eq!(none.status("provider versions"), "no provider versions");
        let past = Axis::page(all.iter(), 4, 2, "x").expect_err("past the end");
        assert_eq!(past.body()["status"], 404);
    }
}
