//! The compatibility matrix and can-i-deploy (§1.7, §3.2, §3.3).
//!
//! `query` parses Rack-style query strings, `selector` turns them into a
//! typed `MatrixQuery`, `resolve` finds versions, integrations and inferred
//! selectors, `rows` loads and collapses rows, `decision` decides. `run`
//! does it all on one connection; the common case (one version to an
//! environment) is read by `environment` in one statement. No limit is
//! applied before the decision: `limit` only shortens the rows shown, and
//! says so in a notice.

pub mod decision;
pub mod environment;
pub mod partial;
pub mod query;
pub mod resolve;
pub mod rows;
pub mod selector;

use std::collections::HashMap;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::matrix as q;
use crate::store::matrix_details as shown;
use decision::{Input, Notice, NoticeKind, Summary};
use environment::Prefetched;
use resolve::{Fields, Integration, Resolved};
use rows::Row;
use selector::{IgnoreSelector, MatrixQuery, VersionSpec};

/// A row as shown, with its ignored flag.
#[derive(Debug, Clone)]
pub struct ShownRow {
    pub row: Row,
    pub ignored: bool,
}

/// What rows show besides ids: names, branches, tags, environments, shas.
#[derive(Debug, Default)]
pub struct Details {
    pub names: HashMap<i64, String>,
    pub branches: HashMap<i64, Vec<String>>,
    pub tags: HashMap<i64, Vec<String>>,
    /// (environment name, deployed?) per version.
    pub environments: HashMap<i64, Vec<(String, bool)>>,
    pub shas: HashMap<i64, String>,
}

/// The answer to a matrix query.
#[derive(Debug)]
pub struct Outcome {
    pub summary: Summary,
    pub rows: Vec<ShownRow>,
    /// Rows before `success[]` and `limit`.
    pub total_rows: usize,
    pub details: Details,
}

/// Runs a matrix query (the common case in one statement, `environment`).
pub fn run(
    conn: &mut AnyConnection,
    query: &MatrixQuery,
    fields: Fields,
) -> Result<Outcome, BrokerError> {
    run_with(conn, query, fields, true)
}

/// Runs a matrix query statement by statement, the common case included:
/// what the common case's one statement must answer the same as (tested).
pub fn run_general(
    conn: &mut AnyConnection,
    query: &MatrixQuery,
    fields: Fields,
) -> Result<Outcome, BrokerError> {
    run_with(conn, query, fields, false)
}

fn run_with(
    conn: &mut AnyConnection,
    query: &MatrixQuery,
    fields: Fields,
    one_statement: bool,
) -> Result<Outcome, BrokerError> {
    let Loaded {
        selectors,
        integrations,
        rows: mut all,
        prefetched,
    } = load_rows(conn, query, fields, one_statement)?;
    partial::mark(conn, &mut all)?;
    let (ignores, mut warnings) = resolve_ignores(conn, &query.ignore)?;
    let is_ignored = |r: &Row| ignores.iter().any(|i| i.matches(r));
    let (ignored, considered): (Vec<Row>, Vec<Row>) =
        all.iter().cloned().partition(|r| is_ignored(r));
    warnings.extend(recommendations(query));
    // the one statement of the common case read the details of every row
    // (a superset of those shown) and the admission state
    let (read_details, quarantined) = match prefetched {
        Some(p) => (Some(p.details), Some(p.quarantined)),
        None => (None, None),
    };
    let known_names = names(conn, &selectors, &all)?;
    let whole: Vec<i64> = ignores
        .iter()
        .filter(|i| i.version_id.is_none())
        .map(|i| i.pacticipant_id)
        .collect();
    let mut summary = decision::decide(Input {
        selectors: &selectors,
        integrations: &integrations,
        considered: &considered,
        ignored: &ignored,
        ignored_pacticipants: &whole,
        ignore_given: !query.ignore.is_empty(),
        warnings,
        names: &known_names,
    });
    refuse_quarantined(conn, &selectors, quarantined, &mut summary)?;
    let total_rows = all.len();
    let marked = all.into_iter().map(|row| ShownRow {
        ignored: is_ignored(&row),
        row,
    });
    let shown = filter_and_limit(marked, query, &mut summary);
    let mut details = match read_details {
        Some(prefetched) => prefetched,
        None => load_details(conn, &shown)?,
    };
    details.names = known_names;
    Ok(Outcome {
        summary,
        rows: shown,
        total_rows,
        details,
    })
}

