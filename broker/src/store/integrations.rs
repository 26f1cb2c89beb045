//! Integrations (consumer/provider pairs that have a contract) and the
//! counts behind `/metrics`.

use diesel::dsl::{count_star, max, min};
use diesel::prelude::*;

use super::StoreError;
use crate::db::AnyConnection;
use crate::schema::{
    deployed_versions, environments, pact_contents, pact_publications, pacticipants,
    released_versions, tags, verifications, versions,
};

/// A consumer/provider pair with at least one publication.
#[derive(Debug, Clone)]
pub struct Integration {
    pub consumer_id: i64,
    pub provider_id: i64,
    pub latest_pact_created_at: Option<chrono::NaiveDateTime>,
}

/// Every integration, by consumer and provider id.
pub fn list(conn: &mut AnyConnection) -> Result<Vec<Integration>, StoreError> {
    let rows: Vec<(i64, i64, Option<chrono::NaiveDateTime>)> = pact_publications::table
        .group_by((
            pact_publications::consumer_id,
            pact_publications::provider_id,
        ))
        .select((
            pact_publications::consumer_id,
            pact_publications::provider_id,
            max(pact_publications::created_at),
        ))
        .order((
            pact_publications::consumer_id,
            pact_publications::provider_id,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(consumer_id, provider_id, latest)| Integration {
            consumer_id,
            provider_id,
            latest_pact_created_at: latest,
        })
        .collect())
}

/// A count with the first and last time something was recorded.
#[derive(Debug, Clone, Default)]
pub struct Dated {
    pub count: i64,
    pub first: Option<chrono::NaiveDateTime>,
    pub last: Option<chrono::NaiveDateTime>,
}

/// What `/metrics` reports.
#[derive(Debug, Clone, Default)]
pub struct Counts {
    pub pacticipants: i64,
    pub pacticipants_with_main_branch: i64,
    pub integrations: i64,
    pub pact_publications: Dated,
    pub pact_versions: i64,
    pub verification_results: Dated,
    pub pacticipant_versions: i64,
    pub tags: i64,
    /// Rows of the full matrix: each publication once per verification of
    /// its content, or once when unverified.
    pub matrix: i64,
    pub environments: i64,
    pub deployed_versions: i64,
    pub currently_deployed: i64,
    pub released_versions: i64,
    pub currently_supported: i64,
}

/// Counts everything `/metrics` shows.
pub fn counts(conn: &mut AnyConnection) -> Result<Counts, StoreError> {
    let (pub_count, pub_first, pub_last) = pact_publications::table
        .select((
            count_star(),
            min(pact_publications::created_at),
            max(pact_publications::created_at),
        ))
        .first::<(
            i64,
            Option<chrono::NaiveDateTime>,
            Option<chrono::NaiveDateTime>,
        )>(conn)?;
    let (ver_count, ver_first, ver_last) = verifications::table
        .select((
            count_star(),
            min(verifications::execution_date),
            max(verifications::execution_date),
        ))
        .first::<(
            i64,
            Option<chrono::NaiveDateTime>,
            Option<chrono::NaiveDateTime>,
        )>(conn)?;
    Ok(Counts {
        pacticipants: pacticipants::table.count().get_result(conn)?,
        pacticipants_with_main_branch: pacticipants::table
            .filter(pacticipants::main_branch.is_not_null())
            .count()
            .get_result(conn)?,
        integrations: list(conn)?.len() as i64,
        pact_publications: Dated {
            count: pub_count,
            first: pub_first,
            last: pub_last,
        },
        pact_versions: pact_contents::table.count().get_result(conn)?,
        verification_results: Dated {
            count: ver_count,
            first: ver_first,
            last: ver_last,
        },
        pacticipant_versions: versions::table.count().get_result(conn)?,
        tags: tags::table.count().get_result(conn)?,
        matrix: pact_publications::table
            .left_join(
                verifications::table
                    .on(verifications::pact_content_id.eq(pact_publications::pact_content_id)),
            )
            .count()
            .get_result(conn)?,
        environments: environments::table.count().get_result(conn)?,
        deployed_versions: deployed_versions::table.count().get_result(conn)?,
        currently_deployed: deployed_versions::table
            .filter(deployed_versions::undeployed_at.is_null())
            .count()
            .get_result(conn)?,
        released_versions: released_versions::table.count().get_result(conn)?,
        currently_supported: released_versions::table
            .filter(released_versions::support_ended_at.is_null())
            .count()
            .get_result(conn)?,
    })
}
