//! The body of `POST /pacts/provider/{p}/for-verification`, validated into
//! a `VerificationQuery`: typed selectors, the provider's branch and tags,
//! whether to compute pending status, and the WIP window.

use chrono::NaiveDateTime;
use serde::Deserialize;

use super::selector::{Selector, SelectorRequest, parse_selector};
use crate::error::{BrokerError, FieldError};
use crate::names::{BranchName, TagName};

/// Most consumer version selectors (and provider tags) one request may
/// carry: Pact verifiers send a handful; each costs queries.
pub const MAX_SELECTORS: usize = 100;

/// Keeps the first of equal items (selectors sent twice select the same
/// pacts; computing them twice is only work).
pub fn dedup_keep_first<T: PartialEq>(items: Vec<T>) -> Vec<T> {
    let mut kept: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if !kept.contains(&item) {
            kept.push(item);
        }
    }
    kept
}

/// The request as sent by the Pact verifiers.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ForVerificationRequest {
    #[serde(default)]
    pub consumer_version_selectors: Vec<SelectorRequest>,
    pub provider_version_branch: Option<String>,
    #[serde(default)]
    pub provider_version_tags: Vec<String>,
    #[serde(default)]
    pub include_pending_status: bool,
    pub include_wip_pacts_since: Option<String>,
}

/// What to select and compute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerificationQuery {
    /// Empty means the defaults (main branch heads, deployed, released).
    pub selectors: Vec<Selector>,
    pub provider_branch: Option<BranchName>,
    pub provider_tags: Vec<TagName>,
    pub include_pending: bool,
    /// WIP pacts published at or after this instant (UTC).
    pub wip_since: Option<NaiveDateTime>,
}

impl TryFrom<ForVerificationRequest> for VerificationQuery {
    type Error = BrokerError;

    fn try_from(raw: ForVerificationRequest) -> Result<Self, BrokerError> {
        let mut errors = Vec::new();
        for (field, count) in [
            (
                "$.consumerVersionSelectors",
                raw.consumer_version_selectors.len(),
            ),
            ("$.providerVersionTags", raw.provider_version_tags.len()),
        ] {
            if count > MAX_SELECTORS {
                return Err(BrokerError::bad_field(
                    field,
                    format!("has {count} entries; at most {MAX_SELECTORS} are accepted"),
                ));
            }
        }
        let wip_since =
            raw.include_wip_pacts_since
                .as_deref()
                .and_then(|text| match parse_since(text) {
                    Some(at) => Some(at),
                    None => {
                        errors.push(FieldError::new(
                            "$.includeWipPactsSince",
                            "must be a date (YYYY-MM-DD) or an RFC 3339 date-time",
                        ));
                        None
                    }
                });
        let provider_branch = provider_branch(&raw, &mut errors);
        let provider_tags = provider_tags(&raw.provider_version_tags, &mut errors);
        let selectors: Vec<Selector> = raw
            .consumer_version_selectors
            .iter()
            .enumerate()
            .filter_map(|(i, s)| parse_selector(i, s, provider_branch.as_ref(), &mut errors))
            .collect();
        if !errors.is_empty() {
            let detail = errors
                .iter()
                .map(|e| format!("{}: {}", e.field, e.message))
                .collect::<Vec<_>>()
                .join("; ");
            return Err(BrokerError::BadRequest { detail, errors });
        }
        Ok(VerificationQuery {
            selectors: dedup_keep_first(selectors),
            provider_branch,
            provider_tags: dedup_keep_first(provider_tags),
            include_pending: raw.include_pending_status,
            wip_since,
        })
    }
}

