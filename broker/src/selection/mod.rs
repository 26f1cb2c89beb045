//! "Pacts for verification": which pacts a provider build must verify.
//!
//! `request` validates the body into a `VerificationQuery` (typed selectors
//! in `selector`); `resolve` turns selectors into publications with a
//! reason each; `group` folds them into one entry per content sha;
//! `pending` and `wip` apply the Pact Broker's pending and work-in-progress
//! rules; `notices` writes the texts the verifier prints.

pub mod group;
pub mod notices;
pub mod pending;
pub mod request;
pub mod resolve;
pub mod rules;
pub mod selector;
pub mod wip;

use std::collections::BTreeSet;

pub use group::Entry;
pub use pending::Scope;
pub use request::{ForVerificationRequest, VerificationQuery};

use crate::audience::Audience;
use crate::db::AnyConnection;
use crate::error::BrokerError;

/// The pacts to verify, and the provider scope their pending state refers to.
#[derive(Debug, Clone)]
pub struct Selection {
    /// Explicitly selected entries first, then WIP entries.
    pub entries: Vec<Entry>,
    pub scope: Scope,
}

/// Selects the pacts for provider `provider_id`, their pending and WIP
/// status as `audience` sees it (`pending::Lens::for_audience`).
pub fn select(
    conn: &mut AnyConnection,
    provider_id: i64,
    query: &VerificationQuery,
    audience: Audience,
) -> Result<Selection, BrokerError> {
    let consumers = resolve::consumers_of(conn, provider_id)?;
    let hits = resolve::resolve(conn, provider_id, &consumers, query)?;
    let mut entries = group::group(conn, hits, &consumers)?;
    let scope = pending::scope(conn, provider_id, query)?;
    if query.include_pending {
        for entry in &mut entries {
            let facts = pending::gather(
                conn,
                provider_id,
                entry.content_id,
                &scope,
                pending::PENDING.for_audience(audience),
            )?;
            entry.pending = Some(pending::is_pending(&scope, &facts));
        }
    }
    if let Some(since) = query.wip_since {
        let selected: BTreeSet<i64> = entries.iter().map(|e| e.content_id).collect();
        let consumer_ids: Vec<i64> = consumers.keys().copied().collect();
        let lens = pending::WIP.for_audience(audience);
        let hits = wip::wip_hits(
            conn,
            provider_id,
            &consumer_ids,
            since,
            &selected,
            &scope,
            lens,
        )?;
        let mut wip_entries = group::group(conn, hits, &consumers)?;
        for entry in &mut wip_entries {
            entry.wip = true;
            entry.pending = Some(true);
        }
        entries.extend(wip_entries);
    }
    Ok(Selection { entries, scope })
}
