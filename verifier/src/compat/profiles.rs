//! The static cross-check of a provider that declares several `tools/list`
//! results, one per profile (who it was read as): each expectation and call
//! is judged against the listing of the profile it is made as — the
//! expectation's `profile`, the call's principal — as replay reads it. One
//! with no profile is judged against `as written`, else `unauthenticated`;
//! when the provider declared a single listing, everything is judged
//! against it. What names a profile the provider did not declare (of
//! several) is not judged: no listing says what it would see.

use std::collections::BTreeMap;

use accord_dsl::model::{Contract, Interaction};
use serde_json::Value;

use super::{Kind, static_check};
use crate::finding::Finding;

/// Every finding of `contract` against the declared `listings` (profile →
/// `{"tools": […]}`).
pub fn static_check_tools(listings: &BTreeMap<String, Value>, contract: &Contract) -> Vec<Finding> {
    let target = |profile: Option<&str>| -> Option<String> { target(listings, profile) };
    let mut parts: BTreeMap<String, Contract> = BTreeMap::new();
    for expect in &contract.mcp_tools {
        if let Some(p) = target(expect.profile.as_deref()) {
            parts.entry(p).or_default().mcp_tools.push(expect.clone());
        }
    }
    for interaction in &contract.interactions {
        let Interaction::McpToolCall(call) = interaction else {
            continue;
        };
        let principal = call.meta.expectations.auth.as_ref();
        if let Some(p) = target(principal.and_then(|a| a.principal.as_deref())) {
            parts
                .entry(p)
                .or_default()
                .interactions
                .push(interaction.clone());
        }
    }
    let mut out = Vec::new();
    for (profile, part) in &parts {
        if let Some(listing) = listings.get(profile) {
            out.extend(static_check(Kind::McpTools, listing, part));
        }
    }
    out
}

/// The declared profile a profile (or none) is judged against.
fn target(listings: &BTreeMap<String, Value>, profile: Option<&str>) -> Option<String> {
    if listings.len() == 1 {
        return listings.keys().next().cloned();
    }
    let wanted = match profile {
        Some(p) => vec![p],
        None => vec!["as written", "unauthenticated"],
    };
    wanted
        .into_iter()
        .find(|p| listings.contains_key(*p))
        .map(str::to_owned)
}
