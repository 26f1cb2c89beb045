//! An integration as the pages show it: the latest pact of a consumer and
//! provider pair and the verdict of its latest verification, with the
//! links to the pages about it. Shared by the home page, the network graph
//! and a pacticipant's page.

use std::collections::HashMap;

use super::links;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::directory;
use crate::store::overview::{self, LatestPact, Scope, VerdictRow};
use crate::web::matrix::cells::{PENDING_MEANING, PENDING_WORD};

/// The verdict of an integration's latest pact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// The latest verification failed.
    Fail,
    /// The latest verification failed while the pact was pending for the
    /// provider (its build did not fail).
    Pending,
    /// Not verified yet (or only its Pact view: Accord-only parts unchecked).
    Unverified,
    /// The latest verification passed.
    Pass,
}

impl Verdict {
    /// Every verdict, worst first (the legend's order).
    pub const ALL: [Verdict; 4] = [
        Verdict::Fail,
        Verdict::Pending,
        Verdict::Unverified,
        Verdict::Pass,
    ];

    /// The CSS class (and, but for pending, the word shown: see `label`).
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Pending => "pending",
            Verdict::Unverified => "unverified",
        }
    }

    /// The word shown: `word`, but the one word of every page for a
    /// failure while pending (`cells::PENDING_WORD`).
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Pending => PENDING_WORD,
            other => other.word(),
        }
    }

    /// What the word means, for the legend.
    pub fn meaning(self) -> &'static str {
        match self {
            Verdict::Pass => "the latest pact was verified successfully",
            Verdict::Fail => "the latest verification of the latest pact failed",
            Verdict::Pending => PENDING_MEANING,
            Verdict::Unverified => {
                "the latest pact has no verification yet, or only of its Pact view"
            }
        }
    }

    fn of(row: Option<&VerdictRow>) -> Verdict {
        match row {
            None => Verdict::Unverified,
            Some(v) if v.partial() => Verdict::Unverified,
            Some(v) if v.success => Verdict::Pass,
            Some(v) if v.pending => Verdict::Pending,
            Some(_) => Verdict::Fail,
        }
    }
}

/// One integration, ready for a template.
#[derive(Debug, Clone)]
pub struct IntegrationView {
    pub consumer_id: i64,
    pub provider_id: i64,
    pub consumer: String,
    pub provider: String,
    pub consumer_version: String,
    pub verdict: Verdict,
    /// "verified by provider version 2.0 at …", or why there is no result.
    pub detail: String,
    pub published_at: String,
    pub consumer_url: String,
    pub provider_url: String,
    pub contract_url: String,
    pub matrix_url: String,
    /// The verification page of the latest result, if there is one.
    pub verification_url: Option<String>,
    /// The provider version that verified it, as a candidate page.
    pub candidate_url: Option<String>,
}

/// Every integration in `scope`, worst verdict first, then by names.
pub fn load(conn: &mut AnyConnection, scope: Scope) -> Result<Vec<IntegrationView>, BrokerError> {
    let pacts = overview::latest_pacts(conn, scope)?;
    let contents: Vec<i64> = pacts.iter().map(|p| p.pact_content_id).collect();
    let results = overview::latest_verifications(conn, &contents)?;
    let mut ids: Vec<i64> = pacts
        .iter()
        .flat_map(|p| [p.consumer_id, p.provider_id])
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names = directory::names_by_ids(conn, &ids)?;
    let mut views: Vec<IntegrationView> = pacts
        .iter()
        .filter_map(|p| view(p, results.get(&p.pact_content_id), &names))
        .collect();
    views.sort_by(|a, b| {
        (a.verdict, &a.consumer, &a.provider).cmp(&(b.verdict, &b.consumer, &b.provider))
    });
    Ok(views)
}

fn view(
    pact: &LatestPact,
    result: Option<&VerdictRow>,
    names: &HashMap<i64, String>,
) -> Option<IntegrationView> {
    // a pacticipant deleted between two reads drops out
    let consumer = names.get(&pact.consumer_id)?.clone();
    let provider = names.get(&pact.provider_id)?.clone();
    let verdict = Verdict::of(result);
    let detail = match result {
        None => format!("version {} not verified yet", pact.consumer_version),
        Some(v) => format!(
            "{}verified by {} version {} at {}",
            if v.partial() { "Pact view only " } else { "" },
            provider,
            v.provider_version,
            links::time(&v.execution_date)
        ),
    };
    Some(IntegrationView {
        consumer_id: pact.consumer_id,
        provider_id: pact.provider_id,
        consumer_url: links::pacticipant(&consumer),
        provider_url: links::pacticipant(&provider),
        contract_url: links::contract(&provider, &consumer, &pact.consumer_version),
        matrix_url: links::matrix(&consumer, &provider),
        verification_url: result
            .map(|v| links::verification(&provider, &consumer, &pact.sha, v.number)),
        candidate_url: result.map(|v| links::candidate(&provider, &v.provider_version)),
        published_at: links::time(&pact.created_at),
        consumer_version: pact.consumer_version.clone(),
        verdict,
        detail,
        consumer,
        provider,
    })
}
