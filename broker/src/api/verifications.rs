//! Verification results: publish (`POST …/pact-version/{sha}[/metadata/{m}]
//! /verification-results`, Pact's body plus Accord's layered findings) and
//! read back (by number, latest for a content, for a consumer version, for
//! the latest pact, and the summary for a consumer version).

pub mod eligible;
mod request;

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::api::body;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::metadata::PactMetadata;
use crate::names::ContentSha;
use crate::state::AppState;
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::pacts::{self, PactContent};
use crate::store::verifications::{self, Verification};
use crate::store::{StoreError, selection, versions};
use request::Publish;
pub use request::VerificationRequest;

/// A pair's pacticipants (404 if either is unknown).
fn pair(
    conn: &mut AnyConnection,
    provider: &str,
    consumer: &str,
) -> Result<(Pacticipant, Pacticipant), BrokerError> {
    let p = crate::api::pacticipants::find_required(conn, provider)?;
    let c = crate::api::pacticipants::find_required(conn, consumer)?;
    Ok((p, c))
}

/// The content `sha` of the pair, or 404 (also when it is another pair's).
fn content_of(
    conn: &mut AnyConnection,
    provider: &Pacticipant,
    consumer: &Pacticipant,
    sha: &str,
) -> Result<PactContent, BrokerError> {
    let missing = || BrokerError::not_found(format!("Pact version {sha}"));
    let sha = ContentSha::parse(sha).map_err(|_| missing())?;
    pacts::find_content_by_sha(conn, sha.as_str())?
        .filter(|c| c.provider_id == provider.id && c.consumer_id == consumer.id)
        .ok_or_else(missing)
}

/// A verification with what its JSON needs.
#[derive(Debug)]
struct Shown {
    verification: Verification,
    provider: String,
    consumer: String,
    sha: String,
    provider_version: String,
    /// A contract pass (`eligible.rs`).
    eligible: bool,
}

fn show(
    conn: &mut AnyConnection,
    provider: &Pacticipant,
    consumer: &Pacticipant,
    sha: &str,
    verification: Verification,
) -> Result<Shown, BrokerError> {
    let id = verification.provider_version_id;
    let provider_version =
        versions::find_by_id(conn, id)?
            .map(|v| v.number)
            .ok_or(StoreError::MissingRow {
                what: "provider version",
                id,
            })?;
    Ok(Shown {
        eligible: eligible::of(conn, &verification)?,
        verification,
        provider: provider.name.clone(),
        consumer: consumer.name.clone(),
        sha: sha.to_owned(),
        provider_version,
    })
}

/// The sha of a stored content (a foreign key guarantees it exists).
fn sha_of(conn: &mut AnyConnection, content_id: i64) -> Result<String, StoreError> {
    selection::shas(conn, &[content_id])?
        .pop()
        .map(|(_, sha)| sha)
        .ok_or(StoreError::MissingRow {
            what: "pact content",
            id: content_id,
        })
}

fn stored_json(what: &'static str, text: Option<&str>) -> Result<Value, StoreError> {
    match text {
        None => Ok(Value::Null),
        Some(t) => {
            serde_json::from_str(t).map_err(|source| StoreError::CorruptJson { what, source })
        }
    }
}

/// The verification result resource.
fn verification_json(base: &BaseUrl, s: &Shown) -> Result<Value, BrokerError> {
    let v = &s.verification;
    let pact = base.url(&[
        "pacts",
        "provider",
        &s.provider,
        "consumer",
        &s.consumer,
        "pact-version",
        &s.sha,
    ]);
    let me = format!("{pact}/verification-results/{}", v.number);
    // the same path under `/ui`: the page a person reads (`accord verify
    // --publish` prints it beside the result's URL)
    let page = format!("{}/ui{}", base.0, me.trim_start_matches(base.0.as_str()));
    let links = Links::new()
        .add("self", Link::new(me).title("Verification result"))
        .add("accord:page", Link::new(page).title("Verification page"))
        .add("pb:pact-version", Link::new(pact).title("Pact"))
        .add(
            "pb:provider-version",
            Link::new(base.url(&["pacticipants", &s.provider, "versions", &s.provider_version]))
                .title("Provider version")
                .name(s.provider_version.clone()),
        );
    let mut out = json!({
        "providerName": s.provider,
        "providerApplicationVersion": s.provider_version,
        "consumerName": s.consumer,
        "success": v.success,
        "verificationDate": crate::api::time(v.execution_date),
        "buildUrl": v.build_url,
        "testResults": stored_json("test results", v.test_results.as_deref())?,
        "verifiedBy": stored_json("verifiedBy", v.verified_by.as_deref())?,
        "findings": stored_json("findings", Some(&v.findings))?,
        "declarations": stored_json("declarations", Some(v.declarations.as_deref().unwrap_or("[]")))?,
        "wip": v.wip,
        "pending": v.pending,
        "pactViewOnly": v.pact_view,
        "evaluationEligible": s.eligible,
        "number": v.number,
        "_links": links.into_value(),
    });
    // the broker's static cross-check; a verifier's result has no kind
    if let Some(kind) = &v.kind {
        out["kind"] = json!(kind);
    }
    Ok(out)
}

