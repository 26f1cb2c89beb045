//! Whether what is deployed in each environment is consistent: every
//! consumer version deployed or released there verified successfully by
//! every provider version there (`matrix::verdicts`, the matrix landing's
//! environment columns), else which pairs are failed, pending or
//! unverified. Apart from the latest published contracts' verdicts: a
//! failing candidate build does not make production inconsistent.

use std::collections::HashMap;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::{directory, integrations};
use crate::web::matrix::cells::{LayerMark, PENDING_WORD, RowView};
use crate::web::matrix::verdicts::{self, Judged, Place};
use crate::web::q;

/// Problems listed per environment (the rest counted).
const PROBLEMS_SHOWN: usize = 20;

/// One environment's check.
#[derive(Debug)]
pub struct EnvironmentCheck {
    pub name: String,
    pub production: bool,
    /// `pass` (consistent), `fail`, `unverified`, or `absent` (nothing to check).
    pub class: &'static str,
    /// "consistent", "not consistent" or "nothing to check".
    pub word: &'static str,
    pub summary: String,
    /// The pairs that make it inconsistent, worst first.
    pub problems: Vec<Problem>,
    pub hidden: usize,
}

/// A deployed pair not verified successfully.
#[derive(Debug)]
pub struct Problem {
    pub class: &'static str,
    pub word: &'static str,
    /// "Web 1.1.0 → API 2.0.0".
    pub pair: String,
    pub layers: Vec<LayerMark>,
    /// Its verification, else its matrix rows in the environment.
    pub href: String,
}

/// Every environment's check, in the environments' order.
pub fn load(conn: &mut AnyConnection) -> Result<Vec<EnvironmentCheck>, BrokerError> {
    let pairs: Vec<(i64, i64)> = integrations::list(conn)?
        .into_iter()
        .map(|i| (i.consumer_id, i.provider_id))
        .collect();
    let mut ids: Vec<i64> = pairs.iter().flat_map(|&(c, p)| [c, p]).collect();
    ids.sort_unstable();
    ids.dedup();
    let names = directory::names_by_ids(conn, &ids)?;
    let columns = verdicts::columns(conn, &ids, false)?;
    let judged = verdicts::judge(conn, &pairs, &names, &columns)?;
    Ok(columns
        .iter()
        .enumerate()
        .filter_map(|(k, col)| match &col.place {
            Place::Environment { name, production } => {
                let cells = judged.iter().filter_map(|row| row.get(k));
                Some(check(name, *production, cells))
            }
            Place::Main(_) => None,
        })
        .collect())
}

fn check<'a>(
    name: &str,
    production: bool,
    cells: impl Iterator<Item = &'a Judged>,
) -> EnvironmentCheck {
    let (mut verified, mut problems) = (0, Vec::new());
    for cell in cells {
        if let Judged::Pairs(pairs) = cell {
            let bad = cell.problems();
            verified += pairs.len() - bad.len();
            problems.extend(bad.iter().map(|p| problem(name, p)));
        }
    }
    problems.sort_by(|a, b| {
        (verdicts::rank(a.class), &a.pair).cmp(&(verdicts::rank(b.class), &b.pair))
    });
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for p in &problems {
        *counts.entry(p.class).or_default() += 1;
    }
    let total = verified + problems.len();
    let (class, word, summary) = match (total, problems.first()) {
        (0, _) => (
            "absent",
            "nothing to check",
            "no consumer is deployed or released here with a provider it has a contract with"
                .to_owned(),
        ),
        (n, None) => (
            "pass",
            "consistent",
            format!("every deployed consumer–provider pair ({n}) was verified successfully"),
        ),
        (n, Some(worst)) => (
            if worst.class == "unverified" {
                "unverified"
            } else {
                "fail"
            },
            "not consistent",
            format!(
                "of {n} deployed consumer–provider pairs, {} failed, {} {PENDING_WORD}, {} unverified",
                counts.get("fail").unwrap_or(&0),
                counts.get("pending").unwrap_or(&0),
                counts.get("unverified").unwrap_or(&0),
            ),
        ),
    };
    let hidden = problems.len().saturating_sub(PROBLEMS_SHOWN);
    problems.truncate(PROBLEMS_SHOWN);
    EnvironmentCheck {
        name: name.to_owned(),
        production,
        class,
        word,
        summary,
        problems,
        hidden,
    }
}

fn problem(environment: &str, p: &RowView) -> Problem {
    let version = |v: &Option<String>| v.clone().unwrap_or_default();
    let rows = format!(
        "/ui/matrix?consumer={}&provider={}&environment={}",
        q(&p.consumer.name),
        q(&p.provider.name),
        q(environment)
    );
    Problem {
        class: p.cell.class,
        word: p.cell.text,
        pair: format!(
            "{} {} → {} {}",
            p.consumer.name,
            version(&p.consumer.version),
            p.provider.name,
            version(&p.provider.version)
        ),
        layers: p.cell.layers.clone(),
        href: p.cell.verification_href.clone().unwrap_or(rows),
    }
}
