//! Pacticipant labels, as the Pact Broker has them:
//! `GET/PUT/DELETE /pacticipants/{p}/labels/{label}` (PUT auto-creates the
//! pacticipant; 201 when the label is new, 200 when it existed),
//! `GET /pacticipants/label/{label}` (the pacticipants carrying it) and
//! `GET /labels` (every label name in use).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::api::pacticipants::{find_required, pacticipant_json, parse_name};
use crate::api::reply::created_or_ok;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::names::TagName;
use crate::state::AppState;
use crate::store::labels::{self, Label};
use crate::store::pacticipants::{self, Pacticipant};

/// The body of PUT: `{}`, empty, or `{"name": …}` (which must match the path).
#[derive(Debug, Deserialize)]
pub struct LabelBody {
    #[serde(default)]
    pub name: Option<String>,
}

/// The URL of a pacticipant's label.
pub fn label_url(base: &BaseUrl, pacticipant: &str, label: &str) -> String {
    base.url(&["pacticipants", pacticipant, "labels", label])
}

/// A label embedded in a pacticipant (`{name, _links.self}`).
pub fn label_summary_json(base: &BaseUrl, pacticipant: &str, label: &str) -> Value {
    json!({
        "name": label,
        "_links": { "self": Link::new(label_url(base, pacticipant, label))
            .title("Label").name(label).to_value() },
    })
}

fn label_json(base: &BaseUrl, p: &Pacticipant, label: &Label) -> Value {
    let pacticipant = Link::new(base.url(&["pacticipants", &p.name]))
        .title("Pacticipant")
        .name(p.name.clone());
    let links = Links::new()
        .add(
            "self",
            Link::new(label_url(base, &p.name, &label.name))
                .title("Label")
                .name(label.name.clone()),
        )
        .add("pb:pacticipant", pacticipant.clone());
    json!({
        "name": label.name,
        "createdAt": crate::api::time(label.created_at),
        "updatedAt": crate::api::time(label.updated_at),
        "_embedded": {"pacticipant": {"name": p.name, "_links": {"self": pacticipant.to_value()}}},
        "_links": links.into_value(),
    })
}

fn parse_label(text: &str) -> Result<TagName, BrokerError> {
    TagName::parse(text).map_err(|e| BrokerError::bad_field("label", e.to_string()))
}

fn label_not_found(p: &str, label: &str) -> BrokerError {
    BrokerError::not_found(format!("Label '{label}' of pacticipant '{p}'"))
}

/// `GET /pacticipants/{p}/labels/{label}`: 200, or 404.
pub async fn get_label(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, l) = path.into_inner();
    let body = state
        .run(move |conn| {
            let p = find_required(conn, &p)?;
            let label =
                labels::find(conn, p.id, &l)?.ok_or_else(|| label_not_found(&p.name, &l))?;
            Ok(label_json(&base, &p, &label))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// `PUT /pacticipants/{p}/labels/{label}`: labels the pacticipant (created
/// if absent).
pub async fn put_label(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: LabelBody = body::parse(&req, &bytes)?;
    let (p, l) = path.into_inner();
    let name = parse_name("pacticipant", &p)?;
    let label = parse_label(&l)?;
    if request.name.as_deref().is_some_and(|n| n != label.as_str()) {
        return Err(BrokerError::bad_field(
            "name",
            "must match the label name in the path",
        ));
    }
    let (body, created) = state
        .transaction(move |conn| {
            let p = pacticipants::find_or_create(conn, &name)?;
            let (row, created) = labels::add(conn, p.id, &label)?;
            Ok((label_json(&base, &p, &row), created))
        })
        .await?;
    Ok(created_or_ok(&body, created))
}

/// `DELETE /pacticipants/{p}/labels/{label}`: 204, or 404.
pub async fn delete_label(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (p, l) = path.into_inner();
    state
        .transaction(move |conn| {
            let p = find_required(conn, &p)?;
            if labels::delete(conn, p.id, &l)? {
                Ok(())
            } else {
                Err(label_not_found(&p.name, &l))
            }
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /pacticipants/label/{label}`: the pacticipants carrying it (an
/// empty list when none does).
pub async fn list_labelled(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let l = path.into_inner();
    let label = l.clone();
    let all = state
        .run(move |conn| Ok(labels::pacticipants_with(conn, &label)?))
        .await?;
    let items: Vec<Value> = all.iter().map(|p| pacticipant_json(&base, p)).collect();
    let links = Links::new().add(
        "self",
        Link::new(base.url(&["pacticipants", "label", &l]))
            .title(format!("Pacticipants labelled {l}")),
    );
    Ok(hal::ok(&json!({
        "_embedded": { "pacticipants": items },
        "_links": links.into_value(),
    })))
}

/// `GET /labels`: every label name in use.
pub async fn list_labels(
    state: web::Data<AppState>,
    base: BaseUrl,
) -> Result<HttpResponse, BrokerError> {
    let names = state.run(|conn| Ok(labels::all_names(conn)?)).await?;
    let items: Vec<Value> = names.iter().map(|n| json!({"name": n})).collect();
    Ok(hal::ok(&json!({
        "_embedded": { "labels": items },
        "_links": Links::new().add("self", Link::new(base.url(&["labels"])).title("Labels")).into_value(),
    })))
}
