//! A new consumer version's first publication in one statement where the
//! backend can (`store::pacts::first`), before the statement-by-statement
//! path of `record_version` and `publish_contract`.

use super::{Change, PublishedContract, RecordedVersion, VersionRequest};
use crate::contract::PreparedContract;
use crate::db::AnyConnection;
use crate::names::{BranchName, PacticipantName};
use crate::store::pacts::first::{self, FirstOutcome, FirstPublication, Missing};
use crate::store::versions::FoundForPublish;
use crate::store::{StoreError, branches};

/// What `publish_first` did. One per request, moved once: both variants
/// are rows, and boxing either would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum First {
    /// Published and committed.
    Done(RecordedVersion, PublishedContract),
    /// Nothing written: publish statement by statement, with what was read
    /// for `record_version_after` (None: nothing was asked).
    Then(Option<FoundForPublish>),
}

/// A request for a new version of `request.pacticipant` that publishes one
/// contract, on an existing branch (or none), without tags, for a pair no
/// webhook may select: one statement where the backend has it
/// (`store::pacts::first`), committed on its own — the same rows
/// `record_version` then `publish_contract` store for it. The content's
/// text is sent only when the first try says that nothing but the content
/// stood in the way (a second statement).
/// Anything else is `Then`, and nothing was written.
pub fn publish_first(
    conn: &mut AnyConnection,
    request: &VersionRequest,
    provider: &PacticipantName,
    contract: &PreparedContract,
) -> Result<First, StoreError> {
    if !request.tags.is_empty() || matches!(conn, AnyConnection::Sqlite(_)) {
        return Ok(First::Then(None));
    }
    let branch = request.branch.as_ref().map(BranchName::as_str);
    let mut first = FirstPublication {
        consumer: request.pacticipant.as_str(),
        provider: provider.as_str(),
        sha: &contract.sha,
        content: None,
        interactions: None,
        branch,
        number: request.number.as_str(),
        build_url: request.build_url.as_deref(),
        at: crate::store::now(),
        candidate: branch.is_some_and(|b| branches::MAIN_BRANCH_CANDIDATES.contains(&b)),
    };
    let mut outcome = first::publish(conn, first.clone())?;
    let text;
    if let FirstOutcome::NotPublished(_, Missing::Content) = &outcome {
        text = contract.document.to_string();
        first.content = Some(&text);
        first.interactions = Some(contract.interactions_count);
        outcome = first::publish(conn, first)?;
    }
    Ok(match outcome {
        FirstOutcome::Published {
            consumer,
            version,
            provider: stored,
            publication,
        } => {
            let recorded = RecordedVersion {
                provider: Some(stored.clone()).filter(|p| p.id != consumer.id),
                unhooked_provider: Some(provider.clone()),
                pacticipant: consumer,
                version,
                created: true,
            };
            let published = PublishedContract {
                provider: stored,
                publication,
                sha: contract.sha.clone(),
                content: None,
                change: Change::Created,
            };
            First::Done(recorded, published)
        }
        FirstOutcome::NotPublished(found, _) => First::Then(Some(found)),
        FirstOutcome::NotAsked => First::Then(None),
    })
}
