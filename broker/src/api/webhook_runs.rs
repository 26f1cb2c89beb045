//! Running webhooks and what they did: `POST /webhooks/{uuid}/execute` and
//! `POST /webhooks/execute` (a test run: the rendered request and the
//! response or the refusal), the triggered webhooks of a pact, of a
//! verification result and of a webhook, and `/triggered-webhooks/{uuid}/logs`.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::api::webhooks::{definition, find};
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::{pacts, verifications, versions};
use crate::webhooks::model::Definition;
use crate::webhooks::outbound::{self, Attempt};
use crate::webhooks::queue::{self, Execution, Filter, Triggered};
use crate::webhooks::{sample, store, template};

/// What a test run answers.
fn run_json(request: &Value, attempt: &Attempt) -> Value {
    let response = attempt.status.map(|status| {
        let headers: serde_json::Map<String, Value> = attempt
            .response_headers
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        json!({ "status": status, "headers": headers, "body": attempt.body_excerpt })
    });
    let logs = match (&attempt.refused, &attempt.error, attempt.status) {
        (Some(r), _, _) => r.to_string(),
        (None, Some(e), _) => format!("error: {e}"),
        (None, None, Some(s)) => format!("HTTP {s} after {} ms", attempt.duration.as_millis()),
        _ => String::new(),
    };
    json!({
        "request": request,
        "response": response,
        "success": attempt.succeeded(),
        "refused": attempt.refused.as_ref().map(|r| r.reason.clone()),
        "error": attempt.error,
        "durationMs": u64::try_from(attempt.duration.as_millis()).unwrap_or(u64::MAX),
        "logs": logs,
    })
}

async fn execute(
    state: &AppState,
    base: &BaseUrl,
    d: Definition,
) -> Result<HttpResponse, BrokerError> {
    let root = base.raw("");
    let (template, params) = state
        .run(move |conn| {
            let params = sample::params(conn, &root, &d)?;
            Ok((d.request, params))
        })
        .await?;
    let request = template::render(&template, &params.0);
    let attempt = outbound::deliver(&state.config.webhook_policy, &request).await;
    Ok(hal::ok(&run_json(&template::shown(&request), &attempt)))
}

/// `POST /webhooks/{uuid}/execute`: a test run of a saved webhook (nothing
/// is queued or logged).
pub async fn execute_webhook(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
    // The body is not used (the Pact CLI sends none), but read: a body over
    // the limit is refused with 413 here as on every other route.
    _body: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    let d = state
        .run(move |conn| {
            let w = find(conn, &uuid)?;
            Ok(Definition {
                description: w.description.clone(),
                consumer: w.consumer(),
                provider: w.provider(),
                events: w.event_names()?,
                request: w.template()?,
                enabled: w.enabled,
            })
        })
        .await?;
    execute(&state, &base, d).await
}

/// `POST /webhooks/execute`: a test run of an unsaved webhook.
pub async fn execute_unsaved(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let d = definition(&state, &req, &bytes, (None, None)).await?;
    execute(&state, &base, d).await
}

pub(crate) fn triggered_json(
    base: &BaseUrl,
    t: &Triggered,
    webhook_uuid: &str,
    max_attempts: usize,
) -> Value {
    let remaining = if t.status == queue::PENDING || t.status == queue::DELIVERING {
        i64::try_from(max_attempts)
            .unwrap_or(i64::MAX)
            .saturating_sub(t.attempts)
    } else {
        0
    };
    json!({
        "uuid": t.uuid,
        "webhookUuid": webhook_uuid,
        "triggerType": "resource_creation",
        "eventName": t.event_name,
        "status": t.status,
        "attemptsMade": t.attempts,
        "attemptsRemaining": remaining,
        "nextScheduledRetry": (t.status == queue::PENDING).then(|| crate::api::time(t.next_attempt_at)),
        "createdAt": crate::api::time(t.created_at),
        "updatedAt": crate::api::time(t.updated_at),
        "_links": Links::new()
            .add("pb:logs", Link::new(base.url(&["triggered-webhooks", &t.uuid, "logs"])).title("Webhook execution logs"))
            .add("pb:webhook", Link::new(base.url(&["webhooks", webhook_uuid])).title("Webhook"))
            .into_value(),
    })
}

