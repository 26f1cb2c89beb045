//! API tokens: name, role and the sha256 of the secret (never the secret).

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::schema::tokens;

/// A stored token.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = tokens)]
pub struct Token {
    pub id: i64,
    pub name: String,
    pub role: String,
    pub secret_hash: String,
    pub created_at: chrono::NaiveDateTime,
    pub revoked_at: Option<chrono::NaiveDateTime>,
}

/// The unrevoked token whose secret hashes to `hash`.
pub fn find_active_by_hash(
    conn: &mut AnyConnection,
    hash: &str,
) -> Result<Option<Token>, StoreError> {
    Ok(tokens::table
        .filter(tokens::secret_hash.eq(hash))
        .filter(tokens::revoked_at.is_null())
        .select(Token::as_select())
        .first(conn)
        .optional()?)
}

/// True once any unrevoked token exists (the broker is then closed).
pub fn any_active(conn: &mut AnyConnection) -> Result<bool, StoreError> {
    // every request to an open broker asks: on the backend's own
    // connection, which caches the statement by its type, not its text
    let query = tokens::table
        .filter(tokens::revoked_at.is_null())
        .select(tokens::id);
    let found: Option<i64> = crate::on_backend!(conn, |c| query.first(c).optional())?;
    Ok(found.is_some())
}

/// Every token, revoked ones included, by name.
pub fn list(conn: &mut AnyConnection) -> Result<Vec<Token>, StoreError> {
    Ok(tokens::table
        .order(tokens::name.asc())
        .select(Token::as_select())
        .load(conn)?)
}

/// Stores a new token.
pub fn insert(
    conn: &mut AnyConnection,
    name: &str,
    role: &str,
    secret_hash: &str,
) -> Result<Token, StoreError> {
    Ok(diesel::insert_into(tokens::table)
        .values((
            tokens::name.eq(name),
            tokens::role.eq(role),
            tokens::secret_hash.eq(secret_hash),
            tokens::created_at.eq(now()),
        ))
        .returning(tokens::all_columns)
        .get_result(conn)?)
}

/// Revokes the token called `name`; false if there is no such live token.
pub fn revoke(conn: &mut AnyConnection, name: &str) -> Result<bool, StoreError> {
    let changed = diesel::update(
        tokens::table
            .filter(tokens::name.eq(name))
            .filter(tokens::revoked_at.is_null()),
    )
    .set(tokens::revoked_at.eq(Some(now())))
    .execute(conn)?;
    Ok(changed > 0)
}
