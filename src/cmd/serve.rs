//! `accord serve`: run the broker.

use accord_broker::BrokerConfig;
use accord_broker::auth::Role;
use accord_broker::config::{BasicAccount, DEFAULT_BODY_LIMIT};
use accord_broker::webhooks::outbound::Policy;
use anyhow::Context;
use clap::Args;

use super::Outcome;

/// Default database: an SQLite file in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "accord.db";

/// Run the contract broker (Pact Broker HTTP API) on SQLite or PostgreSQL.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:9292")]
    bind: String,
    /// Database: a SQLite file name (default `accord.db`) or a postgres:// URL.
    // (`--help` does not print the variable's value: it may hold a password)
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true)]
    database_url: String,
    /// Absolute URL links start with (behind a proxy); default: the request's host.
    #[arg(long, env = "ACCORD_BASE_URL")]
    base_url: Option<String>,
    /// Largest request body accepted, in bytes.
    #[arg(long, default_value_t = DEFAULT_BODY_LIMIT)]
    body_limit: usize,
    /// Seconds a request body may take to arrive whole (then 408 and the
    /// connection is closed); bounds what a slow or stalled client holds.
    #[arg(long, value_name = "SECONDS", default_value_t = accord_broker::config::DEFAULT_BODY_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..=3600))]
    body_timeout: u64,
    /// Let clients without credentials read even when tokens or accounts exist.
    #[arg(long)]
    public_read: bool,
    /// Let clients without credentials read badges (`GET …/badge`), so they can be
    /// embedded, while the rest of the broker needs a credential.
    #[arg(long)]
    public_badges: bool,
    /// HTTP Basic user with the write role (Pact's --broker-username), as USER:PASSWORD.
    #[arg(
        long,
        env = "ACCORD_BASIC_AUTH",
        value_name = "USER:PASSWORD",
        hide_env_values = true
    )]
    basic_auth: Option<String>,
    /// HTTP Basic user with the read role, as USER:PASSWORD.
    #[arg(
        long,
        env = "ACCORD_BASIC_AUTH_READ_ONLY",
        value_name = "USER:PASSWORD",
        hide_env_values = true
    )]
    basic_auth_read_only: Option<String>,
    /// Most database connections in the pool (SQLite: at most 8); one is opened at
    /// start, the others when concurrent requests need them.
    #[arg(long, default_value_t = 8)]
    pool_size: u32,
    /// HTTP worker threads (default: one per core). Each holds its own copy of the
    /// routes, about 1 MB; fewer workers use less memory, more serve more requests
    /// at once.
    #[arg(long, env = "ACCORD_WORKERS", value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    workers: Option<u16>,
    /// URL scheme webhooks may use: `https` (the default) or `http`. Repeat the flag
    /// or give a comma list.
    #[arg(
        long,
        env = "ACCORD_WEBHOOK_SCHEME_ALLOWLIST",
        value_name = "SCHEME",
        value_delimiter = ','
    )]
    webhook_scheme_allowlist: Vec<String>,
    /// Host webhooks may reach: a name, a `*.example.com` wildcard (subdomains), an IP
    /// address or a CIDR (`10.0.0.0/8`). Without one, any public address; loopback,
    /// private, link-local and other special addresses only when listed here. Repeat the
    /// flag or give a comma list.
    #[arg(
        long,
        env = "ACCORD_WEBHOOK_HOST_ALLOWLIST",
        value_name = "HOST",
        value_delimiter = ','
    )]
    webhook_host_allowlist: Vec<String>,
    /// HTTP method webhooks may use (default `POST`). Repeat the flag or give a comma list.
    #[arg(
        long,
        env = "ACCORD_WEBHOOK_METHOD_ALLOWLIST",
        value_name = "METHOD",
        value_delimiter = ','
    )]
    webhook_method_allowlist: Vec<String>,
    /// Seconds a broker owns a webhook delivery it started: if it dies mid-delivery
    /// (crash, kill -9), another broker (or this one restarted) sends it again once this
    /// ran out, so delivery is at least once. Keep it above the webhook timeout (10 s).
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86400))]
    webhook_lease: u64,
    /// PEM file of a CA certificate (one or a bundle) that webhook receivers' TLS
    /// certificates may chain to, beside the system's roots: for receivers behind an
    /// internal CA. Repeat the flag for several files (the variable takes a comma list).
    /// A file that cannot be read or holds no certificate stops the broker at start.
    #[arg(
        long,
        env = "ACCORD_WEBHOOK_CA_FILE",
        value_name = "PEM",
        value_delimiter = ','
    )]
    webhook_ca_file: Vec<std::path::PathBuf>,
    /// Days settled webhook deliveries (triggered webhooks with their attempt logs) and
    /// fanned-out webhook events are kept; a sweep deletes older ones (never one still
    /// waiting for a retry).
    #[arg(long, env = "ACCORD_WEBHOOK_RETENTION_DAYS", value_name = "DAYS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3650))]
    webhook_retention_days: u64,
}

