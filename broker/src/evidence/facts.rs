//! Gathers what the evidence judge needs about a provider version: its
//! current declared digests, the live consumer contracts of its provider,
//! each one's latest replay result by the version and that result's
//! evidence, and whether the live contracts hold authorization cases.

use std::collections::{BTreeMap, HashMap};

use accord_dsl::model::Contract;
use accord_dsl::model::accord::RefusalKind;
use diesel::dsl::max;
use diesel::prelude::*;

use super::judge::{Live, Replay};
use crate::api::declarations::Declaration;
use crate::api::declared::{check, cross_check};
use crate::api::findings::{Finding, Layer};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::schema::{verification_evidence as ve, verifications as v};
use crate::store::evidence::ResultEvidence;
use crate::store::verifications::Verification;
use crate::store::{ID_CHUNK, StoreError, admission, declarations};

/// How long a result's evidence lasts when its verifier did not say.
pub const DEFAULT_TTL_SECONDS: i64 = 7 * 24 * 3600;

/// The version's current declared digests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Digests {
    pub card: Option<String>,
    pub tools: BTreeMap<String, String>,
}

/// Everything the judge and the evidence record need.
#[derive(Debug, Default)]
pub struct Facts {
    pub digests: Digests,
    pub live: Vec<Live>,
    /// Content shas of the live contracts.
    pub contracts: Vec<String>,
    pub authorization_cases: bool,
    /// The replay results the live contracts rest on, with their evidence.
    pub results: Vec<(Verification, ResultEvidence)>,
}

/// Gathers the facts of version `version_id` of provider `provider_id`,
/// judging replays against `producer` (the producer digest being judged).
pub fn gather(
    conn: &mut AnyConnection,
    provider_id: i64,
    version_id: i64,
    producer: Option<&str>,
) -> Result<Facts, BrokerError> {
    let mut facts = Facts {
        digests: declared(conn, version_id)?,
        ..Facts::default()
    };
    let since = Restart {
        at: restart(conn, version_id)?,
        after_result: crate::store::evidence::last_on_other_producer(conn, version_id, producer)?,
    };
    let now = crate::store::now();
    let live = cross_check::live(conn, provider_id)?;
    let ids: Vec<i64> = live.iter().map(|(_, row, _)| row.id).collect();
    let mut replays = latest_replays(conn, &ids, version_id)?;
    for (entry, row, contract) in live {
        facts.authorization_cases |= has_authorization_case(&contract);
        facts.contracts.push(row.sha.clone());
        let numbers: Vec<&str> = entry.versions.iter().map(|(_, n)| n.as_str()).collect();
        let label = format!("{} {}", entry.consumer_name, numbers.join(", "));
        let replay = match replays.remove(&row.id) {
            Some((result, ev)) => {
                let replay = judge_one(&result, &ev, &facts.digests, producer, &since, now)?;
                facts.results.push((result, ev));
                Some(replay)
            }
            None => None,
        };
        facts.live.push(Live { label, replay });
    }
    Ok(facts)
}

/// The version's current card digest and tools digest per profile.
fn declared(conn: &mut AnyConnection, version_id: i64) -> Result<Digests, StoreError> {
    let mut digests = Digests::default();
    for d in declarations::current(conn, version_id)? {
        match d.kind.as_str() {
            check::CARD => digests.card = Some(d.digest),
            _ => {
                digests.tools.insert(d.profile, d.digest);
            }
        }
    }
    Ok(digests)
}

/// When the version's evidence last started over.
struct Restart {
    /// The latest declaration or move to DRAFT ([`restart`]).
    at: Option<chrono::NaiveDateTime>,
    /// The latest result recorded on another producer digest than the one
    /// judged: a digest A → B → A does not bring back results on A that
    /// were recorded before B.
    after_result: Option<i64>,
}

