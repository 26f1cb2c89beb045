//! Read queries of the matrix and can-i-deploy: resolve selectors into
//! versions, find integrations, load publications and the latest
//! verification per (content, provider version), and the details rows show.
//!
//! Every query is an index range scan (see the migrations): versions by
//! (pacticipant_id, id), tags by (pacticipant_id, name, version_id), live
//! deployments by (environment_id, pacticipant_id), publications by
//! (consumer_version_id, provider_id) and (provider_id, consumer_id, …),
//! verifications by (pact_content_id, provider_version_id, id).

use diesel::dsl::max;
use diesel::expression::IntoSql;
use diesel::prelude::*;

use super::StoreError;
use crate::db::AnyConnection;
use crate::on_backend;
use crate::schema::{
    branch_versions, branches, deployed_versions, pact_publications, pacticipants,
    released_versions, tags, verifications, versions,
};

/// A version as the matrix needs it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct VersionRef {
    pub id: i64,
    pub pacticipant_id: i64,
    pub number: String,
}

type VerificationCols = (
    verifications::id,
    verifications::pact_content_id,
    verifications::provider_version_id,
    verifications::success,
    verifications::execution_date,
    verifications::pact_view,
    verifications::number,
    verifications::kind,
    verifications::reason_codes,
);
/// The columns of a `VerificationRow` (shared with `matrix_details`).
pub(super) const VERIFICATION_COLS: VerificationCols = (
    verifications::id,
    verifications::pact_content_id,
    verifications::provider_version_id,
    verifications::success,
    verifications::execution_date,
    verifications::pact_view,
    verifications::number,
    verifications::kind,
    verifications::reason_codes,
);

/// A publication: the left side of a matrix row.
#[derive(Debug, Clone, Queryable)]
pub struct PublicationRow {
    pub consumer_version_id: i64,
    pub consumer_id: i64,
    pub provider_id: i64,
    pub pact_content_id: i64,
    pub created_at: chrono::NaiveDateTime,
}

/// A verification: the right side of a matrix row.
#[derive(Debug, Clone, Queryable)]
pub struct VerificationRow {
    pub id: i64,
    pub pact_content_id: i64,
    pub provider_version_id: i64,
    pub success: bool,
    pub execution_date: chrono::NaiveDateTime,
    /// Published through the Pact view (covers only that view).
    pub pact_view: bool,
    /// Its number among the results of its content (1 for the first).
    pub number: i64,
    /// `static`: the broker's static cross-check of the declarations.
    pub kind: Option<String>,
    /// The reason codes of a static check, comma-separated.
    pub reason_codes: Option<String>,
}

impl VerificationRow {
    /// The codes of a failed static check (`TOOL_MISSING, …`), for a
    /// static verification.
    pub fn static_codes(&self) -> Option<String> {
        let is_static = self.kind.as_deref() == Some(super::static_checks::STATIC);
        let codes = self.reason_codes.as_deref().filter(|_| is_static)?;
        Some(codes.replace(',', ", "))
    }

    /// A success of the Pact view only: the Accord-only parts unverified.
    pub fn partial(&self) -> bool {
        self.pact_view && self.success
    }
}

type VersionCols = (versions::id, versions::pacticipant_id, versions::number);
const VERSION_COLS: VersionCols = (versions::id, versions::pacticipant_id, versions::number);

type PublicationCols = (
    pact_publications::consumer_version_id,
    pact_publications::consumer_id,
    pact_publications::provider_id,
    pact_publications::pact_content_id,
    pact_publications::created_at,
);
const PUBLICATION_COLS: PublicationCols = (
    pact_publications::consumer_version_id,
    pact_publications::consumer_id,
    pact_publications::provider_id,
    pact_publications::pact_content_id,
    pact_publications::created_at,
);

/// The version `number` of a pacticipant.
pub fn version_by_number(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    number: &str,
) -> Result<Option<VersionRef>, StoreError> {
    Ok(versions::table
        .filter(versions::pacticipant_id.eq(pacticipant_id))
        .filter(versions::number.eq(number))
        .select(VERSION_COLS)
        .first(conn)
        .optional()?)
}

/// A pacticipant as the matrix needs it: id, name, main branch.
pub type PacticipantRef = (i64, String, Option<String>);

/// The pacticipant called `name` (id, name, main branch) with its
/// version `number` if it has one: one statement for the commonest
/// selector.
pub fn pacticipant_with_version(
    conn: &mut AnyConnection,
    name: &str,
    number: &str,
) -> Result<Option<(PacticipantRef, Option<VersionRef>)>, StoreError> {
    let numbered = versions::pacticipant_id
        .eq(pacticipants::id)
        .and(versions::number.eq(number));
    Ok(pacticipants::table
        .left_join(versions::table.on(numbered))
        .filter(pacticipants::name.eq(name))
        .select((
            (
                pacticipants::id,
                pacticipants::name,
                pacticipants::main_branch,
            ),
            VERSION_COLS.nullable(),
        ))
        .first(conn)
        .optional()?)
}

