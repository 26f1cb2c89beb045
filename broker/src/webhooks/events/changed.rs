//! What the fan-out of a publication decides from the ids it recorded:
//! whether its content changed (the Pact Broker's comparison, per branch
//! or per tag) and which provider versions must verify it.

use diesel::prelude::*;

use crate::db::AnyConnection;
use crate::schema::{
    branch_versions, deployed_versions, pact_publications as pp, released_versions, tags,
};
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
/// does: when the consumer version is on branches, with the previous pact
/// on each of them; otherwise, when it has tags, with the previous pact
/// with each of its tags; otherwise with the pair's previous pact.
/// "Previous" is the newest pact of an older consumer version; a branch or
/// tag with none (a first publication) counts as changed.
pub fn content_changed(conn: &mut AnyConnection, p: Pact) -> Result<bool, StoreError> {
    let on: Vec<i64> = branch_versions::table
        .filter(branch_versions::version_id.eq(p.version_id))
        .select(branch_versions::branch_id)
        .load(conn)?;
    let tagged: Vec<String> = if on.is_empty() {
        tags::table
            .filter(tags::version_id.eq(p.version_id))
            .select(tags::name)
            .load(conn)?
    } else {
        Vec::new()
    };
    let groups: Vec<Among> = if !on.is_empty() {
        on.into_iter().map(Among::Branch).collect()
    } else if !tagged.is_empty() {
        tagged.into_iter().map(Among::Tag).collect()
    } else {
        vec![Among::All]
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
    /// The pair's.
    All,
    /// Those of consumer versions on this branch (by id).
    Branch(i64),
    /// Those of consumer versions with this tag.
    Tag(String),
}

/// The content of the pair's newest pact of a consumer version older than
/// `p`'s, among those `among` keeps.
fn previous(conn: &mut AnyConnection, p: Pact, among: Among) -> Result<Option<i64>, StoreError> {
    let mut query = pp::table
        .filter(pp::consumer_id.eq(p.consumer_id))
        .filter(pp::provider_id.eq(p.provider_id))
        .filter(pp::consumer_version_id.lt(p.version_id))
        .order(pp::consumer_version_id.desc())
        .select(pp::pact_content_id)
        .into_boxed();
    match among {
        Among::All => {}
        Among::Branch(branch) => {
            query = query.filter(
                pp::consumer_version_id.eq_any(
                    branch_versions::table
                        .filter(branch_versions::branch_id.eq(branch))
                        .select(branch_versions::version_id),
                ),
            );
        }
        Among::Tag(tag) => {
            query = query.filter(
                pp::consumer_version_id.eq_any(
                    tags::table
                        .filter(tags::pacticipant_id.eq(p.consumer_id))
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
