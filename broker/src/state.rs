//! What every handler shares: the pool, the configuration and the cache of
//! parsed contracts.

use std::sync::Arc;

use actix_web::web;

use crate::config::BrokerConfig;
use crate::db::{AnyConnection, Pool, TokenProbe, WriteLock};
use crate::error::BrokerError;
use crate::parsed::{self, ContractCache};
use crate::store::{StoreError, tokens};
use crate::token_cache::TokenCache;

/// Application state, cloned into every worker.
#[derive(Debug, Clone)]
pub struct AppState {
    pub pool: Pool,
    pub config: Arc<BrokerConfig>,
    /// `host:port` the broker listens on: the host of links for a request
    /// that names none (HTTP/1.0 without `Host`).
    pub listening_on: String,
    /// Parsed contracts by content id, for this broker's database
    /// (`parsed`): installed for the work `run` does.
    pub contracts: Arc<ContractCache>,
    /// Live tokens looked up in the last seconds (`token_cache`).
    pub tokens: Arc<TokenCache>,
    /// SQLite's writers queue here, in order (`db::WriteLock`).
    pub writes: WriteLock,
    /// SQLite: whether a token exists, read on the caller's thread
    /// (`db::TokenProbe`); None on PostgreSQL.
    pub token_probe: Option<Arc<TokenProbe>>,
}

impl AppState {
    /// Runs blocking database work off the async executor.
    pub async fn run<T, F>(&self, work: F) -> Result<T, BrokerError>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, BrokerError> + Send + 'static,
    {
        let pool = self.pool.clone();
        let contracts = self.contracts.clone();
        web::block(move || {
            let mut conn = pool.get().map_err(StoreError::Pool)?;
            parsed::with_cache(&contracts, || work(&mut conn))
        })
        .await
        .map_err(|_| BrokerError::ShuttingDown)?
    }

    /// Whether any unrevoked token exists (the broker is then closed),
    /// asked of the database at every call: on SQLite by the probe when it
    /// can answer without waiting, else through the pool.
    pub async fn any_token(&self) -> Result<bool, BrokerError> {
        if let Some(found) = self.token_probe.as_ref().and_then(|p| p.any_active()) {
            return Ok(found);
        }
        self.run(|conn| Ok(tokens::any_active(conn)?)).await
    }

    /// Like `run`, inside one transaction: an error rolls everything back,
    /// so a failed request leaves nothing behind. On SQLite it waits for
    /// its turn to write first (`db::WriteLock`), held until the commit.
    pub async fn transaction<T, F>(&self, work: F) -> Result<T, BrokerError>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, BrokerError> + Send + 'static,
    {
        self.transaction_after(|_| Ok(Err(())), |conn, ()| work(conn))
            .await
    }

    /// `transaction`, after `first` had its try outside it on the same
    /// connection: `Ok(done)` is the answer (`work` does not run), `Err(s)`
    /// hands `s` to `work`, in the transaction. For work a single statement
    /// can sometimes do whole (`publishing::publish_first`).
    pub async fn transaction_after<T, S, P, F>(&self, first: P, work: F) -> Result<T, BrokerError>
    where
        T: Send + 'static,
        S: Send + 'static,
        P: FnOnce(&mut AnyConnection) -> Result<Result<T, S>, BrokerError> + Send + 'static,
        F: FnOnce(&mut AnyConnection, S) -> Result<T, BrokerError> + Send + 'static,
    {
        let turn = self.writes.turn().await;
        self.run(move |conn| {
            let done = match first(conn) {
                Ok(Ok(done)) => Ok(done),
                Ok(Err(then)) => crate::db::write_transaction(conn, |c| work(c, then)),
                Err(failed) => Err(failed),
            };
            drop(turn);
            done
        })
        .await
    }
}