/// A blank branch is an error when pending or WIP would depend on it and no
/// tags stand in for it; otherwise it reads as "no branch".
fn provider_branch(
    raw: &ForVerificationRequest,
    errors: &mut Vec<FieldError>,
) -> Option<BranchName> {
    let text = raw.provider_version_branch.as_deref()?;
    if text.trim().is_empty() {
        let needs_branch = (raw.include_pending_status || raw.include_wip_pacts_since.is_some())
            && raw.provider_version_tags.is_empty();
        if needs_branch {
            errors.push(FieldError::new(
                "$.providerVersionBranch",
                "must not be blank when includePendingStatus or includeWipPactsSince is set and no providerVersionTags are given",
            ));
        }
        return None;
    }
    match BranchName::parse(text) {
        Ok(b) => Some(b),
        Err(e) => {
            errors.push(FieldError::new("$.providerVersionBranch", e.to_string()));
            None
        }
    }
}

fn provider_tags(raw: &[String], errors: &mut Vec<FieldError>) -> Vec<TagName> {
    raw.iter()
        .enumerate()
        .filter_map(|(i, t)| match TagName::parse(t) {
            Ok(tag) => Some(tag),
            Err(e) => {
                errors.push(FieldError::new(
                    format!("$.providerVersionTags[{i}]"),
                    e.to_string(),
                ));
                None
            }
        })
        .collect()
}

/// `2024-01-01` (midnight UTC) or an RFC 3339 date-time.
pub fn parse_since(text: &str) -> Option<NaiveDateTime> {
    if let Ok(date) = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return date.and_hms_opt(0, 0, 0);
    }
    chrono::DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.naive_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(json: serde_json::Value) -> Result<VerificationQuery, BrokerError> {
        let raw: ForVerificationRequest = serde_json::from_value(json).expect("wire form");
        VerificationQuery::try_from(raw)
    }

    fn fields(err: BrokerError) -> Vec<String> {
        match err {
            BrokerError::BadRequest { errors, .. } => errors.into_iter().map(|e| e.field).collect(),
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    #[test]
    fn the_wip_date_must_be_a_date() {
        let err = query(serde_json::json!({"includeWipPactsSince": "last week", "providerVersionBranch": "main"}))
            .expect_err("refused");
        assert_eq!(fields(err), vec!["$.includeWipPactsSince"]);
        let ok = query(serde_json::json!({"includeWipPactsSince": "2024-01-01T10:00:00+02:00"}))
            .expect("valid");
        assert_eq!(
            ok.wip_since.map(|t| t.to_string()),
            Some("2024-01-01 08:00:00".into())
        );
    }

    #[test]
    fn a_blank_provider_branch_with_pending_and_no_tags_is_refused() {
        let err =
            query(serde_json::json!({"providerVersionBranch": " ", "includePendingStatus": true}))
                .expect_err("refused");
        assert_eq!(fields(err), vec!["$.providerVersionBranch"]);
        let ok = query(serde_json::json!({"providerVersionBranch": "", "includePendingStatus": true, "providerVersionTags": ["main"]}))
            .expect("tags stand in for the branch");
        assert_eq!(ok.provider_branch, None);
    }

    #[test]
    fn identical_selectors_are_computed_once_and_too_many_are_refused() {
        let same = serde_json::json!({"mainBranch": true});
        let ok = query(serde_json::json!({"consumerVersionSelectors": vec![same.clone(); 100]}))
            .expect("100 are accepted");
        assert_eq!(ok.selectors.len(), 1, "identical selectors collapse");
        let err = query(serde_json::json!({"consumerVersionSelectors": vec![same; 1000]}))
            .expect_err("1,000 are refused");
        assert_eq!(fields(err), vec!["$.consumerVersionSelectors"]);
    }

    #[test]
    fn errors_of_several_selectors_carry_their_indexes() {
        let err = query(serde_json::json!({"consumerVersionSelectors": [{"mainBranch": true}, {"consumer": "x"}, {"tag": "a", "branch": "b"}]}))
            .expect_err("refused");
        let f = fields(err);
        assert!(f.contains(&"$.consumerVersionSelectors[1]".to_owned()));
        assert!(f.contains(&"$.consumerVersionSelectors[2]".to_owned()));
        assert!(!f.iter().any(|p| p.contains("[0]")));
    }
}
