//! Webhooks, as the Pact Broker serves them: `GET/POST /webhooks`,
//! `GET/PUT (upsert with a client uuid)/DELETE /webhooks/{uuid}`, and the
//! scoped forms `/webhooks/provider/{p}/consumer/{c}`, `/webhooks/provider/{p}`,
//! `/webhooks/consumer/{c}` (and `/pacts/provider/{p}/consumer/{c}/webhooks`).
//! Passwords and credential-looking header values are never returned.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::api::body;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::pacticipants;
use crate::webhooks::model::{Definition, Selector, WebhookBody};
use crate::webhooks::outbound;
use crate::webhooks::store::{self, Webhook};

/// The webhook with `uuid`, or 404.
pub fn find(conn: &mut AnyConnection, uuid: &str) -> Result<Webhook, BrokerError> {
    store::find_by_uuid(conn, uuid)?
        .ok_or_else(|| BrokerError::not_found(format!("Webhook with uuid '{uuid}'")))
}

fn selector_json(s: Option<Selector>) -> Option<Value> {
    match s? {
        Selector::Name(n) => Some(json!({ "name": n })),
        Selector::Label(l) => Some(json!({ "label": l })),
    }
}

/// The webhook resource (credentials redacted).
pub fn webhook_json(base: &BaseUrl, w: &Webhook) -> Result<Value, BrokerError> {
    let me = base.url(&["webhooks", &w.uuid]);
    let title = w
        .description
        .clone()
        .unwrap_or_else(|| format!("Webhook {}", w.uuid));
    let mut links = Links::new()
        .add("self", Link::new(me.clone()).title(title))
        .add(
            "pb:execute",
            Link::new(format!("{me}/execute")).title(
                "Test the execution of the webhook with the latest matching pact or verification",
            ),
        )
        .add(
            "pb:triggered-webhooks",
            Link::new(format!("{me}/triggered-webhooks")).title("Triggered webhooks"),
        )
        .add(
            "pb:webhooks",
            Link::new(base.url(&["webhooks"])).title("All webhooks"),
        );
    if let Some(Selector::Name(c)) = w.consumer() {
        links = links.add(
            "pb:consumer",
            Link::new(base.url(&["pacticipants", &c]))
                .title("Consumer")
                .name(c),
        );
    }
    if let Some(Selector::Name(p)) = w.provider() {
        links = links.add(
            "pb:provider",
            Link::new(base.url(&["pacticipants", &p]))
                .title("Provider")
                .name(p),
        );
    }
    let mut body = json!({
        "uuid": w.uuid,
        "description": w.description,
        "enabled": w.enabled,
        "events": w.event_names()?.into_iter().map(|n| json!({ "name": n })).collect::<Vec<_>>(),
        "request": w.template()?.redacted(),
        "createdAt": crate::api::time(w.created_at),
        "updatedAt": crate::api::time(w.updated_at),
        "_links": links.into_value(),
    });
    if let Value::Object(map) = &mut body {
        if let Some(c) = selector_json(w.consumer()) {
            map.insert("consumer".into(), c);
        }
        if let Some(p) = selector_json(w.provider()) {
            map.insert("provider".into(), p);
        }
    }
    Ok(body)
}

/// The list resource of `hooks` at `path`.
fn list_json(base: &BaseUrl, path: &[&str], hooks: &[Webhook]) -> Value {
    let items: Vec<Link> = hooks
        .iter()
        .map(|w| {
            Link::new(base.url(&["webhooks", &w.uuid]))
                .title(w.description.clone().unwrap_or_else(|| w.uuid.clone()))
                .name(w.uuid.clone())
        })
        .collect();
    let links = Links::new()
        .add("self", Link::new(base.url(path)).title("Webhooks"))
        .add(
            "pb:create",
            Link::new(base.url(path)).title("POST to create a webhook"),
        )
        .add_array("pb:webhooks", items);
    json!({ "_links": links.into_value() })
}

/// Parses and checks a definition: the body, the scope the URL names, the
/// named pacticipants (they must exist) and the policy's view of the URL.
pub async fn definition(
    state: &AppState,
    req: &HttpRequest,
    bytes: &[u8],
    scope: (Option<String>, Option<String>),
) -> Result<Definition, BrokerError> {
    let parsed: WebhookBody = body::parse(req, bytes)?;
    let d = parsed.validate(scope)?;
    if let Err(refusal) = outbound::check_definition(
        &state.config.webhook_policy,
        &d.request.method,
        &d.request.url,
    )
    .await
    {
        let field = if refusal.reason.starts_with("method") {
            "$.request.method"
        } else {
            "$.request.url"
        };
        return Err(BrokerError::bad_field(field, refusal.to_string()));
    }
    Ok(d)
}

fn check_named(conn: &mut AnyConnection, d: &Definition) -> Result<(), BrokerError> {
    for (selector, path, role) in [
        (&d.consumer, "$.consumer.name", "consumer"),
        (&d.provider, "$.provider.name", "provider"),
    ] {
        if let Some(Selector::Name(n)) = selector
            && pacticipants::find_by_name(conn, n)?.is_none()
        {
            return Err(BrokerError::bad_field(
                path,
                format!("no {role} called '{n}' exists"),
            ));
        }
    }
    Ok(())
}

