//! `GET` and `POST /pacts/provider/{p}/for-verification`: the pacts a
//! provider build must verify, in the shape the Rust verifier requires
//! (reference §2.3): `_embedded.pacts[]` with a string `shortDescription`,
//! `verificationProperties` whose notices hold only strings, and only
//! object-valued links (an array-valued link makes the verifier read "no
//! pacts").

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::api::body;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::selection::{self, Entry, ForVerificationRequest, Scope, VerificationQuery, notices};
use crate::state::AppState;

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

/// `POST`: selects, de-duplicates, computes pending and WIP.
pub async fn post_for_verification(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: ForVerificationRequest = body::parse(&req, &bytes)?;
    let query = VerificationQuery::try_from(request)?;
    let name = path.into_inner();
    let (provider, selected) = state
        .run(move |conn| {
            let provider = crate::api::pacticipants::find_required(conn, &name)?;
            let selected = selection::select(conn, provider.id, &query)?;
            Ok((provider, selected))
        })
        .await?;
    let pacts: Vec<Value> = selected
        .entries
        .iter()
        .map(|e| entry_json(&base, &provider.name, &selected.scope, e))
        .collect();
    Ok(hal::ok(&json!({
        "_embedded": { "pacts": pacts },
        "_links": links(&base, &provider.name),
    })))
}

/// One `_embedded.pacts[]` member.
fn entry_json(base: &BaseUrl, provider: &str, scope: &Scope, entry: &Entry) -> Value {
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
    let notices: Vec<Value> = notices::notices(entry, &url, provider, scope)
        .into_iter()
        .map(|n| json!({ "when": n.when, "text": n.text }))
        .collect();
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
