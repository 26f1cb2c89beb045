//! Pacticipant versions. A version's id is its order: the latest version
//! of a pacticipant is the one created last (Pact's `order_versions_by_date`).

use diesel::prelude::*;

use super::{StoreError, now};
use crate::db::AnyConnection;
use crate::names::VersionNumber;
use crate::schema::{pacticipants, versions, webhooks};
use crate::store::pacticipants::Pacticipant;

/// A stored version.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = versions)]
pub struct Version {
    pub id: i64,
    pub pacticipant_id: i64,
    pub number: String,
    pub build_url: Option<String>,
    pub created_at: chrono::NaiveDateTime,
}

/// The version `number` of a pacticipant, if recorded.
pub fn find_by_number(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    number: &str,
) -> Result<Option<Version>, StoreError> {
    Ok(versions::table
        .filter(versions::pacticipant_id.eq(pacticipant_id))
        .filter(versions::number.eq(number))
        .select(Version::as_select())
        .first(conn)
        .optional()?)
}

/// The version with this id.
pub fn find_by_id(conn: &mut AnyConnection, id: i64) -> Result<Option<Version>, StoreError> {
    Ok(versions::table
        .find(id)
        .select(Version::as_select())
        .first(conn)
        .optional()?)
}

/// The versions with these ids (any order; each once), `ID_CHUNK` ids a
/// query.
pub fn find_by_ids(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<Version>, StoreError> {
    let mut unique = ids.to_vec();
    unique.sort_unstable();
    unique.dedup();
    let mut out = Vec::with_capacity(unique.len());
    for chunk in unique.chunks(super::ID_CHUNK) {
        out.extend(
            versions::table
                .filter(versions::id.eq_any(chunk))
                .select(Version::as_select())
                .load(conn)?,
        );
    }
    Ok(out)
}

/// The most recently created version of a pacticipant.
pub fn find_latest(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
) -> Result<Option<Version>, StoreError> {
    Ok(versions::table
        .filter(versions::pacticipant_id.eq(pacticipant_id))
        .order(versions::id.desc())
        .select(Version::as_select())
        .first(conn)
        .optional()?)
}

/// Every version of a pacticipant, newest first.
pub fn list_for_pacticipant(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
) -> Result<Vec<Version>, StoreError> {
    Ok(versions::table
        .filter(versions::pacticipant_id.eq(pacticipant_id))
        .order(versions::id.desc())
        .select(Version::as_select())
        .load(conn)?)
}

/// Records a version.
pub fn insert(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    number: &VersionNumber,
    build_url: Option<&str>,
) -> Result<Version, StoreError> {
    Ok(diesel::insert_into(versions::table)
        .values((
            versions::pacticipant_id.eq(pacticipant_id),
            versions::number.eq(number.as_str()),
            versions::build_url.eq(build_url),
            versions::created_at.eq(now()),
        ))
        .returning(versions::all_columns)
        .get_result(conn)?)
}

/// The version, created if it does not exist (a lost race reads the winner's).
pub fn find_or_create(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    number: &VersionNumber,
) -> Result<Version, StoreError> {
    find_or_insert(conn, pacticipant_id, number, None).map(|(v, _)| v)
}

/// The version, inserted with `build_url` when new; true when this call
/// created it. The insert runs in a savepoint: a concurrent creator (another
/// request or replica) makes it fail on the unique key, and on PostgreSQL
/// only the savepoint, not the caller's transaction, is then aborted; the
/// winner's row is read instead.
pub fn find_or_insert(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    number: &VersionNumber,
    build_url: Option<&str>,
) -> Result<(Version, bool), StoreError> {
    if let Some(found) = find_by_number(conn, pacticipant_id, number.as_str())? {
        return Ok((found, false));
    }
    match super::racing_insert(conn, |c| insert(c, pacticipant_id, number, build_url)) {
        Ok(inserted) => Ok((inserted, true)),
        Err(e) if e.is_unique_violation() => find_by_number(conn, pacticipant_id, number.as_str())?
            .map(|v| (v, false))
            .ok_or(StoreError::Query(diesel::result::Error::NotFound)),
        Err(e) => Err(e),
    }
}

/// Records version `number` unless the pacticipant already has it (one
/// `INSERT … ON CONFLICT DO NOTHING RETURNING`): `None` when it exists. A
/// concurrent creator's row is waited for, not failed on, so no savepoint
/// is needed on PostgreSQL. The row inserted is this transaction's alone
/// until it commits: nobody else can lock or change it meanwhile.
pub fn insert_unless_taken(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    number: &VersionNumber,
    build_url: Option<&str>,
) -> Result<Option<Version>, StoreError> {
    let row = (
        versions::pacticipant_id.eq(pacticipant_id),
        versions::number.eq(number.as_str()),
        versions::build_url.eq(build_url),
        versions::created_at.eq(now()),
    );
    Ok(crate::on_backend!(conn, |c| diesel::insert_into(
        versions::table
    )
    .values(row)
    .on_conflict((versions::pacticipant_id, versions::number))
    .do_nothing()
    .returning(versions::all_columns)
    .get_result::<Version>(c)
    .optional())?)
}

/// A pacticipant with one of its versions, when it has it.
pub type WithVersion = (Pacticipant, Option<Version>);

/// What publishing reads first (`find_with_pacticipant`).
#[derive(Debug, Default)]
pub struct FoundForPublish {
    /// The consumer, with the version if it has one.
    pub consumer: Option<WithVersion>,
    /// The pacticipant called `also`.
    pub also: Option<Pacticipant>,
    /// Whether an enabled webhook may select the pair (`name`, `also`),
    /// by the predicate of `webhooks::store::event_lists_for_pair`; `None`
    /// when neither is stored (no row carried the answer).
    pub webhooks: Option<bool>,
}

/// The pacticipant called `name` with its version `number` if it has one,
/// the pacticipant called `also` (a publication's provider), and whether a
/// webhook may want to hear of a publication for the pair: one statement
/// where publishing used to make four. Either is `None` when not stored;
/// `also` naming `name` itself is answered by the first.
pub fn find_with_pacticipant(
    conn: &mut AnyConnection,
    name: &str,
    number: &str,
    also: &str,
) -> Result<FoundForPublish, StoreError> {
    let numbered = versions::pacticipant_id
        .eq(pacticipants::id)
        .and(versions::number.eq(number))
        .and(pacticipants::name.eq(name));
    // as `webhooks::store::event_lists_for_pair(Some(name), Some(also))`
    let hooked = diesel::dsl::exists(
        webhooks::table
            .filter(webhooks::enabled.eq(true))
            .filter(
                webhooks::consumer_name
                    .is_null()
                    .or(webhooks::consumer_name.eq(name)),
            )
            .filter(
                webhooks::provider_name
                    .is_null()
                    .or(webhooks::provider_name.eq(also)),
            ),
    );
    let query = pacticipants::table
        .left_join(versions::table.on(numbered))
        .filter(pacticipants::name.eq(name).or(pacticipants::name.eq(also)))
        .select((
            pacticipants::all_columns,
            versions::all_columns.nullable(),
            hooked,
        ));
    // on the backend's own connection: through `AnyConnection` diesel
    // builds the SQL text and walks the query again for every execution
    // (its cache key and bind collector), ~100k instructions a publish
    let rows: Vec<(Pacticipant, Option<Version>, bool)> =
        crate::on_backend!(conn, |c| query.load(c))?;
    let mut found = FoundForPublish::default();
    for (pacticipant, version, hooked) in rows {
        found.add(name, also, pacticipant, version, hooked);
    }
    Ok(found)
}

impl FoundForPublish {
    /// Takes one row of the read: a pacticipant (the consumer `name` with
    /// its version if it has it, or `also`), and whether a webhook may
    /// select the pair.
    pub fn add(
        &mut self,
        name: &str,
        also: &str,
        pacticipant: Pacticipant,
        version: Option<Version>,
        hooked: bool,
    ) {
        self.webhooks = Some(hooked);
        if pacticipant.name == also {
            self.also = Some(pacticipant.clone());
        }
        if pacticipant.name == name {
            self.consumer = Some((pacticipant, version));
        }
    }
}

/// Takes the version's row lock until the transaction ends and returns
/// the row as committed now: the first step of every read-modify-write of
/// a version and what hangs off it (its publications, tags, build URL).
/// On PostgreSQL a concurrent writer of the same version waits here, then
/// reads what the first one committed (read committed takes a fresh snapshot
/// per statement); SQLite already holds the database's write lock. `None`
/// when the version was deleted meanwhile.
pub fn lock(conn: &mut AnyConnection, id: i64) -> Result<Option<Version>, StoreError> {
    Ok(diesel::update(versions::table.find(id))
        .set(versions::number.eq(versions::number))
        .returning(versions::all_columns)
        .get_result(conn)
        .optional()?)
}

/// Sets the build URL.
pub fn update_build_url(
    conn: &mut AnyConnection,
    id: i64,
    build_url: Option<&str>,
) -> Result<Version, StoreError> {
    Ok(diesel::update(versions::table.find(id))
        .set(versions::build_url.eq(build_url))
        .returning(versions::all_columns)
        .get_result(conn)?)
}

/// Deletes a version (its tags, branch entries, pacts and results go with it).
pub fn delete(conn: &mut AnyConnection, id: i64) -> Result<bool, StoreError> {
    Ok(diesel::delete(versions::table.find(id)).execute(conn)? > 0)
}

/// The names of the providers a consumer version has published contracts
/// for, by name.
pub fn provider_names_for_consumer_version(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Vec<String>, StoreError> {
    use crate::schema::pact_publications;
    Ok(pact_publications::table
        .inner_join(pacticipants::table.on(pacticipants::id.eq(pact_publications::provider_id)))
        .filter(pact_publications::consumer_version_id.eq(version_id))
        .order(pacticipants::name.asc())
        .select(pacticipants::name)
        .load(conn)?)
}

/// One page of a pacticipant's versions, newest first, and how many it has.
pub fn list_page_for_pacticipant(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Version>, i64), StoreError> {
    let total = versions::table
        .filter(versions::pacticipant_id.eq(pacticipant_id))
        .count()
        .get_result(conn)?;
    let page = versions::table
        .filter(versions::pacticipant_id.eq(pacticipant_id))
        .order(versions::id.desc())
        .limit(limit)
        .offset(offset)
        .select(Version::as_select())
        .load(conn)?;
    Ok((page, total))
}
