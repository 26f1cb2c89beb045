//! Starting the broker: pool, migrations, middlewares, routes, listener.

use std::net::SocketAddr;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::middleware::from_fn;
use actix_web::{App, HttpServer, web};

use crate::config::BrokerConfig;
use crate::db::{self, Backend};
use crate::error::BrokerError;
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
            .app_data(web::QueryConfig::default().error_handler(|e, _| bad_query(e).into()))
            .app_data(web::PathConfig::default().error_handler(|e, _| bad_path(e).into()))
            .configure(routes::configure)
            .default_service(web::to(|| async {
                Err::<actix_web::HttpResponse, _>(BrokerError::not_found("This resource"))
            }))
            // the last `wrap` is the outermost: the body limits apply before
            // anything reads the request and present their own answers;
            // negotiate sees every other answer
            .wrap(from_fn(crate::edge::middleware))
            .wrap(from_fn(crate::auth::middleware))
            .wrap(from_fn(crate::negotiate::middleware))
            .wrap(from_fn(crate::limits::middleware))
    });
    // a head must arrive within the head timeout (actix answers 408 and
    // closes); a connection closed after an early answer lingers at most a second
    http = http
        .client_request_timeout(config.head_timeout)
        .client_disconnect_timeout(std::time::Duration::from_secs(1));
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

/// actix's typed query extractor refused the query string (a repeated or
/// wrongly typed parameter): a 400 through the one error mapping point.
fn bad_query(e: actix_web::error::QueryPayloadError) -> BrokerError {
    BrokerError::bad_field("query", e.to_string())
}

/// actix's path extractor refused a segment.
fn bad_path(e: actix_web::error::PathError) -> BrokerError {
    BrokerError::bad_field("path", e.to_string())
}
