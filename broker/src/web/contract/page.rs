//! The contract page's template data, assembled from what `load` read.

use askama::Template;
use serde_json::Value;

use super::fields::Field;
use super::mcp::{ToolView, card_fields};
use super::view::InteractionView;
use super::{Loaded, VerificationRow};
use crate::error::BrokerError;
use crate::store::StoreError;
use crate::web::{q, seg};

/// `/ui/pacts/provider/{p}/consumer/{c}`: the pair's pages start here.
pub fn pair_url(p: &str, c: &str) -> String {
    format!("/ui/pacts/provider/{}/consumer/{}", seg(p), seg(c))
}

/// The contract page of consumer version `v`.
pub fn contract_url(p: &str, c: &str, v: &str) -> String {
    format!("{}/version/{}", pair_url(p, c), seg(v))
}

/// The diff page from `from` to `to`.
pub fn diff_url(p: &str, c: &str, from: &str, to: &str) -> String {
    format!("{}/diff?from={}&to={}", pair_url(p, c), q(from), q(to))
}

/// The page of verification result `n` of content `sha`.
pub fn verification_url(p: &str, c: &str, sha: &str, n: i64) -> String {
    format!(
        "{}/pact-version/{}/verification-results/{n}",
        pair_url(p, c),
        seg(sha)
    )
}

/// A link to another consumer version.
#[derive(Debug, Clone)]
pub struct VersionLink {
    pub number: String,
    pub href: String,
    pub current: bool,
}

/// What a page says of a success of the Pact view only, when the content
/// has Accord-only parts.
pub const PACT_VIEW_ONLY: &str = "Pact view only: the Accord-only interactions were not verified";

/// (CSS class, word) of a result's verdict, by the matrix's rule: a
/// success of the Pact view of a content with Accord-only parts
/// (`accord_only`) is unverified, not a pass.
pub fn verdict(success: bool, pact_view: bool, accord_only: bool) -> (&'static str, &'static str) {
    match (success, pact_view && accord_only) {
        (true, true) => ("unverified", "Unverified"),
        (true, false) => ("pass", "Passed"),
        (false, _) => ("fail", "Failed"),
    }
}

/// A verification in a list: number, verdict, provider version.
#[derive(Debug, Clone)]
pub struct VerificationLink {
    pub number: i64,
    pub href: String,
    pub provider_version: String,
    pub provider_version_href: String,
    /// `pass`, `fail` or `unverified` (the CSS class; the text says it too).
    pub class: &'static str,
    pub verdict: &'static str,
    pub note: String,
    pub date: String,
}

impl VerificationLink {
    /// `row` of the pair's content `sha`; `accord_only`: the content has
    /// Accord-only parts.
    pub fn of(
        p: &str,
        c: &str,
        sha: &str,
        row: &VerificationRow,
        accord_only: bool,
    ) -> VerificationLink {
        let v = &row.verification;
        let (class, verdict) = verdict(v.success, v.pact_view, accord_only);
        let mut notes = Vec::new();
        match (v.pact_view, class) {
            (true, "unverified") => notes.push(PACT_VIEW_ONLY),
            (true, _) => notes.push("Pact view only"),
            _ => {}
        }
        if v.kind.as_deref() == Some(crate::store::static_checks::STATIC) {
            notes.push("static check of the declarations");
        }
        if v.pending {
            notes.push("pending");
        }
        if v.wip {
            notes.push("work in progress");
        }
        VerificationLink {
            number: v.number,
            href: verification_url(p, c, sha, v.number),
            provider_version: row.provider_version.clone(),
            provider_version_href: format!("/ui/pacticipants/{}", seg(p)),
            class,
            verdict,
            note: notes.join(", "),
            date: crate::api::time(v.execution_date),
        }
    }
}

/// The contract page.
#[derive(Debug, Template)]
#[template(path = "contract.html")]
pub struct ContractPage {
    pub provider: String,
    pub consumer: String,
    pub version: String,
    pub sha: String,
    pub published: String,
    pub provider_href: String,
    pub consumer_href: String,
    pub matrix_href: String,
    pub api_href: String,
    pub diff_href: String,
    pub previous: Option<VersionLink>,
    pub same_content: Vec<VersionLink>,
    pub other_versions: usize,
    pub verifications: Vec<VerificationLink>,
    /// Older results not listed (the page lists the newest `LISTED`).
    pub older_verifications: i64,
    pub about: Vec<Field>,
    pub card: Vec<Field>,
    pub tools: Vec<ToolView>,
    pub interactions: Vec<InteractionView>,
    /// Why the content could not be read as a contract, if it could not.
    pub unreadable: Option<String>,
}

