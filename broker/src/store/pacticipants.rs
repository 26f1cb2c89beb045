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
    find_or_insert(conn, name, &PacticipantAttributes::default()).map(|(p, _)| p)
}

/// The pacticipant called `name`, inserted with `attrs` when new; true when
/// this call created it. The insert runs in a savepoint: on PostgreSQL a
/// failed statement aborts the whole transaction, so losing the race to a
/// concurrent creator must roll back only the insert.
pub fn find_or_insert(
    conn: &mut AnyConnection,
    name: &PacticipantName,
    attrs: &PacticipantAttributes,
) -> Result<(Pacticipant, bool), StoreError> {
    if let Some(found) = find_by_name(conn, name.as_str())? {
        return Ok((found, false));
    }
    match super::racing_insert(conn, |c| insert(c, name, attrs)) {
        Ok(inserted) => Ok((inserted, true)),
        Err(e) if e.is_unique_violation() => find_by_name(conn, name.as_str())?
            .map(|p| (p, false))
            .ok_or(StoreError::Query(diesel::result::Error::NotFound)),
        Err(e) => Err(e),
    }
}

/// The columns an update writes; a `None` field is left out of the
/// statement, so a merge is one `UPDATE` (no read-modify-write to race).
#[derive(AsChangeset)]
#[diesel(table_name = pacticipants)]
struct Changes<'a> {
    display_name: Option<Option<&'a str>>,
    repository_url: Option<Option<&'a str>>,
    repository_name: Option<Option<&'a str>>,
    repository_namespace: Option<Option<&'a str>>,
    main_branch: Option<Option<&'a str>>,
    updated_at: chrono::NaiveDateTime,
}

/// Sets every attribute given in `attrs` (merge semantics) and returns the row.
pub fn update_attributes(
    conn: &mut AnyConnection,
    id: i64,
    attrs: &PacticipantAttributes,
) -> Result<Pacticipant, StoreError> {
    // a given value replaces, an absent one is left alone
    write(conn, id, &Changes::of(attrs, |v| v.as_deref().map(Some)))
}

/// Replaces every attribute (PUT semantics: absent means cleared).
pub fn replace_attributes(
    conn: &mut AnyConnection,
    id: i64,
    attrs: &PacticipantAttributes,
) -> Result<Pacticipant, StoreError> {
    write(conn, id, &Changes::of(attrs, |v| Some(v.as_deref())))
}

impl<'a> Changes<'a> {
    /// Each attribute through `column` (`None`: leave the column alone).
    fn of(
        attrs: &'a PacticipantAttributes,
        column: fn(&'a Option<String>) -> Option<Option<&'a str>>,
    ) -> Self {
        Changes {
            display_name: column(&attrs.display_name),
            repository_url: column(&attrs.repository_url),
            repository_name: column(&attrs.repository_name),
            repository_namespace: column(&attrs.repository_namespace),
            main_branch: column(&attrs.main_branch),
            updated_at: now(),
        }
    }
}

fn write(
    conn: &mut AnyConnection,
    id: i64,
    changes: &Changes<'_>,
) -> Result<Pacticipant, StoreError> {
    Ok(diesel::update(pacticipants::table.find(id))
        .set(changes)
        .returning(pacticipants::all_columns)
        .get_result(conn)?)
}

/// Deletes a pacticipant and, by cascade, its versions, pacts and results.
pub fn delete(conn: &mut AnyConnection, id: i64) -> Result<bool, StoreError> {
    Ok(diesel::delete(pacticipants::table.find(id)).execute(conn)? > 0)
}
