//! A provider's drift policy, one JSON document per pacticipant.

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::schema::drift_policies as p;

/// The stored policy JSON of the pacticipant, if it has one.
pub fn find(conn: &mut AnyConnection, pacticipant_id: i64) -> Result<Option<String>, StoreError> {
    Ok(p::table
        .filter(p::pacticipant_id.eq(pacticipant_id))
        .select(p::policy)
        .first(conn)
        .optional()?)
}

/// Stores `policy` as the pacticipant's, replacing any; true when it had
/// none. Two first writers racing (replicas): the loser updates.
pub fn put(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    policy: &str,
) -> Result<bool, StoreError> {
    if update(conn, pacticipant_id, policy)? {
        return Ok(false);
    }
    let inserted: Result<usize, StoreError> = super::racing_insert(conn, |c| {
        Ok(diesel::insert_into(p::table)
            .values((
                p::pacticipant_id.eq(pacticipant_id),
                p::policy.eq(policy),
                p::updated_at.eq(now()),
            ))
            .execute(c)?)
    });
    match inserted {
        Ok(_) => Ok(true),
        Err(e) if e.is_unique_violation() => update(conn, pacticipant_id, policy).map(|_| false),
        Err(e) => Err(e),
    }
}

fn update(conn: &mut AnyConnection, pacticipant_id: i64, policy: &str) -> Result<bool, StoreError> {
    let updated = diesel::update(p::table.filter(p::pacticipant_id.eq(pacticipant_id)))
        .set((p::policy.eq(policy), p::updated_at.eq(now())))
        .execute(conn)?;
    Ok(updated > 0)
}
