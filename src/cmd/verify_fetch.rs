//! `accord verify --broker-url`: the pacts a provider build must verify,
//! fetched the way Pact's Rust verifier does (reference §2.3), so it works
//! against Accord's broker and any Pact Broker-compatible server:
//! `GET /` → `GET pb:provider-pacts-for-verification` → `POST` to its
//! `self` with the selectors → `GET` each pact's `self`, keeping the pact's
//! own links for publishing the results. A broker without that relation
//! (a Pact Broker older than 2.60) is read in Pact's legacy mode
//! ([`super::verify_legacy`]).

use anyhow::{Context, bail};
use reqwest::Method;
use serde_json::{Map, Value, json};

use accord_verifier::SourcedContract;

use super::verify_legacy;
use crate::client::{BrokerClient, describe_error, link, segment};

/// What to ask the broker for.
#[derive(Debug, Clone)]
pub struct Selection {
    /// Consumer version selectors (JSON objects) the user gave, sent as
    /// given; none means [`Selection::effective_selectors`]'s defaults.
    pub selectors: Vec<Value>,
    pub provider_branch: Option<String>,
    pub provider_tags: Vec<String>,
    /// Ask for pending status (`--enable-pending`).
    pub include_pending: bool,
    /// Ask for WIP pacts created since this date.
    pub wip_since: Option<String>,
}

/// Pact's `--consumer-version-tags`: each tag is the latest version with it.
pub fn tag_selectors(tags: &[String]) -> Vec<Value> {
    tags.iter()
        .map(|tag| json!({"tag": tag, "latest": true}))
        .collect()
}

impl Selection {
    /// The selectors sent: the user's, else the main branch and whatever
    /// is deployed or released.
    pub fn effective_selectors(&self) -> Vec<Value> {
        if self.selectors.is_empty() {
            vec![
                json!({"mainBranch": true}),
                json!({"deployedOrReleased": true}),
            ]
        } else {
            self.selectors.clone()
        }
    }

    /// The `POST` body, with Pact's field rules: `includePendingStatus` and
    /// `consumerVersionSelectors` always, the others only when set.
    pub fn body(&self) -> Value {
        let mut body = Map::new();
        body.insert(
            "consumerVersionSelectors".into(),
            json!(self.effective_selectors()),
        );
        body.insert(
            "includePendingStatus".into(),
            json!(self.include_pending || self.wip_since.is_some()),
        );
        if let Some(branch) = &self.provider_branch {
            body.insert("providerVersionBranch".into(), json!(branch));
        }
        if !self.provider_tags.is_empty() {
            body.insert("providerVersionTags".into(), json!(self.provider_tags));
        }
        if let Some(since) = &self.wip_since {
            body.insert("includeWipPactsSince".into(), json!(since));
        }
        Value::Object(body)
    }
}

/// A notice the broker attached to a pact (`when` as the broker says it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub when: String,
    pub text: String,
}

/// One pact to verify, with what publishing its results needs.
#[derive(Debug, Clone)]
pub struct FetchedPact {
    pub sourced: SourcedContract,
    pub short_description: String,
    pub notices: Vec<Notice>,
    /// The pact's `pb:publish-verification-results` (metadata segment kept).
    pub publish_href: Option<String>,
    /// The pact's `pb:provider` (the provider pacticipant).
    pub provider_href: Option<String>,
}

impl FetchedPact {
    /// Notices for before verification (and those with no `when`).
    pub fn before_notices(&self) -> impl Iterator<Item = &Notice> {
        self.notices
            .iter()
            .filter(|n| n.when.is_empty() || n.when == "before_verification")
    }

    /// Notices for the outcome: `after_verification:success_X_published_Y`.
    pub fn after_notices(&self, success: bool, published: bool) -> impl Iterator<Item = &Notice> {
        let when = format!("after_verification:success_{success}_published_{published}");
        self.notices.iter().filter(move |n| n.when == when)
    }
}

/// Expands `{name}` placeholders of a templated href with encoded values.
pub fn expand(href: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(href.to_owned(), |acc, (name, value)| {
        acc.replace(&format!("{{{name}}}"), &segment(value))
    })
}

/// The broker selected no pact at all: an error, as in Pact, unless
/// `--ignore-no-pacts-error` is given.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NoPacts(pub String);

/// The pacts to verify, and lines for the user about how they were chosen.
#[derive(Debug)]
pub struct Fetched {
    pub pacts: Vec<FetchedPact>,
    pub notices: Vec<String>,
}

/// Fetches every pact the broker selects for `provider`. No pact at all is
/// an error, as in Pact.
pub fn fetch(
    client: &BrokerClient,
    provider: &str,
    selection: &Selection,
) -> anyhow::Result<Fetched> {
    fetch_from(client, &client.index()?.body, provider, selection)
}

