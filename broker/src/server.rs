//! Starting the broker: pool, migrations, middlewares, routes, listener.

use std::net::SocketAddr;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::middleware::from_fn;
use actix_web::{App, web};

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

/// Binds, then opens the pool and runs migrations; returns before serving.
/// Binding first: a busy port leaves no database file behind. Call it on
/// an actix runtime (`System::block_on`): the webhook delivery worker is
/// spawned on it and stops with it.
pub fn start(config: BrokerConfig) -> Result<RunningBroker, StartError> {
    let listener =
        std::net::TcpListener::bind(&config.bind).map_err(|source| StartError::Bind {
            bind: config.bind.clone(),
            source,
        })?;
    let backend = Backend::of_url(&config.database_url);
    let checkpoints = match backend {
        Backend::Sqlite => db::Checkpoints::Background,
        Backend::Postgres => db::Checkpoints::OnCommit,
    };
    let pool = db::connect_with(&config.database_url, config.pool_size, checkpoints)?;
    let mut conn = pool.get().map_err(StoreError::Pool)?;
    let applied = db::run_migrations(&mut conn)?;
    let open = config.accounts.is_empty() && !tokens::any_active(&mut conn)?;
    drop(conn);
    tracing::info!(
        backend = backend.name(),
        migrations = applied.len(),
        "database ready"
    );
    let addr = listener.local_addr().map_err(|source| StartError::Bind {
        bind: config.bind.clone(),
        source,
    })?;
    let state = AppState {
        pool,
        config: Arc::new(config.clone()),
        listening_on: addr.to_string(),
        contracts: Arc::default(),
        tokens: Arc::new(crate::token_cache::TokenCache::new(config.token_cache_ttl)),
        writes: db::WriteLock::for_backend(backend),
        token_probe: (backend == Backend::Sqlite)
            .then(|| Arc::new(db::TokenProbe::new(db::sqlite_path(&config.database_url)))),
    };
    crate::webhooks::worker::spawn(state.pool.clone(), state.config.clone());
    crate::webhooks::retention::spawn(state.pool.clone(), state.config.clone());
    crate::evidence::sweep::spawn(state.pool.clone(), state.config.clone());
    if backend == Backend::Sqlite
        && let Some(checkpointer) =
            db::checkpoint::Checkpointer::new(state.pool.clone(), config.sqlite_checkpoints)?
    {
        db::checkpoint::spawn(checkpointer, state.writes.clone());
    }
    let factory = move || connection(state.clone(), addr);
    let mut builder = actix_server::Server::build().disable_signals();
    if let Some(workers) = config.workers {
        builder = builder.workers(workers);
    }
    let server = builder
        .listen("accord", listener, factory)
        .map_err(|source| StartError::Bind {
            bind: config.bind.clone(),
            source,
        })?
        .run();
    Ok(RunningBroker {
        addr,
        backend,
        open,
        server,
    })
}

/// The application: every route and middleware.
fn app(
    state: AppState,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let body_limit = state.config.body_limit;
    App::new()
        .app_data(web::Data::new(state))
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
        .wrap(from_fn(crate::negotiate::middleware))
        .wrap(from_fn(crate::limits::middleware))
        .wrap(from_fn(access_log))
}

/// One line per request at info level: method, path, status and duration —
/// never a header, a query or a body (they may carry credentials).
async fn access_log(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let start = std::time::Instant::now();
    let method = req.method().clone();
    let path = req.path().to_owned();
    let answered = next.call(req).await;
    let status = match &answered {
        Ok(r) => r.status().as_u16(),
        Err(e) => e.as_response_error().status_code().as_u16(),
    };
    let ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    tracing::info!(%method, path = %path, status, ms, "request");
    answered
}

/// What serves one accepted connection: the socket wrapped so that
/// actix-http's own error answers leave as problems (`wire::ProblemIo`),
/// then HTTP/1.1 as `HttpServer` would set it up. A head must arrive within
/// the head timeout (408, closed); a connection closed after an early
/// answer lingers at most a second.
fn connection(
    state: AppState,
    addr: std::net::SocketAddr,
) -> impl actix_web::dev::ServiceFactory<
    actix_web::rt::net::TcpStream,
    Config = (),
    Response = (),
    Error = actix_http::error::DispatchError,
    InitError = (),
> {
    use actix_service::{IntoServiceFactory, ServiceFactoryExt, map_config};
    let head_timeout = state.config.head_timeout;
    let app = app(state)
        .into_factory()
        .map_err(|e: actix_web::Error| e.error_response());
    let http = actix_http::HttpService::build()
        .keep_alive(actix_http::KeepAlive::Timeout(
            std::time::Duration::from_secs(5),
        ))
        .client_request_timeout(head_timeout)
        .client_disconnect_timeout(std::time::Duration::from_secs(1))
        .local_addr(addr)
        .finish(map_config(app, |_| actix_web::dev::AppConfig::default()));
    actix_web::dev::fn_service(|io: actix_web::rt::net::TcpStream| async move {
        let _ = io.set_nodelay(true);
        let peer = io.peer_addr().ok();
        Ok((
            crate::wire::ProblemIo::new(io),
            actix_http::Protocol::Http1,
            peer,
        ))
    })
    .and_then(http)
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
