//! Access control. Until the first token is created (and no Basic account
//! is configured) the broker is open, as the Pact Broker is; after that,
//! reads need the read role (unless `--public-read`), writes need write, and
//! `/tokens` needs admin. Bearer tokens and HTTP Basic both work: Basic is a
//! configured account, or a token's name as user and its secret as password.
//!
//! 401 means "who are you?" (nothing usable presented); 403 means "you may
//! not" (a valid identity without the role). Secrets never reach a log.

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::AUTHORIZATION;
use actix_web::middleware::Next;
use actix_web::web;
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::tokens;

/// What a credential may do; each role includes the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Read,
    Write,
    Admin,
}

impl Role {
    /// The role's name as stored and printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Read => "read",
            Role::Write => "write",
            Role::Admin => "admin",
        }
    }

    /// Parses `read`, `write` or `admin`.
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "read" => Some(Role::Read),
            "write" => Some(Role::Write),
            "admin" => Some(Role::Admin),
            _ => None,
        }
    }
}

/// The identity a request was authenticated as (stored in request extensions).
#[derive(Debug, Clone)]
pub struct Caller {
    pub name: String,
    pub role: Role,
}

/// The role a request needs: reads need read (`for-verification` is a read
/// although it is a POST, as in the Pact Broker), token management needs
/// admin, everything else write.
pub fn required_role(method: &Method, path: &str) -> Role {
    if path == "/tokens" || path.starts_with("/tokens/") {
        return Role::Admin;
    }
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return Role::Read;
    }
    if *method == Method::POST && path.ends_with("/for-verification") {
        return Role::Read;
    }
    Role::Write
}

/// Paths nobody needs credentials for: the heartbeat, and the pages'
/// stylesheet and icon (an error page asking for credentials needs them).
fn is_public(path: &str) -> bool {
    path == "/diagnostic/status/heartbeat"
        || path == "/favicon.ico"
        || path.starts_with("/ui/static/")
}

/// sha256 hex of a token secret: what the database stores.
pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// A new random token secret (`acc_` + 43 base64url characters, 256 bits).
pub fn new_secret() -> String {
    let bytes: [u8; 32] = rand::random();
    format!(
        "acc_{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    )
}

enum Presented {
    Nothing,
    Bearer(String),
    Basic { user: String, password: String },
    Unreadable,
}

fn presented(req: &ServiceRequest) -> Presented {
    let Some(value) = req.headers().get(AUTHORIZATION) else {
        return Presented::Nothing;
    };
    let Ok(text) = value.to_str() else {
        return Presented::Unreadable;
    };
    let (scheme, rest) = text.trim().split_once(' ').unwrap_or((text, ""));
    if scheme.eq_ignore_ascii_case("bearer") {
        return Presented::Bearer(rest.trim().to_owned());
    }
    if scheme.eq_ignore_ascii_case("basic") {
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(rest.trim())
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        if let Some((user, password)) = decoded.as_deref().and_then(|d| d.split_once(':')) {
            return Presented::Basic {
                user: user.to_owned(),
                password: password.to_owned(),
            };
        }
    }
    Presented::Unreadable
}

/// Constant-time comparison, so a wrong password takes as long as a right one.
fn same(a: &str, b: &str) -> bool {
    let (x, y) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    x.iter()
        .zip(y.iter())
        .fold(0u8, |acc, (p, q)| acc | (p ^ q))
        == 0
}

async fn identify(state: &AppState, credential: Presented) -> Result<Option<Caller>, BrokerError> {
    match credential {
        Presented::Nothing => Ok(None),
        Presented::Unreadable => Err(BrokerError::BadCredentials),
        Presented::Basic { user, password } => {
            if let Some(account) = state
                .config
                .accounts
                .iter()
                .find(|a| same(&a.username, &user))
            {
                return if same(&account.password, &password) {
                    Ok(Some(Caller {
                        name: user,
                        role: account.role,
                    }))
                } else {
                    Err(BrokerError::BadCredentials)
                };
            }
            let found = lookup_token(state, password).await?;
            match found {
                Some(caller) if caller.name == user => Ok(Some(caller)),
                _ => Err(BrokerError::BadCredentials),
            }
        }
        Presented::Bearer(secret) => lookup_token(state, secret)
            .await?
            .map(Some)
            .ok_or(BrokerError::BadCredentials),
    }
}

async fn lookup_token(state: &AppState, secret: String) -> Result<Option<Caller>, BrokerError> {
    let hash = hash_secret(&secret);
    let token = state
        .run(move |conn| Ok(tokens::find_active_by_hash(conn, &hash)?))
        .await?;
    Ok(token.and_then(|t| Role::parse(&t.role).map(|role| Caller { name: t.name, role })))
}

/// Decides whether the request may proceed.
async fn authorize(state: &AppState, req: &ServiceRequest) -> Result<Option<Caller>, BrokerError> {
    let path = req.path();
    if is_public(path) {
        return Ok(None);
    }
    // badges are meant to be embedded where no credential can go
    if state.config.public_badges && req.method() == Method::GET && path.ends_with("/badge") {
        return Ok(None);
    }
    let needed = required_role(req.method(), path);
    let caller = identify(state, presented(req)).await?;
    if let Some(caller) = caller {
        return if caller.role >= needed {
            Ok(Some(caller))
        } else {
            Err(BrokerError::Forbidden {
                needed: needed.as_str(),
            })
        };
    }
    if needed == Role::Read && state.config.public_read {
        return Ok(None);
    }
    let open = state.config.accounts.is_empty()
        && !state.run(|conn| Ok(tokens::any_active(conn)?)).await?;
    if open {
        Ok(None)
    } else {
        Err(BrokerError::Unauthorized)
    }
}

/// The middleware: authorizes, then runs the handler.
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Err(BrokerError::ShuttingDown.into());
    };
    match authorize(&state, &req).await {
        Ok(caller) => {
            if let Some(caller) = caller {
                req.extensions_mut().insert(caller);
            }
            Ok(next.call(req).await?.map_into_boxed_body())
        }
        Err(e) => Ok(req.error_response(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn for_verification_is_a_read_and_tokens_need_admin() {
        assert_eq!(
            required_role(&Method::POST, "/pacts/provider/Bar/for-verification"),
            Role::Read
        );
        assert_eq!(
            required_role(&Method::POST, "/contracts/publish"),
            Role::Write
        );
        assert_eq!(required_role(&Method::GET, "/tokens"), Role::Admin);
        assert_eq!(required_role(&Method::GET, "/matrix"), Role::Read);
    }

    #[test]
    fn secrets_are_random_and_hashed_to_hex() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert!(a.starts_with("acc_"));
        assert_eq!(hash_secret(&a).len(), 64);
        assert!(same("x", "x") && !same("x", "y"));
    }
}