fn account(text: &str, role: Role, flag: &str) -> anyhow::Result<BasicAccount> {
    let (user, password) = text
        .split_once(':')
        .filter(|(u, p)| !u.is_empty() && !p.is_empty())
        .with_context(|| format!("{flag} must be USER:PASSWORD"))?;
    Ok(BasicAccount {
        username: user.to_owned(),
        password: password.to_owned(),
        role,
    })
}

impl ServeArgs {
    fn config(self) -> anyhow::Result<BrokerConfig> {
        let mut config = BrokerConfig::new(self.database_url);
        config.bind = self.bind;
        config.base_url = self.base_url;
        config.body_limit = self.body_limit;
        config.body_timeout = std::time::Duration::from_secs(self.body_timeout);
        config.public_read = self.public_read;
        config.public_badges = self.public_badges;
        config.pool_size = self.pool_size;
        config.workers = self.workers.map(usize::from);
        config.webhook_policy = Policy::from_lists(
            &self.webhook_scheme_allowlist,
            &self.webhook_host_allowlist,
            &self.webhook_method_allowlist,
        )
        .and_then(|policy| policy.with_ca_files(&self.webhook_ca_file))
        .map_err(anyhow::Error::msg)?;
        config.webhook_retention =
            std::time::Duration::from_secs(self.webhook_retention_days * 24 * 3600);
        config.webhook_lease = std::time::Duration::from_secs(self.webhook_lease);
        if let Some(a) = &self.basic_auth {
            config
                .accounts
                .push(account(a, Role::Write, "--basic-auth")?);
        }
        if let Some(a) = &self.basic_auth_read_only {
            config
                .accounts
                .push(account(a, Role::Read, "--basic-auth-read-only")?);
        }
        Ok(config)
    }
}

/// Serves until interrupted.
pub fn run(args: ServeArgs) -> anyhow::Result<Outcome> {
    init_logging();
    let config = args.config()?;
    let webhooks = config.webhook_policy.describe();
    actix_web::rt::System::new().block_on(async move {
        let running = accord_broker::start(config).context("cannot start the broker")?;
        if running.open {
            tracing::warn!(
                "no token or account exists: the broker is open to anyone who can reach it; \
                 create one with `accord token create --role write --name ci`"
            );
        }
        println!(
            "accord broker listening on http://{} ({})",
            running.addr,
            running.backend.name()
        );
        // a log line each (stdout's first line is the address, which
        // scripts read before they may close the pipe)
        for line in webhooks.lines() {
            tracing::info!("{line}");
        }
        let handle = running.server.handle();
        actix_web::rt::spawn(async move {
            let signal = shutdown_signal().await;
            tracing::info!(signal, "stopping: finishing the requests in flight");
            handle.stop(true).await;
        });
        running
            .server
            .await
            .context("the broker stopped with an error")?;
        tracing::info!("accord broker stopped");
        Ok(Outcome::Pass)
    })
}

/// Waits for Ctrl-C (SIGINT) or, on Unix, SIGTERM (what `docker stop`,
/// systemd and Kubernetes send): either stops the broker gracefully. A
/// signal that cannot be listened for never comes.
pub(crate) async fn shutdown_signal() -> &'static str {
    let interrupt = async {
        match actix_web::rt::signal::ctrl_c().await {
            Ok(()) => "SIGINT",
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            return tokio::select! {
                got = interrupt => got,
                _ = term.recv() => "SIGTERM",
            };
        }
    }
    interrupt.await
}

/// Log lines to stderr, `RUST_LOG` filtering (default info).
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // colours only on a terminal: logs piped to a file or CI stay plain
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}
