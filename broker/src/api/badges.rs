//! Status badges as SVG, drawn here (no shields.io): the latest pact's
//! verification status, and can-i-deploy for a tagged or branch-head
//! version. `image/svg+xml`, `Cache-Control: max-age=30`; an error still
//! answers with a badge (an image tag cannot show a problem+json body).

use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::error::BrokerError;
use crate::matrix::resolve::Fields;
use crate::matrix::selector::{LatestBy, MatrixQuery, Selector, Target, VersionSpec};
use crate::matrix::{self};
use crate::names::PacticipantName;
use crate::state::AppState;
use crate::store::{environments, matrix_details as q, pacticipants};

/// A badge's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Colour {
    Green,
    Red,
    Orange,
    Grey,
}

impl Colour {
    fn hex(self) -> &'static str {
        match self {
            Colour::Green => "#4c1",
            Colour::Red => "#e05d44",
            Colour::Orange => "#fe7d37",
            Colour::Grey => "#9f9f9f",
        }
    }
}

/// `?label=consumer|provider` shows one name instead of both.
#[derive(Debug, Deserialize)]
pub struct BadgeParams {
    label: Option<String>,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Approximate text width in pixels of 11px Verdana (what badges use).
fn width(text: &str) -> usize {
    text.chars()
        .map(|c| {
            if c.is_ascii_uppercase() || c == 'm' || c == 'w' {
                9
            } else {
                7
            }
        })
        .sum::<usize>()
        + 10
}

/// A flat two-part badge.
fn svg(label: &str, message: &str, colour: Colour) -> String {
    let (lw, mw) = (width(label), width(message));
    let total = lw + mw;
    let (label, message) = (escape(label), escape(message));
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" aria-label="{label}: {message}"><title>{label}: {message}</title><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{mw}" height="20" fill="{colour}"/><rect width="{total}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="{lx}" y="14">{label}</text><text x="{mx}" y="14">{message}</text></g></svg>"##,
        colour = colour.hex(),
        lx = lw / 2,
        mx = lw + mw / 2,
    )
}

fn badge(label: &str, message: &str, colour: Colour) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("Cache-Control", "max-age=30"))
        .body(svg(label, message, colour))
}

/// verified / failed / unknown for the latest pact of a pair.
fn pact_status(
    conn: &mut crate::db::AnyConnection,
    provider: &str,
    consumer: &str,
    tag: Option<&str>,
) -> Result<(&'static str, Colour), BrokerError> {
    let (Some(p), Some(c)) = (
        pacticipants::find_by_name(conn, provider)?,
        pacticipants::find_by_name(conn, consumer)?,
    ) else {
        return Ok(("unknown", Colour::Grey));
    };
    let Some(content) = q::latest_pact_content(conn, c.id, p.id, tag)? else {
        return Ok(("unknown", Colour::Grey));
    };
    let verification = q::latest_verification_of_content(conn, content)?;
    // a Pact verifier's success leaves the Accord-only parts unverified, if
    // the content has any (the matrix's rule, `coverage::accord_only_parts`)
    let unverified_parts = match &verification {
        Some(v) if v.partial() => {
            crate::store::coverage::accord_only_parts(conn, [content])?.contains_key(&content)
        }
        _ => false,
    };
    Ok(match verification {
        None => ("unknown", Colour::Grey),
        Some(_) if unverified_parts => ("unknown", Colour::Grey),
        Some(v) if v.success => ("verified", Colour::Green),
        Some(_) => ("failed", Colour::Red),
    })
}

async fn pact_badge(
    state: web::Data<AppState>,
    provider: String,
    consumer: String,
    tag: Option<String>,
    params: BadgeParams,
) -> HttpResponse {
    let label = match params.label.as_deref() {
        Some("consumer") => consumer.clone(),
        Some("provider") => provider.clone(),
        _ => format!("{consumer}/{provider} pact"),
    };
    let status = state
        .run(move |conn| pact_status(conn, &provider, &consumer, tag.as_deref()))
        .await;
    match status {
        Ok((text, colour)) => badge(&label, text, colour),
        Err(e) => {
            tracing::warn!(error = %e, "pact badge failed");
            badge(&label, "error", Colour::Grey)
        }
    }
}

/// `GET /pacts/provider/{p}/consumer/{c}/latest/badge`.
pub async fn get_latest_pact_badge(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    params: web::Query<BadgeParams>,
) -> HttpResponse {
    let (provider, consumer) = path.into_inner();
    pact_badge(state, provider, consumer, None, params.into_inner()).await
}

/// `GET /pacts/provider/{p}/consumer/{c}/latest/{tag}/badge`.
pub async fn get_latest_tagged_pact_badge(
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
    params: web::Query<BadgeParams>,
) -> HttpResponse {
    let (provider, consumer, tag) = path.into_inner();
    pact_badge(state, provider, consumer, Some(tag), params.into_inner()).await
}

/// Runs can-i-deploy for one selector to an environment (or, when no
/// environment has that name, to the latest version with that tag).
async fn deploy_badge(
    state: web::Data<AppState>,
    pacticipant: String,
    spec: VersionSpec,
    to: String,
) -> HttpResponse {
    let label = format!("can-i-deploy {pacticipant} to {to}");
    let Ok(name) = PacticipantName::parse(&pacticipant) else {
        return badge(&label, "error", Colour::Grey);
    };
    let result = state
        .run(move |conn| {
            let target = if environments::find_by_name(conn, &to)?.is_some() {
                Target::Environment(to)
            } else {
                Target::Tag {
                    tag: to,
                    latest: true,
                }
            };
            let query = MatrixQuery {
                selectors: vec![Selector {
                    pacticipant: name,
                    spec,
                }],
                target: Some(target),
                latestby: Some(LatestBy::Cvpv),
                ..MatrixQuery::default()
            };
            Ok(matrix::run(conn, &query, Fields::FLAT)?.summary.deployable)
        })
        .await;
    match result {
        Ok(Some(true)) => badge(&label, "yes", Colour::Green),
        Ok(Some(false)) => badge(&label, "no", Colour::Red),
        Ok(None) => badge(&label, "unknown", Colour::Orange),
        Err(e) => {
            tracing::warn!(error = %e, "can-i-deploy badge failed");
            badge(&label, "error", Colour::Grey)
        }
    }
}

/// `GET /pacticipants/{p}/latest-version/{tag}/can-i-deploy/to/{env}/badge`.
pub async fn get_tag_can_i_deploy_badge(
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> HttpResponse {
    let (pacticipant, tag, to) = path.into_inner();
    deploy_badge(
        state,
        pacticipant,
        VersionSpec::Tag { tag, latest: true },
        to,
    )
    .await
}

/// `GET /pacticipants/{p}/branches/{b}/latest-version/can-i-deploy/to-environment/{env}/badge`.
pub async fn get_branch_can_i_deploy_badge(
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> HttpResponse {
    let (pacticipant, branch, env) = path.into_inner();
    deploy_badge(
        state,
        pacticipant,
        VersionSpec::Branch {
            branch,
            latest: true,
        },
        env,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_badge_escapes_names_and_carries_its_colour() {
        let out = svg("a<b", "verified", Colour::Green);
        assert!(out.starts_with("<svg"));
        assert!(out.contains("a&lt;b: verified"));
        assert!(out.contains("#4c1"));
    }
}
