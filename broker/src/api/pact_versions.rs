//! Collections of one pair's pacts (`/pacts/provider/{p}/consumer/{c}/…`):
//! all versions, by tag, by branch, the main branch, and branch heads, in
//! Pact's pact-versions shape (`pb:pact-versions` and `_embedded.pacts`).

use actix_web::{HttpResponse, web};
use serde_json::{Value, json};

use crate::api::pact_resource::{NamedPact, pair_url};
use crate::api::pacts::{Pair, branch_head_pact};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::pacts::{self, PublishedPact};

/// Which pacts of a pair a collection lists.
#[derive(Debug, Clone)]
enum Selection {
    All,
    Tag(String),
    Branch(String),
    MainBranch,
    MainBranchHead,
    BranchHead(String),
}

async fn serve_list(
    state: web::Data<AppState>,
    base: BaseUrl,
    (provider, consumer): (String, String),
    selection: Selection,
) -> Result<HttpResponse, BrokerError> {
    let (pair, list) = state
        .run(move |conn| {
            let pair = Pair::find(conn, &provider, &consumer)?;
            let list = select(conn, &pair, &selection)?;
            Ok((pair, list))
        })
        .await?;
    let named: Vec<NamedPact> = list.into_iter().map(|p| pair.named(p)).collect();
    Ok(hal::ok(&pact_versions_json(&base, &pair, &named)))
}

/// The pacts of `pair` the collection lists (none on the main branch when
/// the consumer has none set).
fn select(
    conn: &mut AnyConnection,
    pair: &Pair,
    selection: &Selection,
) -> Result<Vec<PublishedPact>, BrokerError> {
    let main = pair.consumer.main_branch.clone().unwrap_or_default();
    Ok(match selection {
        Selection::All => pacts::list_pacts(conn, &pair.filter())?,
        Selection::Tag(tag) => pacts::list_pacts(conn, &pair.filter().tagged(tag))?,
        Selection::Branch(b) => pacts::list_pacts(conn, &pair.filter().on_branch(b))?,
        Selection::MainBranch => pacts::list_pacts(conn, &pair.filter().on_branch(&main))?,
        Selection::MainBranchHead => branch_head_pact(conn, pair, &main)?.into_iter().collect(),
        Selection::BranchHead(b) => branch_head_pact(conn, pair, b)?.into_iter().collect(),
    })
}

/// A collection of a pair's pacts (Pact's pact-versions shape).
fn pact_versions_json(base: &BaseUrl, pair: &Pair, pacts: &[NamedPact]) -> Value {
    let embedded: Vec<Value> = pacts
        .iter()
        .map(|p| {
            json!({
                "createdAt": crate::api::time(p.pact.publication.created_at),
                "_embedded": { "consumerVersion": {
                    "number": p.version(),
                    "_links": { "self": Link::new(base.url(&["pacticipants", &p.consumer, "versions", p.version()])).to_value() },
                }},
                "_links": { "self": Link::new(p.version_url(base)).title(p.title()).name(p.version().to_owned()).to_value() },
            })
        })
        .collect();
    let links = Links::new()
        .add(
            "self",
            Link::new(pair_url(
                base,
                &pair.provider.name,
                &pair.consumer.name,
                &["versions"],
            )),
        )
        .add(
            "pb:consumer",
            Link::new(base.url(&["pacticipants", &pair.consumer.name]))
                .name(pair.consumer.name.clone()),
        )
        .add(
            "pb:provider",
            Link::new(base.url(&["pacticipants", &pair.provider.name]))
                .name(pair.provider.name.clone()),
        )
        .add_array(
            "pb:pact-versions",
            pacts
                .iter()
                .map(|p| {
                    Link::new(p.version_url(base))
                        .title(p.title())
                        .name(p.version().to_owned())
                })
                .collect(),
        );
    json!({ "_embedded": { "pacts": embedded }, "_links": links.into_value() })
}

/// `GET …/versions`: every pact of the pair, newest first.
pub async fn list_pact_versions(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    serve_list(state, base, path.into_inner(), Selection::All).await
}

/// `GET …/tag/{tag}`.
pub async fn list_tagged_pact_versions(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, tag) = path.into_inner();
    serve_list(state, base, (p, c), Selection::Tag(tag)).await
}

/// `GET …/branch/{b}`: the pacts of every version on the branch.
pub async fn list_branch_pact_versions(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, branch) = path.into_inner();
    serve_list(state, base, (p, c), Selection::Branch(branch)).await
}

/// `GET …/branch/{b}/latest/versions`: the branch head's pact, as a collection.
pub async fn list_latest_branch_pact_versions(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, branch) = path.into_inner();
    serve_list(state, base, (p, c), Selection::BranchHead(branch)).await
}

/// `GET …/branch/versions`: the pacts of the consumer's main branch.
pub async fn list_main_branch_pact_versions(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    serve_list(state, base, path.into_inner(), Selection::MainBranch).await
}

/// `GET …/branch/latest/versions`: the main-branch head's pact.
pub async fn list_latest_main_branch_pact_versions(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    serve_list(state, base, path.into_inner(), Selection::MainBranchHead).await
}
