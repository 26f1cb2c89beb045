//! Reading the pacts of one consumer/provider pair
//! (`/pacts/provider/{p}/consumer/{c}/…`): by consumer version, latest
//! (optionally by tag, untagged, or branch head), by content sha (with the
//! metadata segment). The collections of a pair are in `pact_versions.rs`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};

use crate::api::pact_resource::{NamedPact, Via, pact_json, pact_response};
use crate::audience::Audience;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::BaseUrl;
use crate::state::AppState;
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::pacts::{self, PactFilter, PublishedPact};
use crate::store::{branches, versions};

/// A consumer and a provider named in a path.
#[derive(Debug, Clone)]
pub struct Pair {
    pub consumer: Pacticipant,
    pub provider: Pacticipant,
}

impl Pair {
    /// Both pacticipants, or 404 naming the missing one.
    pub fn find(
        conn: &mut AnyConnection,
        provider: &str,
        consumer: &str,
    ) -> Result<Pair, BrokerError> {
        let find = |conn: &mut AnyConnection, name: &str, role: &str| {
            pacticipants::find_by_name(conn, name)?
                .ok_or_else(|| BrokerError::not_found(format!("{role} '{name}'")))
        };
        Ok(Pair {
            provider: find(conn, provider, "Provider")?,
            consumer: find(conn, consumer, "Consumer")?,
        })
    }

    /// A filter for this pair's pacts.
    pub fn filter(&self) -> PactFilter<'static> {
        PactFilter {
            provider_id: self.provider.id,
            consumer_id: Some(self.consumer.id),
            ..Default::default()
        }
    }

    /// The pact with the names of this pair.
    pub fn named(&self, pact: PublishedPact) -> NamedPact {
        NamedPact {
            consumer: self.consumer.name.clone(),
            provider: self.provider.name.clone(),
            pact,
        }
    }

    fn missing(&self, what: &str) -> BrokerError {
        BrokerError::not_found(format!(
            "Pact between {} and {} {what}",
            self.consumer.name, self.provider.name
        ))
    }
}

/// Who asks, and where links point.
type Reader = (BaseUrl, Audience);

/// Finds one pact of a pair with `lookup` and renders it for the reader.
async fn serve_one<F>(
    state: web::Data<AppState>,
    (base, audience): Reader,
    (provider, consumer): (String, String),
    via: Via<'_>,
    what: String,
    lookup: F,
) -> Result<HttpResponse, BrokerError>
where
    F: FnOnce(&mut AnyConnection, &Pair) -> Result<Option<PublishedPact>, BrokerError>
        + Send
        + 'static,
{
    let named = state
        .run(move |conn| {
            let pair = Pair::find(conn, &provider, &consumer)?;
            let pact = lookup(conn, &pair)?.ok_or_else(|| pair.missing(&what))?;
            Ok(pair.named(pact))
        })
        .await?;
    let body = pact_json(&base, &named, via, audience)?;
    Ok(pact_response(StatusCode::OK, &body, audience))
}

/// `GET …/version/{cv}` (and the deprecated `…/versions/{cv}`, `/pact/…`).
pub async fn get_pact(
    state: web::Data<AppState>,
    reader: Reader,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (provider, consumer, number) = path.into_inner();
    let what = format!("for consumer version {number}");
    serve_one(
        state,
        reader,
        (provider, consumer),
        Via::Version,
        what,
        move |conn, pair| match versions::find_by_number(conn, pair.consumer.id, &number)? {
            Some(v) => Ok(pacts::find_pact(conn, v.id, pair.provider.id)?),
            None => Ok(None),
        },
    )
    .await
}

/// `GET …/latest`: the pact of the most recently created consumer version.
pub async fn get_latest_pact(
    state: web::Data<AppState>,
    reader: Reader,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    serve_one(
        state,
        reader,
        path.into_inner(),
        Via::Version,
        "was not found".into(),
        |conn, pair| Ok(pacts::find_latest_pact(conn, &pair.filter())?),
    )
    .await
}

/// `GET …/latest/{tag}`.
pub async fn get_latest_tagged_pact(
    state: web::Data<AppState>,
    reader: Reader,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (provider, consumer, tag) = path.into_inner();
    let what = format!("with tag {tag} was not found");
    serve_one(
        state,
        reader,
        (provider, consumer),
        Via::Version,
        what,
        move |conn, pair| Ok(pacts::find_latest_pact(conn, &pair.filter().tagged(&tag))?),
    )
    .await
}

/// `GET …/latest-untagged`.
pub async fn get_latest_untagged_pact(
    state: web::Data<AppState>,
    reader: Reader,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let what = "without tags was not found".to_owned();
    serve_one(
        state,
        reader,
        path.into_inner(),
        Via::Version,
        what,
        |conn, pair| {
            let filter = PactFilter {
                untagged: true,
                ..pair.filter()
            };
            Ok(pacts::find_latest_pact(conn, &filter)?)
        },
    )
    .await
}

/// The pact of the head of the consumer's branch `branch`: none when the
/// head has no pact for this provider (no fallback to older versions).
pub fn branch_head_pact(
    conn: &mut AnyConnection,
    pair: &Pair,
    branch: &str,
) -> Result<Option<PublishedPact>, BrokerError> {
    let Some(found) = branches::find_by_name(conn, pair.consumer.id, branch)? else {
        return Ok(None);
    };
    match branches::head(conn, found.id)? {
        Some(head) => Ok(pacts::find_pact(conn, head.id, pair.provider.id)?),
        None => Ok(None),
    }
}

/// `GET …/branch/{b}/latest`: the pact of the branch head version.
pub async fn get_latest_branch_pact(
    state: web::Data<AppState>,
    reader: Reader,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (provider, consumer, branch) = path.into_inner();
    let what = format!("for the head of branch {branch} was not found");
    serve_one(
        state,
        reader,
        (provider, consumer),
        Via::Version,
        what,
        move |conn, pair| branch_head_pact(conn, pair, &branch),
    )
    .await
}

/// `GET …/pact-version/{sha}`.
pub async fn get_pact_by_sha(
    state: web::Data<AppState>,
    reader: Reader,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (provider, consumer, sha) = path.into_inner();
    pact_by_sha(state, reader, (provider, consumer), sha, None).await
}

/// `GET …/pact-version/{sha}/metadata/{m}`: `m` is kept in the links.
pub async fn get_pact_by_sha_with_metadata(
    state: web::Data<AppState>,
    reader: Reader,
    path: web::Path<(String, String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (provider, consumer, sha, metadata) = path.into_inner();
    pact_by_sha(state, reader, (provider, consumer), sha, Some(metadata)).await
}

async fn pact_by_sha(
    state: web::Data<AppState>,
    reader: Reader,
    names: (String, String),
    sha: String,
    metadata: Option<String>,
) -> Result<HttpResponse, BrokerError> {
    let via = Via::Sha {
        metadata: metadata.as_deref(),
    };
    let what = format!("with content {sha} was not found");
    serve_one(state, reader, names, via, what, move |conn, pair| {
        let Some(content) = pacts::find_content_by_sha(conn, &sha)? else {
            return Ok(None);
        };
        let filter = PactFilter {
            pact_content_id: Some(content.id),
            ..pair.filter()
        };
        Ok(pacts::find_latest_pact(conn, &filter)?)
    })
    .await
}
