//! What a provider version declares, before any replay (issue 25): its
//! Agent Card and one MCP `tools/list` result per profile.
//!
//! - `PUT/GET /pacticipants/{p}/versions/{v}/declarations/agent-card`
//! - `PUT/GET …/declarations/mcp-tools/{profile}`
//! - `GET …/declarations`: the current declarations and every change
//! - `GET /declaration-contents/{hex}`: any content ever declared, by digest
//!
//! Content is stored once per RFC 8785 digest, the digest a verification
//! records for what it read. Re-declaring with another digest replaces the
//! version's declaration (201); the same digest again changes nothing (200).

mod admit;
pub mod check;
pub mod cross_check;
pub mod diff;

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::api::body;
use crate::api::pacticipants::parse_name;
use crate::api::reply::created_or_ok;
use crate::api::tags::locked;
use crate::api::version_view::{find_version, parse_number, version_url};
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::declarations::{self as store, Declared, NewContent};
use crate::store::{pacticipants, versions};

/// The profile an Agent Card is stored under: a card has none.
const NO_PROFILE: &str = "";

/// The URL of a declaration of version `n` of `p`.
fn declaration_url(base: &BaseUrl, p: &str, n: &str, kind: &str, profile: &str) -> String {
    match kind {
        check::CARD => version_url(base, p, n, &["declarations", "agent-card"]),
        _ => version_url(base, p, n, &["declarations", "mcp-tools", profile]),
    }
}

/// The URL of the content with `digest`.
fn content_url(base: &BaseUrl, digest: &str) -> String {
    let hex = digest.strip_prefix("sha256:").unwrap_or(digest);
    base.url(&["declaration-contents", hex])
}

/// One declaration as the API shows it (`content` when asked for one).
fn declared_json(base: &BaseUrl, p: &str, n: &str, d: &Declared, content: Option<Value>) -> Value {
    let links = Links::new()
        .add(
            "self",
            Link::new(declaration_url(base, p, n, &d.kind, &d.profile)).title("Declaration"),
        )
        .add(
            "pb:version",
            Link::new(version_url(base, p, n, &[]))
                .title("Version")
                .name(n),
        )
        .add(
            "pb:content",
            Link::new(content_url(base, &d.digest)).title("This content, by digest"),
        );
    let mut out = json!({
        "kind": d.kind,
        "digest": d.digest,
        "entries": d.entries,
        "declaredAt": crate::api::time(d.declared_at),
        "_links": links.into_value(),
    });
    if d.kind != check::CARD {
        out["profile"] = json!(d.profile);
    }
    if let Some(content) = content {
        out["content"] = content;
    }
    out
}

/// `GET …/declarations`: the current declarations and every change, newest first.
pub async fn list_declarations(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v) = path.into_inner();
    let body = state
        .run(move |conn| {
            let (p, v) = find_version(conn, &p, &v)?;
            let history = store::history(conn, v.id)?;
            let current = store::current(conn, v.id)?;
            let show = |d: &Declared| declared_json(&base, &p.name, &v.number, d, None);
            let me = version_url(&base, &p.name, &v.number, &["declarations"]);
            let links = Links::new()
                .add("self", Link::new(me.clone()).title("Declarations"))
                .add(
                    "pb:version",
                    Link::new(version_url(&base, &p.name, &v.number, &[]))
                        .title("Version")
                        .name(&v.number),
                )
                .add(
                    "pb:agent-card",
                    Link::new(format!("{me}/agent-card")).title("The Agent Card"),
                )
                .add(
                    "pb:mcp-tools",
                    Link::new(format!("{me}/mcp-tools/{{profile}}"))
                        .title("The MCP tools/list of a profile")
                        .templated(),
                );
            Ok(json!({
                "declarations": current.iter().map(show).collect::<Vec<_>>(),
                "history": history.iter().map(show).collect::<Vec<_>>(),
                "_links": links.into_value(),
            }))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// `GET …/declarations/agent-card`.
pub async fn get_agent_card(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v) = path.into_inner();
    get_one(state, base, p, v, check::CARD, NO_PROFILE.to_owned()).await
}

/// `GET …/declarations/mcp-tools/{profile}`.
pub async fn get_mcp_tools(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, v, profile) = path.into_inner();
    get_one(state, base, p, v, check::TOOLS, profile).await
}

