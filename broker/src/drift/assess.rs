//! Judging a stored drift report and acting on it, inside the request's
//! transaction: compare the observed digests with the verified ones, name
//! the live consumer contracts that rely on what changed, apply the
//! provider's policy, record every action with the report behind it, and
//! quarantine the version when the policy says so.

use serde_json::{Value, json};

use std::collections::BTreeMap;

use super::judge::{self, Drifted, Verdict};
use super::policy::{self, Action, Policy, PolicySignal, Step};
use super::report::DriftReportRequest;
use super::verified::Verified;
use crate::admission::{AdmissionState, Cause};
use crate::api::declarations::Declaration;
use crate::audience::Audience;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::parsed;
use crate::selection::{self, request::VerificationQuery};
use crate::store::admission;
use crate::store::drift_actions::{self, NewDriftAction};
use crate::store::drift_reports::{self, DriftReportRow};
use crate::store::{StoreError, deployments, drift_policies};

/// A live consumer contract that relies on what changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Affected {
    pub consumer: String,
    /// The live consumer versions with this contract.
    pub versions: Vec<String>,
    pub sha: String,
    /// `card`, `tools` or both: what it relies on that differs.
    pub relies_on: Vec<&'static str>,
    /// What the drift does to it, by its own expectations.
    pub verdict: Verdict,
}

impl Affected {
    /// The sentence shown with it.
    pub fn note(&self) -> String {
        let label = format!("{} {}", self.consumer, self.versions.join(", "));
        judge::note(&self.verdict, &self.relies_on, &label)
    }

    /// As the API shows it (the report's answer, the ladder).
    pub fn to_json(&self) -> Value {
        let breaks: Vec<Value> = match &self.verdict {
            Verdict::Breaks(b) => b
                .iter()
                .map(|b| json!({"code": b.code, "path": b.path, "detail": b.detail}))
                .collect(),
            _ => Vec::new(),
        };
        json!({
            "consumer": self.consumer, "versions": self.versions, "sha": self.sha,
            "reliesOn": self.relies_on, "verdict": self.verdict.as_str(),
            "breaks": breaks, "note": self.note(),
        })
    }
}

/// What the broker made of a report.
#[derive(Debug, Clone)]
pub struct Assessment {
    pub verified: Verified,
    pub card_differs: bool,
    /// Profiles whose observed tools digest is not a verified one.
    pub tools_differ: Vec<String>,
    pub affected: Vec<Affected>,
    pub steps: Vec<Step>,
    /// The version's admission state after the report.
    pub admission: AdmissionState,
}

/// Where a report landed: its provider, version and environment.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub provider_id: i64,
    pub environment: &'a str,
}

/// The verified digests of a provider version.
pub fn verified(conn: &mut AnyConnection, version_id: i64) -> Result<Verified, BrokerError> {
    let mut all: Vec<Declaration> = Vec::new();
    for text in drift_reports::verified_declarations(conn, version_id)? {
        let list: Vec<Declaration> =
            serde_json::from_str(&text).map_err(|source| StoreError::CorruptJson {
                what: "verification declarations",
                source,
            })?;
        all.extend(list);
    }
    Ok(Verified::collect(&all))
}

/// The provider's policy (the defaults when it has none).
pub fn policy_of(conn: &mut AnyConnection, provider_id: i64) -> Result<Policy, BrokerError> {
    match drift_policies::find(conn, provider_id)? {
        None => Ok(Policy::default()),
        Some(text) => serde_json::from_str(&text).map_err(|source| {
            BrokerError::from(StoreError::CorruptJson {
                what: "drift policy",
                source,
            })
        }),
    }
}

