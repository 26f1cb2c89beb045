//! `/pacticipants` and `/pacticipants/{name}`: list, create, read, update
//! (PUT replaces, PATCH merges; JSON and merge-patch both accepted), delete.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::api::reply::created_or_ok;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::names::{BranchName, FreeText, PacticipantName};
use crate::state::AppState;
use crate::store::pacticipants::{self, Pacticipant, PacticipantAttributes};

/// The body of POST/PUT/PATCH (all fields optional except `name` on POST).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PacticipantRequest {
    pub name: Option<String>,
    pub display_name: Option<FreeText>,
    pub repository_url: Option<FreeText>,
    pub repository_name: Option<FreeText>,
    pub repository_namespace: Option<FreeText>,
    pub main_branch: Option<String>,
}

impl PacticipantRequest {
    fn attributes(&self) -> Result<PacticipantAttributes, BrokerError> {
        let text = |t: &Option<FreeText>| t.as_ref().map(|t| t.as_str().to_owned());
        let main_branch = match &self.main_branch {
            Some(b) => Some(
                BranchName::parse(b)
                    .map_err(|e| BrokerError::bad_field("mainBranch", e.to_string()))?
                    .as_str()
                    .to_owned(),
            ),
            None => None,
        };
        Ok(PacticipantAttributes {
            display_name: text(&self.display_name),
            repository_url: text(&self.repository_url),
            repository_name: text(&self.repository_name),
            repository_namespace: text(&self.repository_namespace),
            main_branch,
        })
    }
}

/// Parses a pacticipant name from a path or body field.
pub fn parse_name(field: &str, text: &str) -> Result<PacticipantName, BrokerError> {
    PacticipantName::parse(text).map_err(|e| BrokerError::bad_field(field, e.to_string()))
}

/// The pacticipant resource.
pub fn pacticipant_json(base: &BaseUrl, p: &Pacticipant) -> Value {
    let links = pacticipant_links(base, p);
    json!({
        "name": p.name,
        "displayName": p.display_name,
        "repositoryUrl": p.repository_url,
        "repositoryName": p.repository_name,
        "repositoryNamespace": p.repository_namespace,
        "mainBranch": p.main_branch,
        "createdAt": crate::api::time(p.created_at),
        "updatedAt": crate::api::time(p.updated_at),
        "_links": links.into_value(),
    })
}

/// The `_links` of a pacticipant resource.
fn pacticipant_links(base: &BaseUrl, p: &Pacticipant) -> Links {
    let at = |rest: &[&str]| {
        let mut segs = vec!["pacticipants", p.name.as_str()];
        segs.extend_from_slice(rest);
        base.url(&segs)
    };
    let me = at(&[]);
    Links::new()
        .add("self", Link::new(me.clone()).name(p.name.clone()))
        .add(
            "pb:versions",
            Link::new(at(&["versions"])).title("Versions"),
        )
        .add("versions", Link::new(at(&["versions"])).title("Versions"))
        .add(
            "pb:branches",
            Link::new(at(&["branches"])).title("Branches"),
        )
        .add(
            "pb:version",
            Link::new(format!("{me}/versions/{{version}}"))
                .title("Version")
                .templated(),
        )
        .add(
            "pb:version-tag",
            Link::new(format!("{me}/versions/{{version}}/tags/{{tag}}"))
                .title("Version tag")
                .templated(),
        )
        .add(
            "pb:branch-version",
            Link::new(format!("{me}/branches/{{branch}}/versions/{{version}}"))
                .title("Branch version")
                .templated(),
        )
        .add(
            "pb:latest-version",
            Link::new(at(&["latest-version"])).title("Latest version"),
        )
        .add(
            "pb:label",
            Link::new(format!("{me}/labels/{{label}}"))
                .title("Get, create or delete a label for this pacticipant")
                .templated(),
        )
        .add(
            "pb:can-i-deploy-badge",
            Link::new(format!(
                "{me}/latest-version/{{tag}}/can-i-deploy/to/{{environment}}/badge"
            ))
            .title("Can I Deploy badge")
            .templated(),
        )
}

