//! `/tokens` (admin role): list, create (the secret is in the 201 reply and
//! nowhere else, ever) and revoke API tokens. `accord token` does the same
//! directly in the database, which is how the first admin token is made.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::body;
use crate::auth::{Role, hash_secret, new_secret};
use crate::error::{BrokerError, FieldError};
use crate::hal::{self, BaseUrl, Link, Links};
use crate::names::TokenName;
use crate::state::AppState;
use crate::store::tokens::{self, Token};

/// `POST /tokens` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    pub name: String,
    pub role: String,
}

fn token_json(base: &BaseUrl, t: &Token) -> Value {
    json!({
        "name": t.name,
        "role": t.role,
        "active": t.revoked_at.is_none(),
        "createdAt": crate::api::time(t.created_at),
        "revokedAt": t.revoked_at.map(crate::api::time),
        "_links": Links::new().add("self", Link::new(base.url(&["tokens", &t.name]))).into_value(),
    })
}

/// `GET /tokens`: names, roles and state, never secrets.
pub async fn list_tokens(
    state: web::Data<AppState>,
    base: BaseUrl,
) -> Result<HttpResponse, BrokerError> {
    let all = state.run(|conn| Ok(tokens::list(conn)?)).await?;
    let items: Vec<Value> = all.iter().map(|t| token_json(&base, t)).collect();
    let links = Links::new().add("self", Link::new(base.url(&["tokens"])));
    Ok(hal::ok(
        &json!({ "_embedded": { "tokens": items }, "_links": links.into_value() }),
    ))
}

/// `POST /tokens`: 201 with the secret, shown this once.
pub async fn create_token(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let request: TokenRequest = body::parse(&req, &bytes)?;
    let role = Role::parse(&request.role)
        .ok_or_else(|| BrokerError::bad_field("$.role", "must be read, write or admin"))?;
    let name = TokenName::parse_token(&request.name)
        .map_err(|e| BrokerError::bad_field("$.name", e.to_string()))?
        .as_str()
        .to_owned();
    let secret = new_secret();
    let hash = hash_secret(&secret);
    let token = state
        .transaction(
            move |conn| match tokens::insert(conn, &name, role.as_str(), &hash) {
                Err(e) if e.is_unique_violation() => Err(BrokerError::Conflict {
                    detail: format!("a token named '{name}' already exists"),
                    errors: vec![FieldError::new("$.name", "is already taken")],
                    extra: Default::default(),
                }),
                other => Ok(other?),
            },
        )
        .await?;
    let mut body = token_json(&base, &token);
    if let Some(map) = body.as_object_mut() {
        map.insert("token".into(), Value::String(secret));
    }
    Ok(hal::created(&body))
}

/// `DELETE /tokens/{name}`: revokes it (204), 404 when no such live token.
pub async fn revoke_token(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    let revoked = state
        .transaction({
            let name = name.clone();
            move |conn| Ok(tokens::revoke(conn, &name)?)
        })
        .await?;
    // at once here; other replicas within the cache's time (`token_cache`)
    state.tokens.clear();
    if revoked {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(BrokerError::not_found(format!("Active token '{name}'")))
    }
}
