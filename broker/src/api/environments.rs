//! Environments: `GET /environments` (`?name=`), `POST /environments`
//! (201 with the generated `uuid`; 409 when the name is taken), and
//! `GET/PUT/DELETE /environments/{uuid}`. Accord adds `admissionStage`
//! (`canary`/`active`): deployments into such an environment move admitted
//! provider versions (`api::promotions`).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::admission::promote::Stage;
use crate::api::body;
use crate::db::AnyConnection;
use crate::error::{BrokerError, FieldError};
use crate::hal::{self, BaseUrl, Link, Links};
use crate::names::{EnvironmentName, FreeText};
use crate::state::AppState;
use crate::store::StoreError;
use crate::store::environments::{self, Environment, EnvironmentAttributes};

/// The body of POST and PUT.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvironmentRequest {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub display_name: Option<FreeText>,
    #[serde(default)]
    pub production: Option<bool>,
    #[serde(default)]
    pub contacts: Option<Vec<Contact>>,
    /// An Accord extension: `"canary"` or `"active"` marks the environment
    /// for that admission stage, `null` clears it; absent keeps it.
    #[serde(default, deserialize_with = "present")]
    pub admission_stage: Option<Option<String>>,
}

/// A field that was given (`Some`, possibly `null`) or left out (`None`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// The stage to set: `None` leaves it, `Some(None)` clears it.
fn admission_stage(given: Option<Option<String>>) -> Result<Option<Option<Stage>>, BrokerError> {
    let Some(given) = given else {
        return Ok(None);
    };
    let Some(name) = given else {
        return Ok(Some(None));
    };
    Stage::parse(&name).map(|s| Some(Some(s))).ok_or_else(|| {
        BrokerError::bad_field("$.admissionStage", "must be \"canary\", \"active\" or null")
    })
}

/// Sets the stage the request asked for (if it asked) on `env`.
fn apply_stage(
    conn: &mut AnyConnection,
    env: Environment,
    stage: Option<Option<Stage>>,
) -> Result<Environment, BrokerError> {
    match stage {
        None => Ok(env),
        Some(stage) => Ok(environments::set_admission_stage(
            conn,
            env.id,
            stage.map(Stage::as_str),
        )?),
    }
}

/// A person or team to contact about an environment.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Contact {
    pub name: String,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub details: Map<String, Value>,
}

/// The `?name=` filter of the list.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    pub name: Option<String>,
}

impl EnvironmentRequest {
    /// The attributes to store; absent fields fall back to `current`.
    fn attributes(
        self,
        current: Option<&Environment>,
    ) -> Result<EnvironmentAttributes, BrokerError> {
        let raw = self
            .name
            .or_else(|| current.map(|e| e.name.clone()))
            .ok_or_else(|| BrokerError::bad_field("name", "is required"))?;
        let name = EnvironmentName::parse(&raw)
            .map_err(|e| BrokerError::bad_field("name", e.to_string()))?;
        let contacts = match self.contacts {
            Some(list) => Some(serde_json::to_string(&list).map_err(|source| {
                BrokerError::Store(StoreError::CorruptJson {
                    what: "environment contacts",
                    source,
                })
            })?),
            None => current.and_then(|e| e.contacts.clone()),
        };
        Ok(EnvironmentAttributes {
            name,
            display_name: self
                .display_name
                .map(FreeText::into_string)
                .or_else(|| current.and_then(|e| e.display_name.clone())),
            production: self
                .production
                .or(current.map(|e| e.production))
                .unwrap_or(false),
            contacts,
        })
    }
}

/// The environment with `uuid`, or 404.
pub fn find_environment(conn: &mut AnyConnection, uuid: &str) -> Result<Environment, BrokerError> {
    environments::find_by_uuid(conn, uuid)?
        .ok_or_else(|| BrokerError::not_found(format!("Environment with uuid '{uuid}'")))
}

/// The environment resource.
pub fn environment_json(base: &BaseUrl, e: &Environment) -> Result<Value, BrokerError> {
    let contacts: Value = match &e.contacts {
        Some(text) => serde_json::from_str(text).map_err(|source| {
            BrokerError::Store(StoreError::CorruptJson {
                what: "environment contacts",
                source,
            })
        })?,
        None => Value::Array(Vec::new()),
    };
    let me = base.url(&["environments", &e.uuid]);
    let links = Links::new()
        .add(
            "self",
            Link::new(me.clone())
                .title("Environment")
                .name(e.name.clone()),
        )
        .add(
            "pb:currently-deployed-deployed-versions",
            Link::new(format!("{me}/deployed-versions/currently-deployed"))
                .title("Versions currently deployed to this environment"),
        )
        .add(
            "pb:currently-supported-released-versions",
            Link::new(format!("{me}/released-versions/currently-supported"))
                .title("Versions released and supported in this environment"),
        )
        .add(
            "pb:environments",
            Link::new(base.url(&["environments"])).title("Environments"),
        );
    let mut body = json!({
        "uuid": e.uuid,
        "name": e.name,
        // Pact clients read displayName as a string; an unset one shows the name.
        "displayName": e.display_name.as_deref().unwrap_or(&e.name),
        "production": e.production,
        "contacts": contacts,
        "createdAt": crate::api::time(e.created_at),
        "updatedAt": crate::api::time(e.updated_at),
        "_links": links.into_value(),
    });
    // An Accord extension, only on environments marked for a stage.
    if let Some(stage) = &e.admission_stage {
        body["admissionStage"] = json!(stage);
    }
    Ok(body)
}

