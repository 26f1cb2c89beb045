//! `PUT/GET /pacticipants/{p}/drift-policy`: a provider's drift policy in
//! the seed's form (`{"drift_policy": {"rules": …, "environments": …}}`,
//! or the inner object alone). Unknown signals, actions and fields are a
//! 400 naming the path; an environment the broker does not know a 422.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Map, Value, json};

use crate::api::body;
use crate::api::pacticipants::find_required;
use crate::api::reply::created_or_ok;
use crate::drift::assess::policy_of;
use crate::drift::policy::{self, COUNTED, Policy, PolicySignal};
use crate::error::{BrokerError, FieldError};
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::{drift_policies, environments};

/// The policy inside the body, and the path prefix it sits under.
fn unwrap(raw: Value) -> (Value, &'static str) {
    match raw {
        Value::Object(mut map) if map.len() == 1 && map.contains_key("drift_policy") => (
            map.remove("drift_policy").unwrap_or_default(),
            "drift_policy",
        ),
        other => (other, ""),
    }
}

/// Reads the policy, naming the path of the first wrong field.
fn parse_policy(raw: Value) -> Result<Policy, BrokerError> {
    let (inner, prefix) = unwrap(raw);
    let policy: Policy = serde_path_to_error::deserialize(inner).map_err(|e| {
        let at = e.path().to_string();
        let joined = match (prefix, at.as_str()) {
            (p, ".") => p.to_owned(),
            ("", a) => a.to_owned(),
            (p, a) => format!("{p}.{a}"),
        };
        BrokerError::bad_field(body::json_path(&joined), e.into_inner().to_string())
    })?;
    let base = if prefix.is_empty() {
        "$"
    } else {
        "$.drift_policy"
    };
    let zero = |path: String| BrokerError::bad_field(path, "threshold must be at least 1");
    for (signal, rule) in &policy.rules {
        if rule.threshold == 0 {
            return Err(zero(format!("{base}.rules.{}.threshold", signal.as_str())));
        }
    }
    for (env, rules) in &policy.environments {
        for (signal, rule) in rules {
            if rule.threshold == 0 {
                return Err(zero(format!(
                    "{base}.environments.{env}.{}.threshold",
                    signal.as_str()
                )));
            }
        }
    }
    Ok(policy)
}

/// The defaults, for the answer: what applies where the policy is silent.
fn defaults() -> Value {
    let signals = [PolicySignal::AgentCardDigest, PolicySignal::ToolsDigest]
        .into_iter()
        .chain(COUNTED.into_iter().map(PolicySignal::of));
    let map: Map<String, Value> = signals
        .map(|s| (s.as_str().to_owned(), json!(policy::default_rule(s))))
        .collect();
    Value::Object(map)
}

fn policy_json(base: &BaseUrl, p: &str, policy: &Policy) -> Value {
    let links = Links::new()
        .add(
            "self",
            Link::new(base.url(&["pacticipants", p, "drift-policy"])).title("Drift policy"),
        )
        .add(
            "pb:pacticipant",
            Link::new(base.url(&["pacticipants", p])).name(p),
        );
    json!({
        "pacticipant": p,
        "drift_policy": policy,
        "defaults": defaults(),
        "_links": links.into_value(),
    })
}

/// `GET /pacticipants/{p}/drift-policy` (the defaults when none is set).
pub async fn get_drift_policy(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    let body = state
        .run(move |conn| {
            let p = find_required(conn, &name)?;
            let policy = policy_of(conn, p.id)?;
            Ok(policy_json(&base, &p.name, &policy))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// `PUT /pacticipants/{p}/drift-policy`.
pub async fn put_drift_policy(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let raw: Value = body::parse_value(&req, &bytes)?;
    let policy = parse_policy(raw)?;
    let name = path.into_inner();
    let (body, created) = state
        .transaction(move |conn| {
            let p = find_required(conn, &name)?;
            for env in policy.environments.keys() {
                if environments::find_by_name(conn, env)?.is_none() {
                    let field = format!("$.environments.{env}");
                    return Err(BrokerError::Unprocessable {
                        detail: format!("{field}: no environment '{env}'"),
                        errors: vec![FieldError::new(field, format!("no environment '{env}'"))],
                    });
                }
            }
            let text = serde_json::to_string(&policy).expect("a policy always serialises");
            let created = drift_policies::put(conn, p.id, &text)?;
            Ok((policy_json(&base, &p.name, &policy), created))
        })
        .await?;
    Ok(created_or_ok(&body, created))
}
