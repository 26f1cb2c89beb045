//! The matrix landing (`/ui/matrix` with no pacticipant chosen): one row
//! per integration (50 a page), its verdict on the main branch and in each
//! environment in one screen (`verdicts`), each cell linking to the
//! verification that decides it and to the pair's matrix rows there.

use std::collections::HashMap;

use super::IntegrationLink;
use super::cells::{LayerMark, PENDING_MEANING, PENDING_WORD};
use super::verdicts::{self, Column, Judged, Place};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::web::q;

/// A column's heading.
#[derive(Debug, Clone)]
pub struct Heading {
    pub title: String,
    /// What the column compares, for its `title`.
    pub note: String,
}

/// One integration's row.
#[derive(Debug, Clone)]
pub struct LandingRow {
    pub link: IntegrationLink,
    pub cells: Vec<LandingCell>,
}

/// One integration's verdict in one place.
#[derive(Debug, Clone)]
pub struct LandingCell {
    /// `main` or the environment's name.
    pub place: String,
    /// `pass`, `fail`, `pending`, `unverified`, or `absent` (nothing to judge).
    pub class: &'static str,
    pub text: String,
    /// The whole statement (versions, how many pairs).
    pub title: String,
    /// The verification deciding it, else the pair's rows there.
    pub href: Option<String>,
    /// "1.2.0 × 3.4.0" (the deciding pair), "" when nothing is judged.
    pub versions: String,
    /// The pair's matrix rows, narrowed to the place.
    pub rows_href: String,
    /// The failing layers of every failed pair, with their reason codes.
    pub layers: Vec<LayerMark>,
}