async fn get_one(
    state: web::Data<AppState>,
    base: BaseUrl,
    p: String,
    v: String,
    kind: &'static str,
    profile: String,
) -> Result<HttpResponse, BrokerError> {
    let body = state
        .run(move |conn| {
            let (p, v) = find_version(conn, &p, &v)?;
            let what = || match kind {
                check::CARD => format!("The Agent Card of version '{}'", v.number),
                _ => format!(
                    "The MCP tools of profile '{profile}' of version '{}'",
                    v.number
                ),
            };
            let d = store::find(conn, v.id, kind, &profile)?
                .ok_or_else(|| BrokerError::not_found(what()))?;
            let content = content_of(conn, &d.digest)?;
            Ok(declared_json(&base, &p.name, &v.number, &d, Some(content)))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// The content stored under `digest`, parsed.
pub(super) fn content_of(
    conn: &mut crate::db::AnyConnection,
    digest: &str,
) -> Result<Value, BrokerError> {
    let found = store::find_content(conn, digest)?
        .ok_or_else(|| BrokerError::not_found(format!("Declaration content '{digest}'")))?;
    parsed(&found.content)
}

/// Stored content is canonical JSON written by [`put_one`].
fn parsed(text: &str) -> Result<Value, BrokerError> {
    serde_json::from_str(text).map_err(|e| {
        BrokerError::Store(crate::store::StoreError::Query(
            diesel::result::Error::DeserializationError(Box::new(e)),
        ))
    })
}

/// `PUT …/declarations/agent-card`.
pub async fn put_agent_card(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let checked = check::agent_card(body::parse::<Value>(&req, &bytes)?)?;
    let (p, v) = path.into_inner();
    put_one(
        state,
        base,
        (p, v),
        check::CARD,
        NO_PROFILE.to_owned(),
        checked,
    )
    .await
}

/// `PUT …/declarations/mcp-tools/{profile}`.
pub async fn put_mcp_tools(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let (p, v, profile) = path.into_inner();
    check::profile(&profile)?;
    let checked = check::tool_list(body::parse::<Value>(&req, &bytes)?)?;
    put_one(state, base, (p, v), check::TOOLS, profile, checked).await
}

async fn put_one(
    state: web::Data<AppState>,
    base: BaseUrl,
    (p, v): (String, String),
    kind: &'static str,
    profile: String,
    checked: check::Checked,
) -> Result<HttpResponse, BrokerError> {
    let name = parse_name("pacticipant", &p)?;
    let number = parse_number("version", &v)?;
    let text = accord_dsl::canonical::canonical_json(&checked.content);
    let (body, created) = state
        .transaction(move |conn| {
            let p = pacticipants::find_or_create(conn, &name)?;
            let v = versions::find_or_create(conn, p.id, &number)?;
            let v = locked(conn, v)?;
            let new = NewContent {
                kind,
                digest: &checked.digest,
                entries: checked.entries,
                content: &text,
            };
            let (d, changed) = store::declare(conn, v.id, &profile, &new)?;
            let mut body = declared_json(&base, &p.name, &v.number, &d, Some(checked.content));
            // a new digest re-runs the static cross-check; the same changes nothing
            if changed {
                body["staticCheck"] = cross_check::run(conn, p.id, v.id, &d.digest)?;
            }
            Ok((body, changed))
        })
        .await?;
    Ok(created_or_ok(&body, created))
}

/// `GET /declaration-contents/{hex}`: content ever declared, by its digest.
pub async fn get_content(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let hex = path.into_inner();
    if hex.len() != 64
        || !hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(BrokerError::bad_field(
            "sha",
            "must be 64 lower-case hex digits (the digest without `sha256:`)",
        ));
    }
    let digest = format!("sha256:{hex}");
    let body = state
        .run(move |conn| {
            let found = store::find_content(conn, &digest)?
                .ok_or_else(|| BrokerError::not_found(format!("Declaration content '{digest}'")))?;
            let content = parsed(&found.content)?;
            Ok(json!({
                "kind": found.kind,
                "digest": found.digest,
                "entries": found.entries,
                "createdAt": crate::api::time(found.created_at),
                "content": content,
            }))
        })
        .await?;
    Ok(hal::ok(&body))
}
