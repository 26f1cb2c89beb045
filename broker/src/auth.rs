//! Access control. Until the first token is created (and no Basic account
//! is configured) the broker is open, as the Pact Broker is; after that,
//! reads need the read role (unless `--public-read`), writes need write, and
//! `/tokens` needs admin. Bearer tokens and HTTP Basic both work: Basic is a
//! configured account, or a token's name as user and its secret as password.
//!
//! What a route needs is a column of the route table ([`Access`]), and the
//! check is wrapped around each route's handler when it is mounted: it runs
//! for the route actix matched on the path it decoded, so `/%74okens` needs
//! what `/tokens` needs. A request no route matches reaches no handler (a
//! 404 with nothing in it).
//!
//! 401 means "who are you?" (nothing usable presented); 403 means "you may
//! not" (a valid identity without the role). Secrets never reach a log.

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{AUTHORIZATION, CONTENT_TYPE};
use actix_web::middleware::Next;
use actix_web::web;
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::tokens;

/// The response header of the index (`GET /`) naming the role of the
/// credential the request presented (`read`, `write` or `admin`); absent
/// when none was presented. Accord's CLI reads it to refuse, before any
/// work, a run whose results the credential could not publish.
pub const ROLE_HEADER: &str = "x-accord-role";

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

/// Who may call a route: a column of the route table (`routes.rs`), so
/// the access checked is always the one of the route actix dispatches to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone: the heartbeat, and the pages' stylesheet and icon (an error
    /// page asking for credentials needs them).
    Public,
    /// A badge: anyone with `--public-badges`, otherwise a read.
    Badge,
    /// The read role (or anyone with `--public-read`). `for-verification`
    /// is a read although it is a POST, as in the Pact Broker.
    Read,
    /// The write role.
    Write,
    /// The admin role: token management.
    Admin,
}

impl Access {
    /// The role a caller needs, or `None` when no credential is needed.
    fn needed(self, config: &crate::config::BrokerConfig) -> Option<Role> {
        match self {
            Access::Public => None,
            Access::Badge if config.public_badges => None,
            Access::Badge | Access::Read => Some(Role::Read),
            Access::Write => Some(Role::Write),
            Access::Admin => Some(Role::Admin),
        }
    }
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

/// The caller a Basic pair names. The same work is done whatever the name:
/// every configured account is compared (name and password, no early
/// exit) and the token store is asked once, so the time of an answer does
/// not tell whether a user name exists.
async fn identify_basic(
    state: &AppState,
    user: String,
    password: String,
) -> Result<Option<Caller>, BrokerError> {
    let mut account_role = None;
    for account in &state.config.accounts {
        let name_ok = same(&account.username, &user);
        let password_ok = same(&account.password, &password);
        if name_ok & password_ok {
            account_role = Some(account.role);
        }
    }
    let token = lookup_token(state, password).await?;
    let token = token.filter(|caller| same(&caller.name, &user));
    match (account_role, token) {
        (Some(role), _) => Ok(Some(Caller { name: user, role })),
        (None, Some(caller)) => Ok(Some(caller)),
        (None, None) => Err(BrokerError::BadCredentials),
    }
}

async fn identify(state: &AppState, credential: Presented) -> Result<Option<Caller>, BrokerError> {
    match credential {
        Presented::Nothing => Ok(None),
        Presented::Unreadable => Err(BrokerError::BadCredentials),
        Presented::Basic { user, password } => identify_basic(state, user, password).await,
        Presented::Bearer(secret) => lookup_token(state, secret)
            .await?
            .map(Some)
            .ok_or(BrokerError::BadCredentials),
    }
}

/// The live token's caller: remembered for a few seconds (`token_cache`),
/// else looked up.
async fn lookup_token(state: &AppState, secret: String) -> Result<Option<Caller>, BrokerError> {
    let hash = hash_secret(&secret);
    if let Some(caller) = state.tokens.get(&hash) {
        return Ok(Some(caller));
    }
    let key = hash.clone();
    let token = state
        .run(move |conn| Ok(tokens::find_active_by_hash(conn, &key)?))
        .await?;
    let caller = token.and_then(|t| Role::parse(&t.role).map(|role| Caller { name: t.name, role }));
    if let Some(caller) = &caller {
        state.tokens.put(hash, caller.clone());
    }
    Ok(caller)
}

/// Decides whether a request for a route with `access` may proceed.
async fn authorize(
    state: &AppState,
    access: Access,
    req: &ServiceRequest,
) -> Result<Option<Caller>, BrokerError> {
    let Some(needed) = access.needed(&state.config) else {
        return Ok(None);
    };
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
    let open = state.config.accounts.is_empty() && !state.any_token().await?;
    if open {
        Ok(None)
    } else {
        Err(BrokerError::Unauthorized)
    }
}

/// A POST must say its body is JSON. A cross-site HTML form (or a
/// `no-cors` fetch) can POST only `application/x-www-form-urlencoded`,
/// `multipart/form-data` or `text/plain`, so with credentials a browser
/// holds (Basic) it cannot reach a route that records a deployment or
/// creates a token. PUT, PATCH and DELETE cannot be sent cross-site at all
/// without a CORS pre-flight, which the broker never grants.
fn cross_site_safe(req: &ServiceRequest) -> Result<(), BrokerError> {
    if req.method() != Method::POST {
        return Ok(());
    }
    let declared = req
        .headers()
        .get(CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let essence = declared
        .as_deref()
        .and_then(|t| t.split(';').next())
        .map(|t| t.trim().to_ascii_lowercase());
    match essence {
        Some(e) if is_json_type(&e) => Ok(()),
        _ => Err(BrokerError::UnsupportedMediaType {
            got: declared.unwrap_or_else(|| "(none)".into()),
            expected: "application/json",
        }),
    }
}

/// `application/json` and its structured-syntax relatives (`…+json`).
pub fn is_json_type(essence: &str) -> bool {
    essence == "application/json"
        || essence
            .strip_prefix("application/")
            .is_some_and(|sub| sub.ends_with("+json"))
}

/// The access check around each route (mounted by `routes::configure`):
/// authorizes for the route's `access`, refuses a POST that a cross-site
/// form could send, then runs the handler.
pub async fn guard(
    access: Access,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Err(BrokerError::ShuttingDown.into());
    };
    let decided = match authorize(&state, access, &req).await {
        Ok(caller) => cross_site_safe(&req).map(|()| caller),
        Err(e) => Err(e),
    };
    match decided {
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
    fn json_types_are_recognised_and_form_types_are_not() {
        for t in [
            "application/json",
            "application/hal+json",
            "application/merge-patch+json",
        ] {
            assert!(is_json_type(t), "{t}");
        }
        for t in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "application/jsonx",
            "+json",
        ] {
            assert!(!is_json_type(t), "{t}");
        }
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
