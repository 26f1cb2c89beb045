//! Matrix rows (§3.2 step 4–5): publications of the selected consumer
//! versions LEFT JOIN the latest verification per (content, provider
//! version) by the selected provider versions, then `latestby`.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::contract::pact_view::AccordOnly;
use crate::db::AnyConnection;
use crate::matrix::resolve::{Integration, Resolved};
use crate::matrix::selector::LatestBy;
use crate::store::StoreError;
use crate::store::matrix::{self as q, PublicationRow, VerificationRow, VersionRef};

/// One row: a consumer version's pact with a provider, and the provider
/// version's latest verdict on it (None: not verified by a selected version).
#[derive(Debug, Clone)]
pub struct Row {
    pub consumer_id: i64,
    pub consumer_version: VersionRef,
    pub provider_id: i64,
    pub provider_version: Option<VersionRef>,
    pub pact_content_id: i64,
    pub pact_created_at: chrono::NaiveDateTime,
    pub verification: Option<VerificationRow>,
    /// The Accord-only parts a successful verification of the Pact view
    /// left unverified (`partial::mark`); empty for a whole verification.
    pub unverified: Vec<AccordOnly>,
}

impl Row {
    /// true / false, or None when unverified — also when only the Pact
    /// view of a contract with Accord-only parts was verified.
    pub fn success(&self) -> Option<bool> {
        match &self.verification {
            Some(v) if v.success && self.partial() => None,
            Some(v) => Some(v.success),
            None => None,
        }
    }

    /// Verified successfully in its Pact view only, Accord-only parts left.
    pub fn partial(&self) -> bool {
        !self.unverified.is_empty()
    }
}

/// Which versions of each pacticipant are in play (`None`: any version).
pub type Scopes = HashMap<i64, Option<Vec<VersionRef>>>;

/// Merges selectors per pacticipant: any selector meaning "any version" wins.
pub fn scopes(selectors: &[Resolved]) -> Scopes {
    let mut scopes: Scopes = HashMap::new();
    for s in selectors {
        match (scopes.get_mut(&s.pacticipant_id), &s.versions) {
            (Some(slot), _) if slot.is_none() => {}
            (Some(slot), None) => *slot = None,
            (Some(Some(list)), Some(more)) => list.extend(more.iter().cloned()),
            (_, versions) => {
                scopes.insert(s.pacticipant_id, versions.clone());
            }
        }
    }
    scopes
}

fn ids(versions: &[VersionRef]) -> Vec<i64> {
    versions.iter().map(|v| v.id).collect()
}

/// Rows of the given integrations between the versions in scope.
pub fn load_between(
    conn: &mut AnyConnection,
    integrations: &[Integration],
    scopes: &Scopes,
) -> Result<Vec<Row>, StoreError> {
    let pairs: BTreeSet<(i64, i64)> = integrations
        .iter()
        .map(|i| (i.consumer_id, i.provider_id))
        .collect();
    let providers: Vec<i64> = pairs
        .iter()
        .map(|(_, p)| *p)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut restricted_cv: Vec<i64> = Vec::new();
    let mut pubs: Vec<PublicationRow> = Vec::new();
    for consumer in pairs.iter().map(|(c, _)| *c).collect::<BTreeSet<_>>() {
        match scopes.get(&consumer) {
            Some(Some(vs)) => restricted_cv.extend(ids(vs)),
            Some(None) => pubs.extend(q::publications_of_pacticipant(
                conn,
                consumer,
                Some(&providers),
            )?),
            None => {}
        }
    }
    if !restricted_cv.is_empty() {
        pubs.extend(q::publications_of_versions(
            conn,
            &restricted_cv,
            Some(&providers),
        )?);
    }
    pubs.retain(|p| pairs.contains(&(p.consumer_id, p.provider_id)));
    let mut verifications = Vec::new();
    let (mut limited, mut open) = (Vec::new(), Vec::new());
    let mut pv_ids = Vec::new();
    for p in &pubs {
        match scopes.get(&p.provider_id) {
            Some(Some(vs)) => {
                limited.push(p.pact_content_id);
                pv_ids.extend(ids(vs));
            }
            Some(None) => open.push(p.pact_content_id),
            None => {}
        }
    }
    dedup(&mut limited);
    dedup(&mut open);
    dedup(&mut pv_ids);
    if !limited.is_empty() && !pv_ids.is_empty() {
        verifications.extend(q::latest_verifications(conn, &limited, Some(&pv_ids))?);
    }
    verifications.extend(q::latest_verifications(conn, &open, None)?);
    assemble(conn, pubs, verifications, scopes)
}

/// Rows around one selector when nothing else is given: its versions as
/// consumer (verified by any provider version) and as provider (every
/// consumer version whose pact they verified).
pub fn load_around(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    versions: Option<&[VersionRef]>,
    scopes: &Scopes,
) -> Result<Vec<Row>, StoreError> {
    let mut pubs = match versions {
        Some(vs) => q::publications_of_versions(conn, &ids(vs), None)?,
        None => q::publications_of_pacticipant(conn, pacticipant_id, None)?,
    };
    let mut contents: Vec<i64> = pubs.iter().map(|p| p.pact_content_id).collect();
    dedup(&mut contents);
    let mut verifications = q::latest_verifications(conn, &contents, None)?;
    let as_provider = match versions {
        Some(vs) => q::latest_verifications_by(conn, &ids(vs))?,
        None => q::latest_verifications_of_provider(conn, pacticipant_id)?,
    };
    let mut verified: Vec<i64> = as_provider.iter().map(|v| v.pact_content_id).collect();
    dedup(&mut verified);
    pubs.extend(q::publications_of_contents(conn, &verified)?);
    verifications.extend(as_provider);
    pubs.sort_by_key(|p| (p.consumer_version_id, p.provider_id));
    pubs.dedup_by_key(|p| (p.consumer_version_id, p.provider_id));
    verifications.sort_by_key(|v| v.id);
    verifications.dedup_by_key(|v| v.id);
    assemble(conn, pubs, verifications, scopes)
}

