//! Pacticipant labels (the Pact Broker's): names put on a pacticipant that
//! webhooks select by (`{"consumer": {"label": …}}`).

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::names::TagName;
use crate::schema::{labels, pacticipants};
use crate::store::pacticipants::Pacticipant;

/// A stored label.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = labels)]
pub struct Label {
    pub id: i64,
    pub pacticipant_id: i64,
    pub name: String,
    pub created_at: chrono::NaiveDateTime,
    pub updated_at: chrono::NaiveDateTime,
}

/// Labels a pacticipant (idempotent); the label and whether it was new.
pub fn add(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &TagName,
) -> Result<(Label, bool), StoreError> {
    if let Some(found) = find(conn, pacticipant_id, name.as_str())? {
        return Ok((found, false));
    }
    let at = now();
    let inserted = super::racing_insert(conn, |c| {
        diesel::insert_into(labels::table)
            .values((
                labels::pacticipant_id.eq(pacticipant_id),
                labels::name.eq(name.as_str()),
                labels::created_at.eq(at),
                labels::updated_at.eq(at),
            ))
            .returning(labels::all_columns)
            .get_result(c)
    });
    match inserted.map_err(StoreError::from) {
        Err(e) if e.is_unique_violation() => Ok((
            find(conn, pacticipant_id, name.as_str())?
                .ok_or(StoreError::Query(diesel::result::Error::NotFound))?,
            false,
        )),
        other => other.map(|l| (l, true)),
    }
}

/// The label `name` of a pacticipant.
pub fn find(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &str,
) -> Result<Option<Label>, StoreError> {
    Ok(labels::table
        .filter(labels::pacticipant_id.eq(pacticipant_id))
        .filter(labels::name.eq(name))
        .select(Label::as_select())
        .first(conn)
        .optional()?)
}

/// Removes a label; whether there was one.
pub fn delete(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &str,
) -> Result<bool, StoreError> {
    let n = diesel::delete(
        labels::table
            .filter(labels::pacticipant_id.eq(pacticipant_id))
            .filter(labels::name.eq(name)),
    )
    .execute(conn)?;
    Ok(n > 0)
}

/// A pacticipant's label names, by name.
pub fn names_of(conn: &mut AnyConnection, pacticipant_id: i64) -> Result<Vec<String>, StoreError> {
    Ok(labels::table
        .filter(labels::pacticipant_id.eq(pacticipant_id))
        .order(labels::name.asc())
        .select(labels::name)
        .load(conn)?)
}

/// The pacticipants carrying label `name`, by name.
pub fn pacticipants_with(
    conn: &mut AnyConnection,
    name: &str,
) -> Result<Vec<Pacticipant>, StoreError> {
    Ok(pacticipants::table
        .inner_join(labels::table)
        .filter(labels::name.eq(name))
        .order(pacticipants::name.asc())
        .select(Pacticipant::as_select())
        .load(conn)?)
}

/// Every label name in use, once each, by name.
pub fn all_names(conn: &mut AnyConnection) -> Result<Vec<String>, StoreError> {
    Ok(labels::table
        .select(labels::name)
        .distinct()
        .order(labels::name.asc())
        .load(conn)?)
}
