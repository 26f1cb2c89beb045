//! Pacts of a provider across its consumers (`/pacts/provider/{p}`, `/latest`,
//! `/latest/{tag}`, `/tag/{tag}`, `/branch…`) and the latest pact of every
//! pair (`/pacts/latest`). Collections carry `pb:pacts` and the deprecated
//! `pacts` relation, which the Rust verifier reads.

use std::collections::HashMap;

use actix_web::{HttpResponse, web};
use serde_json::{Value, json};

use crate::api::pact_resource::NamedPact;
use crate::api::pacts::{Pair, branch_head_pact};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::pacticipants::{self, Pacticipant};
use crate::store::pacts::{self, PactFilter, PublishedPact};

/// Which pacts of a provider a collection lists.
#[derive(Debug, Clone)]
enum Selection {
    All,
    Latest,
    LatestTagged(String),
    Tagged(String),
    MainBranch,
    MainBranchHeads,
    Branch(String),
    BranchHeads(String),
}

fn find_provider(conn: &mut AnyConnection, name: &str) -> Result<Pacticipant, BrokerError> {
    pacticipants::find_by_name(conn, name)?
        .ok_or_else(|| BrokerError::not_found(format!("Provider '{name}'")))
}

/// Names of every pacticipant by id (a broker has tens to hundreds).
fn names(conn: &mut AnyConnection) -> Result<HashMap<i64, Pacticipant>, BrokerError> {
    Ok(pacticipants::list(conn)?
        .into_iter()
        .map(|p| (p.id, p))
        .collect())
}

/// For each consumer of `provider`: `pick` chooses its pacts.
fn per_consumer(
    conn: &mut AnyConnection,
    provider: &Pacticipant,
    mut pick: impl FnMut(&mut AnyConnection, &Pair) -> Result<Vec<PublishedPact>, BrokerError>,
) -> Result<Vec<PublishedPact>, BrokerError> {
    let all = names(conn)?;
    let mut out = Vec::new();
    for consumer_id in pacts::list_consumer_ids(conn, provider.id)? {
        if let Some(consumer) = all.get(&consumer_id) {
            let pair = Pair {
                consumer: consumer.clone(),
                provider: provider.clone(),
            };
            out.extend(pick(conn, &pair)?);
        }
    }
    Ok(out)
}

fn select(
    conn: &mut AnyConnection,
    provider: &Pacticipant,
    selection: &Selection,
) -> Result<Vec<PublishedPact>, BrokerError> {
    let all = PactFilter {
        provider_id: provider.id,
        ..Default::default()
    };
    Ok(match selection {
        Selection::All => pacts::list_pacts(conn, &all)?,
        Selection::Latest => pacts::list_latest_pacts(conn, &all)?,
        Selection::LatestTagged(t) => pacts::list_latest_pacts(conn, &all.tagged(t))?,
        Selection::Tagged(t) => pacts::list_pacts(conn, &all.tagged(t))?,
        Selection::Branch(b) => pacts::list_pacts(conn, &all.on_branch(b))?,
        Selection::BranchHeads(b) => per_consumer(conn, provider, |conn, pair| {
            Ok(branch_head_pact(conn, pair, b)?.into_iter().collect())
        })?,
        Selection::MainBranch => per_consumer(conn, provider, |conn, pair| {
            let Some(main) = pair.consumer.main_branch.as_deref() else {
                return Ok(Vec::new());
            };
            Ok(pacts::list_pacts(conn, &pair.filter().on_branch(main))?)
        })?,
        Selection::MainBranchHeads => per_consumer(conn, provider, |conn, pair| {
            let Some(main) = pair.consumer.main_branch.clone() else {
                return Ok(Vec::new());
            };
            Ok(branch_head_pact(conn, pair, &main)?.into_iter().collect())
        })?,
    })
}

fn name_pacts(
    conn: &mut AnyConnection,
    list: Vec<PublishedPact>,
) -> Result<Vec<NamedPact>, BrokerError> {
    let all = names(conn)?;
    let name = |id: i64| all.get(&id).map(|p| p.name.clone()).unwrap_or_default();
    Ok(list
        .into_iter()
        .map(|pact| NamedPact {
            consumer: name(pact.publication.consumer_id),
            provider: name(pact.publication.provider_id),
            pact,
        })
        .collect())
}

