//! What `accord serve` is told: database, address, limits, access,
//! what webhooks may reach.

use crate::auth::Role;

/// Default request body limit (10 MiB).
pub const DEFAULT_BODY_LIMIT: usize = 10 * 1024 * 1024;

/// Default time a request body has to arrive whole.
pub const DEFAULT_BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Default time a client has to send the request head.
pub const DEFAULT_HEAD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// The broker's configuration; everything another replica needs is in the
/// database, so two processes with the same config serve the same data.
#[derive(Debug, Clone)]
pub struct BrokerConfig {
    /// `postgres://…` for PostgreSQL, anything else is a SQLite file.
    pub database_url: String,
    /// Address to listen on (`127.0.0.1:9292`; port 0 picks a free one).
    pub bind: String,
    /// Absolute URL links start with; default: the request's scheme and host.
    pub base_url: Option<String>,
    /// Largest accepted request body, in bytes.
    pub body_limit: usize,
    /// How long a request body may take to arrive (then 408, connection closed).
    pub body_timeout: std::time::Duration,
    /// How long the request line and headers may take to arrive.
    pub head_timeout: std::time::Duration,
    /// Let anonymous clients read even when tokens or accounts exist.
    pub public_read: bool,
    /// Let anonymous clients read badges (`GET …/badge`) even when tokens
    /// or accounts exist, as the Pact Broker's public badge access does.
    pub public_badges: bool,
    /// HTTP Basic accounts (the Pact Broker's read/write and read-only users).
    pub accounts: Vec<BasicAccount>,
    /// Database connections in the pool.
    pub pool_size: u32,
    /// HTTP worker threads (default: the number of cores).
    pub workers: Option<usize>,
    /// What webhook requests may reach (schemes, hosts, methods, timeouts).
    pub webhook_policy: crate::webhooks::outbound::Policy,
    /// The waits between webhook delivery attempts (the Pact Broker's:
    /// 10, 60, 120, 300, 600, 1200 s, so 7 attempts in all).
    pub webhook_retry_schedule: Vec<std::time::Duration>,
    /// How long a worker owns a delivery it claimed; a broker that dies
    /// mid-delivery leaves it to be claimed again once this ran out.
    pub webhook_lease: std::time::Duration,
    /// How often an idle worker looks for due deliveries.
    pub webhook_poll: std::time::Duration,
    /// How often the admission evidence sweep looks for expired evidence.
    pub evidence_sweep: std::time::Duration,
    /// How long settled triggered webhooks (with their logs) and consumed
    /// webhook events are kept (`--webhook-retention-days`, default 30).
    pub webhook_retention: std::time::Duration,
    /// How often the webhook retention sweep runs (10 min; tests use less).
    pub webhook_sweep: std::time::Duration,
    /// How long a live token's lookup is remembered (5 s; zero: never):
    /// a token revoked elsewhere stops working here within this time
    /// (`token_cache`).
    pub token_cache_ttl: std::time::Duration,
    /// When a SQLite broker checkpoints its WAL, off the request path
    /// (`db::checkpoint`; every 100 ms, restarted past 64 MiB).
    pub sqlite_checkpoints: crate::db::CheckpointPolicy,
}

impl BrokerConfig {
    /// Defaults for `database_url` (used by tests and `accord serve`).
    pub fn new(database_url: impl Into<String>) -> Self {
        BrokerConfig {
            database_url: database_url.into(),
            bind: "127.0.0.1:9292".into(),
            base_url: None,
            body_limit: DEFAULT_BODY_LIMIT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            head_timeout: DEFAULT_HEAD_TIMEOUT,
            public_read: false,
            public_badges: false,
            accounts: Vec::new(),
            pool_size: 8,
            workers: None,
            webhook_policy: crate::webhooks::outbound::Policy::default(),
            webhook_retry_schedule: crate::webhooks::worker::default_schedule(),
            webhook_lease: std::time::Duration::from_secs(60),
            webhook_poll: std::time::Duration::from_millis(250),
            evidence_sweep: std::time::Duration::from_secs(60),
            webhook_retention: std::time::Duration::from_secs(30 * 24 * 3600),
            webhook_sweep: std::time::Duration::from_secs(600),
            token_cache_ttl: std::time::Duration::from_secs(5),
            sqlite_checkpoints: crate::db::CheckpointPolicy::default(),
        }
    }
}

/// A configured HTTP Basic user.
#[derive(Clone)]
pub struct BasicAccount {
    pub username: String,
    pub password: String,
    pub role: Role,
}

impl std::fmt::Debug for BasicAccount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // never print the password
        f.debug_struct("BasicAccount")
            .field("username", &self.username)
            .field("role", &self.role)
            .finish_non_exhaustive()
    }
}