impl ContractPage {
    /// The page of what `load` read.
    pub fn from_loaded(l: Loaded) -> Result<ContractPage, BrokerError> {
        let document: Value =
            serde_json::from_str(&l.content.content).map_err(|source| StoreError::CorruptJson {
                what: "pact content",
                source,
            })?;
        let (p, c, v) = (&l.provider, &l.consumer, &l.version.number);
        let link = |number: &str| VersionLink {
            number: number.to_owned(),
            href: contract_url(p, c, number),
            current: number == v.as_str(),
        };
        let here = l
            .pair_versions
            .iter()
            .position(|pv| pv.consumer_version_id == l.version.id);
        let previous = here
            .and_then(|i| l.pair_versions.get(i + 1))
            .map(|pv| link(&pv.number));
        let same_content: Vec<VersionLink> = l
            .pair_versions
            .iter()
            .filter(|pv| pv.pact_content_id == l.content.id)
            .map(|pv| link(&pv.number))
            .collect();
        let (about, card, tools, interactions, unreadable) = read(&document);
        Ok(ContractPage {
            provider_href: format!("/ui/pacticipants/{}", seg(p)),
            consumer_href: format!("/ui/pacticipants/{}", seg(c)),
            matrix_href: format!("/ui/matrix?consumer={}&provider={}", q(c), q(p)),
            api_href: format!(
                "/pacts/provider/{}/consumer/{}/version/{}",
                seg(p),
                seg(c),
                seg(v)
            ),
            diff_href: match &previous {
                Some(prev) => diff_url(p, c, &prev.number, v),
                None => format!("{}/diff?to={}", pair_url(p, c), q(v)),
            },
            previous,
            other_versions: l.pair_versions.len().saturating_sub(1),
            same_content,
            verifications: l
                .verifications
                .rows
                .iter()
                .map(|row| {
                    VerificationLink::of(p, c, &l.content.sha, row, l.verifications.accord_only)
                })
                .collect(),
            older_verifications: l.verifications.total - l.verifications.rows.len() as i64,
            about,
            card,
            tools,
            interactions,
            unreadable,
            published: crate::api::time(l.content.created_at),
            sha: l.content.sha,
            version: l.version.number,
            provider: l.provider,
            consumer: l.consumer,
        })
    }
}

type Read = (
    Vec<Field>,
    Vec<Field>,
    Vec<ToolView>,
    Vec<InteractionView>,
    Option<String>,
);

/// The stored interactions (and V3 `messages`), in the reader's order.
pub fn raw_interactions(document: &Value) -> Vec<&Value> {
    crate::contract::INTERACTION_KEYS
        .iter()
        .filter_map(|k| document.get(*k).and_then(Value::as_array))
        .flatten()
        .collect()
}

/// The document read with the contract model; an unreadable one is shown
/// as stored.
fn read(document: &Value) -> Read {
    let raw = raw_interactions(document);
    let contract = match accord_dsl::pact::from_value(document, "content") {
        Ok(c) if c.interactions.len() == raw.len() => c,
        Ok(_) => return unread(raw, "the interactions could not be matched".into()),
        Err(e) => return unread(raw, e.to_string()),
    };
    let mut about = vec![Field::text(
        "Pact specification",
        accord_dsl::pact::detect_spec(document, "content")
            .map(|s| s.to_string())
            .unwrap_or_default(),
    )];
    if let Some(a) = &contract.accord {
        about.push(Field::text("Accord format", a.format_version.clone()));
        let pins = [("A2A", &a.a2a), ("MCP", &a.mcp)];
        for (name, pin) in pins {
            if let Some(v) = pin {
                about.push(Field::text(format!("{name} protocol"), v.clone()));
            }
        }
        about.push(Field::text("JSON Schema dialect", a.json_schema.clone()));
    }
    about.extend(contract.extra.iter().map(|(k, v)| Field::json(k, v)));
    let interactions = contract
        .interactions
        .iter()
        .zip(raw)
        .map(|(i, raw)| InteractionView::new(i, raw, &contract.mcp_tools))
        .collect();
    (
        about,
        contract
            .agent_card
            .as_ref()
            .map(card_fields)
            .unwrap_or_default(),
        contract.mcp_tools.iter().map(ToolView::from).collect(),
        interactions,
        None,
    )
}

fn unread(raw: Vec<&Value>, why: String) -> Read {
    let shown = raw.into_iter().map(InteractionView::unread).collect();
    (Vec::new(), Vec::new(), Vec::new(), shown, Some(why))
}
