//! `POST /contracts/publish`: one consumer version (branch, tags, build
//! URL) and its contracts, all in one transaction, answered with the
//! `notices`, `logs`, `_embedded` and `_links` the Pact CLIs print.

use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use serde::Deserialize;
use serde_json::Value;

use crate::api::body;
use crate::contract::{PreparedContract, prepare};
use crate::error::{BrokerError, FieldError};
use crate::hal::{self, BaseUrl};
use crate::names::{BranchName, FreeText, PacticipantName, TagName, VersionNumber};
use crate::publishing::{
    First, OnConflict, RecordedVersion, VersionRequest, publish_contract, publish_first,
    record_version_after,
};
use crate::state::AppState;

/// The request body (every field optional here so that a missing one is
/// reported by its path, not as a serde message).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishRequest {
    pub pacticipant_name: Option<String>,
    pub pacticipant_version_number: Option<String>,
    pub branch: Option<String>,
    pub tags: Option<Vec<String>>,
    pub build_url: Option<FreeText>,
    pub contracts: Option<Vec<ContractRequest>>,
}

/// One element of `contracts`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContractRequest {
    pub consumer_name: Option<String>,
    pub provider_name: Option<String>,
    pub specification: Option<String>,
    pub content_type: Option<String>,
    pub content: Option<String>,
    pub on_conflict: Option<String>,
}

/// A contract that passed validation.
#[derive(Debug)]
struct ValidContract {
    provider: PacticipantName,
    prepared: PreparedContract,
    on_conflict: OnConflict,
}

/// Collects field errors; 400 with all of them at the end.
#[derive(Debug, Default)]
struct Problems(Vec<FieldError>);

impl Problems {
    fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(field, message));
    }

    fn required<'a>(&mut self, field: &str, value: &'a Option<String>) -> Option<&'a str> {
        match value.as_deref() {
            Some(v) if !v.trim().is_empty() => Some(v),
            _ => {
                self.add(field, "is required");
                None
            }
        }
    }

    fn name<T>(&mut self, field: &str, parsed: Result<T, crate::names::NameError>) -> Option<T> {
        parsed.map_err(|e| self.add(field, e.to_string())).ok()
    }

    fn into_result(self) -> Result<(), BrokerError> {
        if self.0.is_empty() {
            return Ok(());
        }
        let detail = self
            .0
            .iter()
            .map(|e| format!("{}: {}", e.field, e.message))
            .collect::<Vec<_>>()
            .join("; ");
        Err(BrokerError::BadRequest {
            detail,
            errors: self.0,
        })
    }
}

/// `pacticipantName` … `buildUrl` as a version request.
fn parse_version(request: &PublishRequest, problems: &mut Problems) -> Option<VersionRequest> {
    let name = problems.required("$.pacticipantName", &request.pacticipant_name);
    let number = problems.required(
        "$.pacticipantVersionNumber",
        &request.pacticipant_version_number,
    );
    let pacticipant =
        name.and_then(|n| problems.name("$.pacticipantName", PacticipantName::parse(n)));
    let number =
        number.and_then(|n| problems.name("$.pacticipantVersionNumber", VersionNumber::parse(n)));
    let branch = match &request.branch {
        Some(b) => problems.name("$.branch", BranchName::parse(b)),
        None => None,
    };
    let mut tags = Vec::new();
    for (i, t) in request.tags.iter().flatten().enumerate() {
        tags.extend(problems.name(&format!("$.tags[{i}]"), TagName::parse(t)));
    }
    Some(VersionRequest {
        pacticipant: pacticipant?,
        number: number?,
        branch,
        tags,
        build_url: request
            .build_url
            .clone()
            .map(FreeText::into_string)
            .filter(|u| !u.trim().is_empty()),
    })
}

