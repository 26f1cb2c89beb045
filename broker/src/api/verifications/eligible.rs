//! `evaluationEligible` (issue 25): contract evidence and evaluation
//! evidence stay apart. A verification is evaluation-eligible only when it
//! is a contract pass — successful, not pending, not work in progress, a
//! replay (not the broker's static check), and covering the whole contract
//! (not a success of the Pact view of a contract with Accord-only parts).
//! Derived from the stored result, never stored itself, so it cannot
//! disagree with the verdict. Evaluation results (`api/evaluations.rs`)
//! are shown beside it and never change it.

use std::collections::BTreeMap;

use crate::db::AnyConnection;
use crate::store::StoreError;
use crate::store::coverage::accord_only_parts;
use crate::store::evaluations::{self, ContractFlags};
use crate::store::verifications::Verification;

/// A pass on the flags alone (a Pact-view pass still needs its content read).
fn plain_pass(success: bool, pending: bool, wip: bool, kind: Option<&str>) -> bool {
    success && !pending && !wip && kind.is_none()
}

/// Whether `v` is a contract pass.
pub fn of(conn: &mut AnyConnection, v: &Verification) -> Result<bool, StoreError> {
    if !plain_pass(v.success, v.pending, v.wip, v.kind.as_deref()) {
        return Ok(false);
    }
    if !v.pact_view {
        return Ok(true);
    }
    let partial = accord_only_parts(conn, [v.pact_content_id])?;
    Ok(!partial.contains_key(&v.pact_content_id))
}

/// A provider version's contract evidence in counts, one result per
/// contract it verified: the latest, except that a later success of the
/// Pact view only does not replace a whole-contract result (the matrix's
/// rule, `verifications::prefer_whole`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContractEvidence {
    /// Contracts (contents) the version has a result for.
    pub contracts: usize,
    /// Of them, contract passes (evaluation-eligible).
    pub eligible: usize,
    /// Of them, failures (a failed static check included).
    pub failed: usize,
}

/// The counts for provider version `version_id`.
pub fn for_version(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<ContractEvidence, StoreError> {
    let flags = evaluations::contract_flags(conn, version_id)?;
    let pact_view_passes = flags.iter().filter(|f| f.5 && plain(f)).map(|f| f.0);
    let partial = accord_only_parts(conn, pact_view_passes)?;
    let view_only = |f: &ContractFlags| f.5 && plain(f) && partial.contains_key(&f.0);
    // oldest first: a later result replaces an earlier one of its contract
    let mut deciding: BTreeMap<i64, &ContractFlags> = BTreeMap::new();
    for f in &flags {
        match deciding.get(&f.0) {
            Some(kept) if !view_only(kept) && view_only(f) => {}
            _ => {
                deciding.insert(f.0, f);
            }
        }
    }
    Ok(ContractEvidence {
        contracts: deciding.len(),
        eligible: deciding
            .values()
            .filter(|f| plain(f) && !view_only(f))
            .count(),
        failed: deciding.values().filter(|f| !f.1).count(),
    })
}

fn plain(f: &ContractFlags) -> bool {
    plain_pass(f.1, f.2, f.3, f.4.as_deref())
}

#[cfg(test)]
mod tests {
    use super::plain_pass;

    #[test]
    fn only_a_successful_settled_replay_is_a_contract_pass() {
        assert!(plain_pass(true, false, false, None));
        assert!(!plain_pass(false, false, false, None));
        assert!(!plain_pass(true, true, false, None));
        assert!(!plain_pass(true, false, true, None));
        assert!(!plain_pass(true, false, false, Some("static")));
    }
}
