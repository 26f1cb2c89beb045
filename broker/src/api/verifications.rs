//! Verification results: publish (`POST …/pact-version/{sha}[/metadata/{m}]
//! /verification-results`, Pact's body plus Accord's layered findings) and
//! read back (by number, latest for a content, for a consumer version, for
//! the latest pact, and the summary for a consumer version).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::api::findings::{self, Finding};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::metadata::PactMetadata;
use crate::names::{ContentSha, VersionNumber};
use crate::state::AppState;
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::pacts::{self, PactContent};
use crate::store::verifications::{self, NewVerification, Verification};
use crate::store::{StoreError, now, selection, versions};

/// The body of a verification result.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerificationRequest {
    pub success: Option<bool>,
    pub provider_application_version: Option<String>,
    pub build_url: Option<String>,
    pub test_results: Option<Value>,
    pub verified_by: Option<Value>,
    #[serde(default)]
    pub findings: Vec<Finding>,
}

/// A validated verification result, ready to store.
#[derive(Debug)]
struct Publish {
    success: bool,
    provider_version: VersionNumber,
    build_url: Option<String>,
    test_results: Option<String>,
    verified_by: Option<String>,
    findings: String,
}

impl TryFrom<VerificationRequest> for Publish {
    type Error = BrokerError;

    fn try_from(r: VerificationRequest) -> Result<Self, BrokerError> {
        let success = r
            .success
            .ok_or_else(|| BrokerError::bad_field("success", "is required (true or false)"))?;
        let raw = r
            .provider_application_version
            .ok_or_else(|| BrokerError::bad_field("providerApplicationVersion", "is required"))?;
        let provider_version = VersionNumber::parse(&raw)
            .map_err(|e| BrokerError::bad_field("providerApplicationVersion", e.to_string()))?;
        if let Some(url) = &r.build_url
            && !is_url(url)
        {
            return Err(BrokerError::bad_field(
                "buildUrl",
                "must be an absolute URL",
            ));
        }
        findings::validate(&r.findings)?;
        Ok(Publish {
            success,
            provider_version,
            build_url: r.build_url,
            test_results: r.test_results.map(|v| v.to_string()),
            verified_by: r.verified_by.map(|v| v.to_string()),
            findings: serde_json::to_string(&r.findings).unwrap_or_else(|_| "[]".into()),
        })
    }
}

/// An absolute URL: a scheme, `://`, and a host.
fn is_url(text: &str) -> bool {
    match text.parse::<actix_web::http::Uri>() {
        Ok(uri) => uri.scheme().is_some() && uri.host().is_some_and(|h| !h.is_empty()),
        Err(_) => false,
    }
}

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
}

fn show(
    conn: &mut AnyConnection,
    provider: &Pacticipant,
    consumer: &Pacticipant,
    sha: &str,
    verification: Verification,
) -> Result<Shown, BrokerError> {
    let provider_version = versions::find_by_id(conn, verification.provider_version_id)?
        .map(|v| v.number)
        .unwrap_or_default();
    Ok(Shown {
        verification,
        provider: provider.name.clone(),
        consumer: consumer.name.clone(),
        sha: sha.to_owned(),
        provider_version,
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
    let me = format!("{pact}/verification-results/{}", v.id);
    let links = Links::new()
        .add("self", Link::new(me).title("Verification result"))
        .add("pb:pact-version", Link::new(pact).title("Pact"))
        .add(
            "pb:provider-version",
            Link::new(base.url(&["pacticipants", &s.provider, "versions", &s.provider_version]))
                .title("Provider version")
                .name(s.provider_version.clone()),
        );
    Ok(json!({
        "providerName": s.provider,
        "providerApplicationVersion": s.provider_version,
        "consumerName": s.consumer,
        "success": v.success,
        "verificationDate": crate::api::time(v.execution_date),
        "buildUrl": v.build_url,
        "testResults": stored_json("test results", v.test_results.as_deref())?,
        "verifiedBy": stored_json("verifiedBy", v.verified_by.as_deref())?,
        "findings": stored_json("findings", Some(&v.findings))?,
        "wip": v.wip,
        "pending": v.pending,
        "number": v.id,
        "_links": links.into_value(),
    }))
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
    let shown = state
        .transaction(move |conn| {
            let (provider, consumer) = pair(conn, &p, &c)?;
            let content = content_of(conn, &provider, &consumer, &sha)?;
            let version = versions::find_or_create(conn, provider.id, &new.provider_version)?;
            let m = metadata.unwrap_or_default();
            let row = verifications::insert(
                conn,
                &NewVerification {
                    pact_content_id: content.id,
                    provider_version_id: version.id,
                    consumer_id: consumer.id,
                    provider_id: provider.id,
                    success: new.success,
                    build_url: new.build_url,
                    test_results: new.test_results,
                    verified_by: new.verified_by,
                    findings: new.findings,
                    wip: m.wip,
                    pending: m.pending,
                    selectors: (m != PactMetadata::default()).then(|| m.to_json()),
                    execution_date: now(),
                },
            )?;
            show(conn, &provider, &consumer, &content.sha, row)
        })
        .await?;
    Ok(hal::created(&verification_json(&base, &shown)?))
}

/// `GET …/pact-version/{sha}/verification-results/{n}` (and `…/latest`).
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
            let found = if n == "latest" {
                verifications::latest_for_content(conn, content.id)?
            } else {
                let id = n.parse::<i64>().ok();
                match id {
                    Some(id) => verifications::find_by_id(conn, id)?
                        .filter(|v| v.pact_content_id == content.id),
                    None => None,
                }
            };
            let v =
                found.ok_or_else(|| BrokerError::not_found(format!("Verification result {n}")))?;
            show(conn, &provider, &consumer, &content.sha, v)
        })
        .await?;
    Ok(hal::ok(&verification_json(&base, &shown)?))
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
    let sha = selection::shas(conn, &[publication.pact_content_id])?
        .pop()
        .map(|(_, sha)| sha)
        .unwrap_or_default();
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
    let (results, unknown) = state.run(move |conn| summary(conn, &c, &cv)).await?;
    let embedded = results
        .iter()
        .map(|s| verification_json(&base, s))
        .collect::<Result<Vec<_>, _>>()?;
    let names = |ok: bool| -> Vec<&str> {
        results
            .iter()
            .filter(|s| s.verification.success == ok)
            .map(|s| s.provider.as_str())
            .collect()
    };
    let success = unknown.is_empty() && results.iter().all(|s| s.verification.success);
    Ok(hal::ok(&json!({
        "success": success,
        "providerSummary": { "successful": names(true), "failed": names(false), "unknown": unknown },
        "_embedded": { "verificationResults": embedded },
        "_links": { "self": { "href": me, "title": "Latest verification results for consumer version" } },
    })))
}

type Summary = (Vec<Shown>, Vec<String>);

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
        match verifications::latest_for_content(conn, publication.pact_content_id)? {
            Some(v) => {
                let sha = selection::shas(conn, &[publication.pact_content_id])?
                    .pop()
                    .map(|(_, sha)| sha)
                    .unwrap_or_default();
                shown.push(show(conn, &provider, &consumer, &sha, v)?);
            }
            None => unknown.push(provider.name),
        }
    }
    Ok((shown, unknown))
}
