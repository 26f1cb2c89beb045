//! Verification results: a provider version's verdict on one content.
//! Each is numbered among the results of its content (1 for the first), the
//! number its URL carries; the content holds the last number it gave.

use std::collections::BTreeMap;

use diesel::prelude::*;

use super::StoreError;
use crate::db::AnyConnection;
use crate::schema::{branch_versions, pact_contents, tags, verifications};

/// A stored verification. JSON columns hold text exactly as received.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = verifications)]
pub struct Verification {
    pub id: i64,
    pub pact_content_id: i64,
    pub provider_version_id: i64,
    pub consumer_id: i64,
    pub provider_id: i64,
    pub success: bool,
    pub build_url: Option<String>,
    pub test_results: Option<String>,
    pub verified_by: Option<String>,
    /// JSON array of Accord findings (`layer`, `reasonCode`, `interactionId`, …).
    pub findings: String,
    pub wip: bool,
    pub pending: bool,
    pub selectors: Option<String>,
    pub execution_date: chrono::NaiveDateTime,
    /// Published through the Pact view of a contract with Accord-only
    /// parts: it covers only that view.
    pub pact_view: bool,
    /// Its number among the results of its content: 1 for the first.
    pub number: i64,
    /// JSON array of what the provider declared during the run (Agent
    /// Card, MCP tools/list by digest); `None` when the result sent none.
    pub declarations: Option<String>,
    /// `static` for the broker's static cross-check; `None` for a result
    /// a verifier published (replay).
    pub kind: Option<String>,
    /// The reason codes a static check found, comma-separated.
    pub reason_codes: Option<String>,
}

/// A verification to store (`insert` gives it its number).
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = verifications)]
pub struct NewVerification {
    pub pact_content_id: i64,
    pub provider_version_id: i64,
    pub consumer_id: i64,
    pub provider_id: i64,
    pub success: bool,
    pub build_url: Option<String>,
    pub test_results: Option<String>,
    pub verified_by: Option<String>,
    pub findings: String,
    pub wip: bool,
    pub pending: bool,
    pub selectors: Option<String>,
    pub execution_date: chrono::NaiveDateTime,
    /// Published through the Pact view of a contract with Accord-only
    /// parts: it covers only that view.
    pub pact_view: bool,
    /// JSON array of what the provider declared during the run.
    pub declarations: Option<String>,
}

/// Stores one verification, numbered after the last result of its content.
pub fn insert(conn: &mut AnyConnection, new: &NewVerification) -> Result<Verification, StoreError> {
    let mut next = reserve_numbers(conn, rows_per_content(std::slice::from_ref(new)))?;
    let number = number_for(&mut next, new.pact_content_id)?;
    Ok(diesel::insert_into(verifications::table)
        .values((new, verifications::number.eq(number)))
        .returning(verifications::all_columns)
        .get_result(conn)?)
}