fn dedup(v: &mut Vec<i64>) {
    v.sort_unstable();
    v.dedup();
}

/// Joins publications with verifications of their content (one row per
/// verification, or one unverified row) and attaches the versions (those
/// not in `scopes` are read, in one statement).
pub fn assemble(
    conn: &mut AnyConnection,
    pubs: Vec<PublicationRow>,
    verifications: Vec<VerificationRow>,
    scopes: &Scopes,
) -> Result<Vec<Row>, StoreError> {
    let mut known: HashMap<i64, VersionRef> = scopes
        .values()
        .flatten()
        .flat_map(|vs| vs.iter().map(|v| (v.id, v.clone())))
        .collect();
    let mut missing: Vec<i64> = pubs
        .iter()
        .map(|p| p.consumer_version_id)
        .chain(verifications.iter().map(|v| v.provider_version_id))
        .filter(|id| !known.contains_key(id))
        .collect();
    dedup(&mut missing);
    if !missing.is_empty() {
        known.extend(
            q::versions_by_ids(conn, &missing)?
                .into_iter()
                .map(|v| (v.id, v)),
        );
    }
    let mut by_content: BTreeMap<i64, Vec<VerificationRow>> = BTreeMap::new();
    for v in verifications {
        by_content.entry(v.pact_content_id).or_default().push(v);
    }
    let mut rows = Vec::new();
    for p in pubs {
        let Some(cv) = known.get(&p.consumer_version_id).cloned() else {
            continue;
        };
        let row = |verification: Option<VerificationRow>| Row {
            consumer_id: p.consumer_id,
            consumer_version: cv.clone(),
            provider_id: p.provider_id,
            provider_version: verification
                .as_ref()
                .and_then(|v| known.get(&v.provider_version_id).cloned()),
            pact_content_id: p.pact_content_id,
            pact_created_at: p.created_at,
            verification,
            unverified: Vec::new(),
        };
        match by_content.get(&p.pact_content_id) {
            Some(vs) if !vs.is_empty() => rows.extend(vs.iter().cloned().map(|v| row(Some(v)))),
            _ => rows.push(row(None)),
        }
    }
    Ok(rows)
}

/// Keeps, per group, the row with the newest provider version (and for
/// `cp` the newest consumer version); unverified rows stay (§3.2 step 5).
pub fn apply_latestby(mut rows: Vec<Row>, latestby: Option<LatestBy>) -> Vec<Row> {
    let Some(by) = latestby else {
        return rows;
    };
    let pv = |r: &Row| r.provider_version.as_ref().map_or(-1, |v| v.id);
    rows.sort_by_key(|r| std::cmp::Reverse((r.consumer_version.id, pv(r))));
    let mut seen: BTreeSet<(i64, i64, i64, i64)> = BTreeSet::new();
    rows.retain(|r| {
        let key = match by {
            LatestBy::Cvpv => (r.consumer_id, r.consumer_version.id, r.provider_id, pv(r)),
            LatestBy::Cvp => (r.consumer_id, r.consumer_version.id, r.provider_id, 0),
            LatestBy::Cp => (r.consumer_id, 0, r.provider_id, 0),
        };
        seen.insert(key)
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> chrono::NaiveDateTime {
        chrono::DateTime::from_timestamp(0, 0)
            .expect("epoch")
            .naive_utc()
    }

    fn row(cv: i64, pv: Option<i64>, success: bool) -> Row {
        Row {
            consumer_id: 1,
            consumer_version: VersionRef {
                id: cv,
                pacticipant_id: 1,
                number: cv.to_string(),
            },
            provider_id: 2,
            provider_version: pv.map(|id| VersionRef {
                id,
                pacticipant_id: 2,
                number: id.to_string(),
            }),
            pact_content_id: 9,
            pact_created_at: at(),
            verification: pv.map(|pv| VerificationRow {
                id: pv * 100,
                pact_content_id: 9,
                provider_version_id: pv,
                success,
                execution_date: at(),
                pact_view: false,
                number: 1,
                kind: None,
                reason_codes: None,
            }),
            unverified: Vec::new(),
        }
    }

    fn keys(rows: &[Row]) -> Vec<(i64, Option<i64>)> {
        rows.iter()
            .map(|r| {
                (
                    r.consumer_version.id,
                    r.provider_version.as_ref().map(|v| v.id),
                )
            })
            .collect()
    }

    #[test]
    fn cvpv_keeps_every_live_provider_version() {
        let rows = vec![row(10, Some(20), true), row(10, Some(21), false)];
        assert_eq!(
            keys(&apply_latestby(rows, Some(LatestBy::Cvpv))),
            [(10, Some(21)), (10, Some(20))]
        );
    }

    #[test]
    fn cvp_keeps_only_the_newest_provider_version() {
        let rows = vec![
            row(10, Some(20), false),
            row(10, Some(21), true),
            row(11, None, false),
        ];
        assert_eq!(
            keys(&apply_latestby(rows, Some(LatestBy::Cvp))),
            [(11, None), (10, Some(21))]
        );
    }

    #[test]
    fn cp_keeps_the_newest_consumer_version() {
        let rows = vec![row(10, Some(20), false), row(11, Some(20), true)];
        assert_eq!(
            keys(&apply_latestby(rows, Some(LatestBy::Cp))),
            [(11, Some(20))]
        );
    }
}
