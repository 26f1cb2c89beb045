//! The diff page (`/ui/pacts/provider/{p}/consumer/{c}/diff?from=&to=`):
//! what changed between two consumer versions' contracts with a provider.
//!
//! Interactions are matched the way the API merges them (description and
//! provider states, `contract::merge`); each changed one is shown as the
//! API shows a changed pact in a 409 (`contract::diff::unified_diff` of the
//! pretty-printed JSON), with the JSON paths that changed. Every change is
//! classified for the provider with the classes of `accord_verifier::compat`:
//! what provider versions verified against `from` were not checked for
//! needs verification (conditional: an added or changed interaction,
//! expectations of the declarations the consumer relies on more or
//! differently, protocol pins); a consumer relying on less (a removed
//! interaction, expectations that are a subset of the older ones) is
//! compatible. A consumer's contract alone breaks a provider in one case:
//! an interaction that expected an error now expects another
//! (BREAKING_ERROR_CODE_CHANGED, `compat::error_code_changes`): the
//! provider versions that passed it answered with the older error.
//! Otherwise the verification says whether it does.
//!
//! Without both versions the page is a form to pick them.

mod compare;

use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::page::{contract_url, pair_url};
use super::{content_of_version, pair};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::pacts;
use compare::Comparison;

/// The query: two consumer version numbers.
#[derive(Debug, Deserialize)]
struct DiffQuery {
    from: Option<String>,
    to: Option<String>,
}

/// The diff page: a picker, and the comparison when both versions are set.
#[derive(Debug, Template)]
#[template(path = "diff.html")]
pub struct DiffPage {
    pub provider: String,
    pub consumer: String,
    pub action: String,
    pub provider_href: String,
    pub consumer_href: String,
    /// The pair's consumer versions, newest first.
    pub versions: Vec<String>,
    pub from: String,
    pub to: String,
    pub from_href: String,
    pub to_href: String,
    pub comparison: Option<Comparison>,
}

fn load(
    conn: &mut AnyConnection,
    (p, c): (String, String),
    q: DiffQuery,
) -> Result<DiffPage, BrokerError> {
    let (provider, consumer) = pair(conn, &p, &c)?;
    let versions: Vec<String> = pacts::list_pair_versions(conn, provider.id, consumer.id)?
        .into_iter()
        .map(|v| v.number)
        .collect();
    let from = q.from.unwrap_or_default();
    let to = q.to.unwrap_or_default();
    let comparison = if from.is_empty() || to.is_empty() {
        None
    } else {
        let (_, old) = content_of_version(conn, &provider, &consumer, &from)?;
        let (_, new) = content_of_version(conn, &provider, &consumer, &to)?;
        Some(Comparison::of(&old, &new, &contract_url(&p, &c, &to))?)
    };
    Ok(DiffPage {
        action: format!("{}/diff", pair_url(&p, &c)),
        provider_href: format!("/ui/pacticipants/{}", crate::web::seg(&p)),
        consumer_href: format!("/ui/pacticipants/{}", crate::web::seg(&c)),
        from_href: contract_url(&p, &c, &from),
        to_href: contract_url(&p, &c, &to),
        provider: provider.name,
        consumer: consumer.name,
        versions,
        from,
        to,
        comparison,
    })
}

/// `GET /ui/pacts/provider/{provider}/consumer/{consumer}/diff?from=&to=`.
pub async fn get_diff(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let query = web::Query::<DiffQuery>::from_query(req.query_string())
        .map_err(|e| BrokerError::bad_field("query", e.to_string()))?
        .into_inner();
    let names = path.into_inner();
    let page = state.run(move |conn| load(conn, names, query)).await?;
    super::super::page(&page)
}