/// `GET /pacticipants`.
pub async fn list_pacticipants(
    state: web::Data<AppState>,
    base: BaseUrl,
) -> Result<HttpResponse, BrokerError> {
    let all = state.run(|conn| Ok(pacticipants::list(conn)?)).await?;
    let items: Vec<Value> = all.iter().map(|p| pacticipant_json(&base, p)).collect();
    let links = Links::new()
        .add("self", Link::new(base.url(&["pacticipants"])))
        .add_array(
            "pb:pacticipants",
            all.iter()
                .map(|p| Link::new(base.url(&["pacticipants", &p.name])).name(p.name.clone()))
                .collect(),
        );
    Ok(hal::ok(&json!({
        "_embedded": { "pacticipants": items },
        "pacticipants": all.iter().map(|p| pacticipant_json(&base, p)).collect::<Vec<_>>(),
        "_links": links.into_value(),
    })))
}

/// `POST /pacticipants`: 201, or 409 if the name is taken.
pub async fn create_pacticipant(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: PacticipantRequest = body::parse(&req, &bytes)?;
    let raw = request
        .name
        .clone()
        .ok_or_else(|| BrokerError::bad_field("name", "is required"))?;
    let name = parse_name("name", &raw)?;
    let attrs = request.attributes()?;
    let created = state
        .transaction(move |conn| {
            if pacticipants::find_by_name(conn, name.as_str())?.is_some() {
                return Err(conflict_exists(&name));
            }
            match pacticipants::insert(conn, &name, &attrs) {
                Err(e) if e.is_unique_violation() => Err(conflict_exists(&name)),
                other => Ok(other?),
            }
        })
        .await?;
    Ok(hal::created(&pacticipant_json(&base, &created)))
}

fn conflict_exists(name: &PacticipantName) -> BrokerError {
    BrokerError::Conflict {
        detail: format!("A pacticipant with name '{name}' already exists"),
        errors: vec![crate::error::FieldError::new("name", "is already taken")],
        extra: Default::default(),
    }
}

/// `GET /pacticipants/{name}`.
pub async fn get_pacticipant(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    let (found, labels) = state
        .run(move |conn| {
            let p = find_required(conn, &name)?;
            let labels = crate::store::labels::names_of(conn, p.id)?;
            Ok((p, labels))
        })
        .await?;
    let mut body = pacticipant_json(&base, &found);
    let embedded: Vec<Value> = labels
        .iter()
        .map(|l| crate::api::labels::label_summary_json(&base, &found.name, l))
        .collect();
    body["_embedded"] = json!({ "labels": embedded });
    Ok(hal::ok(&body))
}

/// The pacticipant called `name`, or 404.
pub fn find_required(
    conn: &mut crate::db::AnyConnection,
    name: &str,
) -> Result<Pacticipant, BrokerError> {
    pacticipants::find_by_name(conn, name)?
        .ok_or_else(|| BrokerError::not_found(format!("Pacticipant '{name}'")))
}

/// `PATCH /pacticipants/{name}` merges (creating the pacticipant if absent,
/// as the Pact Broker does); `PUT` replaces.
pub async fn update_pacticipant(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: PacticipantRequest = body::parse(&req, &bytes)?;
    let name = parse_name("name", &path.into_inner())?;
    let replace = req.method() == actix_web::http::Method::PUT;
    let attrs = request.attributes()?;
    let (row, created) = state
        .transaction(move |conn| {
            Ok(match pacticipants::find_or_insert(conn, &name, &attrs)? {
                (p, true) => (p, true),
                (p, false) if replace => {
                    (pacticipants::replace_attributes(conn, p.id, &attrs)?, false)
                }
                (p, false) => (pacticipants::update_attributes(conn, p.id, &attrs)?, false),
            })
        })
        .await?;
    let body = pacticipant_json(&base, &row);
    Ok(created_or_ok(&body, created))
}

/// `DELETE /pacticipants/{name}`: removes it with its versions and pacts.
pub async fn delete_pacticipant(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    state
        .transaction(move |conn| {
            let p = find_required(conn, &name)?;
            pacticipants::delete(conn, p.id)?;
            Ok(())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