/// When the version's evidence last started over: the latest of its
/// current declarations, and its last move to DRAFT (a move a result
/// caused counts from that result, which is evidence on the new digest).
fn restart(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Option<chrono::NaiveDateTime>, StoreError> {
    let declared = declarations::current(conn, version_id)?
        .into_iter()
        .map(|d| d.declared_at)
        .max();
    let drafts = admission::list_for_version(conn, version_id)?;
    let last_draft = drafts.iter().rev().find(|t| t.to_state == "DRAFT");
    let draft = match last_draft {
        None => None,
        Some(t) if t.cause_kind == "verification" => match t.cause.parse::<i64>() {
            Ok(id) => find_result(conn, id)?.map(|r| r.execution_date),
            Err(_) => Some(t.created_at),
        },
        Some(t) => Some(t.created_at),
    };
    Ok(declared.max(draft))
}

fn find_result(conn: &mut AnyConnection, id: i64) -> Result<Option<Verification>, StoreError> {
    Ok(v::table
        .find(id)
        .select(Verification::as_select())
        .first(conn)
        .optional()?)
}

/// The latest result a verifier (not the static check) published for each
/// of contents `content_ids` by version `version_id`, with its stored
/// evidence or what a result without it (published before evidence
/// existed) amounts to: no producer digest, the default TTL. Three
/// queries per `ID_CHUNK` contents, whatever their number.
fn latest_replays(
    conn: &mut AnyConnection,
    content_ids: &[i64],
    version_id: i64,
) -> Result<HashMap<i64, (Verification, ResultEvidence)>, StoreError> {
    let mut out = HashMap::new();
    for chunk in content_ids.chunks(ID_CHUNK) {
        let latest: Vec<Option<i64>> = v::table
            .filter(v::pact_content_id.eq_any(chunk))
            .filter(v::provider_version_id.eq(version_id))
            .filter(v::kind.is_null())
            .group_by(v::pact_content_id)
            .select(max(v::id))
            .load(conn)?;
        let ids: Vec<i64> = latest.into_iter().flatten().collect();
        if ids.is_empty() {
            continue;
        }
        let results: Vec<Verification> = v::table
            .filter(v::id.eq_any(&ids))
            .select(Verification::as_select())
            .load(conn)?;
        let mut stored: HashMap<i64, ResultEvidence> = ve::table
            .filter(ve::verification_id.eq_any(&ids))
            .select(ResultEvidence::as_select())
            .load(conn)?
            .into_iter()
            .map(|e: ResultEvidence| (e.verification_id, e))
            .collect();
        for result in results {
            let ev = stored.remove(&result.id).unwrap_or_else(|| ResultEvidence {
                verification_id: result.id,
                producer_digest: None,
                profiles: "[]".into(),
                harness_version: "unknown".into(),
                expires_at: result.execution_date + chrono::TimeDelta::seconds(DEFAULT_TTL_SECONDS),
            });
            out.insert(result.pact_content_id, (result, ev));
        }
    }
    Ok(out)
}

fn corrupt(what: &'static str) -> impl FnOnce(serde_json::Error) -> BrokerError {
    move |source| StoreError::CorruptJson { what, source }.into()
}

/// One result judged against the version's digests and producer digest.
fn judge_one(
    result: &Verification,
    ev: &ResultEvidence,
    digests: &Digests,
    producer: Option<&str>,
    since: &Restart,
    now: chrono::NaiveDateTime,
) -> Result<Replay, BrokerError> {
    let declared: Vec<Declaration> = match &result.declarations {
        Some(text) => serde_json::from_str(text).map_err(corrupt("verification declarations"))?,
        None => Vec::new(),
    };
    let findings: Vec<Finding> =
        serde_json::from_str(&result.findings).map_err(corrupt("verification findings"))?;
    let codes = |only_auth: bool| -> Vec<String> {
        let mut out: Vec<String> = findings
            .iter()
            .filter(|f| !only_auth || f.layer == Layer::Authorization)
            .map(|f| f.reason_code.clone())
            .collect();
        out.dedup();
        out
    };
    Ok(Replay {
        verification_id: result.id,
        success: result.success,
        on_declared_digests: on_digests(&declared, digests),
        before_restart: since.at.is_some_and(|s| result.execution_date < s)
            || since.after_result.is_some_and(|id| result.id < id),
        on_producer_digest: ev.producer_digest.as_deref() == producer,
        expired: (ev.expires_at <= now).then(|| crate::api::time(ev.expires_at)),
        codes: codes(false),
        authorization_codes: codes(true),
    })
}

/// True when the result names at least one declaration and each it names
/// is the version's current one of that kind and profile.
fn on_digests(declared: &[Declaration], digests: &Digests) -> bool {
    !declared.is_empty()
        && declared.iter().all(|d| match d.kind.as_str() {
            check::CARD => digests.card.as_deref() == Some(d.digest.as_str()),
            check::TOOLS => digests.tools.get(&d.profile) == Some(&d.digest),
            _ => false,
        })
}

/// An authorization case: a negative of kind unauthenticated or
/// cross_tenant, or a `probe_as` (probes of what an interaction created).
pub fn has_authorization_case(c: &Contract) -> bool {
    c.interactions.iter().any(|i| {
        let e = &i.meta().expectations;
        let kind = e.negative.kind();
        matches!(
            kind,
            Some(RefusalKind::Unauthenticated | RefusalKind::CrossTenant)
        ) || e.auth.as_ref().is_some_and(|a| !a.probes.is_empty())
    })
}
