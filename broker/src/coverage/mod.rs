//! Coverage (issue 25): every operation a provider version declares — each
//! A2A skill of its Agent Card, each MCP tool of its `tools/list` in any
//! profile — with its risk class (`risk`), and whether the live consumer
//! contracts (main branch heads, deployed, released: the default
//! selection, as the static cross-check reads them) cover it by the
//! seed's policy (`cases`, `report`). Gaps are listed, never hidden.
//!
//! Computed on request from what is stored (declarations, contracts,
//! the selection): nothing of its own is stored, so it cannot go stale.
//! [`gate`] refuses can-i-deploy (`requireCoverage=true`) and a promotion
//! (`"requireCoverage": true`) while gaps remain, when asked to;
//! `accord coverage --require-coverage` is the CLI's.

pub mod cases;
pub mod gate;
pub mod report;
pub mod risk;

#[cfg(test)]
mod tests;

use crate::api::declared::{check, cross_check};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::{declarations, versions};

pub use report::{Declared, Gap, Kept, Live, Operation, Report};

/// What version `version_id` declares now, parsed.
fn declared(conn: &mut AnyConnection, version_id: i64) -> Result<Declared, BrokerError> {
    let mut out = Declared::default();
    for d in declarations::current(conn, version_id)? {
        let content = declarations::find_content(conn, &d.digest)?
            .ok_or_else(|| BrokerError::not_found(format!("Declaration content '{}'", d.digest)))?;
        // stored content is canonical JSON written by the declarations API
        let Ok(value) = serde_json::from_str(&content.content) else {
            continue;
        };
        if d.kind == check::CARD {
            out.card = Some(value);
        } else {
            out.listings.insert(d.profile, value);
        }
    }
    Ok(out)
}

/// The coverage report of version `version_id` of provider `provider_id`.
pub fn for_version(
    conn: &mut AnyConnection,
    provider_id: i64,
    version_id: i64,
) -> Result<Report, BrokerError> {
    let declared = declared(conn, version_id)?;
    let live: Vec<Live> = cross_check::live(conn, provider_id)?
        .into_iter()
        .map(|(entry, _, contract)| Live {
            consumer: entry.consumer_name,
            contract,
        })
        .collect();
    Ok(report::build(&declared, &live))
}

/// The coverage gaps of a provider version (empty: covered). A version
/// that declares nothing has no operations, so no gaps: admission cannot
/// pass its static check without declarations anyway.
pub fn gaps(conn: &mut AnyConnection, provider_version_id: i64) -> Result<Vec<Gap>, BrokerError> {
    let v = versions::find_by_id(conn, provider_version_id)?
        .ok_or_else(|| BrokerError::not_found(format!("Version {provider_version_id}")))?;
    Ok(for_version(conn, v.pacticipant_id, v.id)?.gaps)
}
