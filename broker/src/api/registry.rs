//! `POST /registry/check {provider, version, cardDigest, environment?}`:
//! what a router asks before it sends traffic to an agent version. The
//! answer is `admitted`, `reverify` (the card served is not one the
//! version was verified on), `disabled` (a drift report disabled its route
//! in that environment, stopped its canary deployment there, or it is
//! quarantined) or `unknown` (the broker
//! does not know the version, has no verified card for it, or it is not
//! admitted yet), with a reason. It changes nothing (a read).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::admission::AdmissionState;
use crate::api::body;
use crate::db::AnyConnection;
use crate::drift::assess;
use crate::drift::report::{Digest, Label};
use crate::drift::verified::CARD_KIND;
use crate::error::{BrokerError, FieldError};
use crate::hal;
use crate::state::AppState;
use crate::store::{
    StoreError, admission, declarations, deployments, drift_actions, environments, pacticipants,
    versions,
};

/// The question, as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegistryCheckRequest {
    pub provider: Label,
    pub version: Label,
    pub card_digest: Digest,
    #[serde(default)]
    pub environment: Option<Label>,
}

/// The answer: a decision and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub decision: &'static str,
    pub reason: String,
    pub state: Option<AdmissionState>,
}

fn answer(decision: &'static str, reason: String, state: Option<AdmissionState>) -> Answer {
    Answer {
        decision,
        reason,
        state,
    }
}

/// Decides, in the order a router needs: unknown version, disabled,
/// a card that was not verified, then the admission state.
fn decide(conn: &mut AnyConnection, q: &RegistryCheckRequest) -> Result<Answer, BrokerError> {
    let (p, v) = (q.provider.as_str(), q.version.as_str());
    let Some(provider) = pacticipants::find_by_name(conn, p)? else {
        return Ok(answer("unknown", format!("no provider '{p}'"), None));
    };
    let Some(version) = versions::find_by_number(conn, provider.id, v)? else {
        return Ok(answer(
            "unknown",
            format!("'{p}' has no version '{v}'"),
            None,
        ));
    };
    let state = admission::current(conn, version.id)?;
    if state == AdmissionState::Quarantined {
        let why = "the version is QUARANTINED by runtime drift (see its admission)";
        return Ok(answer("disabled", why.into(), Some(state)));
    }
    if let Some(env) = &q.environment
        && let Some(why) = disabled_in(conn, version.id, env)?
    {
        return Ok(answer("disabled", why, Some(state)));
    }
    let verified = assess::verified(conn, version.id)?;
    if verified.card.is_empty() {
        let why = "no verification of this version declared an Agent Card".to_owned();
        return Ok(answer("unknown", why, Some(state)));
    }
    if !verified.card.contains(q.card_digest.as_str()) {
        let why = "the card served is not one this version was verified on: verify it again";
        return Ok(answer("reverify", why.into(), Some(state)));
    }
    if state.is_admitted() {
        return Ok(answer(
            "admitted",
            format!("the version is {state}"),
            Some(state),
        ));
    }
    let why = format!("the version is {state}: not admitted to the registry yet");
    Ok(answer("unknown", why, Some(state)))
}

/// Why the version is disabled in `environment` (a drift report disabled
/// its route there, or stopped its canary deployment there), if it is.
fn disabled_in(
    conn: &mut AnyConnection,
    version_id: i64,
    environment: &Label,
) -> Result<Option<String>, BrokerError> {
    let env = environments::find_by_name(conn, environment.as_str())?.ok_or_else(|| {
        let message = format!("no environment '{}'", environment.as_str());
        BrokerError::Unprocessable {
            detail: format!("$.environment: {message}"),
            errors: vec![FieldError::new("$.environment", message)],
        }
    })?;
    if drift_actions::route_disabled(conn, version_id, env.id)? {
        return Ok(Some(format!(
            "a drift report disabled its route in {}",
            env.name
        )));
    }
    let stops = deployments::canary_stops(conn, version_id)?;
    Ok(stops
        .iter()
        .find(|(e, _)| *e == env.id)
        .map(|(_, report)| format!("canary stopped by drift report {report}")))
}

