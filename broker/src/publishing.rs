//! Publishing contracts inside the caller's transaction: the consumer
//! version (created or updated with build URL, branch and tags), then for
//! each contract its content stored once per sha and the publication that
//! links consumer version + provider → content.
//!
//! Shared by `POST /contracts/publish` and the legacy `PUT`/`PATCH`.

use crate::contract::merge::{MergeConflict, merge};
use crate::contract::{ContentError, PreparedContract, diff, prepare, pretty_for_diff};
use crate::db::AnyConnection;
use crate::names::{BranchName, PacticipantName, TagName, VersionNumber};
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::pacts::{self, NewContent, PactContent, Publication, PublishedPact};
use crate::store::versions::{self, FoundForPublish, Version};
use crate::store::{StoreError, branches, tags};

mod first;
pub use first::{First, publish_first};

/// The consumer version a publication is for.
#[derive(Debug, Clone)]
pub struct VersionRequest {
    pub pacticipant: PacticipantName,
    pub number: VersionNumber,
    pub branch: Option<BranchName>,
    pub tags: Vec<TagName>,
    pub build_url: Option<String>,
}

/// The consumer version after recording it.
#[derive(Debug, Clone)]
pub struct RecordedVersion {
    pub pacticipant: Pacticipant,
    pub version: Version,
    /// True when this request created the version.
    pub created: bool,
    /// The provider named to `record_version`, when it was stored already
    /// (read with the consumer; `None` for the consumer itself).
    pub provider: Option<Pacticipant>,
    /// The provider named to `record_version` when no enabled webhook may
    /// select its pair with this consumer (read with the consumer): its
    /// publication's events need no look-up.
    pub unhooked_provider: Option<PacticipantName>,
}

/// Creates the pacticipant and version if needed, sets the build URL, puts
/// the version on its branch, tags it, and sets the main branch from a
/// `develop`/`main`/`master` branch or tag when none is set.
///
/// The version's row lock is held from here to the end of the transaction
/// (`versions::lock`): concurrent publications for one consumer version
/// queue, and each reads what the one before it committed, so a merge never
/// works on a stale pact and a racing first publication sees the winner's.
///
/// Statements are spent only where the answer is not known yet: the
/// pacticipant, the version, the `provider` the request publishes for
/// (its first, when several) and whether a webhook may select that pair
/// are read together; a version this request
/// inserted is already its own (no lock, no branch or tag look-ups: they
/// are inserts that tolerate a duplicate, the branch found by the insert
/// itself); a pacticipant whose main branch is set is not asked again.
pub fn record_version(
    conn: &mut AnyConnection,
    request: &VersionRequest,
    provider: Option<&PacticipantName>,
) -> Result<RecordedVersion, StoreError> {
    record_version_after(conn, request, provider, None)
}

/// `record_version`, given what its first statement reads when it was
/// read already (by `publish_first`, outside the transaction: under read
/// committed each statement reads what is committed when it starts, inside
/// a transaction or not, and the version is locked and read again here).
pub fn record_version_after(
    conn: &mut AnyConnection,
    request: &VersionRequest,
    provider: Option<&PacticipantName>,
    read: Option<FoundForPublish>,
) -> Result<RecordedVersion, StoreError> {
    let consumer = request.pacticipant.as_str();
    let also = provider.map_or(consumer, PacticipantName::as_str);
    let found = match read {
        Some(found) => found,
        None => versions::find_with_pacticipant(conn, consumer, request.number.as_str(), also)?,
    };
    let unhooked_provider = provider.filter(|_| found.webhooks == Some(false)).cloned();
    let provider = found.also;
    let (pacticipant, found) = match found.consumer {
        Some(both) => both,
        None => (
            pacticipants::find_or_create(conn, &request.pacticipant)?,
            None,
        ),
    };
    let (mut version, created) = locked_version(conn, pacticipant.id, request, found)?;
    if !created && request.build_url.is_some() && version.build_url != request.build_url {
        version = versions::update_build_url(conn, version.id, request.build_url.as_deref())?;
    }
    if let Some(name) = &request.branch {
        put_on_branch(conn, pacticipant.id, name, version.id, created)?;
    }
    tags::add_all(conn, &version, &request.tags)?;
    let pacticipant = detect_main_branch(conn, pacticipant, request)?;
    Ok(RecordedVersion {
        provider: provider.filter(|p| p.id != pacticipant.id),
        pacticipant,
        version,
        created,
        unhooked_provider,
    })
}

/// Puts the version on branch `name` of its pacticipant, creating the
/// branch if needed. A version this request `created` is on no branch
/// yet, so one insert that finds the branch by name does it when the
/// branch exists; otherwise the branch is found or made first.
fn put_on_branch(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    name: &BranchName,
    version_id: i64,
    created: bool,
) -> Result<(), StoreError> {
    if created && branches::add_version_by_name(conn, pacticipant_id, name, version_id)? {
        return Ok(());
    }
    let branch = branches::find_or_create(conn, pacticipant_id, name)?;
    branches::add_version(conn, &branch, version_id)
}

/// The version `request` names, locked: `found` (the row read with the
/// pacticipant) locked, or inserted by this request (true). A version
/// deleted between reading and locking it is made again; one created by a
/// concurrent request between reading and inserting is read and locked.
fn locked_version(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    request: &VersionRequest,
    mut found: Option<Version>,
) -> Result<(Version, bool), StoreError> {
    loop {
        if let Some(row) = found.take()
            && let Some(locked) = versions::lock(conn, row.id)?
        {
            return Ok((locked, false));
        }
        let build_url = request.build_url.as_deref();
        if let Some(inserted) =
            versions::insert_unless_taken(conn, pacticipant_id, &request.number, build_url)?
        {
            return Ok((inserted, true));
        }
        found = versions::find_by_number(conn, pacticipant_id, request.number.as_str())?;
    }
}