/// [`fetch`], navigating from an `index` already read.
pub fn fetch_from(
    client: &BrokerClient,
    index: &Value,
    provider: &str,
    selection: &Selection,
) -> anyhow::Result<Fetched> {
    let Some(template) = link(index, "pb:provider-pacts-for-verification", None) else {
        return verify_legacy::fetch(client, index, provider, selection);
    };
    let url = expand(template, &[("provider", provider)]);
    let nav = client.send(Method::GET, &url, None)?;
    match nav.status {
        404 => {
            let text =
                format!("no pacts were found for provider {provider}: the broker does not know it");
            return Err(NoPacts(text).into());
        }
        200..=299 => {}
        _ => bail!("GET {url} failed: {}", describe_error(&nav)),
    }
    let nav = nav.body;
    let post_to = link(&nav, "self", None).unwrap_or(&url).to_owned();
    let reply = client
        .post_query(&post_to, &selection.body())
        .context("the broker refused the pacts-for-verification request")?;
    let entries = reply["_embedded"]["pacts"]
        .as_array()
        .with_context(|| format!("the broker's answer from {post_to} has no _embedded.pacts"))?;
    if entries.is_empty() {
        let text = format!(
            "no pacts were found for provider {provider} with consumer version selectors {}",
            json!(selection.effective_selectors())
        );
        return Err(NoPacts(text).into());
    }
    let pacts = entries
        .iter()
        .map(|e| fetch_one(client, e))
        .collect::<anyhow::Result<_>>()?;
    Ok(Fetched {
        pacts,
        notices: Vec::new(),
    })
}

/// Reads one `_embedded.pacts[]` entry and fetches its pact.
fn fetch_one(client: &BrokerClient, entry: &Value) -> anyhow::Result<FetchedPact> {
    let href =
        link(entry, "self", None).context("a pact for verification has no _links.self.href")?;
    let properties = &entry["verificationProperties"];
    let wip = properties["wip"].as_bool().unwrap_or(false);
    let mut pact = fetch_pact(
        client,
        href,
        entry["shortDescription"].as_str().unwrap_or_default(),
    )?;
    pact.sourced.pending = properties["pending"].as_bool().unwrap_or(false) || wip;
    pact.sourced.wip = wip;
    pact.notices = properties["notices"]
        .as_array()
        .map(|list| list.iter().filter_map(notice).collect())
        .unwrap_or_default();
    Ok(pact)
}

/// Fetches the pact at `href` (neither pending nor WIP, no notices).
pub fn fetch_pact(
    client: &BrokerClient,
    href: &str,
    short_description: &str,
) -> anyhow::Result<FetchedPact> {
    let document = client
        .get(href)
        .with_context(|| format!("cannot fetch the pact at {href}"))?;
    let contract = accord_dsl::pact::from_value(&document, href)
        .with_context(|| format!("the pact at {href} cannot be read"))?;
    Ok(FetchedPact {
        sourced: SourcedContract::new(contract, href),
        short_description: short_description.to_owned(),
        notices: Vec::new(),
        publish_href: link(&document, "pb:publish-verification-results", None).map(str::to_owned),
        provider_href: link(&document, "pb:provider", None).map(str::to_owned),
    })
}

fn notice(value: &Value) -> Option<Notice> {
    Some(Notice {
        when: value["when"].as_str().unwrap_or_default().to_owned(),
        text: value["text"].as_str()?.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selection() -> Selection {
        Selection {
            selectors: vec![json!({"mainBranch": true})],
            provider_branch: None,
            provider_tags: vec![],
            include_pending: false,
            wip_since: None,
        }
    }

    #[test]
    fn the_request_body_always_has_selectors_and_pending_status_and_omits_the_unset() {
        let body = selection().body();
        assert_eq!(
            body,
            json!({"consumerVersionSelectors": [{"mainBranch": true}], "includePendingStatus": false})
        );
    }

    #[test]
    fn wip_since_asks_for_pending_status_too() {
        let s = Selection {
            provider_branch: Some("main".into()),
            provider_tags: vec!["prod".into()],
            wip_since: Some("2026-01-01".into()),
            ..selection()
        };
        let body = s.body();
        assert_eq!(body["includePendingStatus"], true);
        assert_eq!(body["includeWipPactsSince"], "2026-01-01");
        assert_eq!(body["providerVersionBranch"], "main");
        assert_eq!(body["providerVersionTags"], json!(["prod"]));
    }

    #[test]
    fn no_selectors_means_the_main_branch_and_the_deployed_or_released() {
        let s = Selection {
            selectors: vec![],
            ..selection()
        };
        assert_eq!(
            s.body()["consumerVersionSelectors"],
            json!([{"mainBranch": true}, {"deployedOrReleased": true}])
        );
    }

    #[test]
    fn each_consumer_version_tag_is_the_latest_version_with_that_tag() {
        let tags = ["main".to_string(), "prod".to_string()];
        assert_eq!(
            tag_selectors(&tags),
            vec![
                json!({"tag": "main", "latest": true}),
                json!({"tag": "prod", "latest": true})
            ]
        );
    }

    #[test]
    fn templated_links_are_expanded_with_encoded_values() {
        let href = "http://b/pacticipants/p/branches/{branch}/versions/{version}";
        assert_eq!(
            expand(href, &[("branch", "feat/x"), ("version", "1.0")]),
            "http://b/pacticipants/p/branches/feat%2Fx/versions/1.0"
        );
    }
}
