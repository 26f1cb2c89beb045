//! The verification page
//! (`/ui/pacts/provider/{p}/consumer/{c}/pact-version/{sha}/verification-results/{n}`):
//! one result's verdict in words, its findings grouped by contract layer
//! (declaration, schema, protocol, authorization, behavior, temporal, then
//! compatibility) with reason code, interaction, path, expected and actual;
//! the provider version and its branches, a build link (http/https only),
//! the declarations observed (card and tool-list digests), the verifier,
//! and the other verifications of the same pact.

mod findings;

use actix_web::{HttpResponse, web};
use askama::Template;
use serde_json::Value;

use super::contract::page::{PACT_VIEW_ONLY, VerificationLink, contract_url, verification_url};
use super::contract::{Verifications, accord_only_parts, pair, redact, verifications_of};
use crate::api::declarations::Declaration;
use crate::contract::pact_view::{self, AccordOnly};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::names::ContentSha;
use crate::state::AppState;
use crate::store::verifications::{self, Verification};
use crate::store::{StoreError, branches, pacts, versions};
use crate::web::seg;
use findings::LayerGroup;

/// The verification page.
#[derive(Debug, Template)]
#[template(path = "verification.html")]
pub struct VerificationPage {
    pub provider: String,
    pub consumer: String,
    pub sha: String,
    pub number: i64,
    pub success: bool,
    /// `pass`, `fail` or `unverified` (a success of the Pact view only of
    /// a content with Accord-only parts, as the matrix counts it).
    pub verdict_class: &'static str,
    pub verdict: &'static str,
    /// Why a success is unverified, naming the Accord-only parts it left
    /// unverified ("" unless `verdict_class` is `unverified`).
    pub unverified: String,
    pub notes: Vec<&'static str>,
    pub provider_version: String,
    pub branches: Vec<String>,
    /// The build URL, without user-info and with secret query values hidden.
    pub build_url: Option<String>,
    /// The build URL shown when it is an http(s) URL: only then a link.
    pub build_href: Option<String>,
    pub verifier: String,
    pub date: String,
    pub layers: Vec<LayerGroup>,
    pub findings_count: usize,
    pub declarations: Vec<Declaration>,
    pub test_results: Option<String>,
    pub provider_href: String,
    pub consumer_href: String,
    pub matrix_href: String,
    pub api_href: String,
    /// The contract page of the newest consumer version with this content.
    pub contract_href: Option<String>,
    /// Each consumer version that published this content, newest first,
    /// with its contract page.
    pub consumer_versions: Vec<(String, String)>,
    pub others: Vec<VerificationLink>,
    /// Older results of the same pact not listed in `others`.
    pub older: i64,
    /// A contract pass (`evaluationEligible`): evaluation results of the
    /// provider version count beside it, never instead of it.
    pub eligible: bool,
}

/// A result's number as its URL writes it (as the API reads it): decimal
/// digits without sign or leading zero that fit.
fn result_number(text: &str) -> Option<i64> {
    let canonical =
        !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && !text.starts_with('0');
    canonical.then(|| text.parse().ok()).flatten()
}

/// The link for a build URL: only `http`/`https` URLs with a host.
pub fn safe_link(url: &str) -> Option<String> {
    let uri: actix_web::http::Uri = url.parse().ok()?;
    let web = matches!(uri.scheme_str(), Some("http" | "https"));
    (web && uri.host().is_some_and(|h| !h.is_empty())).then(|| url.to_owned())
}

fn parse<T: serde::de::DeserializeOwned>(what: &'static str, text: &str) -> Result<T, BrokerError> {
    serde_json::from_str(text).map_err(|source| StoreError::CorruptJson { what, source }.into())
}

/// `verifiedBy` as text: `implementation version`, or its JSON.
fn verifier(v: &Verification) -> Result<String, BrokerError> {
    let Some(text) = v.verified_by.as_deref() else {
        return Ok(String::new());
    };
    let value: Value = parse("verifiedBy", text)?;
    let part = |k: &str| value.get(k).and_then(Value::as_str).map(str::to_owned);
    Ok(match (part("implementation"), part("version")) {
        (Some(i), Some(ver)) => redact::redact_text(&format!("{i} {ver}")),
        (Some(i), None) => redact::redact_text(&i),
        _ => redact::compact(&value),
    })
}

struct Found {
    provider: String,
    consumer: String,
    sha: String,
    verification: Verification,
    provider_version: String,
    branches: Vec<String>,
    consumer_versions: Vec<String>,
    others: Verifications,
    /// What a success of the Pact view only left unverified.
    unverified: Vec<AccordOnly>,
    eligible: bool,
}

fn load(
    conn: &mut AnyConnection,
    p: &str,
    c: &str,
    sha: &str,
    n: &str,
) -> Result<Found, BrokerError> {
    let (provider, consumer) = pair(conn, p, c)?;
    let missing = || BrokerError::not_found(format!("Pact version {}", short(sha)));
    let sha = ContentSha::parse(sha).map_err(|_| missing())?;
    let content = pacts::find_content_by_sha(conn, sha.as_str())?
        .filter(|x| x.provider_id == provider.id && x.consumer_id == consumer.id)
        .ok_or_else(missing)?;
    let unknown = || BrokerError::not_found(format!("Verification result {}", short(n)));
    let number = result_number(n).ok_or_else(unknown)?;
    let verification =
        verifications::find_by_number(conn, content.id, number)?.ok_or_else(unknown)?;
    let unverified = if verification.pact_view && verification.success {
        accord_only_parts(conn, content.id)?
    } else {
        Vec::new()
    };
    let id = verification.provider_version_id;
    let version = versions::find_by_id(conn, id)?.ok_or(StoreError::MissingRow {
        what: "provider version",
        id,
    })?;
    Ok(Found {
        eligible: crate::api::verifications::eligible::of(conn, &verification)?,
        branches: branches::names_for_version(conn, id)?,
        consumer_versions: pacts::list_pair_versions(conn, provider.id, consumer.id)?
            .into_iter()
            .filter(|v| v.pact_content_id == content.id)
            .map(|v| v.number)
            .collect(),
        others: verifications_of(conn, content.id)?,
        unverified,
        provider: provider.name,
        consumer: consumer.name,
        sha: content.sha,
        verification,
        provider_version: version.number,
    })
}

