//! The events, each recorded in the outbox in the transaction of the change
//! that causes it (publish, verification publish, record-deployment,
//! record-release), once per change, when an enabled webhook that may
//! select it is subscribed; the worker fans it out to every enabled webhook
//! subscribed to it whose consumer and provider selectors match.

use std::collections::BTreeSet;

use diesel::prelude::*;

use super::outbox;
use super::params::Params;
use super::queue::Cause;
use super::store;
use crate::db::AnyConnection;
use crate::schema::{deployed_versions, pact_publications, released_versions, verifications};
use crate::store::pacticipants::Pacticipant;
use crate::store::pacts::{PactContent, Publication};
use crate::store::versions::{self, Version};
use crate::store::{StoreError, branches};

/// A published pact, as the events of a publication need it.
#[derive(Debug, Clone, Copy)]
pub struct Published<'a> {
    pub consumer: &'a Pacticipant,
    pub version: &'a Version,
    pub provider: &'a Pacticipant,
    pub publication: &'a Publication,
    pub content: &'a PactContent,
    /// False for a re-publication of the same content for the same version.
    pub changed: bool,
}

/// The events the enabled webhooks that may select one pair (by name, or
/// by a label the worker checks) subscribe to: read once per change, as the
/// distinct `events` lists (fifty webhooks on the same events are one row).
pub(crate) struct Subscribers(BTreeSet<String>);

impl Subscribers {
    /// The events of the webhooks that may select this pair.
    pub(crate) fn of_pair(
        conn: &mut AnyConnection,
        pair: (Option<&str>, Option<&str>),
    ) -> Result<Subscribers, StoreError> {
        let mut out = BTreeSet::new();
        for list in store::event_lists_for_pair(conn, pair.0, pair.1)? {
            out.extend(store::parse_events(&list)?);
        }
        Ok(Subscribers(out))
    }

    /// Whether any is subscribed to one of `events`.
    pub(crate) fn any(&self, events: &[&str]) -> bool {
        events.iter().any(|e| self.0.contains(*e))
    }
}

/// Records `event` with `params` in the outbox, once, when a webhook that
/// may select the pair is subscribed to it (the worker matches exactly).
pub(crate) fn fire(
    conn: &mut AnyConnection,
    hooks: &Subscribers,
    event: &str,
    params: &Params,
    cause: &Cause,
) -> Result<(), StoreError> {
    if !hooks.any(&[event]) {
        return Ok(());
    }
    outbox::record(conn, event, &params.0, cause, outbox::PAIR)
}

/// The events of one publication: `contract_published` (every one),
/// `contract_content_changed` (its content differs from the pair's previous
/// consumer version's, or it is the pair's first) and
/// `contract_requiring_verification_published` (one per provider version
/// that must verify the new content).
pub fn pact_published(
    conn: &mut AnyConnection,
    base: &str,
    p: Published<'_>,
) -> Result<(), StoreError> {
    let pair = (
        Some(p.consumer.name.as_str()),
        Some(p.provider.name.as_str()),
    );
    let cause = Cause {
        consumer_id: Some(p.consumer.id),
        provider_id: Some(p.provider.id),
        pact_publication_id: Some(p.publication.id),
        version_id: Some(p.version.id),
        ..Cause::default()
    };
    let wanted = [
        "contract_published",
        "contract_content_changed",
        "contract_requiring_verification_published",
    ];
    let hooks = Subscribers::of_pair(conn, pair)?;
    if !hooks.any(&wanted) {
        return Ok(());
    }
    let mut params = Params::new("contract_published");
    params.consumer(conn, p.consumer, p.version)?;
    params.provider(conn, p.provider, None)?;
    params.pact_url(
        base,
        &p.consumer.name,
        &p.provider.name,
        &p.content.sha,
        p.version,
    );
    fire(conn, &hooks, "contract_published", &params, &cause)?;
    if !p.changed || !content_changed(conn, &p)? {
        return Ok(());
    }
    params.set("eventName", "contract_content_changed");
    fire(conn, &hooks, "contract_content_changed", &params, &cause)?;
    requiring_verification(conn, &p, &hooks, params, &cause)
}

/// Whether the content differs from the pact of the pair's previous
/// consumer version (or there is none).
fn content_changed(conn: &mut AnyConnection, p: &Published<'_>) -> Result<bool, StoreError> {
    let previous: Option<i64> = pact_publications::table
        .filter(pact_publications::consumer_id.eq(p.consumer.id))
        .filter(pact_publications::provider_id.eq(p.provider.id))
        .filter(pact_publications::consumer_version_id.lt(p.version.id))
        .order(pact_publications::consumer_version_id.desc())
        .select(pact_publications::pact_content_id)
        .first(conn)
        .optional()?;
    Ok(previous != Some(p.content.id))
}

/// The provider versions that must verify new content: the head of the
/// provider's main branch and every currently deployed or released version,
/// each once, with the number it is deployed as.
fn verification_targets(
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

fn requiring_verification(
    conn: &mut AnyConnection,
    p: &Published<'_>,
    hooks: &Subscribers,
    mut params: Params,
    cause: &Cause,
) -> Result<(), StoreError> {
    let event = "contract_requiring_verification_published";
    if !hooks.any(&[event]) {
        return Ok(());
    }
    params.set("eventName", event);
    let targets = verification_targets(conn, p.provider)?;
    if targets.is_empty() {
        // a provider with no main-branch head and nothing deployed: one
        // event without a provider version, so its CI builds its default
        fire(conn, hooks, event, &params, cause)?;
        return Ok(());
    }
    for (version, live) in targets {
        let verified: i64 = verifications::table
            .filter(verifications::pact_content_id.eq(p.content.id))
            .filter(verifications::provider_version_id.eq(version.id))
            .count()
            .get_result(conn)?;
        if verified > 0 {
            continue;
        }
        let mut target = params.clone();
        target.provider(conn, p.provider, Some(&version))?;
        target.set(
            "providerVersionDescriptions",
            description(&version, live, p.provider),
        );
        if live {
            target.set(
                "currentlyDeployedProviderVersionNumber",
                version.number.clone(),
            );
        }
        fire(conn, hooks, event, &target, cause)?;
    }
    Ok(())
}

fn description(version: &Version, live: bool, provider: &Pacticipant) -> String {
    if live {
        format!(
            "deployed or released version {} of {}",
            version.number, provider.name
        )
    } else {
        format!(
            "latest version {} from the main branch {}",
            version.number,
            provider.main_branch.as_deref().unwrap_or("")
        )
    }
}

mod others;

pub use others::{Verified, accord_event, placed, verification_published};