async fn list_triggered(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    filter: impl FnOnce(&mut crate::db::AnyConnection) -> Result<Filter, BrokerError> + Send + 'static,
) -> Result<HttpResponse, BrokerError> {
    let rows = state
        .run(move |conn| {
            let f = filter(conn)?;
            let mut out = Vec::new();
            for t in queue::list(conn, f, 100)? {
                let uuid = store::find_by_id(conn, t.webhook_id)?
                    .map(|w| w.uuid)
                    .unwrap_or_default();
                out.push((t, uuid));
            }
            Ok(out)
        })
        .await?;
    let max = state.config.webhook_retry_schedule.len() + 1;
    let items: Vec<Value> = rows
        .iter()
        .map(|(t, u)| triggered_json(&base, t, u, max))
        .collect();
    let me = base.raw(req.path());
    Ok(hal::ok(&json!({
        "_embedded": { "triggeredWebhooks": items },
        "_links": { "self": { "href": me, "title": "Triggered webhooks" } },
    })))
}

/// `GET /pacts/provider/{p}/consumer/{c}/version/{v}/triggered-webhooks`.
pub async fn pact_triggered(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, v) = path.into_inner();
    list_triggered(state, base, req, move |conn| {
        let provider = crate::api::pacticipants::find_required(conn, &p)?;
        let consumer = crate::api::pacticipants::find_required(conn, &c)?;
        let missing = || BrokerError::not_found(format!("Pact between {c} version {v} and {p}"));
        let version = versions::find_by_number(conn, consumer.id, &v)?.ok_or_else(missing)?;
        let publication =
            pacts::find_publication(conn, version.id, provider.id)?.ok_or_else(missing)?;
        Ok(Filter::Publication(publication.id))
    })
    .await
}

/// `GET …/pact-version/{sha}/verification-results/{n}/triggered-webhooks`.
pub async fn verification_triggered(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String, String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c, sha, n) = path.into_inner();
    list_triggered(state, base, req, move |conn| {
        let provider = crate::api::pacticipants::find_required(conn, &p)?;
        let consumer = crate::api::pacticipants::find_required(conn, &c)?;
        let missing =
            || BrokerError::not_found(format!("Verification result {n} of pact version {sha}"));
        let content = pacts::find_content_by_sha(conn, &sha)?
            .filter(|x| x.provider_id == provider.id && x.consumer_id == consumer.id)
            .ok_or_else(missing)?;
        let number: i64 = n.parse().map_err(|_| missing())?;
        let v = verifications::find_by_number(conn, content.id, number)?.ok_or_else(missing)?;
        Ok(Filter::Verification(v.id))
    })
    .await
}

/// `GET /webhooks/{uuid}/triggered-webhooks`.
pub async fn webhook_triggered(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    list_triggered(state, base, req, move |conn| {
        Ok(Filter::Webhook(find(conn, &uuid)?.id))
    })
    .await
}

fn execution_json(e: &Execution) -> Value {
    let request: Value = serde_json::from_str(&e.request).unwrap_or(Value::Null);
    json!({
        "attempt": e.attempt,
        "startedAt": crate::api::time(e.started_at),
        "durationMs": e.duration_ms,
        "status": e.status,
        "success": e.success,
        "request": request,
        "responseExcerpt": e.response_excerpt,
        "error": e.error,
        "refusal": e.refusal,
    })
}

/// `GET /triggered-webhooks/{uuid}/logs`: every attempt of one delivery.
pub async fn get_logs(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    let (t, webhook, logs) = state
        .run(move |conn| {
            let t = queue::find_by_uuid(conn, &uuid)?.ok_or_else(|| {
                BrokerError::not_found(format!("Triggered webhook with uuid '{uuid}'"))
            })?;
            let webhook = store::find_by_id(conn, t.webhook_id)?
                .map(|w| w.uuid)
                .unwrap_or_default();
            let logs = queue::executions(conn, t.id)?;
            Ok((t, webhook, logs))
        })
        .await?;
    let max = state.config.webhook_retry_schedule.len() + 1;
    let mut body = triggered_json(&base, &t, &webhook, max);
    if let Value::Object(map) = &mut body {
        map.insert(
            "executions".into(),
            Value::Array(logs.iter().map(execution_json).collect()),
        );
    }
    Ok(hal::ok(&body))
}