/// Decodes and parses `content` (400 on bad base64 or JSON).
fn decode_content(at: &str, content: &str, problems: &mut Problems) -> Option<Value> {
    // whitespace (line breaks of a wrapped encoding) dropped, byte by byte:
    // it is ASCII, never inside a multi-byte character
    let engine = &base64::engine::general_purpose::STANDARD;
    let decoded = if content.bytes().any(|b| b.is_ascii_whitespace()) {
        let compact: Vec<u8> = content
            .bytes()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        engine.decode(compact)
    } else {
        engine.decode(content)
    };
    let bytes = match decoded {
        Ok(b) => b,
        Err(e) => {
            problems.add(at, format!("is not valid base64: {e}"));
            return None;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    match accord_dsl::pact::parse_json(text.trim_start_matches('\u{feff}'), "content") {
        Ok(v) => Some(v),
        Err(e) => {
            let detail = std::error::Error::source(&e)
                .map(ToString::to_string)
                .unwrap_or_default();
            problems.add(at, format!("is not valid JSON: {detail}"));
            None
        }
    }
}

/// The scalar fields of one contract: names, specification, media type,
/// onConflict. Returns the provider name and conflict mode.
fn check_contract_fields(
    i: usize,
    c: &ContractRequest,
    pacticipant: Option<&str>,
    problems: &mut Problems,
) -> Option<(PacticipantName, OnConflict)> {
    let at = |f: &str| format!("$.contracts[{i}].{f}");
    let consumer = problems.required(&at("consumerName"), &c.consumer_name);
    if let (Some(consumer), Some(p)) = (consumer, pacticipant)
        && consumer != p
    {
        problems.add(
            at("consumerName"),
            format!("must match pacticipantName ({p:?}), not {consumer:?}"),
        );
    }
    let provider = problems.required(&at("providerName"), &c.provider_name);
    let provider =
        provider.and_then(|p| problems.name(&at("providerName"), PacticipantName::parse(p)));
    match problems.required(&at("specification"), &c.specification) {
        Some("pact" | "accord") | None => {}
        Some(other) => problems.add(
            at("specification"),
            format!("must be \"pact\" (or \"accord\"), not {other:?}"),
        ),
    }
    match problems.required(&at("contentType"), &c.content_type) {
        Some(t)
            if t.split(';')
                .next()
                .is_some_and(|e| e.trim().eq_ignore_ascii_case("application/json")) => {}
        Some(other) => problems.add(
            at("contentType"),
            format!("must be \"application/json\", not {other:?}"),
        ),
        None => {}
    }
    let on_conflict = match c.on_conflict.as_deref() {
        None | Some("overwrite") => OnConflict::Overwrite,
        Some("merge") => OnConflict::Merge,
        Some(other) => {
            problems.add(
                at("onConflict"),
                format!("must be \"overwrite\" or \"merge\", not {other:?}"),
            );
            OnConflict::Overwrite
        }
    };
    Some((provider?, on_conflict))
}

/// Everything the request says, checked before any write: 400 for wrong
/// fields, bad base64 or JSON; 422 for a contract the model refuses.
fn validate(request: &PublishRequest) -> Result<(VersionRequest, Vec<ValidContract>), BrokerError> {
    let mut problems = Problems::default();
    let version = parse_version(request, &mut problems);
    let contracts = match &request.contracts {
        Some(list) if !list.is_empty() => list.as_slice(),
        _ => {
            problems.add("$.contracts", "must list at least one contract");
            &[]
        }
    };
    let mut decoded = Vec::new();
    for (i, c) in contracts.iter().enumerate() {
        let fields =
            check_contract_fields(i, c, request.pacticipant_name.as_deref(), &mut problems);
        let at = format!("$.contracts[{i}].content");
        let content = problems.required(&at, &c.content);
        let value = content.and_then(|text| decode_content(&at, text, &mut problems));
        if let (Some((provider, on_conflict)), Some(value)) = (fields, value) {
            decoded.push((i, provider, on_conflict, value));
        }
    }
    problems.into_result()?;
    let version = version.ok_or_else(|| BrokerError::bad_field("$", "is incomplete"))?;
    let mut valid = Vec::new();
    for (i, provider, on_conflict, value) in decoded {
        let at = format!("$.contracts[{i}].content");
        let prepared = prepare(value).map_err(|e| unprocessable(&at, &e.to_string()))?;
        check_names(i, &prepared, &version, &provider)?;
        valid.push(ValidContract {
            provider,
            prepared,
            on_conflict,
        });
    }
    Ok((version, valid))
}

fn unprocessable(field: &str, message: &str) -> BrokerError {
    BrokerError::Unprocessable {
        detail: format!("{field}: the contract is not valid: {message}"),
        errors: vec![FieldError::new(field, message)],
    }
}

/// The names inside the content must be the ones the request gives.
fn check_names(
    i: usize,
    prepared: &PreparedContract,
    version: &VersionRequest,
    provider: &PacticipantName,
) -> Result<(), BrokerError> {
    if prepared.consumer != version.pacticipant.as_str() {
        return Err(BrokerError::bad_field(
            format!("$.contracts[{i}].consumerName"),
            format!(
                "must match the consumer name in the contract ({:?})",
                prepared.consumer
            ),
        ));
    }
    if prepared.provider != provider.as_str() {
        return Err(BrokerError::bad_field(
            format!("$.contracts[{i}].providerName"),
            format!(
                "must match the provider name in the contract ({:?})",
                prepared.provider
            ),
        ));
    }
    Ok(())
}

/// `POST /contracts/publish`.
pub async fn publish_contracts(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: PublishRequest = body::parse(&req, &bytes)?;
    let (version, contracts) = validate(&request)?;
    let request_version = version.clone();
    let root = base.raw("");
    let (recorded, published) = state
        .transaction_after(
            move |conn| {
                let first = match contracts.as_slice() {
                    [only] => publish_first(conn, &version, &only.provider, &only.prepared)?,
                    _ => First::Then(None),
                };
                Ok(match first {
                    First::Done(recorded, published) => Ok((recorded, vec![published])),
                    First::Then(read) => Err((version, contracts, read)),
                })
            },
            move |conn, (version, contracts, read)| {
                let first = contracts.first().map(|c| &c.provider);
                let recorded = record_version_after(conn, &version, first, read)?;
                let mut published = Vec::new();
                for c in contracts {
                    let provider = c.provider.clone();
                    let result = publish_contract(
                        conn,
                        &recorded,
                        &published,
                        &c.provider,
                        c.prepared,
                        c.on_conflict,
                    );
                    let done = result.map_err(|e| publish_error(e, &recorded, &provider))?;
                    crate::webhooks::events::pact_published(
                        conn,
                        &root,
                        published_event(&recorded, &done),
                    )?;
                    published.push(done);
                }
                Ok((recorded, published))
            },
        )
        .await?;
    Ok(hal::ok_bytes(response_body(
        &base,
        &request_version,
        &recorded,
        &published,
    )))
}

/// What the webhook events of a publication need.
pub fn published_event<'a>(
    recorded: &'a RecordedVersion,
    done: &'a crate::publishing::PublishedContract,
) -> crate::webhooks::events::Published<'a> {
    crate::webhooks::events::Published {
        consumer: &recorded.pacticipant,
        version: &recorded.version,
        provider: &done.provider,
        publication: &done.publication,
        sha: &done.sha,
        changed: done.change != crate::publishing::Change::Unchanged,
        unhooked: recorded
            .unhooked_provider
            .as_ref()
            .is_some_and(|p| p.as_str() == done.provider.name),
    }
}

mod refusal;
mod response;
pub use refusal::{changed_content_text, publish_error};
use response::response_body;
