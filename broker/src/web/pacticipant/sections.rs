//! The sections of a pacticipant's page, each read with a bounded query
//! (`store::history`, `store::matrix_details` for the versions shown).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::directory;
use crate::store::history::{self, NamedHead, Placement};
use crate::store::matrix_details;
use crate::store::pacticipants::Pacticipant;
use crate::store::versions::Version;
use crate::web::contract::redact;
use crate::web::home::links;

/// Branches and tags listed (newest first).
const HEADS_SHOWN: usize = 30;
/// Deployments and releases listed (newest first).
const PLACEMENTS_SHOWN: i64 = 20;
/// How many of the provider's newest versions' results are read…
const RESULT_VERSIONS: i64 = 20;
/// …and how many of those are listed.
const RESULTS_SHOWN: i64 = 10;
/// The longest JSON value printed from a finding.
const VALUE_CHARS: usize = 160;

/// A version on the page.
#[derive(Debug)]
pub struct VersionView {
    pub number: String,
    pub created: String,
    pub branches: Vec<String>,
    pub tags: Vec<String>,
    pub environments: Vec<String>,
    pub can_i_deploy_url: String,
}

/// A branch or tag with its newest version.
#[derive(Debug)]
pub struct HeadView {
    pub name: String,
    pub version: String,
    pub matrix_url: String,
}

/// A deployment or release.
#[derive(Debug)]
pub struct PlacementView {
    pub environment: String,
    pub version: String,
    pub instance: String,
    pub at: String,
    pub ended: String,
}

/// A verification the provider published, and what it recorded about
/// the provider's declarations.
#[derive(Debug)]
pub struct ResultView {
    pub consumer: String,
    pub provider_version: String,
    pub success: bool,
    pub at: String,
    pub url: String,
    pub verified_by: String,
    /// Each declaration the run read (kind, profile, digest), then each
    /// declaration-layer finding (`reasonCode: expected, observed`).
    pub declarations: Vec<String>,
    pub findings: usize,
}

/// A version's branches, tags and environments.
type Labels = (Vec<String>, Vec<String>, Vec<String>);

/// The versions of this page with their branches, tags and environments.
pub fn versions(
    conn: &mut AnyConnection,
    name: &str,
    rows: Vec<Version>,
) -> Result<Vec<VersionView>, BrokerError> {
    let ids: Vec<i64> = rows.iter().map(|v| v.id).collect();
    let mut by_version: BTreeMap<i64, Labels> = BTreeMap::new();
    for (v, b) in matrix_details::branch_names(conn, &ids)? {
        by_version.entry(v).or_default().0.push(b);
    }
    for (v, t) in matrix_details::tag_names(conn, &ids)? {
        by_version.entry(v).or_default().1.push(t);
    }
    for (v, e, deployed) in matrix_details::live_environments(conn, &ids)? {
        let how = if deployed { "deployed" } else { "released" };
        by_version
            .entry(v)
            .or_default()
            .2
            .push(format!("{e} ({how})"));
    }
    Ok(rows
        .into_iter()
        .map(|v| {
            let (branches, tags, environments) = by_version.remove(&v.id).unwrap_or_default();
            VersionView {
                can_i_deploy_url: links::can_i_deploy(name, &v.number, None),
                created: links::time(&v.created_at),
                number: v.number,
                branches,
                tags,
                environments,
            }
        })
        .collect())
}

fn heads(name: &str, heads: Vec<NamedHead>, param: &str) -> Vec<HeadView> {
    heads
        .into_iter()
        .map(|h| HeadView {
            matrix_url: format!(
                "{}&{param}={}",
                links::matrix_of_consumer(name),
                crate::web::q(&h.name)
            ),
            name: h.name,
            version: h.version,
        })
        .collect()
}

/// The newest branches, and how many there are.
pub fn branches(
    conn: &mut AnyConnection,
    p: &Pacticipant,
) -> Result<(Vec<HeadView>, usize), BrokerError> {
    let (rows, total) = history::branch_heads(conn, p.id, HEADS_SHOWN)?;
    Ok((heads(&p.name, rows, "branch"), total))
}

/// The newest tags, and how many there are.
pub fn tags(
    conn: &mut AnyConnection,
    p: &Pacticipant,
) -> Result<(Vec<HeadView>, usize), BrokerError> {
    let (rows, total) = history::tag_heads(conn, p.id, HEADS_SHOWN)?;
    Ok((heads(&p.name, rows, "tag"), total))
}

/// Where it is live now: (environment, version, how).
pub fn live(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
) -> Result<Vec<(String, String, String)>, BrokerError> {
    Ok(history::live(conn, pacticipant_id)?
        .into_iter()
        .map(|(env, version, instance, deployed)| {
            let how = match (deployed, instance) {
                (false, _) => "released".to_owned(),
                (true, Some(i)) => format!("deployed ({i})"),
                (true, None) => "deployed".to_owned(),
            };
            (env, version, how)
        })
        .collect())
}