/// A uuid a client may choose: 1–64 of `[A-Za-z0-9_-]`.
fn check_uuid(uuid: &str) -> Result<(), BrokerError> {
    if uuid.is_empty()
        || uuid.len() > 64
        || !uuid
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(BrokerError::bad_field(
            "uuid",
            "must be 1 to 64 letters, digits, '-' or '_'",
        ));
    }
    Ok(())
}

async fn create(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    bytes: web::Bytes,
    scope: (Option<String>, Option<String>),
) -> Result<HttpResponse, BrokerError> {
    let d = definition(&state, &req, &bytes, scope).await?;
    let created = state
        .transaction(move |conn| {
            check_named(conn, &d)?;
            Ok(store::insert(conn, &uuid::Uuid::new_v4().to_string(), &d)?)
        })
        .await?;
    let body = webhook_json(&base, &created)?;
    let location = base.url(&["webhooks", &created.uuid]);
    let mut response = hal::created(&body);
    if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&location) {
        response
            .headers_mut()
            .insert(actix_web::http::header::LOCATION, value);
    }
    Ok(response)
}

async fn list(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: Vec<String>,
    scope: (Option<String>, Option<String>),
) -> Result<HttpResponse, BrokerError> {
    let hooks = state
        .run(move |conn| {
            for name in scope.0.iter().chain(scope.1.iter()) {
                crate::api::pacticipants::find_required(conn, name)?;
            }
            let all = store::list(conn)?;
            Ok(all
                .into_iter()
                .filter(|w| {
                    scope
                        .0
                        .as_deref()
                        .is_none_or(|c| w.consumer() == Some(Selector::Name(c.into())))
                        && scope
                            .1
                            .as_deref()
                            .is_none_or(|p| w.provider() == Some(Selector::Name(p.into())))
                })
                .collect::<Vec<_>>())
        })
        .await?;
    let segments: Vec<&str> = path.iter().map(String::as_str).collect();
    Ok(hal::ok(&list_json(&base, &segments, &hooks)))
}

/// `GET /webhooks`.
pub async fn list_webhooks(
    state: web::Data<AppState>,
    base: BaseUrl,
) -> Result<HttpResponse, BrokerError> {
    list(state, base, vec!["webhooks".into()], (None, None)).await
}

/// `POST /webhooks`: 201 with the webhook and its `Location`.
pub async fn create_webhook(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    create(state, base, req, bytes, (None, None)).await
}

/// `GET /webhooks/provider/{p}/consumer/{c}` (and `/pacts/provider/{p}/consumer/{c}/webhooks`).
pub async fn list_pair_webhooks(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, c) = path.into_inner();
    let segments = vec![
        "webhooks".into(),
        "provider".into(),
        p.clone(),
        "consumer".into(),
        c.clone(),
    ];
    list(state, base, segments, (Some(c), Some(p))).await
}

/// `POST /webhooks/provider/{p}/consumer/{c}`: the URL's pair wins over the body's.
pub async fn create_pair_webhook(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let (p, c) = path.into_inner();
    create(state, base, req, bytes, (Some(c), Some(p))).await
}

/// `GET /webhooks/provider/{p}`.
pub async fn list_provider_webhooks(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let p = path.into_inner();
    list(
        state,
        base,
        vec!["webhooks".into(), "provider".into(), p.clone()],
        (None, Some(p)),
    )
    .await
}

/// `POST /webhooks/provider/{p}`.
pub async fn create_provider_webhook(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    create(state, base, req, bytes, (None, Some(path.into_inner()))).await
}

/// `GET /webhooks/consumer/{c}`.
pub async fn list_consumer_webhooks(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let c = path.into_inner();
    list(
        state,
        base,
        vec!["webhooks".into(), "consumer".into(), c.clone()],
        (Some(c), None),
    )
    .await
}

/// `POST /webhooks/consumer/{c}`.
pub async fn create_consumer_webhook(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    create(state, base, req, bytes, (Some(path.into_inner()), None)).await
}

/// `GET /webhooks/{uuid}`.
pub async fn get_webhook(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    let found = state.run(move |conn| find(conn, &uuid)).await?;
    Ok(hal::ok(&webhook_json(&base, &found)?))
}

/// `PUT /webhooks/{uuid}`: replaces the webhook, or creates it with this
/// uuid (201), as `pact broker create-or-update-webhook --uuid` expects.
pub async fn put_webhook(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    check_uuid(&uuid)?;
    let d = definition(&state, &req, &bytes, (None, None)).await?;
    let (saved, created) = state
        .transaction(move |conn| {
            check_named(conn, &d)?;
            match store::find_by_uuid(conn, &uuid)? {
                Some(existing) => Ok((store::update(conn, existing.id, &d)?, false)),
                None => Ok((store::insert(conn, &uuid, &d)?, true)),
            }
        })
        .await?;
    let body = webhook_json(&base, &saved)?;
    Ok(if created {
        hal::created(&body)
    } else {
        hal::ok(&body)
    })
}

/// `DELETE /webhooks/{uuid}`: 204 (its deliveries and logs go too).
pub async fn delete_webhook(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    state
        .transaction(move |conn| {
            let w = find(conn, &uuid)?;
            Ok(store::delete(conn, w.id)?)
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