/// Judges `row` (sent as `request`) and acts on it.
pub fn assess(
    conn: &mut AnyConnection,
    target: Target<'_>,
    row: &DriftReportRow,
    request: &DriftReportRequest,
) -> Result<Assessment, BrokerError> {
    let verified = verified(conn, row.version_id)?;
    let card_differs = verified.card_differs(row.agent_card_digest.as_deref());
    let observed_tools = request
        .tools_digests
        .iter()
        .map(|(p, d)| (p.as_str(), d.as_str()));
    let tools_differ = verified.tools_differ(observed_tools);
    let digests = [
        (PolicySignal::AgentCardDigest, u32::from(card_differs)),
        (PolicySignal::ToolsDigest, count(tools_differ.len())),
    ];
    let policy = policy_of(conn, target.provider_id)?;
    let steps = policy::judge(&policy, target.environment, &digests, &request.counts);
    let card = row.agent_card_digest.as_deref().filter(|_| card_differs);
    let differing: Vec<(String, String)> = request
        .tools_digests
        .iter()
        .filter(|(p, _)| tools_differ.iter().any(|t| t == p.as_str()))
        .map(|(p, d)| (p.as_str().to_owned(), d.as_str().to_owned()))
        .collect();
    let drifted = judge::drifted(conn, &verified, card, &differing)?;
    let affected = affected(conn, target.provider_id, &drifted)?;
    record(conn, row, &steps)?;
    if steps.iter().any(|s| s.action == Action::CanaryStop) {
        let (version, env) = (row.version_id, row.environment_id);
        deployments::stop_canary(conn, version, env, row.id)?;
    }
    let admission = quarantine_if_asked(conn, row, target.environment, &steps)?;
    super::notify::drift_detected(conn, row, target.environment, &steps, admission)?;
    Ok(Assessment {
        verified,
        card_differs,
        tools_differ,
        affected,
        steps,
        admission,
    })
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The live consumer contracts of a version's latest report, judged as
/// when it arrived (with the contents the broker holds now).
pub fn latest_affected(
    conn: &mut AnyConnection,
    provider_id: i64,
    version_id: i64,
) -> Result<Vec<Affected>, BrokerError> {
    let Some(latest) = drift_reports::list_for_version(conn, version_id, 1)?.pop() else {
        return Ok(Vec::new());
    };
    let verified = verified(conn, version_id)?;
    let card = latest
        .agent_card_digest
        .as_deref()
        .filter(|c| verified.card_differs(Some(c)));
    let tools: BTreeMap<String, String> =
        serde_json::from_str(&latest.tools_digests).map_err(|source| StoreError::CorruptJson {
            what: "drift report tools digests",
            source,
        })?;
    let differ = verified.tools_differ(tools.iter().map(|(p, d)| (p.as_str(), d.as_str())));
    let differing: Vec<(String, String)> = differ
        .into_iter()
        .filter_map(|p| tools.get(&p).map(|d| (p.clone(), d.clone())))
        .collect();
    let drifted = judge::drifted(conn, &verified, card, &differing)?;
    affected(conn, provider_id, &drifted)
}

/// The live consumer contracts (main branch heads, deployed, released)
/// that rely on what differs (`drifted`: the card, a profile's tools), each
/// judged by its own expectations where the contents are known.
pub fn affected(
    conn: &mut AnyConnection,
    provider_id: i64,
    drifted: &[Drifted],
) -> Result<Vec<Affected>, BrokerError> {
    let card = drifted.iter().any(|d| d.relies() == "card");
    let tools = drifted.iter().any(|d| d.relies() == "tools");
    if !card && !tools {
        return Ok(Vec::new());
    }
    let live = VerificationQuery {
        selectors: Vec::new(),
        provider_branch: None,
        provider_tags: Vec::new(),
        include_pending: false,
        wip_since: None,
    };
    let entries = selection::select(conn, provider_id, &live, Audience::Accord)?.entries;
    let wanted: Vec<(i64, &str)> = entries
        .iter()
        .map(|e| (e.content_id, e.sha.as_str()))
        .collect();
    let parsed = parsed::load(conn, &wanted)?;
    let mut out = Vec::new();
    for entry in entries {
        let doc = parsed
            .get(&entry.content_id)
            .ok_or(StoreError::MissingRow {
                what: "pact content (readable JSON)",
                id: entry.content_id,
            })?;
        let r = doc.reliance;
        let relies_on: Vec<&'static str> = [(card && r.card, "card"), (tools && r.tools, "tools")]
            .into_iter()
            .filter_map(|(hit, name)| hit.then_some(name))
            .collect();
        if relies_on.is_empty() {
            continue;
        }
        let versions: Vec<String> = entry.versions.into_iter().map(|(_, n)| n).collect();
        let label = format!("{} {}", entry.consumer_name, versions.join(", "));
        // stored contracts passed the same reader at publish
        let verdict = match &doc.contract {
            Some(contract) => judge::judge(drifted, &relies_on, &label, contract),
            None => Verdict::MustReverify,
        };
        out.push(Affected {
            consumer: entry.consumer_name,
            versions,
            sha: entry.sha,
            relies_on,
            verdict,
        });
    }
    Ok(out)
}

/// The sentence recorded with a step.
pub fn step_reason(step: &Step) -> String {
    let (signal, count, threshold) = (step.signal.as_str(), step.count, step.threshold);
    if step.over_threshold {
        format!(
            "{signal}: {count} at or over the threshold {threshold}: {}",
            step.action.as_str()
        )
    } else {
        format!("{signal}: {count} under the threshold {threshold}: a warning only")
    }
}

fn record(
    conn: &mut AnyConnection,
    row: &DriftReportRow,
    steps: &[Step],
) -> Result<(), StoreError> {
    let actions: Vec<NewDriftAction> = steps
        .iter()
        .map(|s| NewDriftAction {
            report_id: row.id,
            version_id: row.version_id,
            environment_id: row.environment_id,
            signal: s.signal.as_str().to_owned(),
            action: s.action.as_str().to_owned(),
            observed: i64::from(s.count),
            threshold: i64::from(s.threshold),
            reason: step_reason(s),
        })
        .collect();
    drift_actions::insert_all(conn, &actions)
}

/// Quarantines the version when a step says so (and it may still be
/// quarantined); its admission state afterwards.
fn quarantine_if_asked(
    conn: &mut AnyConnection,
    row: &DriftReportRow,
    environment: &str,
    steps: &[Step],
) -> Result<AdmissionState, BrokerError> {
    let why: Vec<String> = steps
        .iter()
        .filter(|s| s.action == Action::Quarantine)
        .map(step_reason)
        .collect();
    let current = admission::current(conn, row.version_id)?;
    if why.is_empty() || crate::admission::check(current, AdmissionState::Quarantined).is_err() {
        return Ok(current);
    }
    let reason = format!(
        "drift report {} from {environment}: {}",
        row.id,
        why.join("; ")
    );
    let cause = Cause::DriftReport(row.id);
    admission::transition(
        conn,
        row.version_id,
        AdmissionState::Quarantined,
        &cause,
        &reason,
    )?;
    Ok(AdmissionState::Quarantined)
}
