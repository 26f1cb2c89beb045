//! What every handler shares: the pool and the configuration.

use std::sync::Arc;

use actix_web::web;
use diesel::Connection;

use crate::config::BrokerConfig;
use crate::db::{AnyConnection, Pool};
use crate::error::BrokerError;
use crate::store::StoreError;

/// Application state, cloned into every worker.
#[derive(Debug, Clone)]
pub struct AppState {
    pub pool: Pool,
    pub config: Arc<BrokerConfig>,
}

impl AppState {
    /// Runs blocking database work off the async executor.
    pub async fn run<T, F>(&self, work: F) -> Result<T, BrokerError>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, BrokerError> + Send + 'static,
    {
        let pool = self.pool.clone();
        web::block(move || {
            let mut conn = pool.get().map_err(StoreError::Pool)?;
            work(&mut conn)
        })
        .await
        .map_err(|_| BrokerError::ShuttingDown)?
    }

    /// Like `run`, inside one transaction: an error rolls everything back,
    /// so a failed request leaves nothing behind.
    pub async fn transaction<T, F>(&self, work: F) -> Result<T, BrokerError>
    where
        T: Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, BrokerError> + Send + 'static,
    {
        self.run(move |conn| {
            conn.transaction(|conn| {
                take_sqlite_write_lock(conn)?;
                work(conn)
            })
        })
        .await
    }
}

/// SQLite starts a transaction deferred: one that reads first and writes
/// later fails at once with SQLITE_BUSY when another writer committed in
/// between (the busy timeout is not consulted for that upgrade). A no-op
/// write as the first statement takes the write lock up front, so
/// concurrent writers queue behind the busy timeout instead of failing.
fn take_sqlite_write_lock(conn: &mut AnyConnection) -> Result<(), BrokerError> {
    use diesel::connection::SimpleConnection;
    if let AnyConnection::Sqlite(c) = conn {
        c.batch_execute("DELETE FROM tokens WHERE 1 = 0")
            .map_err(StoreError::from)?;
    }
    Ok(())
}