/// Sets the pacticipant's main branch from the first `develop`/`main`/
/// `master` among the request's branch and tags, when it has none yet;
/// returns the pacticipant as stored.
fn detect_main_branch(
    conn: &mut AnyConnection,
    pacticipant: Pacticipant,
    request: &VersionRequest,
) -> Result<Pacticipant, StoreError> {
    if pacticipant.main_branch.is_some() {
        return Ok(pacticipant);
    }
    let names = request.branch.iter().map(BranchName::as_str);
    for name in names.chain(request.tags.iter().map(TagName::as_str)) {
        if branches::auto_detect_main_branch(conn, pacticipant.id, name)? {
            let id = pacticipant.id;
            return pacticipants::find_by_id(conn, id)?.ok_or(StoreError::MissingRow {
                what: "pacticipant",
                id,
            });
        }
    }
    Ok(pacticipant)
}

/// What to do when the consumer version already has a different pact for
/// the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnConflict {
    /// Refuse the change (409): Pact's default since 2.102.
    #[default]
    Overwrite,
    /// Add the new interactions to the stored ones.
    Merge,
}

/// How a publication went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The first pact of this consumer version for the provider.
    Created,
    /// The same content again (accepted silently).
    Unchanged,
    /// New interactions merged into the stored pact.
    Merged,
}

/// A stored publication.
#[derive(Debug, Clone)]
pub struct PublishedContract {
    pub provider: Pacticipant,
    /// Its `pact_content_id` is the stored content's id.
    pub publication: Publication,
    /// The stored content's sha.
    pub sha: String,
    /// The stored content's row, when the publication read or wrote it
    /// (`None`: one statement linked the version to content stored before,
    /// without reading its text).
    pub content: Option<PactContent>,
    pub change: Change,
}

/// Why a contract could not be published.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Different content for a consumer version that already has a pact.
    #[error("the content of the pact changed")]
    ContentChanged {
        /// Unified diff, stored → new, of the pretty-printed contents.
        diff: String,
    },
    /// A merge found the same interaction with other content.
    #[error(transparent)]
    MergeConflict(#[from] MergeConflict),
    /// The merged document is not a valid contract.
    #[error(transparent)]
    Refused(#[from] ContentError),
}

/// Publishes `contract` for the recorded consumer version, after the
/// contracts this request published already (`earlier`).
///
/// A version this request created has no pact but those in `earlier`, so
/// the stored pact is looked up only for a version that existed before.
pub fn publish_contract(
    conn: &mut AnyConnection,
    recorded: &RecordedVersion,
    earlier: &[PublishedContract],
    provider_name: &PacticipantName,
    contract: PreparedContract,
    on_conflict: OnConflict,
) -> Result<PublishedContract, PublishError> {
    let (consumer, version) = (&recorded.pacticipant, &recorded.version);
    let provider = match &recorded.provider {
        Some(known) if known.name == provider_name.as_str() => known.clone(),
        _ => pacticipants::find_or_create(conn, provider_name)?,
    };
    let may_exist = !recorded.created || earlier.iter().any(|p| p.provider.id == provider.id);
    let existing = if may_exist {
        pacts::find_pact(conn, version.id, provider.id)?
    } else {
        None
    };
    let (contract, change) = against_existing(existing.as_ref(), contract, on_conflict)?;
    if change == Change::Created
        && let Some(publication) = pacts::insert_publication_of_sha(
            conn,
            version.id,
            consumer.id,
            provider.id,
            &contract.sha,
        )?
    {
        return Ok(PublishedContract {
            provider,
            publication,
            sha: contract.sha,
            content: None,
            change,
        });
    }
    let text = contract.document.to_string();
    let new = NewContent {
        sha: &contract.sha,
        consumer_id: consumer.id,
        provider_id: provider.id,
        content: &text,
        interactions_count: contract.interactions_count,
    };
    // a first publication found no content with its sha just now
    let content = if change == Change::Created {
        pacts::insert_content(conn, &new)?
    } else {
        pacts::find_or_insert_content(conn, &new)?
    };
    let publication = if change == Change::Created {
        pacts::insert_publication(conn, version.id, consumer.id, provider.id, content.id)?
    } else {
        pacts::publish(conn, version.id, consumer.id, provider.id, content.id)?
    };
    Ok(PublishedContract {
        provider,
        publication,
        sha: content.sha.clone(),
        content: Some(content),
        change,
    })
}

/// What to store given the consumer version's pact for the provider, if
/// any: the contract itself (new or unchanged), the merge of both, or a
/// refusal with the diff.
fn against_existing(
    existing: Option<&PublishedPact>,
    contract: PreparedContract,
    on_conflict: OnConflict,
) -> Result<(PreparedContract, Change), PublishError> {
    let old = match existing {
        None => return Ok((contract, Change::Created)),
        Some(old) if old.content.sha == contract.sha => return Ok((contract, Change::Unchanged)),
        Some(old) => old,
    };
    let stored: serde_json::Value =
        serde_json::from_str(&old.content.content).map_err(|source| StoreError::CorruptJson {
            what: "pact content",
            source,
        })?;
    match on_conflict {
        OnConflict::Overwrite => {
            let diff = diff::unified_diff(
                &pretty_for_diff(&stored),
                &pretty_for_diff(&contract.document),
                "published before",
                "published now",
            );
            Err(PublishError::ContentChanged { diff })
        }
        OnConflict::Merge => {
            let merged = prepare(merge(&stored, &contract.document)?)?;
            let change = if merged.sha == old.content.sha {
                Change::Unchanged
            } else {
                Change::Merged
            };
            Ok((merged, change))
        }
    }
}
