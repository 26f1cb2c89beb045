//! The legacy publish: `PUT /pacts/provider/{p}/consumer/{c}/version/{cv}`
//! with the pact JSON as body (201 new, 200 same content, 409 changed) and
//! `PATCH` on the same path, which merges interactions.

use actix_web::http::{Method, StatusCode};
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;

use crate::api::body;
use crate::api::pact_resource::{NamedPact, Via, pact_json, pact_response};
use crate::api::publish::publish_error;
use crate::audience::Audience;
use crate::contract::{PreparedContract, prepare};
use crate::db::AnyConnection;
use crate::error::{BrokerError, FieldError};
use crate::hal::BaseUrl;
use crate::names::{PacticipantName, VersionNumber};
use crate::publishing::{Change, OnConflict, VersionRequest, publish_contract, record_version};
use crate::state::AppState;
use crate::store::StoreError;
use crate::store::pacts::{self, PublishedPact};

fn parse_path(
    (provider, consumer, number): (String, String, String),
) -> Result<(PacticipantName, PacticipantName, VersionNumber), BrokerError> {
    let bad =
        |field: &str, e: crate::names::NameError| BrokerError::bad_field(field, e.to_string());
    Ok((
        PacticipantName::parse(&provider).map_err(|e| bad("provider", e))?,
        PacticipantName::parse(&consumer).map_err(|e| bad("consumer", e))?,
        VersionNumber::parse(&number).map_err(|e| bad("consumerVersion", e))?,
    ))
}

/// `PUT` (overwrite, refused when the content changes) or `PATCH` (merge).
pub async fn put_pact(
    state: web::Data<AppState>,
    (base, audience): (BaseUrl, Audience),
    req: HttpRequest,
    path: web::Path<(String, String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let (provider, consumer, number) = parse_path(path.into_inner())?;
    let document: Value = body::parse_value(&req, &bytes)?;
    let prepared = prepare(document).map_err(|e| BrokerError::Unprocessable {
        detail: format!("the contract is not valid: {e}"),
        errors: vec![FieldError::new(e.path.clone(), e.message.clone())],
    })?;
    check_names(&prepared, &consumer, &provider)?;
    let on_conflict = if req.method() == Method::PATCH {
        OnConflict::Merge
    } else {
        OnConflict::Overwrite
    };
    let version = VersionRequest {
        pacticipant: consumer,
        number,
        branch: None,
        tags: Vec::new(),
        build_url: None,
    };
    let root = base.raw("");
    let (named, change) = state
        .transaction(move |conn| store(conn, &root, &version, &provider, prepared, on_conflict))
        .await?;
    let body = pact_json(&base, &named, Via::Version, audience)?;
    let status = if change == Change::Created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok(pact_response(status, &body, audience))
}

/// The names inside the pact must be the ones in the URL.
fn check_names(
    prepared: &PreparedContract,
    consumer: &PacticipantName,
    provider: &PacticipantName,
) -> Result<(), BrokerError> {
    for (path, inside, named) in [
        ("$.consumer.name", &prepared.consumer, consumer),
        ("$.provider.name", &prepared.provider, provider),
    ] {
        if inside != named.as_str() {
            return Err(BrokerError::bad_field(
                path,
                format!("must be {:?} as in the URL, not {inside:?}", named.as_str()),
            ));
        }
    }
    Ok(())
}

/// Records the consumer version and publishes the pact for it.
fn store(
    conn: &mut AnyConnection,
    root: &str,
    version: &VersionRequest,
    provider: &PacticipantName,
    prepared: PreparedContract,
    on_conflict: OnConflict,
) -> Result<(NamedPact, Change), BrokerError> {
    let recorded = record_version(conn, version, Some(provider))?;
    let published = publish_contract(conn, &recorded, &[], provider, prepared, on_conflict)
        .map_err(|e| publish_error(e, &recorded, provider))?;
    crate::webhooks::events::pact_published(
        conn,
        root,
        crate::api::publish::published_event(&recorded, &published),
    )?;
    // the first published form of the content is what is served
    let id = published.publication.pact_content_id;
    let content = match published.content {
        Some(content) => content,
        None => pacts::find_content_by_id(conn, id)?.ok_or(StoreError::MissingRow {
            what: "pact content",
            id,
        })?,
    };
    let named = NamedPact {
        consumer: recorded.pacticipant.name.clone(),
        provider: published.provider.name.clone(),
        pact: PublishedPact {
            publication: published.publication,
            content,
            consumer_version: recorded.version,
        },
    };
    Ok((named, published.change))
}