async fn serve(
    state: web::Data<AppState>,
    base: BaseUrl,
    provider: String,
    selection: Selection,
    self_rest: Vec<String>,
) -> Result<HttpResponse, BrokerError> {
    let (provider, named) = state
        .run(move |conn| {
            let provider = find_provider(conn, &provider)?;
            let list = select(conn, &provider, &selection)?;
            Ok((provider, name_pacts(conn, list)?))
        })
        .await?;
    let mut segments = vec!["pacts", "provider", provider.name.as_str()];
    segments.extend(self_rest.iter().map(String::as_str));
    let provider_link = Link::new(base.url(&["pacticipants", &provider.name]))
        .title("Provider")
        .name(provider.name.clone());
    let pact_links: Vec<Link> = named.iter().map(|p| p.link(&base)).collect();
    let links = Links::new()
        .add("self", Link::new(base.url(&segments)))
        .add("pb:provider", provider_link.clone())
        .add("provider", provider_link)
        .add_array("pb:pacts", pact_links.clone())
        .add_array("pacts", pact_links);
    Ok(hal::ok(&json!({ "_links": links.into_value() })))
}

/// `GET /pacts/provider/{p}`: every pact of the provider.
pub async fn list_provider_pacts(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    serve(state, base, path.into_inner(), Selection::All, vec![]).await
}

/// `GET /pacts/provider/{p}/latest`: the latest pact of each consumer.
pub async fn list_latest_provider_pacts(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    serve(
        state,
        base,
        path.into_inner(),
        Selection::Latest,
        vec!["latest".into()],
    )
    .await
}

/// `GET /pacts/provider/{p}/latest/{tag}`.
pub async fn list_latest_tagged_provider_pacts(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, tag) = path.into_inner();
    let rest = vec!["latest".into(), tag.clone()];
    serve(state, base, p, Selection::LatestTagged(tag), rest).await
}

/// `GET /pacts/provider/{p}/tag/{tag}`.
pub async fn list_tagged_provider_pacts(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, tag) = path.into_inner();
    let rest = vec!["tag".into(), tag.clone()];
    serve(state, base, p, Selection::Tagged(tag), rest).await
}

/// `GET /pacts/provider/{p}/branch`: pacts of each consumer's main branch.
pub async fn list_main_branch_provider_pacts(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let rest = vec!["branch".into()];
    serve(state, base, path.into_inner(), Selection::MainBranch, rest).await
}

/// `GET /pacts/provider/{p}/branch/latest`: each consumer's main-branch head pact.
pub async fn list_latest_main_branch_provider_pacts(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let rest = vec!["branch".into(), "latest".into()];
    serve(
        state,
        base,
        path.into_inner(),
        Selection::MainBranchHeads,
        rest,
    )
    .await
}

/// `GET /pacts/provider/{p}/branch/{b}`.
pub async fn list_branch_provider_pacts(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, b) = path.into_inner();
    let rest = vec!["branch".into(), b.clone()];
    serve(state, base, p, Selection::Branch(b), rest).await
}

/// `GET /pacts/provider/{p}/branch/{b}/latest`: each consumer's head of `b`.
pub async fn list_latest_branch_provider_pacts(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, b) = path.into_inner();
    let rest = vec!["branch".into(), b.clone(), "latest".into()];
    serve(state, base, p, Selection::BranchHeads(b), rest).await
}

/// `GET /pacts/latest`: the latest pact of every pair (`pact stub -b`
/// follows `_links["pb:pacts"][].href`).
pub async fn list_latest_pacts(
    state: web::Data<AppState>,
    base: BaseUrl,
) -> Result<HttpResponse, BrokerError> {
    let named = state
        .run(|conn| {
            let list = pacts::list_latest_per_pair(conn)?;
            name_pacts(conn, list)
        })
        .await?;
    let side = |name: &str, number: Option<&str>| {
        let mut v = json!({
            "name": name,
            "_links": { "self": Link::new(base.url(&["pacticipants", name])).to_value() },
        });
        if let Some(n) = number {
            v["_embedded"] = json!({ "version": { "number": n } });
        }
        v
    };
    let items: Vec<Value> = named
        .iter()
        .map(|p| {
            json!({
                "createdAt": crate::api::time(p.pact.publication.created_at),
                "_embedded": {
                    "consumer": side(&p.consumer, Some(p.version())),
                    "provider": side(&p.provider, None),
                },
                "_links": { "self": [
                    Link::new(p.pair_url(&base, &["latest"])).title("Latest pact").to_value(),
                    Link::new(p.version_url(&base)).title("Pact").name(p.title()).to_value(),
                ]},
            })
        })
        .collect();
    let links = Links::new()
        .add("self", Link::new(base.url(&["pacts", "latest"])))
        .add_array("pb:pacts", named.iter().map(|p| p.link(&base)).collect());
    Ok(hal::ok(
        &json!({ "pacts": items, "_links": links.into_value() }),
    ))
}