/// Stores many verifications in one statement (seeding, imports), numbered
/// per content in the order given. Batch inserts do not compile for
/// diesel's MultiBackend, so this dispatches on the concrete connection.
pub fn insert_many(
    conn: &mut AnyConnection,
    rows: &[NewVerification],
) -> Result<usize, StoreError> {
    let mut next = reserve_numbers(conn, rows_per_content(rows))?;
    let numbered = rows
        .iter()
        .map(|row| {
            let number = number_for(&mut next, row.pact_content_id)?;
            Ok((row, verifications::number.eq(number)))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let query = diesel::insert_into(verifications::table).values(numbered);
    Ok(match conn {
        AnyConnection::Postgresql(c) => query.execute(c)?,
        AnyConnection::Sqlite(c) => query.execute(c)?,
    })
}

/// How many of `rows` each content has.
fn rows_per_content(rows: &[NewVerification]) -> BTreeMap<i64, i64> {
    let mut counts = BTreeMap::new();
    for row in rows {
        *counts.entry(row.pact_content_id).or_default() += 1;
    }
    counts
}

/// Reserves, for each content, as many numbers as `counts` says, and
/// returns the first one of each. The counter is raised and read in one
/// statement per distinct count (not per content: a seeding batch spreads
/// over thousands of contents): PostgreSQL holds the contents' row locks
/// until the transaction ends (SQLite writes one at a time), so two
/// publishers never get the same number, and a number is not given again
/// after its result was deleted.
fn reserve_numbers(
    conn: &mut AnyConnection,
    counts: BTreeMap<i64, i64>,
) -> Result<BTreeMap<i64, i64>, StoreError> {
    let mut by_count: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (content, count) in counts {
        by_count.entry(count).or_default().push(content);
    }
    let last = pact_contents::last_verification_number;
    let mut first = BTreeMap::new();
    for (count, contents) in by_count {
        let raised: Vec<(i64, i64)> =
            diesel::update(pact_contents::table.filter(pact_contents::id.eq_any(&contents)))
                .set(last.eq(last + count))
                .returning((pact_contents::id, last))
                .get_results(conn)?;
        first.extend(raised.into_iter().map(|(id, n)| (id, n - count + 1)));
    }
    Ok(first)
}

/// The next reserved number of `content`.
fn number_for(next: &mut BTreeMap<i64, i64>, content: i64) -> Result<i64, StoreError> {
    let n = next.get_mut(&content).ok_or(StoreError::MissingRow {
        what: "pact content",
        id: content,
    })?;
    *n += 1;
    Ok(*n - 1)
}

/// The result of a content with this number.
pub fn find_by_number(
    conn: &mut AnyConnection,
    pact_content_id: i64,
    number: i64,
) -> Result<Option<Verification>, StoreError> {
    Ok(verifications::table
        .filter(verifications::pact_content_id.eq(pact_content_id))
        .filter(verifications::number.eq(number))
        .select(Verification::as_select())
        .first(conn)
        .optional()?)
}

/// The latest verification of a content by a provider version.
pub fn latest_for(
    conn: &mut AnyConnection,
    pact_content_id: i64,
    provider_version_id: i64,
) -> Result<Option<Verification>, StoreError> {
    Ok(verifications::table
        .filter(verifications::pact_content_id.eq(pact_content_id))
        .filter(verifications::provider_version_id.eq(provider_version_id))
        .order(verifications::id.desc())
        .select(Verification::as_select())
        .first(conn)
        .optional()?)
}

/// The latest verification of a content, by any provider version.
pub fn latest_for_content(
    conn: &mut AnyConnection,
    pact_content_id: i64,
) -> Result<Option<Verification>, StoreError> {
    Ok(verifications::table
        .filter(verifications::pact_content_id.eq(pact_content_id))
        .order(verifications::id.desc())
        .select(Verification::as_select())
        .first(conn)
        .optional()?)
}

/// `latest` (a content's latest result), or, when it is a success of the
/// Pact view only, the latest whole-contract result of the same provider
/// version if there is one (`coverage`).
pub fn prefer_whole(
    conn: &mut AnyConnection,
    latest: Option<Verification>,
) -> Result<Option<Verification>, StoreError> {
    let v = match latest {
        Some(v) if v.pact_view && v.success => v,
        other => return Ok(other),
    };
    let whole = verifications::table
        .filter(verifications::pact_content_id.eq(v.pact_content_id))
        .filter(verifications::provider_version_id.eq(v.provider_version_id))
        .filter(verifications::pact_view.eq(false))
        .order(verifications::id.desc())
        .select(Verification::as_select())
        .first(conn)
        .optional()?;
    Ok(Some(whole.unwrap_or(v)))
}

/// Which successful verifications of one content by one provider count.
#[derive(Debug, Clone, Copy)]
pub struct SuccessQuery {
    pub provider_id: i64,
    pub pact_content_id: i64,
    /// Ignore verifications published for a pact handed out as WIP.
    pub non_wip_only: bool,
    /// Ignore verifications of the Pact view only (`pact_view`).
    pub whole_only: bool,
}

impl SuccessQuery {
    /// `wip = false`, or any `wip` when WIP verifications count too
    /// (an expression rather than a boxed query, so it works on both backends).
    fn wip_allowed(&self) -> bool {
        !self.non_wip_only
    }
}

/// Has any provider version verified the content successfully?
pub fn any_success(conn: &mut AnyConnection, q: SuccessQuery) -> Result<bool, StoreError> {
    counted_success(conn, q, |query| query)
}

/// Has a provider version on branch `branch_id` verified it successfully?
pub fn success_on_branch(
    conn: &mut AnyConnection,
    q: SuccessQuery,
    branch_id: i64,
) -> Result<bool, StoreError> {
    let on_branch = branch_versions::table
        .filter(branch_versions::branch_id.eq(branch_id))
        .select(branch_versions::version_id);
    counted_success(conn, q, |query| {
        query.filter(verifications::provider_version_id.eq_any(on_branch))
    })
}

/// Has a provider version tagged `tag` verified it successfully?
pub fn success_with_tag(
    conn: &mut AnyConnection,
    q: SuccessQuery,
    tag: &str,
) -> Result<bool, StoreError> {
    let tagged = tags::table
        .filter(tags::name.eq(tag.to_owned()))
        .select(tags::version_id);
    counted_success(conn, q, |query| {
        query.filter(verifications::provider_version_id.eq_any(tagged))
    })
}

/// Was it verified successfully in `[from, before)` (by any branch: what a
/// new provider branch inherits)?
pub fn success_between(
    conn: &mut AnyConnection,
    q: SuccessQuery,
    from: chrono::NaiveDateTime,
    before: chrono::NaiveDateTime,
) -> Result<bool, StoreError> {
    counted_success(conn, q, |query| {
        query
            .filter(verifications::execution_date.ge(from))
            .filter(verifications::execution_date.lt(before))
    })
}

type Boxed = verifications::BoxedQuery<'static, <AnyConnection as Connection>::Backend>;

/// Is there a successful verification that `q` counts, among those `narrow`
/// keeps (by provider branch, tag or date)?
fn counted_success(
    conn: &mut AnyConnection,
    q: SuccessQuery,
    narrow: impl FnOnce(Boxed) -> Boxed,
) -> Result<bool, StoreError> {
    let counted = verifications::table
        .filter(verifications::provider_id.eq(q.provider_id))
        .filter(verifications::pact_content_id.eq(q.pact_content_id))
        .filter(verifications::success.eq(true))
        .filter(
            verifications::wip
                .eq(false)
                .or(verifications::wip.eq(q.wip_allowed())),
        )
        .filter(
            verifications::pact_view
                .eq(false)
                .or(verifications::pact_view.eq(!q.whole_only)),
        )
        .into_boxed();
    Ok(narrow(counted)
        .select(verifications::id)
        .first::<i64>(conn)
        .optional()?
        .is_some())
}

/// (id, pending, findings JSON) of these verifications: what a page shows
/// of each matrix cell beyond its verdict (one query for a whole page).
pub fn findings_of(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<Vec<(i64, bool, String)>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(verifications::table
        .filter(verifications::id.eq_any(ids))
        .select((
            verifications::id,
            verifications::pending,
            verifications::findings,
        ))
        .load(conn)?)
}

/// A verification as a list shows it: no findings, test results or
/// declarations (a content may have thousands of results).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = verifications)]
pub struct Listed {
    pub number: i64,
    pub provider_version_id: i64,
    pub success: bool,
    pub pending: bool,
    pub wip: bool,
    /// Published through the Pact view (see [`Verification::pact_view`]).
    pub pact_view: bool,
    pub execution_date: chrono::NaiveDateTime,
    /// `static`: the broker's static cross-check of the declarations.
    pub kind: Option<String>,
}

/// The newest `limit` results of a content, the highest number (latest)
/// first, and how many results it has.
pub fn newest_for_content(
    conn: &mut AnyConnection,
    pact_content_id: i64,
    limit: i64,
) -> Result<(Vec<Listed>, i64), StoreError> {
    let total = verifications::table
        .filter(verifications::pact_content_id.eq(pact_content_id))
        .count()
        .get_result(conn)?;
    let newest = verifications::table
        .filter(verifications::pact_content_id.eq(pact_content_id))
        .order(verifications::number.desc())
        .limit(limit)
        .select(Listed::as_select())
        .load(conn)?;
    Ok((newest, total))
}