type Placements = (Vec<PlacementView>, i64, Vec<PlacementView>, i64);

/// The newest deployments and releases, and how many of each there were.
pub fn placements(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
) -> Result<Placements, BrokerError> {
    let (deployed, deployed_total) = history::deployments(conn, pacticipant_id, PLACEMENTS_SHOWN)?;
    let (released, released_total) = history::releases(conn, pacticipant_id, PLACEMENTS_SHOWN)?;
    let view = |p: Placement| PlacementView {
        environment: p.environment,
        version: p.version,
        instance: p.instance.unwrap_or_default(),
        at: links::time(&p.at),
        ended: p.ended.map(|e| links::time(&e)).unwrap_or_default(),
    };
    Ok((
        deployed.into_iter().map(view).collect(),
        deployed_total,
        released.into_iter().map(view).collect(),
        released_total,
    ))
}

/// The provider's newest verification results, with the declarations
/// (Agent Card, MCP tool listings) their findings name.
pub fn results(
    conn: &mut AnyConnection,
    provider: &str,
    provider_id: i64,
) -> Result<Vec<ResultView>, BrokerError> {
    let rows = history::provider_results(conn, provider_id, RESULT_VERSIONS, RESULTS_SHOWN)?;
    let consumers: Vec<i64> = rows.iter().map(|r| r.consumer_id).collect();
    let names = directory::names_by_ids(conn, &consumers)?;
    let contents: Vec<i64> = rows.iter().map(|r| r.pact_content_id).collect();
    let shas = directory::content_shas(conn, &contents)?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let consumer = names.get(&r.consumer_id)?.clone();
            let sha = shas.get(&r.pact_content_id)?;
            let findings: Vec<Value> = serde_json::from_str(&r.findings).unwrap_or_default();
            let declared: Vec<Value> = r
                .declarations
                .as_deref()
                .and_then(|d| serde_json::from_str(d).ok())
                .unwrap_or_default();
            let mut declarations: Vec<String> = declared.iter().map(declared_line).collect();
            declarations.extend(findings.iter().filter_map(declaration));
            Some(ResultView {
                url: links::verification(provider, &consumer, sha, r.number),
                verified_by: verified_by(r.verified_by.as_deref()),
                declarations,
                findings: findings.len(),
                at: links::time(&r.execution_date),
                provider_version: r.provider_version,
                success: r.success,
                consumer,
            })
        })
        .collect())
}

/// `implementation version` from the stored `verifiedBy` JSON.
fn verified_by(json: Option<&str>) -> String {
    let Some(v) = json.and_then(|j| serde_json::from_str::<Value>(j).ok()) else {
        return String::new();
    };
    let part = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
    redact::redact_text(format!("{} {}", part("implementation"), part("version")).trim())
}

/// A stored declaration as one line: what, read as whom, its digest.
fn declared_line(d: &Value) -> String {
    let text = |k: &str| redact::redact_text(d[k].as_str().unwrap_or_default());
    format!(
        "{} ({}, {}): {}, {} entries",
        text("kind"),
        text("profile"),
        text("protocolVersion"),
        // an identifier the page shows as such
        d["digest"].as_str().unwrap_or_default(),
        d["entries"].as_u64().unwrap_or_default()
    )
}

/// A declaration-layer finding as one line: what was declared or
/// expected, and what the provider served.
fn declaration(f: &Value) -> Option<String> {
    if f["layer"].as_str() != Some("declaration") {
        return None;
    }
    let short = |v: &Value| {
        let text = match v {
            Value::Null => return None,
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        Some(text.chars().take(VALUE_CHARS).collect::<String>())
    };
    let mut line = f["reasonCode"].as_str().unwrap_or("finding").to_owned();
    if let Some(e) = short(&f["expected"]) {
        line.push_str(&format!(": expected {e}"));
    }
    if let Some(a) = short(&f["actual"]) {
        line.push_str(&format!(", observed {a}"));
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declaration_finding_reads_as_expected_and_observed_and_others_are_skipped() {
        let f = serde_json::json!({"layer": "declaration", "reasonCode": "CARD_DIGEST_CHANGED",
            "expected": "sha256:aa", "actual": "sha256:bb"});
        assert_eq!(
            declaration(&f).as_deref(),
            Some("CARD_DIGEST_CHANGED: expected sha256:aa, observed sha256:bb")
        );
        let other = serde_json::json!({"layer": "schema", "reasonCode": "RESPONSE_MISMATCH"});
        assert_eq!(declaration(&other), None);
        assert_eq!(
            verified_by(Some(r#"{"implementation":"Accord","version":"0.3"}"#)),
            "Accord 0.3"
        );
    }
}
