//! `GET /ui`: the home page — whether what is deployed in each environment
//! is consistent (`consistency`), every integration with the verdict of its
//! latest pact, what is live in each environment, the latest publications
//! and verifications, and links to every kind of page. `GET /ui/search`
//! finds applications by name (`search`).
//!
//! Its cost does not grow with the number of verifications: the latest
//! pact per pair and the latest result per content are grouped index-only
//! scans, recent rows are read backwards from the primary key with a
//! `LIMIT` (`store::overview`).

pub mod consistency;
pub mod integrations;
pub mod links;
mod search;

use actix_web::{HttpResponse, web};
use askama::Template;

use self::integrations::{IntegrationView, Verdict};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::directory;
use crate::store::overview::{self, Scope};
use crate::web::matrix::cells::PENDING_WORD;

pub use search::get_search;

/// Integrations listed on the home page (worst verdicts first).
const INTEGRATIONS_SHOWN: usize = 200;
/// Recent publications and verifications listed.
const RECENT: i64 = 10;
/// Applications linked from the home page (the rest through search).
const PACTICIPANTS_SHOWN: i64 = 300;
/// Live versions listed per environment.
const LIVE_SHOWN: usize = 100;

/// The home page.
#[derive(Debug, Template)]
#[template(path = "home.html")]
struct HomePage {
    integrations: Vec<IntegrationView>,
    integrations_total: usize,
    /// (CSS class, word, count) per verdict of the latest contracts.
    summary: Vec<(&'static str, &'static str, usize)>,
    /// (CSS class, word, meaning) per verdict.
    legend: Vec<(&'static str, &'static str, &'static str)>,
    checks: Vec<consistency::EnvironmentCheck>,
    environments: Vec<EnvironmentView>,
    publications: Vec<PublicationView>,
    verifications: Vec<VerificationView>,
    pacticipants: Vec<(String, String)>,
    pacticipants_total: i64,
}

/// One environment and what is live in it.
#[derive(Debug)]
struct EnvironmentView {
    name: String,
    production: bool,
    live: Vec<LiveView>,
    hidden: usize,
}

/// A version live in an environment.
#[derive(Debug)]
struct LiveView {
    pacticipant: String,
    pacticipant_url: String,
    version: String,
    how: String,
    since: String,
    can_i_deploy_url: String,
}

/// A recent publication.
#[derive(Debug)]
struct PublicationView {
    consumer: String,
    provider: String,
    version: String,
    at: String,
    datetime: String,
    contract_url: String,
    diff_url: Option<String>,
}

/// A recent verification.
#[derive(Debug)]
struct VerificationView {
    consumer: String,
    provider: String,
    provider_version: String,
    verdict: &'static str,
    verdict_class: &'static str,
    at: String,
    datetime: String,
    url: String,
    candidate_url: String,
}

/// `GET /ui`.
pub async fn get_home(state: web::Data<AppState>) -> Result<HttpResponse, BrokerError> {
    let page = state.run(load).await?;
    super::page(&page)
}

fn load(conn: &mut AnyConnection) -> Result<HomePage, BrokerError> {
    let mut all = integrations::load(conn, Scope::All)?;
    let summary = Verdict::ALL
        .iter()
        .map(|v| {
            let n = all.iter().filter(|i| i.verdict == *v).count();
            (v.word(), v.label(), n)
        })
        .collect();
    let integrations_total = all.len();
    all.truncate(INTEGRATIONS_SHOWN);
    let (names, pacticipants_total) = directory::list_names(conn, PACTICIPANTS_SHOWN)?;
    Ok(HomePage {
        integrations: all,
        integrations_total,
        summary,
        legend: Verdict::ALL
            .iter()
            .map(|v| (v.word(), v.label(), v.meaning()))
            .collect(),
        checks: consistency::load(conn)?,
        environments: environments(conn)?,
        publications: publications(conn)?,
        verifications: verifications(conn)?,
        pacticipants: names
            .into_iter()
            .map(|(_, n)| (links::pacticipant(&n), n))
            .collect(),
        pacticipants_total,
    })
}

fn environments(conn: &mut AnyConnection) -> Result<Vec<EnvironmentView>, BrokerError> {
    let envs = crate::store::environments::list(conn)?;
    let live = overview::live_versions(conn)?;
    let mut ids: Vec<i64> = live.iter().map(|l| l.pacticipant_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let names = directory::names_by_ids(conn, &ids)?;
    let mut out = Vec::with_capacity(envs.len());
    for env in envs {
        let mut rows: Vec<LiveView> = live
            .iter()
            .filter(|l| l.environment_id == env.id)
            .filter_map(|l| {
                let name = names.get(&l.pacticipant_id)?;
                let how = match (&l.instance, l.deployed) {
                    (_, false) => "released".to_owned(),
                    (Some(i), true) => format!("deployed ({i})"),
                    (None, true) => "deployed".to_owned(),
                };
                Some(LiveView {
                    pacticipant_url: links::pacticipant(name),
                    can_i_deploy_url: links::can_i_deploy(name, &l.version, Some(&env.name)),
                    pacticipant: name.clone(),
                    version: l.version.clone(),
                    since: links::time(&l.since),
                    how,
                })
            })
            .collect();
        rows.sort_by(|a, b| (&a.pacticipant, &a.version).cmp(&(&b.pacticipant, &b.version)));
        let hidden = rows.len().saturating_sub(LIVE_SHOWN);
        rows.truncate(LIVE_SHOWN);
        out.push(EnvironmentView {
            name: env.name,
            production: env.production,
            live: rows,
            hidden,
        });
    }
    Ok(out)
}

fn publications(conn: &mut AnyConnection) -> Result<Vec<PublicationView>, BrokerError> {
    let recent = overview::recent_publications(conn, RECENT)?;
    let ids: Vec<i64> = recent
        .iter()
        .flat_map(|p| [p.consumer_id, p.provider_id])
        .collect();
    let names = directory::names_by_ids(conn, &ids)?;
    Ok(recent
        .into_iter()
        .filter_map(|p| {
            let consumer = names.get(&p.consumer_id)?.clone();
            let provider = names.get(&p.provider_id)?.clone();
            Some(PublicationView {
                contract_url: links::contract(&provider, &consumer, &p.consumer_version),
                diff_url: p
                    .previous_version
                    .as_ref()
                    .map(|from| links::diff(&provider, &consumer, from, &p.consumer_version)),
                at: links::time(&p.created_at),
                datetime: links::machine_time(&p.created_at),
                version: p.consumer_version,
                consumer,
                provider,
            })
        })
        .collect())
}

fn verifications(conn: &mut AnyConnection) -> Result<Vec<VerificationView>, BrokerError> {
    let recent = overview::recent_verifications(conn, RECENT)?;
    let ids: Vec<i64> = recent
        .iter()
        .flat_map(|v| [v.consumer_id, v.provider_id])
        .collect();
    let names = directory::names_by_ids(conn, &ids)?;
    let contents: Vec<i64> = recent.iter().map(|v| v.pact_content_id).collect();
    let shas = directory::content_shas(conn, &contents)?;
    Ok(recent
        .into_iter()
        .filter_map(|v| {
            let consumer = names.get(&v.consumer_id)?.clone();
            let provider = names.get(&v.provider_id)?.clone();
            let sha = shas.get(&v.pact_content_id)?;
            let (verdict_class, verdict) = match (v.success, v.pending, v.pact_view) {
                (true, _, true) => ("unverified", "pass (Pact view only)"),
                (true, _, false) => ("pass", "pass"),
                (false, true, _) => ("pending", PENDING_WORD),
                (false, false, _) => ("fail", "fail"),
            };
            Some(VerificationView {
                url: links::verification(&provider, &consumer, sha, v.number),
                candidate_url: links::candidate(&provider, &v.provider_version),
                at: links::time(&v.execution_date),
                datetime: links::machine_time(&v.execution_date),
                provider_version: v.provider_version,
                verdict,
                verdict_class,
                consumer,
                provider,
            })
        })
        .collect())
}
