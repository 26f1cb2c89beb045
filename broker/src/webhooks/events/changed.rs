//! What the fan-out of a publication decides from the ids it recorded:
//! whether its content changed (the Pact Broker's comparison, per tag or
//! with the previous untagged pact) and which provider versions must verify it.

use diesel::prelude::*;

use crate::db::AnyConnection;
use crate::schema::{deployed_versions, pact_publications as pp, released_versions, tags};
use crate::store::pacticipants::Pacticipant;
use crate::store::versions::{self, Version};
use crate::store::{StoreError, branches};

/// A publication, by ids: the consumer version's pact for the provider.
#[derive(Debug, Clone, Copy)]
pub struct Pact {
    pub consumer_id: i64,
    pub provider_id: i64,
    pub version_id: i64,
    pub content_id: i64,
}

/// Whether the content is new for the pair, compared as the Pact Broker
/// does (`find_previous_pacts`): when the consumer version has tags, with
/// the previous pact with each of its tags; otherwise with the previous
/// untagged pact. Branches are not consulted (the Pact Broker does not).
/// "Previous" is the newest pact of an older consumer version; a tag with
/// none (a first publication) counts as changed.
pub fn content_changed(conn: &mut AnyConnection, p: Pact) -> Result<bool, StoreError> {
    let tagged: Vec<String> = tags::table
        .filter(tags::version_id.eq(p.version_id))
        .select(tags::name)
        .load(conn)?;
    let groups: Vec<Among> = if tagged.is_empty() {
        vec![Among::Untagged]
    } else {
        tagged.into_iter().map(Among::Tag).collect()
    };
    for among in groups {
        if previous(conn, p, among)? != Some(p.content_id) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Which older pacts a publication is compared with.
enum Among {
    /// Those of consumer versions without tags.
    Untagged,
    /// Those of consumer versions with this tag.
    Tag(String),
}

/// The content of the pair's newest pact of a consumer version older than
/// `p`'s, among those `among` keeps.
fn previous(conn: &mut AnyConnection, p: Pact, among: Among) -> Result<Option<i64>, StoreError> {
    let of_consumer = tags::table.filter(tags::pacticipant_id.eq(p.consumer_id));
    let mut query = pp::table
        .filter(pp::consumer_id.eq(p.consumer_id))
        .filter(pp::provider_id.eq(p.provider_id))
        .filter(pp::consumer_version_id.lt(p.version_id))
        .order(pp::consumer_version_id.desc())
        .select(pp::pact_content_id)
        .into_boxed();
    match among {
        Among::Untagged => {
            query = query.filter(diesel::dsl::not(
                pp::consumer_version_id.eq_any(of_consumer.select(tags::version_id)),
            ));
        }
        Among::Tag(tag) => {
            query = query.filter(
                pp::consumer_version_id.eq_any(
                    of_consumer
                        .filter(tags::name.eq(tag))
                        .select(tags::version_id),
                ),
            );
        }
    }
    Ok(query.first(conn).optional()?)
}

/// The provider versions that must verify new content: the head of the
/// provider's main branch and every currently deployed or released version,
/// each once, and whether it is deployed or released.
pub fn verification_targets(
    conn: &mut AnyConnection,
    provider: &Pacticipant,
) -> Result<Vec<(Version, bool)>, StoreError> {
    let mut ids: Vec<(i64, bool)> = Vec::new();
    if let Some(main) = &provider.main_branch
        && let Some(branch) = branches::find_by_name(conn, provider.id, main)?
        && let Some(head) = branches::head(conn, branch.id)?
    {
        ids.push((head.id, false));
    }
    let deployed: Vec<i64> = deployed_versions::table
        .filter(deployed_versions::pacticipant_id.eq(provider.id))
        .filter(deployed_versions::undeployed_at.is_null())
        .select(deployed_versions::version_id)
        .load(conn)?;
    let released: Vec<i64> = released_versions::table
        .filter(released_versions::pacticipant_id.eq(provider.id))
        .filter(released_versions::support_ended_at.is_null())
        .select(released_versions::version_id)
        .load(conn)?;
    for id in deployed.into_iter().chain(released) {
        match ids.iter_mut().find(|(i, _)| *i == id) {
            Some(entry) => entry.1 = true,
            None => ids.push((id, true)),
        }
    }
    let mut out = Vec::new();
    for (id, live) in ids {
        if let Some(v) = versions::find_by_id(conn, id)? {
            out.push((v, live));
        }
    }
    Ok(out)
}
