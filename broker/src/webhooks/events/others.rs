//! The events of a verification result, of a deployment or release, and
//! Accord's own (`admission_changed`, `drift_detected`).

use super::{Capture, Subscribers, fire_captured};
use crate::db::AnyConnection;
use crate::store::StoreError;
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::verifications::Verification;
use crate::store::versions::Version;
use crate::webhooks::outbox;
use crate::webhooks::params::Params;
use crate::webhooks::queue::Cause;

/// A stored verification result, as its events need it.
#[derive(Debug, Clone, Copy)]
pub struct Verified<'a> {
    pub consumer: &'a Pacticipant,
    pub provider: &'a Pacticipant,
    pub provider_version: &'a Version,
    pub verification: &'a Verification,
    pub sha: &'a str,
    /// The consumer versions the publish URL's metadata named (empty: the
    /// latest consumer version with this content).
    pub consumer_version_ids: &'a [i64],
}

/// `provider_verification_published` and `…_succeeded` or `…_failed`, one
/// per consumer version the result is for (expanded at fan-out).
pub fn verification_published(
    conn: &mut AnyConnection,
    base: &str,
    v: Verified<'_>,
) -> Result<(), StoreError> {
    let outcome = if v.verification.success {
        "provider_verification_succeeded"
    } else {
        "provider_verification_failed"
    };
    let pair = (
        Some(v.consumer.name.as_str()),
        Some(v.provider.name.as_str()),
    );
    let hooks = Subscribers::of_pair(conn, pair)?;
    let cause = Cause {
        consumer_id: Some(v.consumer.id),
        provider_id: Some(v.provider.id),
        verification_id: Some(v.verification.id),
        version_id: Some(v.provider_version.id),
        ..Cause::default()
    };
    let capture = Capture::Verification {
        base: base.to_owned(),
        sha: v.sha.to_owned(),
        consumer_version_ids: v.consumer_version_ids.to_vec(),
    };
    let events = ["provider_verification_published", outcome];
    fire_captured(conn, &hooks, &events, &capture, &cause)
}

/// `deployment_recorded` or `release_recorded` for `version` in
/// `environment`: the pacticipant fills both the consumer and the provider
/// parameters (it may be either); a webhook matches when it has no
/// selector or one of its selectors names the pacticipant.
pub fn placed(
    conn: &mut AnyConnection,
    event: &str,
    version: &Version,
    environment: &str,
) -> Result<(), StoreError> {
    accord_event(conn, event, version, &[("accord.environment", environment)])
}

/// Records one of Accord's events (`deployment_recorded`,
/// `release_recorded`, `admission_changed`, `drift_detected`) for a
/// pacticipant version, in the caller's transaction; `extra` sets
/// parameters such as `accord.environment`, `accord.admissionState` and
/// `accord.driftAction`.
pub fn accord_event(
    conn: &mut AnyConnection,
    event: &str,
    version: &Version,
    extra: &[(&str, &str)],
) -> Result<(), StoreError> {
    let pacticipant =
        pacticipants::find_by_id(conn, version.pacticipant_id)?.ok_or(StoreError::MissingRow {
            what: "pacticipant",
            id: version.pacticipant_id,
        })?;
    // the worker matches exactly (names and labels) when it fans out
    if !crate::webhooks::store::any_subscribed(conn, event)? {
        return Ok(());
    }
    let mut params = Params::new(event);
    params.consumer(conn, &pacticipant, version)?;
    params.provider(conn, &pacticipant, Some(version))?;
    for (k, v) in extra {
        params.set(k, *v);
    }
    let cause = Cause {
        consumer_id: Some(pacticipant.id),
        version_id: Some(version.id),
        ..Cause::default()
    };
    outbox::record(conn, event, &params.0, &cause, outbox::PACTICIPANT)?;
    Ok(())
}
