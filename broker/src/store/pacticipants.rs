//! Pacticipants: the consumers and providers the broker knows by name.

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::names::PacticipantName;
use crate::schema::pacticipants;

/// A stored pacticipant.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = pacticipants)]
pub struct Pacticipant {
    pub id: i64,
    pub name: String,
    pub display_name: Option<String>,
    pub repository_url: Option<String>,
    pub repository_name: Option<String>,
    pub repository_namespace: Option<String>,
    pub main_branch: Option<String>,
    pub created_at: chrono::NaiveDateTime,
    pub updated_at: chrono::NaiveDateTime,
}

/// The attributes a client may set; `None` leaves a stored value alone.
#[derive(Debug, Clone, Default)]
pub struct PacticipantAttributes {
    pub display_name: Option<String>,
    pub repository_url: Option<String>,
    pub repository_name: Option<String>,
    pub repository_namespace: Option<String>,
    pub main_branch: Option<String>,
}

#[derive(Insertable)]
#[diesel(table_name = pacticipants)]
struct NewPacticipant<'a> {
    name: &'a str,
    display_name: Option<&'a str>,
    repository_url: Option<&'a str>,
    repository_name: Option<&'a str>,
    repository_namespace: Option<&'a str>,
    main_branch: Option<&'a str>,
    created_at: chrono::NaiveDateTime,
    updated_at: chrono::NaiveDateTime,
}

/// The pacticipant called `name`, if any.
pub fn find_by_name(
    conn: &mut AnyConnection,
    name: &str,
) -> Result<Option<Pacticipant>, StoreError> {
    Ok(pacticipants::table
        .filter(pacticipants::name.eq(name))
        .select(Pacticipant::as_select())
        .first(conn)
        .optional()?)
}

/// The pacticipant with this id, if any.
pub fn find_by_id(conn: &mut AnyConnection, id: i64) -> Result<Option<Pacticipant>, StoreError> {
    Ok(pacticipants::table
        .find(id)
        .select(Pacticipant::as_select())
        .first(conn)
        .optional()?)
}

/// Every pacticipant, by name.
pub fn list(conn: &mut AnyConnection) -> Result<Vec<Pacticipant>, StoreError> {
    Ok(pacticipants::table
        .order(pacticipants::name.asc())
        .select(Pacticipant::as_select())
        .load(conn)?)
}

/// Creates a pacticipant.
pub fn insert(
    conn: &mut AnyConnection,
    name: &PacticipantName,
    attrs: &PacticipantAttributes,
) -> Result<Pacticipant, StoreError> {
    let at = now();
    let row = NewPacticipant {
        name: name.as_str(),
        display_name: attrs.display_name.as_deref(),
        repository_url: attrs.repository_url.as_deref(),
        repository_name: attrs.repository_name.as_deref(),
        repository_namespace: attrs.repository_namespace.as_deref(),
        main_branch: attrs.main_branch.as_deref(),
        created_at: at,
        updated_at: at,
    };
    Ok(diesel::insert_into(pacticipants::table)
        .values(&row)
        .returning(pacticipants::all_columns)
        .get_result(conn)?)
}

/// The pacticipant called `name`, created (without attributes) if it does
/// not exist yet. Safe against a concurrent creator: a lost race reads the
/// winner's row.
pub fn find_or_create(
    conn: &mut AnyConnection,
    name: &PacticipantName,
) -> Result<Pacticipant, StoreError> {
    if let Some(found) = find_by_name(conn, name.as_str())? {
        return Ok(found);
    }
    // A savepoint: on PostgreSQL a failed statement aborts the whole
    // transaction, so losing the insert race must roll back only the insert.
    match super::racing_insert(conn, |c| insert(c, name, &PacticipantAttributes::default())) {
        Err(e) if e.is_unique_violation() => find_by_name(conn, name.as_str())?
            .ok_or(StoreError::Query(diesel::result::Error::NotFound)),
        other => other,
    }
}

/// Sets every attribute given in `attrs` (merge semantics) and returns the row.
pub fn update_attributes(
    conn: &mut AnyConnection,
    id: i64,
    attrs: &PacticipantAttributes,
) -> Result<Pacticipant, StoreError> {
    let current = pacticipants::table
        .find(id)
        .select(Pacticipant::as_select())
        .first(conn)?;
    let pick = |new: &Option<String>, old: Option<String>| new.clone().or(old);
    Ok(diesel::update(pacticipants::table.find(id))
        .set((
            pacticipants::display_name.eq(pick(&attrs.display_name, current.display_name)),
            pacticipants::repository_url.eq(pick(&attrs.repository_url, current.repository_url)),
            pacticipants::repository_name.eq(pick(&attrs.repository_name, current.repository_name)),
            pacticipants::repository_namespace.eq(pick(
                &attrs.repository_namespace,
                current.repository_namespace,
            )),
            pacticipants::main_branch.eq(pick(&attrs.main_branch, current.main_branch)),
            pacticipants::updated_at.eq(now()),
        ))
        .returning(pacticipants::all_columns)
        .get_result(conn)?)
}

/// Replaces every attribute (PUT semantics: absent means cleared).
pub fn replace_attributes(
    conn: &mut AnyConnection,
    id: i64,
    attrs: &PacticipantAttributes,
) -> Result<Pacticipant, StoreError> {
    Ok(diesel::update(pacticipants::table.find(id))
        .set((
            pacticipants::display_name.eq(attrs.display_name.as_deref()),
            pacticipants::repository_url.eq(attrs.repository_url.as_deref()),
            pacticipants::repository_name.eq(attrs.repository_name.as_deref()),
            pacticipants::repository_namespace.eq(attrs.repository_namespace.as_deref()),
            pacticipants::main_branch.eq(attrs.main_branch.as_deref()),
            pacticipants::updated_at.eq(now()),
        ))
        .returning(pacticipants::all_columns)
        .get_result(conn)?)
}

/// Deletes a pacticipant and, by cascade, its versions, pacts and results.
pub fn delete(conn: &mut AnyConnection, id: i64) -> Result<bool, StoreError> {
    Ok(diesel::delete(pacticipants::table.find(id)).execute(conn)? > 0)
}
