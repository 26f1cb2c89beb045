//! The fan-out side of a publication's and a verification result's events:
//! the change recorded a [`Capture`] (ids, the content's sha, the base URL)
//! and the worker reads everything else when it fans the event out — the
//! names, branches, tags and labels as they are then (the Pact Broker also
//! renders them when it executes a webhook), whether the content changed
//! and which provider versions must verify it.

use diesel::prelude::*;
use serde::{Deserialize, Serialize};

use super::changed::{self, Pact};
use crate::db::AnyConnection;
use crate::hal::encode_segment;
use crate::schema::{pact_publications, verifications, versions as vt};
use crate::store::StoreError;
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::verifications::Verification;
use crate::store::versions::{self, Version};
use crate::webhooks::outbox::Event;
use crate::webhooks::params::Params;

/// What a change records for the worker to expand, as the event's
/// `context` (an event of Accord's own records its parameters instead).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "capture",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Capture {
    /// A publication (the cause's consumer, provider and consumer version).
    Publication {
        base: String,
        content_id: i64,
        sha: String,
    },
    /// A verification result (the cause's consumer, provider, provider
    /// version and verification); the consumer versions its publish URL's
    /// metadata named (empty: the newest with its content).
    Verification {
        base: String,
        sha: String,
        consumer_version_ids: Vec<i64>,
    },
}

/// The parameter sets (JSON) a recorded event fans out with: its own
/// parameters when it recorded them; for a capture, one set per target
/// (none when the event did not happen after all, e.g. unchanged content,
/// or its cause was deleted before the fan-out).
pub fn expand(conn: &mut AnyConnection, event: &Event) -> Result<Vec<String>, StoreError> {
    let Ok(capture) = serde_json::from_str::<Capture>(&event.context) else {
        return Ok(vec![event.context.clone()]);
    };
    let sets = match capture {
        Capture::Publication {
            base,
            content_id,
            sha,
        } => publication(conn, event, &base, content_id, &sha)?,
        Capture::Verification {
            base,
            sha,
            consumer_version_ids,
        } => verification(conn, event, &base, &sha, &consumer_version_ids)?,
    };
    sets.iter()
        .map(|p| {
            serde_json::to_string(&p.0).map_err(|source| StoreError::CorruptJson {
                what: "webhook event context",
                source,
            })
        })
        .collect()
}

/// The consumer, the provider and the version (the consumer's for a
/// publication, the provider's for a result) of an event, if all remain.
struct Subjects {
    consumer: Pacticipant,
    provider: Pacticipant,
    version: Version,
}

impl Subjects {
    fn load(conn: &mut AnyConnection, event: &Event) -> Result<Option<Subjects>, StoreError> {
        let (Some(c), Some(p), Some(v)) = (event.consumer_id, event.provider_id, event.version_id)
        else {
            return Ok(None);
        };
        let consumer = pacticipants::find_by_id(conn, c)?;
        let provider = pacticipants::find_by_id(conn, p)?;
        let version = versions::find_by_id(conn, v)?;
        Ok(match (consumer, provider, version) {
            (Some(consumer), Some(provider), Some(version)) => Some(Subjects {
                consumer,
                provider,
                version,
            }),
            _ => None,
        })
    }
}

fn publication(
    conn: &mut AnyConnection,
    event: &Event,
    base: &str,
    content_id: i64,
    sha: &str,
) -> Result<Vec<Params>, StoreError> {
    let Some(s) = Subjects::load(conn, event)? else {
        return Ok(Vec::new());
    };
    let mut params = Params::new(&event.event_name);
    params.consumer(conn, &s.consumer, &s.version)?;
    params.provider(conn, &s.provider, None)?;
    params.pact_url(base, &s.consumer.name, &s.provider.name, sha, &s.version);
    if event.event_name == "contract_published" {
        return Ok(vec![params]);
    }
    let pact = Pact {
        consumer_id: s.consumer.id,
        provider_id: s.provider.id,
        version_id: s.version.id,
        content_id,
    };
    if !changed::content_changed(conn, pact)? {
        return Ok(Vec::new());
    }
    if event.event_name == "contract_requiring_verification_published" {
        return requiring_verification(conn, &s.provider, content_id, params);
    }
    Ok(vec![params])
}

/// One set per provider version that must verify the content and has not
/// yet; none when there is no such version (a provider without a main-branch
/// head and nothing deployed or released), as in the Pact Broker, whose
/// expansion over the required verifications yields nothing then.
fn requiring_verification(
    conn: &mut AnyConnection,
    provider: &Pacticipant,
    content_id: i64,
    params: Params,
) -> Result<Vec<Params>, StoreError> {
    let targets = changed::verification_targets(conn, provider)?;
    let mut out = Vec::new();
    for (version, live) in targets {
        let verified: i64 = verifications::table
            .filter(verifications::pact_content_id.eq(content_id))
            .filter(verifications::provider_version_id.eq(version.id))
            .count()
            .get_result(conn)?;
        if verified > 0 {
            continue;
        }
        let mut target = params.clone();
        target.provider(conn, provider, Some(&version))?;
        target.set(
            "providerVersionDescriptions",
            description(&version, live, provider),
        );
        if live {
            target.set(
                "currentlyDeployedProviderVersionNumber",
                version.number.clone(),
            );
        }
        out.push(target);
    }
    Ok(out)
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

/// One set per consumer version the result is for.
fn verification(
    conn: &mut AnyConnection,
    event: &Event,
    base: &str,
    sha: &str,
    consumer_version_ids: &[i64],
) -> Result<Vec<Params>, StoreError> {
    let Some(s) = Subjects::load(conn, event)? else {
        return Ok(Vec::new());
    };
    let Some(id) = event.verification_id else {
        return Ok(Vec::new());
    };
    let Some(v) = verifications::table
        .find(id)
        .select(Verification::as_select())
        .first(conn)
        .optional()?
    else {
        return Ok(Vec::new());
    };
    let result_url = format!(
        "{base}/pacts/provider/{}/consumer/{}/pact-version/{}/verification-results/{}",
        encode_segment(&s.provider.name),
        encode_segment(&s.consumer.name),
        encode_segment(sha),
        v.number
    );
    let mut out = Vec::new();
    for consumer_version in consumer_versions(conn, s.consumer.id, &v, consumer_version_ids)? {
        let mut params = Params::new(&event.event_name);
        params.consumer(conn, &s.consumer, &consumer_version)?;
        params.provider(conn, &s.provider, Some(&s.version))?;
        params.pact_url(
            base,
            &s.consumer.name,
            &s.provider.name,
            sha,
            &consumer_version,
        );
        params.verification_status(Some(v.success));
        params.set("buildUrl", v.build_url.clone().unwrap_or_default());
        params.set("verificationResultUrl", result_url.clone());
        out.push(params);
    }
    Ok(out)
}

/// The consumer versions named (those of this consumer), else the newest
/// with the result's content.
fn consumer_versions(
    conn: &mut AnyConnection,
    consumer_id: i64,
    v: &Verification,
    named: &[i64],
) -> Result<Vec<Version>, StoreError> {
    let named: Vec<Version> = versions::find_by_ids(conn, named)?
        .into_iter()
        .filter(|cv| cv.pacticipant_id == consumer_id)
        .collect();
    if !named.is_empty() {
        return Ok(named);
    }
    Ok(pact_publications::table
        .inner_join(vt::table)
        .filter(pact_publications::pact_content_id.eq(v.pact_content_id))
        .order(vt::id.desc())
        .select(Version::as_select())
        .first(conn)
        .optional()?
        .into_iter()
        .collect())
}
