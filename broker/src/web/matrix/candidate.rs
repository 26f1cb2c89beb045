//! `GET /ui/providers/{provider}/versions/{version}`: "which of my consumers
//! does build X break, and on which layer?" — one row per consumer contract
//! the build verified (the consumer versions sharing that contract listed
//! with it), its verdict, failing layers with reason codes and links, then
//! the consumers the build has no result for. Rows come from the API's
//! `rows::load_around` for that one provider version.

use std::cmp::Reverse;
use std::collections::{BTreeSet, HashMap};

use actix_web::{HttpResponse, web};
use askama::Template;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::matrix::partial;
use crate::matrix::rows::{self, Row};
use crate::names::{PacticipantName, VersionNumber};
use crate::state::AppState;
use crate::store::matrix::{self as mq, VersionRef};
use crate::store::{matrix_details, pacticipants};
use crate::web::matrix::cells::{self, Cell, Side};
use crate::web::{q, seg};

/// Consumer versions named beside a contract before "and N more".
const VERSIONS_NAMED: usize = 5;

/// One contract the build verified.
#[derive(Debug, Clone)]
pub struct CandidateRow {
    pub consumer: Side,
    /// The other consumer versions with this same contract.
    pub also: String,
    pub cell: Cell,
}

/// A consumer the build has no result for.
#[derive(Debug, Clone)]
pub struct Missing {
    pub name: String,
    pub href: String,
    pub matrix_href: String,
}

/// The candidate page.
#[derive(Debug, Template)]
#[template(path = "candidate.html")]
pub struct CandidatePage {
    pub provider: String,
    pub provider_href: String,
    pub version: String,
    pub labels: String,
    pub summary: String,
    pub rows: Vec<CandidateRow>,
    pub missing: Vec<Missing>,
    pub matrix_href: String,
    /// Admission, runtime drift and who must re-verify.
    pub drift: super::drift::DriftSection,
    /// Contract evidence in counts beside the evaluation results.
    pub evaluations: super::evaluations::EvaluationSection,
}

/// `GET /ui/providers/{provider}/versions/{version}`.
pub async fn get_candidate(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (provider, version) = path.into_inner();
    let provider = PacticipantName::parse(&provider)
        .map_err(|e| BrokerError::bad_field("provider", e.to_string()))?;
    let version = VersionNumber::parse(&version)
        .map_err(|e| BrokerError::bad_field("version", e.to_string()))?;
    let page = state
        .run(move |conn| build(conn, provider.as_str(), version.as_str()))
        .await?;
    super::super::page(&page)
}

fn build(
    conn: &mut AnyConnection,
    provider: &str,
    number: &str,
) -> Result<CandidatePage, BrokerError> {
    let p = pacticipants::find_by_name(conn, provider)?
        .ok_or_else(|| BrokerError::not_found(format!("Pacticipant '{provider}'")))?;
    let v = mq::version_by_number(conn, p.id, number)?
        .ok_or_else(|| BrokerError::not_found(format!("Version '{number}' of '{provider}'")))?;
    let groups = contracts(conn, p.id, &v)?;
    let heads: Vec<&Row> = groups.iter().map(|(head, _)| head).collect();
    let details = cells::load_details(conn, &heads)?;
    let extras = cells::load_extras(conn, &heads)?;
    let mut rows: Vec<CandidateRow> = groups
        .iter()
        .map(|(head, others)| {
            let view = cells::row_view(head, &details, &extras);
            CandidateRow {
                consumer: view.consumer,
                also: also(others),
                cell: view.cell,
            }
        })
        .collect();
    rows.sort_by(|a, b| a.consumer.name.cmp(&b.consumer.name));
    let covered: BTreeSet<i64> = heads.iter().map(|r| r.consumer_id).collect();
    let missing = missing(conn, p.id, &covered, provider)?;
    Ok(CandidatePage {
        drift: super::drift::load(conn, p.id, v.id)?,
        evaluations: super::evaluations::load(conn, v.id)?,
        summary: summary(&rows, missing.len()),
        labels: version_labels(conn, v.id)?,
        provider_href: format!("/ui/pacticipants/{}", seg(provider)),
        matrix_href: format!("/ui/matrix?provider={}", q(provider)),
        provider: provider.to_owned(),
        version: number.to_owned(),
        rows,
        missing,
    })
}