/// The most recently created version of a pacticipant.
pub fn latest_version(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
) -> Result<Option<VersionRef>, StoreError> {
    Ok(versions::table
        .filter(versions::pacticipant_id.eq(pacticipant_id))
        .order(versions::id.desc())
        .select(VERSION_COLS)
        .first(conn)
        .optional()?)
}

/// Versions with tag `tag`, newest first (only the newest when `latest`).
pub fn versions_with_tag(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    tag: &str,
    latest: bool,
) -> Result<Vec<VersionRef>, StoreError> {
    let query = tags::table
        .inner_join(versions::table)
        .filter(tags::pacticipant_id.eq(pacticipant_id))
        .filter(tags::name.eq(tag))
        .order(tags::version_id.desc())
        .select(VERSION_COLS);
    Ok(if latest {
        query.limit(1).load(conn)?
    } else {
        query.load(conn)?
    })
}

/// Versions on branch `branch`, newest first (only the head when `latest`).
pub fn versions_on_branch(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    branch: &str,
    latest: bool,
) -> Result<Vec<VersionRef>, StoreError> {
    let query = branch_versions::table
        .inner_join(branches::table)
        .inner_join(versions::table)
        .filter(branches::pacticipant_id.eq(pacticipant_id))
        .filter(branches::name.eq(branch))
        .order(branch_versions::version_id.desc())
        .select(VERSION_COLS);
    Ok(if latest {
        query.limit(1).load(conn)?
    } else {
        query.load(conn)?
    })
}

/// Every version of these pacticipants currently deployed (any application
/// instance) or released and still supported in an environment, newest first.
pub fn versions_in_environment(
    conn: &mut AnyConnection,
    pacticipant_ids: &[i64],
    environment_id: i64,
) -> Result<Vec<VersionRef>, StoreError> {
    let deployed = deployed_versions::table
        .inner_join(versions::table)
        .filter(deployed_versions::environment_id.eq(environment_id))
        .filter(deployed_versions::pacticipant_id.eq_any(pacticipant_ids))
        .filter(deployed_versions::undeployed_at.is_null())
        .select(VERSION_COLS);
    let released = released_versions::table
        .inner_join(versions::table)
        .filter(released_versions::environment_id.eq(environment_id))
        .filter(released_versions::pacticipant_id.eq_any(pacticipant_ids))
        .filter(released_versions::support_ended_at.is_null())
        .select(VERSION_COLS);
    let mut all: Vec<VersionRef> = on_backend!(conn, |c| deployed.union_all(released).load(c))?;
    all.sort_by_key(|v| std::cmp::Reverse(v.id));
    all.dedup_by_key(|v| v.id);
    Ok(all)
}

/// The (consumer, provider, required) pairs of a pacticipant whose
/// versions `consumer_version_ids` are selected: the providers those
/// versions have pacts with (required), and the consumers that ever
/// published a pact with it (not required) — one statement.
pub fn pairs_of_versions(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    consumer_version_ids: &[i64],
) -> Result<Vec<(i64, i64, bool)>, StoreError> {
    let required = pact_publications::table
        .filter(pact_publications::consumer_version_id.eq_any(consumer_version_ids))
        .select((
            pact_publications::consumer_id,
            pact_publications::provider_id,
            true.into_sql::<diesel::sql_types::Bool>(),
        ))
        .distinct();
    let consumers = pact_publications::table
        .filter(pact_publications::provider_id.eq(pacticipant_id))
        .select((
            pact_publications::consumer_id,
            pact_publications::provider_id,
            false.into_sql::<diesel::sql_types::Bool>(),
        ))
        .distinct();
    Ok(on_backend!(conn, |c| required.union(consumers).load(c))?)
}

/// Providers any version of `consumer_id` has a pact with.
pub fn providers_of(conn: &mut AnyConnection, consumer_id: i64) -> Result<Vec<i64>, StoreError> {
    let own = versions::table
        .filter(versions::pacticipant_id.eq(consumer_id))
        .select(versions::id);
    Ok(pact_publications::table
        .filter(pact_publications::consumer_version_id.eq_any(own))
        .select(pact_publications::provider_id)
        .distinct()
        .load(conn)?)
}

/// Consumers that ever published a pact with `provider_id`.
pub fn consumers_of(conn: &mut AnyConnection, provider_id: i64) -> Result<Vec<i64>, StoreError> {
    Ok(pact_publications::table
        .filter(pact_publications::provider_id.eq(provider_id))
        .select(pact_publications::consumer_id)
        .distinct()
        .load(conn)?)
}

/// Publications of these consumer versions (with these providers, or any).
/// Not boxed when providers are given: PostgreSQL then reuses the prepared
/// statement (a boxed query is parsed and planned on every call).
pub fn publications_of_versions(
    conn: &mut AnyConnection,
    consumer_version_ids: &[i64],
    provider_ids: Option<&[i64]>,
) -> Result<Vec<PublicationRow>, StoreError> {
    let query = pact_publications::table
        .filter(pact_publications::consumer_version_id.eq_any(consumer_version_ids))
        .select(PUBLICATION_COLS);
    Ok(match provider_ids {
        Some(providers) => query
            .filter(pact_publications::provider_id.eq_any(providers))
            .load(conn)?,
        None => query.load(conn)?,
    })
}