/// A specified version that runtime drift quarantined cannot be deployed,
/// whatever its rows say, until a new verification clears it
/// (docs/drift.md): its reason comes first.
fn refuse_quarantined(
    conn: &mut AnyConnection,
    selectors: &[Resolved],
    prefetched: Option<Vec<(i64, String)>>,
    summary: &mut Summary,
) -> Result<(), BrokerError> {
    for s in selectors.iter().filter(|s| s.specified) {
        let versions = s.versions.as_deref().unwrap_or_default();
        let ids: Vec<i64> = versions.iter().map(|v| v.id).collect();
        let quarantined = match &prefetched {
            Some(known) => known
                .iter()
                .filter(|(id, _)| ids.contains(id))
                .cloned()
                .collect(),
            None => crate::store::admission::quarantined_among(conn, &ids)?,
        };
        for (id, reason) in quarantined {
            let number = versions
                .iter()
                .find(|v| v.id == id)
                .map_or("", |v| &v.number);
            summary.refuse(format!(
                "{} version {number} is QUARANTINED: {reason}",
                s.pacticipant_name
            ));
        }
    }
    Ok(())
}

/// The selectors (given and inferred from the target), the integrations
/// between them, and every row, newest consumer version first.
#[derive(Debug)]
pub struct Loaded {
    pub selectors: Vec<Resolved>,
    pub integrations: Vec<Integration>,
    pub rows: Vec<Row>,
    /// What the common case's one statement read besides (`environment`).
    pub prefetched: Option<Prefetched>,
}

fn load_rows(
    conn: &mut AnyConnection,
    query: &MatrixQuery,
    fields: Fields,
    one_statement: bool,
) -> Result<Loaded, BrokerError> {
    let shape = environment::shape(query).filter(|_| one_statement);
    let mut loaded = match shape {
        Some(shape) => environment::load(conn, shape, fields)?,
        None => load_general(conn, query, fields)?,
    };
    let mut all = rows::apply_latestby(std::mem::take(&mut loaded.rows), query.latestby);
    all.sort_by_key(|r| {
        let pv = r.provider_version.as_ref().map_or(-1, |v| v.id);
        (
            std::cmp::Reverse(r.consumer_version.id),
            r.provider_id,
            std::cmp::Reverse(pv),
        )
    });
    loaded.rows = all;
    Ok(loaded)
}

/// Selectors, integrations and rows (before `latestby`) of any query,
/// statement by statement.
fn load_general(
    conn: &mut AnyConnection,
    query: &MatrixQuery,
    fields: Fields,
) -> Result<Loaded, BrokerError> {
    let specified = query
        .selectors
        .iter()
        .map(|s| resolve::resolve_specified(conn, s, fields))
        .collect::<Result<Vec<_>, _>>()?;
    let around = query.target.is_none() && specified.len() == 1;
    let integrations = resolve::integrations(conn, &specified, query.target.is_some() || around)?;
    let inferred = match &query.target {
        Some(t) => resolve::infer(conn, &specified, &integrations, t, fields)?,
        None => Vec::new(),
    };
    let selectors: Vec<Resolved> = specified.into_iter().chain(inferred).collect();
    let scopes = rows::scopes(&selectors);
    let loaded = if around {
        let s = &selectors[0];
        rows::load_around(conn, s.pacticipant_id, s.versions.as_deref(), &scopes)?
    } else {
        rows::load_between(conn, &integrations, &scopes)?
    };
    Ok(Loaded {
        selectors,
        integrations,
        rows: loaded,
        prefetched: None,
    })
}

/// The rows `success[]` keeps, at most `limit` of them (with a notice
/// when some are cut: the decision has already seen them all).
fn filter_and_limit(
    rows: impl Iterator<Item = ShownRow>,
    query: &MatrixQuery,
    summary: &mut Summary,
) -> Vec<ShownRow> {
    let mut shown: Vec<ShownRow> = rows
        .filter(|r| {
            query
                .success
                .as_ref()
                .is_none_or(|want| want.contains(&r.row.success()))
        })
        .collect();
    if let Some(limit) = query.limit
        && shown.len() > limit
    {
        summary.notices.push(Notice {
            kind: NoticeKind::Warning,
            text: format!(
                "WARN: Only {limit} of {} matching rows are shown (limit={limit}); the decision considered every row",
                shown.len()
            ),
        });
        shown.truncate(limit);
    }
    shown
}