/// The landing's columns and rows.
#[derive(Debug, Clone)]
pub struct Landing {
    pub headings: Vec<Heading>,
    pub rows: Vec<LandingRow>,
    /// (word, CSS class, meaning) of every word a cell may say.
    pub legend: Vec<(&'static str, &'static str, &'static str)>,
}

/// The landing of these integrations ((consumer id, provider id) and the
/// links already made for them).
pub fn build(
    conn: &mut AnyConnection,
    pairs: &[(i64, i64)],
    links: Vec<IntegrationLink>,
) -> Result<Landing, BrokerError> {
    let mut ids: Vec<i64> = pairs.iter().flat_map(|&(c, p)| [c, p]).collect();
    ids.sort_unstable();
    ids.dedup();
    let columns = verdicts::columns(conn, &ids, true)?;
    let names: HashMap<i64, String> = pairs
        .iter()
        .zip(&links)
        .flat_map(|(&(c, p), l)| [(c, l.consumer.clone()), (p, l.provider.clone())])
        .collect();
    let judged = verdicts::judge(conn, pairs, &names, &columns)?;
    let rows = links
        .into_iter()
        .zip(judged)
        .map(|(link, cells)| LandingRow {
            cells: cells
                .iter()
                .zip(&columns)
                .map(|(j, col)| cell(&link, j, col))
                .collect(),
            link,
        })
        .collect();
    Ok(Landing {
        headings: columns.iter().map(heading).collect(),
        rows,
        legend: legend(),
    })
}

fn heading(column: &Column) -> Heading {
    match &column.place {
        Place::Main(_) => Heading {
            title: "Main branch".to_owned(),
            note: "the head of the consumer's main branch × the head of the provider's".to_owned(),
        },
        Place::Environment { name, production } => Heading {
            title: if *production {
                format!("{name} (production)")
            } else {
                name.clone()
            },
            note: format!(
                "the consumer versions deployed or released in {name} × the provider versions there"
            ),
        },
    }
}

fn cell(link: &IntegrationLink, judged: &Judged, column: &Column) -> LandingCell {
    let (place, where_) = match &column.place {
        Place::Main(_) => ("main".to_owned(), "on its main branch".to_owned()),
        Place::Environment { name, .. } => (name.clone(), format!("in {name}")),
    };
    let rows_href = rows_href(link, column);
    let quiet = |text: &str, title: String| LandingCell {
        place: place.clone(),
        class: "absent",
        text: text.to_owned(),
        title,
        href: None,
        versions: String::new(),
        rows_href: rows_href.clone(),
        layers: Vec::new(),
    };
    let pairs = match judged {
        Judged::Absent(names) => {
            let text = match column.place {
                Place::Main(_) => "no main-branch version",
                Place::Environment { .. } => "not both deployed",
            };
            let title = format!("{} has no version {where_}", names.join(" and "));
            return quiet(text, title);
        }
        Judged::NoContract => {
            let title = format!(
                "{} {where_} has no pact with {}: nothing to verify",
                link.consumer, link.provider
            );
            return quiet("no contract", title);
        }
        Judged::Pairs(pairs) => pairs,
    };
    let Some(worst) = pairs.first() else {
        return quiet("no contract", String::new());
    };
    let more = pairs.len() - 1;
    let pv = worst.provider.version.clone().unwrap_or_default();
    let cv = worst.consumer.version.clone().unwrap_or_default();
    let mut title = worst.cell.label.clone();
    if more > 0 {
        title.push_str(&format!(
            " (the worst of {} version pairs {where_})",
            pairs.len()
        ));
    }
    LandingCell {
        place,
        class: worst.cell.class,
        text: worst.cell.text.to_owned(),
        title,
        href: Some(
            worst
                .cell
                .verification_href
                .clone()
                .unwrap_or_else(|| rows_href.clone()),
        ),
        versions: match more {
            0 => format!("{cv} × {pv}"),
            n => format!("{cv} × {pv} (+{n} more)"),
        },
        rows_href,
        layers: failing_layers(pairs),
    }
}

/// The layers of every failed (or failed pending) pair, each once.
fn failing_layers(pairs: &[super::cells::RowView]) -> Vec<LayerMark> {
    let mut out: Vec<LayerMark> = Vec::new();
    for mark in pairs.iter().flat_map(|p| p.cell.layers.iter()) {
        match out.iter_mut().find(|m| m.layer == mark.layer) {
            Some(m) => {
                for code in mark.codes.split(", ") {
                    if !m.codes.split(", ").any(|c| c == code) {
                        m.codes.push_str(", ");
                        m.codes.push_str(code);
                    }
                }
            }
            None => out.push(mark.clone()),
        }
    }
    out
}

/// The pair's matrix rows narrowed to the column's versions: the
/// environment, or the main branch when both sides call it the same.
fn rows_href(link: &IntegrationLink, column: &Column) -> String {
    let base = format!(
        "/ui/matrix?consumer={}&provider={}",
        q(&link.consumer),
        q(&link.provider)
    );
    match &column.place {
        Place::Environment { name, .. } => format!("{base}&environment={}", q(name)),
        Place::Main(branches) => {
            let main = |id| branches.get(&id);
            match (main(link.consumer_id), main(link.provider_id)) {
                (Some(a), Some(b)) if a == b => format!("{base}&branch={}", q(a)),
                _ => base,
            }
        }
    }
}

/// Every word a cell may say, worst first, with its meaning.
fn legend() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        (
            "failed",
            "fail",
            "a verification of the pair failed (its failing layers follow)",
        ),
        (PENDING_WORD, "pending", PENDING_MEANING),
        (
            "unverified",
            "unverified",
            "the provider version has not verified the consumer version's pact (or only its Pact view)",
        ),
        (
            "passed",
            "pass",
            "every consumer version × provider version pair there was verified successfully",
        ),
        (
            "not both deployed",
            "absent",
            "the consumer or the provider has no version deployed or released in that environment",
        ),
        (
            "no main-branch version",
            "absent",
            "the consumer or the provider has no main branch, or no version on it",
        ),
        (
            "no contract",
            "absent",
            "both are there, but the consumer's version there has no pact with the provider",
        ),
    ]
}
