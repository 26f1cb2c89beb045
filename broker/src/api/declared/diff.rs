//! `GET /pacticipants/{p}/versions/{v}/declarations/diff?against=V`: every
//! change from version `V`'s declarations to `v`'s, classified by
//! `accord_verifier::compat`, each with the live consumer versions (main
//! branch heads, deployed, released) it affects — the same data
//! `accord diff` prints.

use std::sync::Arc;

use accord_dsl::model::Contract;
use accord_verifier::compat::{self, Change, Consumer, Kind};
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use super::check;
use crate::api::version_view::{find_version, version_url};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::declarations::{self as store, Declared};

/// The query: the version compared against (the older one).
#[derive(Debug, Deserialize)]
pub struct DiffQuery {
    against: Option<String>,
}

/// `GET …/declarations/diff?against=V`.
pub async fn get_diff(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
    query: web::Query<DiffQuery>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v) = path.into_inner();
    let against = query
        .into_inner()
        .against
        .filter(|a| !a.is_empty())
        .ok_or_else(|| BrokerError::bad_field("against", "name the version to compare with"))?;
    let body = state
        .run(move |conn| {
            let (provider, new) = find_version(conn, &p, &v)?;
            let (_, old) = find_version(conn, &p, &against)?;
            let held = live_contracts(conn, provider.id)?;
            let consumers: Vec<Consumer<'_>> = held
                .iter()
                .map(|(label, contract)| Consumer {
                    label: label.clone(),
                    contract: contract.as_ref(),
                })
                .collect();
            let pairs = pairs(store::current(conn, old.id)?, store::current(conn, new.id)?);
            let mut declarations = Vec::new();
            let mut breaking = false;
            for (before, after) in &pairs {
                let (entry, breaks) = compare(conn, before.as_ref(), after.as_ref(), &consumers)?;
                breaking |= breaks;
                declarations.push(entry);
            }
            let me = version_url(
                &base,
                &provider.name,
                &new.number,
                &["declarations", "diff"],
            );
            let links = Links::new().add(
                "self",
                Link::new(format!(
                    "{me}?against={}",
                    crate::hal::encode_segment(&old.number)
                )),
            );
            Ok(json!({
                "provider": provider.name,
                "version": new.number,
                "against": old.number,
                "consumers": held.iter().map(|(label, _)| label).collect::<Vec<_>>(),
                "breaking": breaking,
                "declarations": declarations,
                "_links": links.into_value(),
            }))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// The current declarations of both versions, paired by kind and profile.
fn pairs(old: Vec<Declared>, new: Vec<Declared>) -> Vec<(Option<Declared>, Option<Declared>)> {
    let key = |d: &Declared| (d.kind.clone(), d.profile.clone());
    let mut out: Vec<(Option<Declared>, Option<Declared>)> = Vec::new();
    for d in old {
        out.push((Some(d), None));
    }
    for d in new {
        match out
            .iter_mut()
            .find(|(o, _)| o.as_ref().map(key) == Some(key(&d)))
        {
            Some(slot) => slot.1 = Some(d),
            None => out.push((None, Some(d))),
        }
    }
    out
}

/// One pair's entry, and whether a change in it breaks a live consumer.
fn compare(
    conn: &mut AnyConnection,
    before: Option<&Declared>,
    after: Option<&Declared>,
    consumers: &[Consumer<'_>],
) -> Result<(Value, bool), BrokerError> {
    let either = before
        .or(after)
        .ok_or_else(|| BrokerError::not_found("A declaration"))?;
    let mut entry = json!({
        "kind": either.kind,
        "from": before.map(|d| d.digest.clone()),
        "to": after.map(|d| d.digest.clone()),
    });
    if either.kind != check::CARD {
        entry["profile"] = json!(either.profile);
    }
    let (Some(before), Some(after)) = (before, after) else {
        entry["changes"] = json!([]);
        entry["note"] = json!("declared by one version only: nothing to compare");
        return Ok((entry, false));
    };
    let kind = if before.kind == check::CARD {
        Kind::AgentCard
    } else {
        Kind::McpTools
    };
    let changes: Vec<Change> = if before.digest == after.digest {
        Vec::new()
    } else {
        let old = super::content_of(conn, &before.digest)?;
        let new = super::content_of(conn, &after.digest)?;
        compat::classify(kind, &old, &new, consumers)
    };
    let breaks = changes.iter().any(Change::breaks_a_consumer);
    entry["changes"] = json!(changes);
    Ok((entry, breaks))
}

/// The live consumer contracts of the provider (main branch heads,
/// deployed, released: the default selection), labelled `name versions`.
fn live_contracts(
    conn: &mut AnyConnection,
    provider_id: i64,
) -> Result<Vec<(String, Arc<Contract>)>, BrokerError> {
    Ok(super::cross_check::live(conn, provider_id)?
        .into_iter()
        .map(|(entry, _, contract)| {
            let numbers: Vec<&str> = entry.versions.iter().map(|(_, n)| n.as_str()).collect();
            (
                format!("{} {}", entry.consumer_name, numbers.join(", ")),
                contract,
            )
        })
        .collect())
}
