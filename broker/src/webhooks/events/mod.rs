//! The events, each recorded in the outbox in the transaction of the change
//! that causes it (publish, verification publish, record-deployment,
//! record-release), once per change, when an enabled webhook that may
//! select it is subscribed; the worker fans it out to every enabled webhook
//! subscribed to it whose consumer and provider selectors match.
//!
//! A publication or a verification result records only what the worker
//! cannot read again later (the ids of its cause, the content's sha, the
//! broker's base URL, whether the publication changed the version's pact:
//! a [`Capture`]); the worker reads the names, branches, tags and labels
//! and decides `contract_content_changed` and the verification targets
//! when it fans the event out (`expand`), so a publish with fifty webhooks
//! pays one query and one insert more than one with none.

use std::collections::BTreeSet;

use super::outbox;
use super::queue::Cause;
use super::store;
use crate::db::AnyConnection;
use crate::store::StoreError;
use crate::store::pacticipants::Pacticipant;
use crate::store::pacts::Publication;
use crate::store::versions::Version;

mod changed;
mod expand;
mod others;

pub use expand::{Capture, expand};
pub use others::{Verified, accord_event, placed, verification_published};

/// A published pact, as the events of a publication need it.
#[derive(Debug, Clone, Copy)]
pub struct Published<'a> {
    pub consumer: &'a Pacticipant,
    pub version: &'a Version,
    pub provider: &'a Pacticipant,
    /// Its `pact_content_id` is the content's id.
    pub publication: &'a Publication,
    /// The content's sha.
    pub sha: &'a str,
    /// False for a re-publication of the same content for the same version.
    pub changed: bool,
    /// True when the caller read already that no enabled webhook may select
    /// the pair (`versions::find_with_pacticipant`): nothing to look up.
    pub unhooked: bool,
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

/// Records each of `events` that a webhook selecting the pair subscribes
/// to, with `capture` (the worker expands it into the parameters).
fn fire_captured(
    conn: &mut AnyConnection,
    hooks: &Subscribers,
    events: &[&str],
    capture: &Capture,
    cause: &Cause,
) -> Result<(), StoreError> {
    let wanted: Vec<&str> = events.iter().copied().filter(|e| hooks.any(&[e])).collect();
    if wanted.is_empty() {
        return Ok(());
    }
    outbox::record_captured(conn, &wanted, capture, cause, outbox::PAIR)
}

/// The events of one publication: `contract_published` (every one),
/// `contract_content_changed` (its content differs from the previous pact
/// of each of the version's branches, else of each of its tags, else the
/// pair's previous pact; or it is the first) and
/// `contract_requiring_verification_published` (one per provider version
/// that must verify the new content). The last two are decided at fan-out
/// (`expand`), from the ids recorded here.
pub fn pact_published(
    conn: &mut AnyConnection,
    base: &str,
    p: Published<'_>,
) -> Result<(), StoreError> {
    if p.unhooked {
        return Ok(());
    }
    let pair = (
        Some(p.consumer.name.as_str()),
        Some(p.provider.name.as_str()),
    );
    let hooks = Subscribers::of_pair(conn, pair)?;
    let events: &[&str] = if p.changed {
        &[
            "contract_published",
            "contract_content_changed",
            "contract_requiring_verification_published",
        ]
    } else {
        &["contract_published"]
    };
    let cause = Cause {
        consumer_id: Some(p.consumer.id),
        provider_id: Some(p.provider.id),
        pact_publication_id: Some(p.publication.id),
        version_id: Some(p.version.id),
        ..Cause::default()
    };
    let capture = Capture::Publication {
        base: base.to_owned(),
        content_id: p.publication.pact_content_id,
        sha: p.sha.to_owned(),
    };
    fire_captured(conn, &hooks, events, &capture, &cause)
}
