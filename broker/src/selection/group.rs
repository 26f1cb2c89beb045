//! Folding hits into one entry per content sha (reference §3.4): every
//! consumer version and every reason that led to the same content is kept
//! on the one entry, which is verified once.

use std::collections::{BTreeMap, HashMap};

use super::resolve::{Hit, Reason};
use crate::db::AnyConnection;
use crate::metadata::PactMetadata;
use crate::store::pacticipants::Pacticipant;
use crate::store::{StoreError, selection, versions};

/// One pact to verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub content_id: i64,
    pub sha: String,
    pub consumer_name: String,
    /// (id, number) of every consumer version with this content that was
    /// selected, oldest first.
    pub versions: Vec<(i64, String)>,
    /// Why, each with the consumer version number it applied to.
    pub reasons: Vec<(Reason, String)>,
    /// Computed only when the verifier asked for pending status.
    pub pending: Option<bool>,
    pub wip: bool,
}

impl Entry {
    /// The newest selected consumer version (orders entries).
    pub fn latest_version_id(&self) -> i64 {
        self.versions.last().map_or(0, |(id, _)| *id)
    }

    /// The `/metadata/{m}` document of this entry's permalink.
    pub fn metadata(&self, short_descriptions: Vec<String>) -> PactMetadata {
        PactMetadata {
            consumer_version_ids: self.versions.iter().map(|(id, _)| *id).collect(),
            consumer_version_numbers: self.versions.iter().map(|(_, n)| n.clone()).collect(),
            selectors: short_descriptions,
            pending: self.pending == Some(true),
            wip: self.wip,
            pact_view: false,
        }
    }
}

/// Groups hits by content, ordered by consumer name, then consumer version.
pub fn group(
    conn: &mut AnyConnection,
    hits: Vec<Hit>,
    consumers: &BTreeMap<i64, Pacticipant>,
) -> Result<Vec<Entry>, StoreError> {
    let mut version_ids: Vec<i64> = hits
        .iter()
        .map(|h| h.publication.consumer_version_id)
        .collect();
    version_ids.sort_unstable();
    version_ids.dedup();
    let numbers: HashMap<i64, String> = versions::find_by_ids(conn, &version_ids)?
        .into_iter()
        .map(|v| (v.id, v.number))
        .collect();
    let mut content_ids: Vec<i64> = hits.iter().map(|h| h.publication.pact_content_id).collect();
    content_ids.sort_unstable();
    content_ids.dedup();
    let shas: HashMap<i64, String> = selection::shas(conn, &content_ids)?.into_iter().collect();

    let mut by_content: BTreeMap<i64, Entry> = BTreeMap::new();
    for hit in hits {
        let p = &hit.publication;
        let number = numbers
            .get(&p.consumer_version_id)
            .cloned()
            .unwrap_or_default();
        let entry = by_content
            .entry(p.pact_content_id)
            .or_insert_with(|| Entry {
                content_id: p.pact_content_id,
                sha: shas.get(&p.pact_content_id).cloned().unwrap_or_default(),
                consumer_name: consumers
                    .get(&p.consumer_id)
                    .map(|c| c.name.clone())
                    .unwrap_or_default(),
                versions: Vec::new(),
                reasons: Vec::new(),
                pending: None,
                wip: false,
            });
        if !entry
            .versions
            .iter()
            .any(|(id, _)| *id == p.consumer_version_id)
        {
            entry.versions.push((p.consumer_version_id, number.clone()));
        }
        let reason = (hit.reason, number);
        if !entry.reasons.contains(&reason) {
            entry.reasons.push(reason);
        }
    }
    let mut entries: Vec<Entry> = by_content.into_values().collect();
    for e in &mut entries {
        e.versions.sort_unstable();
    }
    entries.sort_by(|a, b| {
        (a.consumer_name.as_str(), a.latest_version_id())
            .cmp(&(b.consumer_name.as_str(), b.latest_version_id()))
    });
    Ok(entries)
}
