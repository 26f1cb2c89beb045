//! `GET` and `POST /pacts/provider/{p}/for-verification`: the pacts a
//! provider build must verify, in the shape the Rust verifier requires
//! (reference §2.3): `_embedded.pacts[]` with a string `shortDescription`,
//! `verificationProperties` whose notices hold only strings, and only
//! object-valued links (an array-valued link makes the verifier read "no
//! pacts"). A Pact client is told, before it verifies, which Accord-only
//! parts the Pact view of an Accord contract leaves out.

use std::collections::HashMap;

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::api::body;
use crate::audience::Audience;
use crate::contract::pact_view::{self, AccordOnly, accord_only_of_stored};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::selection::{self, Entry, ForVerificationRequest, Scope, VerificationQuery, notices};
use crate::state::AppState;
use crate::store::{StoreError, pacts};

fn links(base: &BaseUrl, provider: &str) -> Value {
    Links::new()
        .add(
            "self",
            Link::new(base.url(&["pacts", "provider", provider, "for-verification"]))
                .title("Pacts to be verified"),
        )
        .add(
            "pb:provider",
            Link::new(base.url(&["pacticipants", provider]))
                .title("Provider")
                .name(provider),
        )
        .into_value()
}

/// `GET`: only the links (the verifier reads `self` and POSTs there).
pub async fn get_for_verification(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    let provider = state
        .run(move |conn| crate::api::pacticipants::find_required(conn, &name))
        .await?;
    Ok(hal::ok(&json!({ "_links": links(&base, &provider.name) })))
}

/// `POST`: selects, de-duplicates, computes pending and WIP (as the
/// audience sees them: `selection::pending::Lens::for_audience`).
pub async fn post_for_verification(
    state: web::Data<AppState>,
    (base, audience): (BaseUrl, Audience),
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: ForVerificationRequest = body::parse(&req, &bytes)?;
    let query = VerificationQuery::try_from(request)?;
    let name = path.into_inner();
    let (provider, selected, left_out) = state
        .run(move |conn| {
            let provider = crate::api::pacticipants::find_required(conn, &name)?;
            let selected = selection::select(conn, provider.id, &query, audience)?;
            let left_out = match audience {
                Audience::Accord => HashMap::new(),
                Audience::Pact => accord_only_parts(conn, &selected.entries)?,
            };
            Ok((provider, selected, left_out))
        })
        .await?;
    let pacts: Vec<Value> = selected
        .entries
        .iter()
        .map(|e| {
            let parts = left_out.get(&e.content_id).map_or(&[][..], Vec::as_slice);
            entry_json(&base, &provider.name, &selected.scope, e, parts)
        })
        .collect();
    Ok(hal::ok(&json!({
        "_embedded": { "pacts": pacts },
        "_links": links(&base, &provider.name),
    })))
}

/// The Accord-only parts of each selected content that has some: what the
/// Pact view a Pact client fetches leaves out or does not check.
fn accord_only_parts(
    conn: &mut AnyConnection,
    entries: &[Entry],
) -> Result<HashMap<i64, Vec<AccordOnly>>, BrokerError> {
    let mut parts = HashMap::new();
    for entry in entries {
        let Some(content) = pacts::find_content_by_id(conn, entry.content_id)? else {
            continue;
        };
        let found = accord_only_of_stored(&content.content).map_err(|source| {
            BrokerError::from(StoreError::CorruptJson {
                what: "pact content",
                source,
            })
        })?;
        if !found.is_empty() {
            parts.insert(entry.content_id, found);
        }
    }
    Ok(parts)
}

/// The notice of a Pact view that leaves Accord-only parts out.
fn pact_view_notice(parts: &[AccordOnly]) -> Value {
    json!({
        "when": "before_verification",
        "text": format!(
            "This pact is an Accord contract. Pact clients are served its Pact view, which leaves out or does not check: {}. Results published from this view do not verify those parts: until `accord verify` has verified them, can-i-deploy does not count this pact as verified.",
            pact_view::describe(parts)
        ),
    })
}

/// One `_embedded.pacts[]` member; `left_out` are the Accord-only parts of
/// its Pact view (none for Accord's client).
fn entry_json(
    base: &BaseUrl,
    provider: &str,
    scope: &Scope,
    entry: &Entry,
    left_out: &[AccordOnly],
) -> Value {
    let mut shorts: Vec<String> = Vec::new();
    for (reason, _) in &entry.reasons {
        let s = notices::short(reason);
        if !shorts.contains(&s) {
            shorts.push(s);
        }
    }
    let m = entry.metadata(shorts).encode();
    let url = base.url(&[
        "pacts",
        "provider",
        provider,
        "consumer",
        &entry.consumer_name,
        "pact-version",
        &entry.sha,
        "metadata",
        &m,
    ]);
    let latest = entry.versions.last().map_or("", |(_, n)| n.as_str());
    let mut notices: Vec<Value> = notices::notices(entry, &url, provider, scope)
        .into_iter()
        .map(|n| json!({ "when": n.when, "text": n.text }))
        .collect();
    if !left_out.is_empty() {
        notices.insert(notices.len().min(1), pact_view_notice(left_out));
    }
    let mut properties = json!({ "notices": notices });
    if let Some(pending) = entry.pending {
        properties["pending"] = json!(pending);
    }
    if entry.wip {
        properties["wip"] = json!(true);
    }
    json!({
        "shortDescription": notices::short_description(entry),
        "verificationProperties": properties,
        "_links": {
            "self": Link::new(url)
                .name(format!("Pact between {} ({latest}) and {provider}", entry.consumer_name))
                .to_value(),
        },
    })
}
