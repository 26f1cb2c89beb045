//! Admission transitions of provider versions: the history, the current
//! state (the last transition's target; DRAFT without one), and the one
//! write, [`transition`], which runs inside the caller's transaction under
//! the version's row lock so two writers never both move from one state.

use diesel::prelude::*;

use super::{StoreError, now};
use crate::admission::{self, AdmissionState, Cause, Refused};
use crate::db::AnyConnection;
use crate::schema::admission_transitions as t;

/// A stored transition.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = t)]
pub struct Transition {
    pub id: i64,
    pub version_id: i64,
    pub from_state: String,
    pub to_state: String,
    pub cause_kind: String,
    pub cause: String,
    pub reason: String,
    pub created_at: chrono::NaiveDateTime,
}

impl Transition {
    /// The state this transition moved to.
    pub fn to(&self) -> Result<AdmissionState, StoreError> {
        parse_state(&self.to_state)
    }
}

/// Why [`transition`] did not record a move.
#[derive(Debug, thiserror::Error)]
pub enum TransitionError {
    /// The state machine does not allow it.
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<diesel::result::Error> for TransitionError {
    fn from(e: diesel::result::Error) -> Self {
        TransitionError::Store(e.into())
    }
}

pub(crate) fn parse_state(name: &str) -> Result<AdmissionState, StoreError> {
    AdmissionState::parse(name).ok_or_else(|| StoreError::CorruptValue {
        what: "admission state",
        value: name.to_owned(),
    })
}

/// Every transition of the version, oldest first.
pub fn list_for_version(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<Transition>, StoreError> {
    Ok(t::table
        .filter(t::version_id.eq(version_id))
        .order(t::id.asc())
        .select(Transition::as_select())
        .load(conn)?)
}

/// The version's last transition, if it has one.
pub fn last_for_version(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Option<Transition>, StoreError> {
    Ok(t::table
        .filter(t::version_id.eq(version_id))
        .order(t::id.desc())
        .select(Transition::as_select())
        .first(conn)
        .optional()?)
}

/// The version's current state (DRAFT when nothing was recorded).
pub fn current(conn: &mut AnyConnection, version_id: i64) -> Result<AdmissionState, StoreError> {
    match last_for_version(conn, version_id)? {
        Some(last) => last.to(),
        None => Ok(AdmissionState::Draft),
    }
}

/// Moves the version to `to`, recording `cause` and `reason`, if the state
/// machine allows it from the current state. Call inside a transaction:
/// the version's row is locked first, so concurrent moves are serialised.
/// Every move queues the `admission_changed` webhooks in that transaction.
pub fn transition(
    conn: &mut AnyConnection,
    version_id: i64,
    to: AdmissionState,
    cause: &Cause,
    reason: &str,
) -> Result<Transition, TransitionError> {
    let version = super::versions::lock(conn, version_id)?.ok_or(StoreError::MissingRow {
        what: "version",
        id: version_id,
    })?;
    let from = current(conn, version_id)?;
    admission::check(from, to)?;
    let row: Transition = diesel::insert_into(t::table)
        .values((
            t::version_id.eq(version_id),
            t::from_state.eq(from.as_str()),
            t::to_state.eq(to.as_str()),
            t::cause_kind.eq(cause.kind()),
            t::cause.eq(cause.reference()),
            t::reason.eq(reason),
            t::created_at.eq(now()),
        ))
        .returning(t::all_columns)
        .get_result(conn)?;
    let state = [("accord.admissionState", to.as_str())];
    crate::webhooks::events::accord_event(conn, "admission_changed", &version, &state)?;
    Ok(row)
}

/// Of `version_ids`, those whose current state is QUARANTINED, with the
/// reason of their last transition.
pub fn quarantined_among(
    conn: &mut AnyConnection,
    version_ids: &[i64],
) -> Result<Vec<(i64, String)>, StoreError> {
    let mut out = Vec::new();
    for &id in version_ids {
        if let Some(last) = last_for_version(conn, id)?
            && last.to()? == AdmissionState::Quarantined
        {
            out.push((id, last.reason));
        }
    }
    Ok(out)
}

/// The versions whose current state is one of `states`, with that state
/// (candidates are the versions that ever entered one; each is confirmed
/// by its last transition).
pub fn versions_in(
    conn: &mut AnyConnection,
    states: &[AdmissionState],
) -> Result<Vec<(i64, AdmissionState)>, StoreError> {
    let names: Vec<&str> = states.iter().map(|s| s.as_str()).collect();
    let mut candidates: Vec<i64> = t::table
        .filter(t::to_state.eq_any(&names))
        .select(t::version_id)
        .distinct()
        .load(conn)?;
    candidates.sort_unstable();
    let mut out = Vec::new();
    for id in candidates {
        let state = current(conn, id)?;
        if states.contains(&state) {
            out.push((id, state));
        }
    }
    Ok(out)
}