/// `POST /pacts/provider/{p}/consumer/{c}/pact-version/{sha}/verification-results`.
pub async fn publish_verification(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, sha) = path.into_inner();
    publish(state, base, req, (p, c, sha), None, bytes).await
}

/// The same with the `/metadata/{m}` segment "pacts for verification" handed out.
pub async fn publish_verification_with_metadata(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String, String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, sha, m) = path.into_inner();
    let metadata =
        PactMetadata::decode(&m).map_err(|e| BrokerError::bad_field("metadata", e.to_string()))?;
    publish(state, base, req, (p, c, sha), Some(metadata), bytes).await
}

async fn publish(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    (p, c, sha): (String, String, String),
    metadata: Option<PactMetadata>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: VerificationRequest = body::parse(&req, &bytes)?;
    let new = Publish::try_from(request)?;
    let root = base.raw("");
    let shown = state
        .transaction(move |conn| {
            let (provider, consumer) = pair(conn, &p, &c)?;
            let content = content_of(conn, &provider, &consumer, &sha)?;
            let version = versions::find_or_create(conn, provider.id, &new.provider_version)?;
            let metadata = metadata.unwrap_or_default();
            let consumer_versions = metadata.consumer_version_ids.clone();
            let evidence = new.evidence_ask();
            let row = new.into_row(&content, version.id, metadata);
            let row = verifications::insert(conn, &row)?;
            let evidence = evidence.result(row.id, row.execution_date);
            crate::drift::clear::on_verification(
                conn,
                crate::drift::clear::NewResult {
                    id: row.id,
                    version_id: version.id,
                    success: row.success,
                    declarations: row.declarations.as_deref(),
                },
            )?;
            let verified = crate::webhooks::events::Verified {
                consumer: &consumer,
                provider: &provider,
                provider_version: &version,
                verification: &row,
                sha: &content.sha,
                consumer_version_ids: &consumer_versions,
            };
            crate::webhooks::events::verification_published(conn, &root, verified)?;
            crate::evidence::on_replay(conn, provider.id, version.id, &evidence)?;
            show(conn, &provider, &consumer, &content.sha, row)
        })
        .await?;
    Ok(hal::created(&verification_json(&base, &shown)?))
}

/// `GET …/pact-version/{sha}/verification-results/{n}` (and `…/latest`):
/// `n` counts the results of that pact, from 1.
pub async fn get_verification(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, sha, n) = path.into_inner();
    let shown = state
        .run(move |conn| {
            let (provider, consumer) = pair(conn, &p, &c)?;
            let content = content_of(conn, &provider, &consumer, &sha)?;
            let found = match (n.as_str(), result_number(&n)) {
                ("latest", _) => verifications::latest_for_content(conn, content.id)?,
                (_, Some(number)) => verifications::find_by_number(conn, content.id, number)?,
                (_, None) => None,
            };
            let v =
                found.ok_or_else(|| BrokerError::not_found(format!("Verification result {n}")))?;
            show(conn, &provider, &consumer, &content.sha, v)
        })
        .await?;
    Ok(hal::ok(&verification_json(&base, &shown)?))
}

/// A result's number as its URL writes it: decimal digits, no sign or
/// leading zero (one URL per result), that fits (anything else names no result).
fn result_number(text: &str) -> Option<i64> {
    let canonical = text.bytes().all(|b| b.is_ascii_digit()) && !text.starts_with('0');
    canonical.then(|| text.parse().ok()).flatten()
}

