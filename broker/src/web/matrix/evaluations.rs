//! The evaluation part of the provider version page: the version's contract
//! evidence in counts (how many results are contract passes, the
//! `evaluationEligible` ones) beside its evaluation results — shown apart,
//! because a score never changes a contract verdict above it.

use crate::api::evaluations::LISTED;
use crate::api::verifications::eligible;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::evaluations;
use crate::web::contract::redact;
use crate::web::verification::safe_link;

/// One evaluation result as the page shows it.
#[derive(Debug, Clone)]
pub struct EvaluationRow {
    pub dataset: String,
    pub score: String,
    /// "≥ 0.8" or "≤ 0.1".
    pub threshold: String,
    pub pass: bool,
    pub evaluator: String,
    pub href: Option<String>,
    pub at: String,
}

/// The section.
#[derive(Debug, Clone)]
pub struct EvaluationSection {
    /// "3 contracts verified: 2 contract passes (evaluation-eligible), 1 failed."
    pub contract: String,
    pub rows: Vec<EvaluationRow>,
    /// Results not listed (past the newest [`LISTED`]).
    pub more: i64,
}

/// Loads the section for provider version `version_id`.
pub fn load(conn: &mut AnyConnection, version_id: i64) -> Result<EvaluationSection, BrokerError> {
    let c = eligible::for_version(conn, version_id)?;
    let contract = format!(
        "{} contract{} verified: {} contract pass{} (evaluation-eligible), {} failed.",
        c.contracts,
        if c.contracts == 1 { "" } else { "s" },
        c.eligible,
        if c.eligible == 1 { "" } else { "es" },
        c.failed
    );
    let (found, total) = evaluations::list_for_version(conn, version_id, LISTED)?;
    let rows: Vec<EvaluationRow> = found
        .into_iter()
        .map(|e| EvaluationRow {
            threshold: format!(
                "{} {}",
                if e.higher_is_better { "≥" } else { "≤" },
                e.threshold
            ),
            score: e.score.to_string(),
            pass: e.passed,
            evaluator: redact::redact_text(
                &[e.evaluator_name, e.evaluator_version]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            href: e
                .url
                .as_deref()
                .map(redact::redact_url)
                .as_deref()
                .and_then(safe_link),
            at: crate::api::time(e.created_at),
            dataset: redact::redact_text(&e.dataset),
        })
        .collect();
    Ok(EvaluationSection {
        contract,
        more: total - rows.len() as i64,
        rows,
    })
}
