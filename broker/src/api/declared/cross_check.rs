//! The static cross-check (issue 25): when a provider version declares a
//! new card or tool list, its current declarations are judged against
//! every live consumer contract of the provider (main branch heads,
//! deployed, released: the default selection) with
//! `accord_verifier::compat`'s `static_check` — replay's own declaration
//! checks. A consumer with findings gets a failed verification of its
//! content by the version, `kind` `static` (unless a verifier already
//! published a replay result for the pair: replay supersedes it); a
//! passing check is not a verification, it only moves the admission state.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use accord_dsl::model::{Contract, Interaction};
use accord_verifier::compat::{self, Kind};
use accord_verifier::finding::Finding;
use serde_json::{Value, json};

use super::check;
use crate::audience::Audience;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::parsed;
use crate::selection::{self, VerificationQuery, group::Entry};
use crate::store::declarations as store;
use crate::store::pacts::{self, ContentHead};
use crate::store::static_checks;
use crate::store::verifications::NewVerification;

/// One live consumer contract and its verdict.
struct Judged {
    entry: Entry,
    codes: Vec<&'static str>,
    /// What the contract relies on that the version did not declare (a
    /// card, tools): not judged, so not evidence for admission.
    undeclared: Vec<&'static str>,
}

/// Runs the check for version `version_id` of provider `provider_id` and
/// answers its summary (`null` when the version declares nothing).
pub fn run(
    conn: &mut AnyConnection,
    provider_id: i64,
    version_id: i64,
    digest: &str,
) -> Result<Value, BrokerError> {
    let declared = store::current(conn, version_id)?;
    if declared.is_empty() {
        return Ok(Value::Null);
    }
    let mut card = None;
    let mut listings = BTreeMap::new();
    for d in &declared {
        let content = super::content_of(conn, &d.digest)?;
        match d.kind.as_str() {
            check::CARD => card = Some(content),
            _ => {
                listings.insert(d.profile.clone(), content);
            }
        }
    }
    static_checks::clear(conn, version_id)?;
    let mut judged = Vec::new();
    for (entry, row, contract) in live(conn, provider_id)? {
        let findings = judge(card.as_ref(), &listings, &contract);
        if !findings.is_empty() && !static_checks::replayed(conn, row.id, version_id)? {
            store_failure(conn, &row, version_id, &findings)?;
        }
        let codes = findings.iter().map(|f| f.reason_code).collect();
        let undeclared = undeclared(card.is_some(), !listings.is_empty(), &contract);
        judged.push(Judged {
            entry,
            codes,
            undeclared,
        });
    }
    let moved = super::admit::after_check(conn, version_id, digest, &verdicts(&judged))?;
    Ok(summary(&judged, moved))
}

/// What `c` relies on that is not declared: `agentCard`, `mcpTools`.
fn undeclared(card: bool, tools: bool, c: &Contract) -> Vec<&'static str> {
    let a2a = c.agent_card.is_some()
        || c.interactions
            .iter()
            .any(|i| matches!(i, Interaction::A2aTask(_)));
    let mcp = !c.mcp_tools.is_empty()
        || c.interactions
            .iter()
            .any(|i| matches!(i, Interaction::McpToolCall(_)));
    let mut out = Vec::new();
    if a2a && !card {
        out.push("agentCard");
    }
    if mcp && !tools {
        out.push("mcpTools");
    }
    out
}

/// The findings of one contract against the declarations.
fn judge(card: Option<&Value>, listings: &BTreeMap<String, Value>, c: &Contract) -> Vec<Finding> {
    let mut out = card
        .map(|card| compat::static_check(Kind::AgentCard, card, c))
        .unwrap_or_default();
    if !listings.is_empty() {
        out.extend(compat::static_check_tools(listings, c));
    }
    out
}

fn store_failure(
    conn: &mut AnyConnection,
    row: &ContentHead,
    version_id: i64,
    findings: &[Finding],
) -> Result<(), BrokerError> {
    let verified_by = json!({"implementation": "accord-broker static check",
        "version": env!("CARGO_PKG_VERSION")});
    let new = NewVerification {
        pact_content_id: row.id,
        provider_version_id: version_id,
        consumer_id: row.consumer_id,
        provider_id: row.provider_id,
        success: false,
        build_url: None,
        test_results: None,
        verified_by: Some(verified_by.to_string()),
        findings: json!(findings).to_string(),
        wip: false,
        pending: false,
        selectors: None,
        execution_date: crate::store::now(),
        pact_view: false,
        declarations: None,
    };
    let mut codes: Vec<&str> = findings.iter().map(|f| f.reason_code).collect();
    codes.dedup();
    static_checks::insert(conn, &new, &codes.join(","))?;
    Ok(())
}

/// (label, codes) of each consumer; `None` for one not wholly judged.
fn verdicts(judged: &[Judged]) -> Vec<(String, Option<Vec<&'static str>>)> {
    judged
        .iter()
        .map(|j| {
            let whole = j.undeclared.is_empty() || !j.codes.is_empty();
            (label(&j.entry), whole.then(|| j.codes.clone()))
        })
        .collect()
}

fn label(entry: &Entry) -> String {
    let numbers: Vec<&str> = entry.versions.iter().map(|(_, n)| n.as_str()).collect();
    format!("{} {}", entry.consumer_name, numbers.join(", "))
}

fn summary(judged: &[Judged], moved: Option<&str>) -> Value {
    let consumers: Vec<Value> = judged
        .iter()
        .map(|j| {
            let passed = match (j.codes.is_empty(), j.undeclared.is_empty()) {
                (false, _) => json!(false),
                (true, true) => json!(true),
                (true, false) => Value::Null,
            };
            json!({"consumer": j.entry.consumer_name,
                "versions": j.entry.versions.iter().map(|(_, n)| n).collect::<Vec<_>>(),
                "passed": passed, "reasonCodes": j.codes, "undeclared": j.undeclared})
        })
        .collect();
    json!({
        "passed": judged.iter().all(|j| j.codes.is_empty()),
        "consumers": consumers,
        "admission": moved,
    })
}

/// The live consumer contracts of the provider (the default selection),
/// with their stored content's head, parsed (`parsed`: the texts not in
/// the broker's cache read in one query per chunk).
pub fn live(
    conn: &mut AnyConnection,
    provider_id: i64,
) -> Result<Vec<(Entry, ContentHead, Arc<Contract>)>, BrokerError> {
    let query = VerificationQuery {
        selectors: Vec::new(),
        provider_branch: None,
        provider_tags: Vec::new(),
        include_pending: false,
        wip_since: None,
    };
    let selected = selection::select(conn, provider_id, &query, Audience::Accord)?;
    let ids: Vec<i64> = selected.entries.iter().map(|e| e.content_id).collect();
    let mut heads: HashMap<i64, ContentHead> = pacts::heads_by_ids(conn, &ids)?
        .into_iter()
        .map(|h| (h.id, h))
        .collect();
    let wanted: Vec<(i64, &str)> = heads.values().map(|h| (h.id, h.sha.as_str())).collect();
    let parsed = parsed::load(conn, &wanted)?;
    let mut out = Vec::new();
    for entry in selected.entries {
        // stored contracts passed the same reader at publish
        let contract = parsed
            .get(&entry.content_id)
            .and_then(|p| p.contract.clone());
        if let (Some(head), Some(contract)) = (heads.remove(&entry.content_id), contract) {
            out.push((entry, head, contract));
        }
    }
    Ok(out)
}