/// The latest verification of the pact a consumer version (or, with
/// `None`, the consumer's latest version) has with the provider.
fn latest_for_pact(
    conn: &mut AnyConnection,
    p: &str,
    c: &str,
    consumer_version: Option<&str>,
) -> Result<Shown, BrokerError> {
    let (provider, consumer) = pair(conn, p, c)?;
    let publication = match consumer_version {
        Some(number) => match versions::find_by_number(conn, consumer.id, number)? {
            Some(v) => pacts::find_publication(conn, v.id, provider.id)?,
            None => None,
        },
        None => selection::latest(conn, provider.id, consumer.id)?,
    };
    let publication =
        publication.ok_or_else(|| BrokerError::not_found(format!("Pact between {c} and {p}")))?;
    let sha = sha_of(conn, publication.pact_content_id)?;
    let v =
        verifications::latest_for_content(conn, publication.pact_content_id)?.ok_or_else(|| {
            BrokerError::not_found(format!(
                "Verification result for the pact between {c} and {p}"
            ))
        })?;
    show(conn, &provider, &consumer, &sha, v)
}

/// `GET /pacts/provider/{p}/consumer/{c}/version/{cv}/verification-results/latest`.
pub async fn get_latest_for_consumer_version(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, cv) = path.into_inner();
    let shown = state
        .run(move |conn| latest_for_pact(conn, &p, &c, Some(&cv)))
        .await?;
    Ok(hal::ok(&verification_json(&base, &shown)?))
}

/// `GET /pacts/provider/{p}/consumer/{c}/latest/verification-results/latest`.
pub async fn get_latest_for_latest_pact(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c) = path.into_inner();
    let shown = state
        .run(move |conn| latest_for_pact(conn, &p, &c, None))
        .await?;
    Ok(hal::ok(&verification_json(&base, &shown)?))
}

/// `GET /verification-results/consumer/{c}/version/{cv}/latest`: the latest
/// result for each provider the consumer version has a pact with, and
/// whether all of them succeeded.
pub async fn get_consumer_version_summary(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (c, cv) = path.into_inner();
    let me = base.url(&[
        "verification-results",
        "consumer",
        &c,
        "version",
        &cv,
        "latest",
    ]);
    let (results, unknown, partial) = state.run(move |conn| summary(conn, &c, &cv)).await?;
    let embedded = results
        .iter()
        .map(|s| verification_json(&base, s))
        .collect::<Result<Vec<_>, _>>()?;
    // a success of the Pact view only leaves the Accord-only parts unknown
    let partial = |s: &&Shown| partial.contains(&s.verification.id);
    let names = |ok: bool| -> Vec<&str> {
        results
            .iter()
            .filter(|s| s.verification.success == ok && !partial(s))
            .map(|s| s.provider.as_str())
            .collect()
    };
    let mut unknown = unknown;
    unknown.extend(results.iter().filter(partial).map(|s| s.provider.clone()));
    let success = unknown.is_empty() && results.iter().all(|s| s.verification.success);
    Ok(hal::ok(&json!({
        "success": success,
        "providerSummary": { "successful": names(true), "failed": names(false), "unknown": unknown },
        "_embedded": { "verificationResults": embedded },
        "_links": { "self": { "href": me, "title": "Latest verification results for consumer version" } },
    })))
}

/// The results shown, the providers without one, and the ids of the
/// results that verified a Pact view only (of a content with Accord-only
/// parts: the matrix's rule, `coverage::accord_only_parts`).
type Summary = (Vec<Shown>, Vec<String>, Vec<i64>);

fn summary(conn: &mut AnyConnection, c: &str, cv: &str) -> Result<Summary, BrokerError> {
    let consumer = crate::api::pacticipants::find_required(conn, c)?;
    let version = versions::find_by_number(conn, consumer.id, cv)?
        .ok_or_else(|| BrokerError::not_found(format!("Version {cv} of {c}")))?;
    let mut shown = Vec::new();
    let mut unknown = Vec::new();
    for publication in pacts::list_publications_for_version(conn, version.id)? {
        let Some(provider) = pacticipants::find_by_id(conn, publication.provider_id)? else {
            continue;
        };
        let latest = verifications::latest_for_content(conn, publication.pact_content_id)?;
        match verifications::prefer_whole(conn, latest)? {
            Some(v) => {
                let sha = sha_of(conn, publication.pact_content_id)?;
                shown.push(show(conn, &provider, &consumer, &sha, v)?);
            }
            None => unknown.push(provider.name),
        }
    }
    let partial: Vec<&Shown> = shown
        .iter()
        .filter(|s| s.verification.pact_view && s.verification.success)
        .collect();
    let parts = crate::store::coverage::accord_only_parts(
        conn,
        partial.iter().map(|s| s.verification.pact_content_id),
    )?;
    let partial = partial
        .iter()
        .filter(|s| parts.contains_key(&s.verification.pact_content_id))
        .map(|s| s.verification.id)
        .collect();
    Ok((shown, unknown, partial))
}
