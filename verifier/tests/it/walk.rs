//! The attribute walk shared by the MCP and A2A rules: every documented
//! attribute has a pair of contracts (or interactions) that differ only in
//! it, and the verdicts of the two against the reference provider (with a
//! fault where the attribute guards against one) must differ.

use std::collections::BTreeSet;

use accord_verifier::VerificationReport;
use serde_json::Value;

/// One attribute's pair: without it (or with another value) and with it,
/// against the provider with `fault`.
pub(crate) struct Pair<F> {
    pub attribute: &'static str,
    pub without: Value,
    pub with: Value,
    pub fault: Option<F>,
}

/// Whether a run passed, and every finding's and warning's code and path.
pub(crate) type Verdict = (bool, BTreeSet<String>);

/// The verdict of a report.
pub(crate) fn verdict_of(report: &VerificationReport) -> Verdict {
    let mut seen: BTreeSet<String> = report
        .contracts
        .iter()
        .flat_map(|c| &c.findings)
        .map(|f| format!("contract {} {}", f.reason_code, f.path))
        .collect();
    for (_, i) in report.interactions() {
        seen.extend(
            i.findings
                .iter()
                .map(|f| format!("{} {}", f.reason_code, f.path)),
        );
        seen.extend(
            i.warnings
                .iter()
                .map(|f| format!("warning {} {}", f.reason_code, f.path)),
        );
    }
    (report.passed(), seen)
}

/// Walks the pairs: each documented attribute has one, each pair's
/// attribute is documented, each attribute shown elsewhere says where, and
/// no pair's two verdicts are the same.
pub(crate) fn walk<F: Copy>(
    documented: &[&str],
    elsewhere: &[(&str, &str)],
    pairs: &[Pair<F>],
    verdict: impl Fn(&Value, Option<F>) -> Verdict,
) {
    let covered: BTreeSet<&str> = pairs.iter().map(|p| p.attribute).collect();
    let missing: Vec<&&str> = documented
        .iter()
        .filter(|a| !covered.contains(**a))
        .collect();
    assert!(
        missing.is_empty(),
        "documented attributes without a pair: {missing:?}"
    );
    let undocumented: Vec<&&str> = covered.iter().filter(|a| !documented.contains(a)).collect();
    assert!(
        undocumented.is_empty(),
        "pairs of attributes not listed: {undocumented:?}"
    );
    assert!(
        elsewhere
            .iter()
            .all(|(a, why)| !covered.contains(a) && !why.is_empty())
    );
    let mut silent = Vec::new();
    for pair in pairs {
        let without = verdict(&pair.without, pair.fault);
        let with = verdict(&pair.with, pair.fault);
        if without == with {
            silent.push((pair.attribute, without));
        }
    }
    assert!(
        silent.is_empty(),
        "attributes that changed nothing: {silent:#?}"
    );
}