/// Publications of any version of `consumer_id` (with these providers, or any).
pub fn publications_of_pacticipant(
    conn: &mut AnyConnection,
    consumer_id: i64,
    provider_ids: Option<&[i64]>,
) -> Result<Vec<PublicationRow>, StoreError> {
    let own = versions::table
        .filter(versions::pacticipant_id.eq(consumer_id))
        .select(versions::id);
    let mut query = pact_publications::table
        .filter(pact_publications::consumer_version_id.eq_any(own))
        .select(PUBLICATION_COLS)
        .into_boxed();
    if let Some(providers) = provider_ids {
        query = query.filter(pact_publications::provider_id.eq_any(providers));
    }
    Ok(query.load(conn)?)
}

/// Publications of these contents (every consumer version that published one).
pub fn publications_of_contents(
    conn: &mut AnyConnection,
    content_ids: &[i64],
) -> Result<Vec<PublicationRow>, StoreError> {
    Ok(pact_publications::table
        .filter(pact_publications::pact_content_id.eq_any(content_ids))
        .select(PUBLICATION_COLS)
        .load(conn)?)
}

/// The latest verification per (content, provider version) of these
/// contents, by these provider versions (any provider version when `None`).
pub fn latest_verifications(
    conn: &mut AnyConnection,
    content_ids: &[i64],
    provider_version_ids: Option<&[i64]>,
) -> Result<Vec<VerificationRow>, StoreError> {
    if content_ids.is_empty() {
        return Ok(Vec::new());
    }
    let l = diesel::alias!(verifications as latest);
    let (content, provider_version) = (
        l.field(verifications::pact_content_id),
        l.field(verifications::provider_version_id),
    );
    let candidates = l.filter(content.eq_any(content_ids));
    let of = || verifications::table.select(VERIFICATION_COLS);
    let rows: Vec<VerificationRow> = match provider_version_ids {
        Some(pv) => {
            let ids = candidates
                .filter(provider_version.eq_any(pv))
                .group_by((content, provider_version))
                .select(max(l.field(verifications::id)));
            of().filter(verifications::id.nullable().eq_any(ids))
                .load(conn)?
        }
        None => {
            let ids = candidates
                .group_by((content, provider_version))
                .select(max(l.field(verifications::id)));
            of().filter(verifications::id.nullable().eq_any(ids))
                .load(conn)?
        }
    };
    super::coverage::prefer_whole(conn, rows)
}

/// The latest verification per (content, provider version) made by these provider versions.
pub fn latest_verifications_by(
    conn: &mut AnyConnection,
    provider_version_ids: &[i64],
) -> Result<Vec<VerificationRow>, StoreError> {
    let ids: Vec<Option<i64>> = verifications::table
        .filter(verifications::provider_version_id.eq_any(provider_version_ids))
        .group_by((
            verifications::pact_content_id,
            verifications::provider_version_id,
        ))
        .select(max(verifications::id))
        .load(conn)?;
    verifications_by_ids(conn, &ids.into_iter().flatten().collect::<Vec<_>>())
}

/// The latest verification per (content, provider version) of any version of a provider.
pub fn latest_verifications_of_provider(
    conn: &mut AnyConnection,
    provider_id: i64,
) -> Result<Vec<VerificationRow>, StoreError> {
    let ids: Vec<Option<i64>> = verifications::table
        .filter(verifications::provider_id.eq(provider_id))
        .group_by((
            verifications::pact_content_id,
            verifications::provider_version_id,
        ))
        .select(max(verifications::id))
        .load(conn)?;
    verifications_by_ids(conn, &ids.into_iter().flatten().collect::<Vec<_>>())
}

/// The rows of these latest verifications, each partial success replaced
/// by the pair's whole-contract result (`super::coverage`).
fn verifications_by_ids(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<Vec<VerificationRow>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<VerificationRow> = verifications::table
        .filter(verifications::id.eq_any(ids))
        .select(VERIFICATION_COLS)
        .load(conn)?;
    super::coverage::prefer_whole(conn, rows)
}

/// Versions by id.
pub fn versions_by_ids(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<Vec<VersionRef>, StoreError> {
    Ok(versions::table
        .filter(versions::id.eq_any(ids))
        .select(VERSION_COLS)
        .load(conn)?)
}

/// (id, name, main branch) of these pacticipants.
pub fn pacticipants_by_ids(
    conn: &mut AnyConnection,
    ids: &[i64],
) -> Result<Vec<(i64, String, Option<String>)>, StoreError> {
    Ok(pacticipants::table
        .filter(pacticipants::id.eq_any(ids))
        .order(pacticipants::id.asc())
        .select((
            pacticipants::id,
            pacticipants::name,
            pacticipants::main_branch,
        ))
        .load(conn)?)
}