/// `POST /registry/check`.
pub async fn check_registry(
    state: web::Data<AppState>,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let q: RegistryCheckRequest = body::parse(&req, &bytes)?;
    let body = state
        .run(move |conn| {
            let a = decide(conn, &q)?;
            Ok(json!({
                "provider": q.provider,
                "version": q.version,
                "cardDigest": q.card_digest,
                "environment": q.environment,
                "decision": a.decision,
                "reason": a.reason,
                "admission": a.state.map(AdmissionState::as_str),
            }))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// The filter of the listing.
#[derive(Debug, Deserialize)]
pub struct AgentsQuery {
    pub skill: Option<String>,
}

/// The longest skill id the filter takes.
const MAX_SKILL: usize = 256;

/// `GET /registry/agents[?skill=ID]`: every admitted agent version
/// (REGISTRY_ADMITTED, CANARY, ACTIVE) with its verified card digests and
/// its current declared Agent Card's digest; with `skill`, only those
/// whose declared card lists that skill (a version that declared no card
/// is left out: the broker cannot know its skills).
pub async fn list_agents(
    state: web::Data<AppState>,
    query: web::Query<AgentsQuery>,
) -> Result<HttpResponse, BrokerError> {
    let skill = query.into_inner().skill;
    if let Some(s) = &skill
        && (s.is_empty() || s.len() > MAX_SKILL)
    {
        let message = format!("a skill id of 1 to {MAX_SKILL} bytes");
        return Err(BrokerError::bad_field("skill", message));
    }
    let body = state
        .run(move |conn| {
            let admitted = [
                AdmissionState::RegistryAdmitted,
                AdmissionState::Canary,
                AdmissionState::Active,
            ];
            let mut agents = Vec::new();
            for (id, s) in admission::versions_in(conn, &admitted)? {
                let card = declared_card(conn, id)?;
                let listed = match (&skill, &card) {
                    (None, _) => true,
                    (Some(skill), Some((_, content))) => has_skill(content, skill),
                    (Some(_), None) => false,
                };
                if listed {
                    agents.push(agent_json(conn, id, s, card.map(|(d, _)| d))?);
                }
            }
            Ok(json!({ "agents": agents }))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// The digest and content of a version's current declared Agent Card.
fn declared_card(
    conn: &mut AnyConnection,
    version_id: i64,
) -> Result<Option<(String, Value)>, BrokerError> {
    let current = declarations::current(conn, version_id)?;
    let Some(card) = current.into_iter().find(|d| d.kind == CARD_KIND) else {
        return Ok(None);
    };
    let content =
        declarations::find_content(conn, &card.digest)?.ok_or(StoreError::MissingRow {
            what: "declaration content",
            id: card.id,
        })?;
    let value =
        serde_json::from_str(&content.content).map_err(|source| StoreError::CorruptJson {
            what: "declaration content",
            source,
        })?;
    Ok(Some((card.digest, value)))
}

fn has_skill(card: &Value, skill: &str) -> bool {
    card["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|s| s["id"].as_str() == Some(skill))
}

fn agent_json(
    conn: &mut AnyConnection,
    version_id: i64,
    state: AdmissionState,
    declared: Option<String>,
) -> Result<Value, BrokerError> {
    let missing = |what, id| BrokerError::from(StoreError::MissingRow { what, id });
    let v =
        versions::find_by_id(conn, version_id)?.ok_or_else(|| missing("version", version_id))?;
    let p = pacticipants::find_by_id(conn, v.pacticipant_id)?
        .ok_or_else(|| missing("pacticipant", v.pacticipant_id))?;
    let verified = assess::verified(conn, version_id)?;
    let mut agent = json!({
        "provider": p.name,
        "version": v.number,
        "admission": state.as_str(),
        "agentCardDigests": verified.card,
    });
    if let Some(digest) = declared {
        let is_verified = verified.card.contains(&digest);
        agent["declaredAgentCardDigest"] = json!(digest);
        agent["declaredAgentCardVerified"] = json!(is_verified);
        if !is_verified {
            agent["note"] = json!(
                "the declared Agent Card is not one this version was verified on: a router serving it gets reverify"
            );
        }
    }
    Ok(agent)
}