/// `GET /environments` (`?name=` keeps only that environment).
pub async fn list_environments(
    state: web::Data<AppState>,
    base: BaseUrl,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, BrokerError> {
    let filter = query.into_inner().name;
    let all = state.run(|conn| Ok(environments::list(conn)?)).await?;
    let shown: Vec<&Environment> = all
        .iter()
        .filter(|e| filter.as_deref().is_none_or(|n| n == e.name))
        .collect();
    let items = shown
        .iter()
        .map(|e| environment_json(&base, e))
        .collect::<Result<Vec<_>, _>>()?;
    let links = Links::new()
        .add(
            "self",
            Link::new(base.url(&["environments"])).title("Environments"),
        )
        .add_array(
            "pb:environments",
            shown
                .iter()
                .map(|e| {
                    Link::new(base.url(&["environments", &e.uuid]))
                        .title(e.display_name.clone().unwrap_or_else(|| e.name.clone()))
                        .name(e.name.clone())
                })
                .collect(),
        );
    Ok(hal::ok(
        &json!({ "_embedded": { "environments": items }, "_links": links.into_value() }),
    ))
}

fn name_taken(name: &EnvironmentName) -> BrokerError {
    BrokerError::Conflict {
        detail: format!("An environment with name '{name}' already exists"),
        errors: vec![FieldError::new("name", "is already taken")],
        extra: Map::new(),
    }
}

/// `POST /environments`: 201, or 409 when the name is taken.
pub async fn create_environment(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let mut request: EnvironmentRequest = body::parse(&req, &bytes)?;
    let stage = admission_stage(request.admission_stage.take())?;
    let attrs = request.attributes(None)?;
    let created = state
        .transaction(move |conn| {
            if environments::find_by_name(conn, attrs.name.as_str())?.is_some() {
                return Err(name_taken(&attrs.name));
            }
            let uuid = uuid::Uuid::new_v4().to_string();
            let created = match environments::insert(conn, &uuid, &attrs) {
                Err(e) if e.is_unique_violation() => return Err(name_taken(&attrs.name)),
                other => other?,
            };
            apply_stage(conn, created, stage)
        })
        .await?;
    Ok(hal::created(&environment_json(&base, &created)?))
}

/// `GET /environments/{uuid}`.
pub async fn get_environment(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    let found = state.run(move |conn| find_environment(conn, &uuid)).await?;
    Ok(hal::ok(&environment_json(&base, &found)?))
}

/// `PUT /environments/{uuid}`: updates; fields left out keep their value.
pub async fn update_environment(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let mut request: EnvironmentRequest = body::parse(&req, &bytes)?;
    let stage = admission_stage(request.admission_stage.take())?;
    let uuid = path.into_inner();
    let updated = state
        .transaction(move |conn| {
            let found = find_environment(conn, &uuid)?;
            // the row as committed once we hold its lock: fields this PUT
            // leaves out keep what a concurrent PUT wrote
            let current = environments::lock(conn, found.id)?
                .ok_or_else(|| BrokerError::not_found(format!("Environment with uuid '{uuid}'")))?;
            let attrs = request.attributes(Some(&current))?;
            if let Some(other) = environments::find_by_name(conn, attrs.name.as_str())?
                && other.id != current.id
            {
                return Err(name_taken(&attrs.name));
            }
            let updated = match environments::update(conn, current.id, &attrs) {
                Err(e) if e.is_unique_violation() => return Err(name_taken(&attrs.name)),
                other => other?,
            };
            apply_stage(conn, updated, stage)
        })
        .await?;
    Ok(hal::ok(&environment_json(&base, &updated)?))
}

/// `DELETE /environments/{uuid}`: 204 (its deployment and release records go too).
pub async fn delete_environment(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let uuid = path.into_inner();
    state
        .transaction(move |conn| {
            let e = find_environment(conn, &uuid)?;
            environments::delete(conn, e.id)?;
            Ok(())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
