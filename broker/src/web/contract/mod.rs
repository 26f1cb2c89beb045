//! The contract page (`/ui/pacts/provider/{p}/consumer/{c}/version/{v}`):
//! a consumer version's contract with a provider, each interaction shown
//! for what it is (HTTP exchange, A2A task timeline, MCP tool call,
//! message), Accord's expectations (side effects, deadlines, principals,
//! probes), the declarations the consumer relies on, the content digest
//! and every consumer version that published the same content, its
//! verifications, and a link to the diff with the previous version.
//!
//! The diff page (`…/diff?from=&to=`) is in [`diff`].

mod a2a;
pub mod diff;
mod fields;
mod http;
mod mcp;
pub(crate) mod page;
pub mod redact;
mod view;

use actix_web::{HttpResponse, web};

use crate::contract::pact_view::AccordOnly;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::pacticipants::Pacticipant;
use crate::store::pacts::{self, PactContent, PairVersion};
use crate::store::verifications::{self, Listed};
use crate::store::versions::{self, Version};
use crate::store::{coverage, directory};

pub use diff::get_diff;

/// A pair's pacticipants by name (404 if either is unknown).
pub fn pair(
    conn: &mut AnyConnection,
    provider: &str,
    consumer: &str,
) -> Result<(Pacticipant, Pacticipant), BrokerError> {
    let p = crate::api::pacticipants::find_required(conn, provider)?;
    let c = crate::api::pacticipants::find_required(conn, consumer)?;
    Ok((p, c))
}

/// The content a consumer version published for the provider (404 when
/// the version is unknown or published none).
pub fn content_of_version(
    conn: &mut AnyConnection,
    provider: &Pacticipant,
    consumer: &Pacticipant,
    number: &str,
) -> Result<(Version, PactContent), BrokerError> {
    let missing = || {
        BrokerError::not_found(format!(
            "The pact of {} version '{number}' with {}",
            consumer.name, provider.name
        ))
    };
    let version = versions::find_by_number(conn, consumer.id, number)?.ok_or_else(missing)?;
    let found = pacts::find_pact(conn, version.id, provider.id)?.ok_or_else(missing)?;
    Ok((version, found.content))
}

/// The most results a page lists: the newest (the page says how many
/// older ones it leaves out).
pub const LISTED: i64 = 50;

/// A verification in a list, with its provider version's number.
#[derive(Debug, Clone)]
pub struct VerificationRow {
    pub verification: Listed,
    pub provider_version: String,
}

/// The newest results of a content and how many it has.
#[derive(Debug, Clone, Default)]
pub struct Verifications {
    /// At most [`LISTED`], latest first.
    pub rows: Vec<VerificationRow>,
    pub total: i64,
    /// The content has Accord-only parts: a success of its Pact view is
    /// unverified (the matrix's rule, `coverage::accord_only_parts`).
    pub accord_only: bool,
}

/// The newest [`LISTED`] verifications of a content, latest first, with
/// their provider versions, and how many there are.
pub fn verifications_of(
    conn: &mut AnyConnection,
    content_id: i64,
) -> Result<Verifications, BrokerError> {
    let (list, total) = verifications::newest_for_content(conn, content_id, LISTED)?;
    let mut ids: Vec<i64> = list.iter().map(|v| v.provider_version_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let numbers = directory::version_numbers(conn, &ids)?;
    let partial = list.iter().any(|v| v.pact_view && v.success);
    Ok(Verifications {
        accord_only: partial && !accord_only_parts(conn, content_id)?.is_empty(),
        rows: list
            .into_iter()
            .map(|v| VerificationRow {
                provider_version: numbers
                    .get(&v.provider_version_id)
                    .cloned()
                    .unwrap_or_default(),
                verification: v,
            })
            .collect(),
        total,
    })
}

/// The Accord-only parts of a content (empty when it has none): what a
/// success of its Pact view leaves unverified.
pub fn accord_only_parts(
    conn: &mut AnyConnection,
    content_id: i64,
) -> Result<Vec<AccordOnly>, BrokerError> {
    Ok(coverage::accord_only_parts(conn, [content_id])?
        .remove(&content_id)
        .unwrap_or_default())
}

/// What the contract page is made of.
#[derive(Debug)]
pub struct Loaded {
    pub provider: String,
    pub consumer: String,
    pub version: Version,
    pub content: PactContent,
    /// The pair's consumer versions, newest first.
    pub pair_versions: Vec<PairVersion>,
    pub verifications: Verifications,
}

fn load(conn: &mut AnyConnection, p: &str, c: &str, v: &str) -> Result<Loaded, BrokerError> {
    let (provider, consumer) = pair(conn, p, c)?;
    let (version, content) = content_of_version(conn, &provider, &consumer, v)?;
    let pair_versions = pacts::list_pair_versions(conn, provider.id, consumer.id)?;
    let verifications = verifications_of(conn, content.id)?;
    Ok(Loaded {
        provider: provider.name,
        consumer: consumer.name,
        version,
        content,
        pair_versions,
        verifications,
    })
}

/// `GET /ui/pacts/provider/{provider}/consumer/{consumer}/version/{version}`.
pub async fn get_page(
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, v) = path.into_inner();
    let loaded = state.run(move |conn| load(conn, &p, &c, &v)).await?;
    super::page(&page::ContractPage::from_loaded(loaded)?)
}