/// An ignore selector that exists.
struct IgnoreTarget {
    pacticipant_id: i64,
    version_id: Option<i64>,
}

impl IgnoreTarget {
    fn matches(&self, r: &Row) -> bool {
        let side = |p: i64, v: Option<i64>| {
            p == self.pacticipant_id && (self.version_id.is_none() || self.version_id == v)
        };
        side(r.consumer_id, Some(r.consumer_version.id))
            || side(r.provider_id, r.provider_version.as_ref().map(|v| v.id))
    }
}

/// Looks ignore selectors up; one that matches nothing is only a warning.
fn resolve_ignores(
    conn: &mut AnyConnection,
    ignore: &[IgnoreSelector],
) -> Result<(Vec<IgnoreTarget>, Vec<String>), BrokerError> {
    let (mut found, mut warnings) = (Vec::new(), Vec::new());
    for i in ignore {
        let p = crate::store::pacticipants::find_by_name(conn, &i.pacticipant)?;
        let version = match (&p, &i.version) {
            (Some(p), Some(n)) => q::version_by_number(conn, p.id, n)?.map(|v| Some(v.id)),
            (Some(_), None) => Some(None),
            (None, _) => None,
        };
        match (p, version) {
            (Some(p), Some(version_id)) => found.push(IgnoreTarget {
                pacticipant_id: p.id,
                version_id,
            }),
            _ => warnings.push(match &i.version {
                Some(n) => format!(
                    "WARN: Cannot ignore version {n} of {} as it does not exist",
                    i.pacticipant
                ),
                None => format!(
                    "WARN: Cannot ignore {} as no pacticipant with that name exists",
                    i.pacticipant
                ),
            }),
        }
    }
    Ok((found, warnings))
}

/// The Pact Broker's advice when a query cannot give a reliable answer.
fn recommendations(query: &MatrixQuery) -> Vec<String> {
    let mut out = Vec::new();
    if query.selectors.len() == 1 && query.target.is_none() {
        out.push("WARN: It is recommended to specify the environment into which you are deploying. Without the environment, this result will not be reliable.".to_owned());
    }
    if !query
        .selectors
        .iter()
        .any(|s| matches!(s.spec, VersionSpec::Number(_)))
    {
        out.push("WARN: It is recommended to specify the version number (rather than the tag or branch) of the pacticipant you wish to deploy to avoid race conditions. Without a version number, this result will not be reliable.".to_owned());
    }
    out
}

fn names(
    conn: &mut AnyConnection,
    selectors: &[Resolved],
    rows: &[Row],
) -> Result<HashMap<i64, String>, BrokerError> {
    let mut names: HashMap<i64, String> = selectors
        .iter()
        .map(|s| (s.pacticipant_id, s.pacticipant_name.clone()))
        .collect();
    let mut unknown: Vec<i64> = rows
        .iter()
        .flat_map(|r| [r.consumer_id, r.provider_id])
        .filter(|id| !names.contains_key(id))
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    if !unknown.is_empty() {
        names.extend(shown::pacticipant_names(conn, &unknown)?);
    }
    Ok(names)
}

/// Branches, tags, environments and content shas of the rows shown.
fn load_details(conn: &mut AnyConnection, shown: &[ShownRow]) -> Result<Details, BrokerError> {
    let mut details = Details::default();
    if shown.is_empty() {
        return Ok(details);
    }
    let mut versions: Vec<i64> = shown
        .iter()
        .flat_map(|r| {
            std::iter::once(r.row.consumer_version.id)
                .chain(r.row.provider_version.as_ref().map(|v| v.id))
        })
        .collect();
    versions.sort_unstable();
    versions.dedup();
    let mut contents: Vec<i64> = shown.iter().map(|r| r.row.pact_content_id).collect();
    contents.sort_unstable();
    contents.dedup();
    for (v, name) in shown::branch_names(conn, &versions)? {
        details.branches.entry(v).or_default().push(name);
    }
    for (v, name) in shown::tag_names(conn, &versions)? {
        details.tags.entry(v).or_default().push(name);
    }
    for (v, name, deployed) in shown::live_environments(conn, &versions)? {
        details
            .environments
            .entry(v)
            .or_default()
            .push((name, deployed));
    }
    details
        .shas
        .extend(crate::store::selection::shas(conn, &contents)?);
    Ok(details)
}