/// The build's rows as provider grouped by (consumer, contract): the newest
/// consumer version's row, and the numbers of the other versions.
fn contracts(
    conn: &mut AnyConnection,
    provider_id: i64,
    v: &VersionRef,
) -> Result<Vec<(Row, Vec<String>)>, BrokerError> {
    let scopes: rows::Scopes = HashMap::from([(provider_id, Some(vec![v.clone()]))]);
    let mut all = rows::load_around(conn, provider_id, Some(std::slice::from_ref(v)), &scopes)?;
    all.retain(|r| {
        r.provider_id == provider_id && r.provider_version.as_ref().is_some_and(|x| x.id == v.id)
    });
    partial::mark(conn, &mut all)?;
    all.sort_by_key(|r| {
        (
            r.consumer_id,
            r.pact_content_id,
            Reverse(r.consumer_version.id),
        )
    });
    let mut groups: Vec<(Row, Vec<String>)> = Vec::new();
    for row in all {
        match groups.last_mut() {
            Some((head, others))
                if head.consumer_id == row.consumer_id
                    && head.pact_content_id == row.pact_content_id =>
            {
                others.push(row.consumer_version.number)
            }
            _ => groups.push((row, Vec::new())),
        }
    }
    Ok(groups)
}

/// "also 4, 3, 2 (same contract)" with at most `VERSIONS_NAMED` numbers.
fn also(others: &[String]) -> String {
    if others.is_empty() {
        return String::new();
    }
    let named: Vec<&str> = others
        .iter()
        .take(VERSIONS_NAMED)
        .map(String::as_str)
        .collect();
    let more = others.len().saturating_sub(VERSIONS_NAMED);
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("same contract: {}{tail}", named.join(", "))
}

fn missing(
    conn: &mut AnyConnection,
    provider_id: i64,
    covered: &BTreeSet<i64>,
    provider: &str,
) -> Result<Vec<Missing>, BrokerError> {
    let ids: Vec<i64> = mq::consumers_of(conn, provider_id)?
        .into_iter()
        .filter(|c| !covered.contains(c))
        .collect();
    let mut names: Vec<String> = matrix_details::pacticipant_names(conn, &ids)?
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    names.sort();
    Ok(names
        .into_iter()
        .map(|name| Missing {
            href: format!("/ui/pacticipants/{}", seg(&name)),
            matrix_href: format!("/ui/matrix?consumer={}&provider={}", q(&name), q(provider)),
            name,
        })
        .collect())
}

fn summary(rows: &[CandidateRow], missing: usize) -> String {
    let count = |class: &str| rows.iter().filter(|r| r.cell.class == class).count();
    let consumers: BTreeSet<&str> = rows.iter().map(|r| r.consumer.name.as_str()).collect();
    format!(
        "{} contracts of {} consumers verified: {} passed, {} failed, {} {}, {} unverified. {} consumers have no result from this build.",
        rows.len(),
        consumers.len(),
        count("pass"),
        count("fail"),
        count("pending"),
        super::cells::PENDING_WORD,
        count("unverified"),
        missing
    )
}

fn version_labels(conn: &mut AnyConnection, version_id: i64) -> Result<String, BrokerError> {
    let mut details = crate::matrix::Details::default();
    let ids = [version_id];
    for (v, name) in matrix_details::branch_names(conn, &ids)? {
        details.branches.entry(v).or_default().push(name);
    }
    for (v, name) in matrix_details::tag_names(conn, &ids)? {
        details.tags.entry(v).or_default().push(name);
    }
    for (v, name, deployed) in matrix_details::live_environments(conn, &ids)? {
        details
            .environments
            .entry(v)
            .or_default()
            .push((name, deployed));
    }
    Ok(cells::labels(&details, version_id))
}
