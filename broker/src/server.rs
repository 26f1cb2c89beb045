//! Starting the broker: pool, migrations, middlewares, routes, listener.

use std::net::SocketAddr;
use std::sync::Arc;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Server, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::{Next, from_fn};
use actix_web::{App, HttpServer, ResponseError, web};

use crate::config::BrokerConfig;
use crate::db::{self, Backend};
use crate::error::{BrokerError, PROBLEM_JSON};
use crate::routes;
use crate::state::AppState;
use crate::store::{StoreError, tokens};

/// Why the broker could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot listen on {bind}")]
    Bind {
        bind: String,
        #[source]
        source: std::io::Error,
    },
}

/// A broker that is listening.
pub struct RunningBroker {
    /// The address it listens on (the real port when 0 was asked for).
    pub addr: SocketAddr,
    /// Which database it talks to.
    pub backend: Backend,
    /// True when no token and no account exists: anyone may write.
    pub open: bool,
    /// Await it to serve; its handle stops it.
    pub server: Server,
}

impl std::fmt::Debug for RunningBroker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningBroker")
            .field("addr", &self.addr)
            .field("backend", &self.backend)
            .field("open", &self.open)
            .finish_non_exhaustive()
    }
}

/// Opens the pool, runs migrations and binds; returns before serving.
pub fn start(config: BrokerConfig) -> Result<RunningBroker, StartError> {
    let pool = db::connect(&config.database_url, config.pool_size)?;
    let mut conn = pool.get().map_err(StoreError::Pool)?;
    let applied = db::run_migrations(&mut conn)?;
    let open = config.accounts.is_empty() && !tokens::any_active(&mut conn)?;
    drop(conn);
    let backend = Backend::of_url(&config.database_url);
    tracing::info!(
        backend = backend.name(),
        migrations = applied.len(),
        "database ready"
    );
    let state = AppState {
        pool,
        config: Arc::new(config.clone()),
    };
    let body_limit = config.body_limit;
    let mut http = HttpServer::new(move || {
        App::new()
            .app_data(web::Data::new(state.clone()))
            .app_data(web::PayloadConfig::new(body_limit))
            .configure(routes::configure)
            .default_service(web::to(|| async {
                Err::<actix_web::HttpResponse, _>(BrokerError::not_found("This resource"))
            }))
            .wrap(from_fn(crate::auth::middleware))
            .wrap(from_fn(negotiate))
            .wrap(from_fn(limit_body))
    });
    if let Some(workers) = config.workers {
        http = http.workers(workers);
    }
    let http = http.bind(&config.bind).map_err(|source| StartError::Bind {
        bind: config.bind.clone(),
        source,
    })?;
    let addr = http
        .addrs()
        .first()
        .copied()
        .ok_or_else(|| StartError::Bind {
            bind: config.bind.clone(),
            source: std::io::Error::other("no address bound"),
        })?;
    Ok(RunningBroker {
        addr,
        backend,
        open,
        server: http.disable_signals().run(),
    })
}

/// Refuses a body whose declared length is over the limit before reading it.
async fn limit_body(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let limit = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.config.body_limit)
        .unwrap_or(crate::config::DEFAULT_BODY_LIMIT);
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|len| len > limit) {
        return Ok(req.error_response(BrokerError::PayloadTooLarge { limit }));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// Every error leaves as problem+json (also actix's own 404 and 413), with
/// the `instance` it happened on; clients that accept JSON but not
/// problem+json (the Pact CLIs) get the same body labelled `application/json`.
async fn negotiate(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let accept = req
        .headers()
        .get_all(header::ACCEPT)
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join(",");
    let wants_problem = accept.contains(PROBLEM_JSON);
    let wants_json = accept.contains("json");
    let limit = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.config.body_limit)
        .unwrap_or(crate::config::DEFAULT_BODY_LIMIT);
    let res = next.call(req).await?.map_into_boxed_body();
    let status = res.status();
    if !status.is_client_error() && !status.is_server_error() {
        return Ok(res);
    }
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    let mut res = if is_problem {
        res
    } else {
        let error = match status.as_u16() {
            404 => BrokerError::not_found("This resource"),
            413 => BrokerError::PayloadTooLarge { limit },
            _ => return Ok(res),
        };
        let (req, _) = res.into_parts();
        ServiceResponse::new(req, error.error_response())
    };
    if !wants_problem && wants_json {
        res.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
    }
    Ok(res)
}
