//! Coverage as a gate (issue 25), opt-in per request: `requireCoverage=true`
//! on can-i-deploy and `"requireCoverage": true` on a promotion to an
//! admitted state refuse a provider version whose coverage report has gaps,
//! naming the first [`NAMED`] and how many there are. Without the flag the
//! report is only shown (`GET …/coverage`): gaps are listed, never hidden,
//! but a team adopts the policy when it is ready to meet it.

use crate::admission::AdmissionState;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::matrix::decision::Summary;
use crate::store::versions::Version;
use crate::store::{pacticipants, versions};

use super::Gap;

/// How many gaps a refusal names (it says how many there are in all).
pub const NAMED: usize = 3;

/// `tool delete_plan (destructive): COVERAGE_AUTHORIZATION_CASE_MISSING`.
pub fn gap_line(g: &Gap) -> String {
    format!(
        "{} {} ({}): {}",
        g.kind.as_str(),
        g.name,
        g.risk.as_str(),
        g.code()
    )
}

/// "2 coverage gaps: tool a (write): CODE; tool b (…): CODE" with
/// "; and N more" past [`NAMED`]; `None` without gaps.
pub fn describe(gaps: &[Gap]) -> Option<String> {
    if gaps.is_empty() {
        return None;
    }
    let named: Vec<String> = gaps.iter().take(NAMED).map(gap_line).collect();
    let more = match gaps.len().saturating_sub(NAMED) {
        0 => String::new(),
        n => format!("; and {n} more"),
    };
    let s = if gaps.len() == 1 { "" } else { "s" };
    Some(format!(
        "{} coverage gap{s}: {}{more}",
        gaps.len(),
        named.join("; ")
    ))
}

/// The `requireCoverage` parameter of can-i-deploy: `true` or `false`
/// (absent or empty: false), else a 400 naming it.
pub fn parse_required(raw: Option<&str>) -> Result<bool, BrokerError> {
    match raw.map(str::trim) {
        None | Some("") | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(_) => Err(BrokerError::bad_field(
            "requireCoverage",
            "must be true or false",
        )),
    }
}

/// Answers not deployable, with the reason first, when version `number`
/// of `pacticipant` has coverage gaps. An unknown version is left to the
/// matrix, which already says so.
pub fn require_coverage(
    conn: &mut AnyConnection,
    pacticipant: &str,
    number: &str,
    summary: &mut Summary,
) -> Result<(), BrokerError> {
    let Some(p) = pacticipants::find_by_name(conn, pacticipant)? else {
        return Ok(());
    };
    let Some(v) = versions::find_by_number(conn, p.id, number)? else {
        return Ok(());
    };
    let gaps = super::for_version(conn, p.id, v.id)?.gaps;
    if let Some(gaps) = describe(&gaps) {
        summary.refuse(format!("coverage: {pacticipant} {number} has {gaps}"));
    }
    Ok(())
}

/// Why version `v` cannot be promoted to `to` with coverage required:
/// `None` when `to` is not an admitted state or there are no gaps.
pub fn promotion_refusal(
    conn: &mut AnyConnection,
    v: &Version,
    to: AdmissionState,
) -> Result<Option<String>, BrokerError> {
    if !to.is_admitted() {
        return Ok(None);
    }
    let gaps = super::for_version(conn, v.pacticipant_id, v.id)?.gaps;
    Ok(describe(&gaps).map(|gaps| {
        format!(
            "{to} with coverage required needs no coverage gaps; version {} has {gaps}",
            v.number
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::cases::{Case, OpKind};
    use crate::coverage::risk::Risk;

    fn gap(name: &str) -> Gap {
        Gap {
            kind: OpKind::Tool,
            name: name.into(),
            risk: Risk::Destructive,
            missing: Some(Case::Authorization),
        }
    }

    #[test]
    fn a_refusal_names_the_first_gaps_and_the_count() {
        assert_eq!(describe(&[]), None);
        assert_eq!(
            describe(&[gap("a")]).as_deref(),
            Some("1 coverage gap: tool a (destructive): COVERAGE_AUTHORIZATION_CASE_MISSING")
        );
        let five: Vec<Gap> = ["a", "b", "c", "d", "e"].into_iter().map(gap).collect();
        let text = describe(&five).unwrap_or_default();
        assert!(text.starts_with("5 coverage gaps: tool a "), "{text}");
        assert!(text.ends_with("; and 2 more"), "{text}");
        assert!(!text.contains("tool d"), "{text}");
    }

    #[test]
    fn require_coverage_is_true_or_false() {
        assert_eq!(parse_required(None).ok(), Some(false));
        assert_eq!(parse_required(Some("")).ok(), Some(false));
        assert_eq!(parse_required(Some("false")).ok(), Some(false));
        assert_eq!(parse_required(Some("true")).ok(), Some(true));
        for bad in ["maybe", "1", "TRUE", "yes"] {
            assert!(parse_required(Some(bad)).is_err(), "{bad}");
        }
    }
}