/// At most 64 characters of a path segment, for an error message.
fn short(text: &str) -> String {
    text.chars().take(64).collect()
}

impl VerificationPage {
    fn of(f: Found) -> Result<VerificationPage, BrokerError> {
        let v = &f.verification;
        let (p, c) = (&f.provider, &f.consumer);
        let contract_href = f.consumer_versions.first().map(|cv| contract_url(p, c, cv));
        let layers = findings::grouped(&v.findings, contract_href.as_deref())?;
        let declarations = match v.declarations.as_deref() {
            Some(text) => shown_declarations(parse("declarations", text)?),
            None => Vec::new(),
        };
        let test_results = match v.test_results.as_deref() {
            Some(text) => Some(redact::pretty(&parse::<Value>("test results", text)?)),
            None => None,
        };
        let mut notes = Vec::new();
        for (set, note) in [
            (v.pact_view, "covers the Pact view of the contract only"),
            (
                v.pending,
                "was made while the pact was pending for this provider: a failure did not fail the build",
            ),
            (v.wip, "verified the pact as work in progress"),
        ] {
            if set {
                notes.push(note);
            }
        }
        let (verdict_class, verdict) =
            super::contract::page::verdict(v.success, v.pact_view, !f.unverified.is_empty());
        let build_url = v.build_url.as_deref().map(redact::redact_url);
        Ok(VerificationPage {
            verdict_class,
            verdict,
            unverified: if f.unverified.is_empty() {
                String::new()
            } else {
                format!("{PACT_VIEW_ONLY} ({})", pact_view::describe(&f.unverified))
            },
            older: f.others.total - f.others.rows.len() as i64,
            findings_count: layers.iter().map(|l| l.findings.len()).sum(),
            layers,
            declarations,
            test_results,
            notes,
            success: v.success,
            eligible: f.eligible,
            number: v.number,
            build_href: build_url.as_deref().and_then(safe_link),
            build_url,
            verifier: verifier(v)?,
            date: crate::api::time(v.execution_date),
            provider_href: format!("/ui/pacticipants/{}", seg(p)),
            consumer_href: format!("/ui/pacticipants/{}", seg(c)),
            matrix_href: format!(
                "/ui/matrix?consumer={}&provider={}",
                super::q(c),
                super::q(p)
            ),
            api_href: format!(
                "/pacts/provider/{}/consumer/{}/pact-version/{}/verification-results/{}",
                seg(p),
                seg(c),
                seg(&f.sha),
                v.number
            ),
            contract_href,
            others: f
                .others
                .rows
                .iter()
                .filter(|o| o.verification.number != v.number)
                .map(|o| VerificationLink::of(p, c, &f.sha, o, f.others.accord_only))
                .collect(),
            consumer_versions: f
                .consumer_versions
                .iter()
                .map(|cv| (cv.clone(), contract_url(p, c, cv)))
                .collect(),
            branches: f.branches.clone(),
            provider_version: f.provider_version.clone(),
            sha: f.sha.clone(),
            provider: f.provider.clone(),
            consumer: f.consumer.clone(),
        })
    }

    /// This page's own URL.
    pub fn href(&self) -> String {
        verification_url(&self.provider, &self.consumer, &self.sha, self.number)
    }
}

/// The declarations a verifier reported, their texts redacted; the digest
/// and ETag are identifiers the page shows as such.
fn shown_declarations(mut list: Vec<Declaration>) -> Vec<Declaration> {
    for d in &mut list {
        d.kind = redact::redact_text(&d.kind);
        d.profile = redact::redact_text(&d.profile);
        d.protocol_version = redact::redact_text(&d.protocol_version);
        for used in &mut d.used {
            *used = redact::redact_text(used);
        }
    }
    list
}

/// `GET /ui/pacts/provider/{p}/consumer/{c}/pact-version/{sha}/verification-results/{n}`.
pub async fn get_page(
    state: web::Data<AppState>,
    path: web::Path<(String, String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, sha, n) = path.into_inner();
    let found = state.run(move |conn| load(conn, &p, &c, &sha, &n)).await?;
    super::page(&VerificationPage::of(found)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_urls_become_links() {
        assert!(safe_link("https://ci.example/builds/7").is_some());
        assert!(safe_link("http://ci.example/7").is_some());
        assert!(safe_link("javascript://ci.example/%0Aalert(1)").is_none());
        assert!(safe_link("javascript:alert(1)").is_none());
        assert!(safe_link("data:text/html,x").is_none());
        assert!(safe_link("/relative").is_none());
    }

    #[test]
    fn result_numbers_are_canonical_and_fit() {
        assert_eq!(result_number("7"), Some(7));
        for bad in ["", "07", "-1", "x", "99999999999999999999999", "1.0"] {
            assert_eq!(result_number(bad), None, "{bad}");
        }
    }
}
