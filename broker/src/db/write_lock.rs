//! One SQLite writer at a time, in the order they asked.
//!
//! SQLite lets one connection write at a time; the others wait in its busy
//! handler, which sleeps and retries (1, 2, 5, 10, 15, 20, 25, 25, 25, 50,
//! 50, 100 ms, …) instead of queueing: a writer that starts waiting just
//! after the lock was taken may sleep 5 ms for a transaction of 0.3 ms, and
//! one that came later may get the lock first. With 8 publishers at once
//! that made the tail (p99 55 ms behind the checkpointer's `TRUNCATE`)
//! and left the lock idle between sleepers.
//!
//! Every write transaction of a serving broker (`AppState::transaction`)
//! and the checkpointer's `TRUNCATE` take this lock first, on the async
//! side, before they borrow a connection: writers of this process queue
//! FIFO (tokio's mutex is fair) without holding a pool connection or a
//! blocking thread while they wait, and `BEGIN IMMEDIATE` then finds the
//! database lock free unless another process holds it (a CLI command,
//! another replica), which the busy handler still waits out. Reads take
//! no lock: WAL readers never wait for the writer. PostgreSQL has row
//! locks and many writers; it takes none.

use std::sync::Arc;

use tokio::sync::{Mutex, OwnedMutexGuard};

use super::Backend;

/// The lock a SQLite broker's writers take, or none (PostgreSQL).
#[derive(Debug, Clone, Default)]
pub struct WriteLock(Option<Arc<Mutex<()>>>);

/// Held while writing; dropping it lets the next writer in.
#[derive(Debug)]
pub struct WriteTurn(#[allow(dead_code)] Option<OwnedMutexGuard<()>>);

impl WriteLock {
    /// A lock for SQLite, none for PostgreSQL.
    pub fn for_backend(backend: Backend) -> Self {
        match backend {
            Backend::Sqlite => WriteLock(Some(Arc::default())),
            Backend::Postgres => WriteLock(None),
        }
    }

    /// Waits for this writer's turn (at once without a lock).
    pub async fn turn(&self) -> WriteTurn {
        match &self.0 {
            Some(lock) => WriteTurn(Some(lock.clone().lock_owned().await)),
            None => WriteTurn(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn writers_get_their_turn_in_the_order_they_asked() {
        let lock = WriteLock::for_backend(Backend::Sqlite);
        let first = lock.turn().await;
        let order = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (asking, mut asked) = tokio::sync::mpsc::unbounded_channel();
        let mut waiting = Vec::new();
        for i in 0..5 {
            let (lock, order, asking) = (lock.clone(), order.clone(), asking.clone());
            waiting.push(tokio::spawn(async move {
                let turn = lock.turn();
                asking.send(i).expect("send");
                // the first poll of `turn` queues this writer, in the same
                // poll as the send: writer i is queued before i + 1 asks
                let _turn = turn.await;
                order.lock().expect("order").push(i);
            }));
            assert_eq!(asked.recv().await, Some(i));
        }
        drop(first);
        for w in waiting {
            w.await.expect("writer");
        }
        assert_eq!(*order.lock().expect("order"), vec![0, 1, 2, 3, 4]);
    }

    #[tokio::test]
    async fn a_second_writer_waits_until_the_first_is_done() {
        let lock = WriteLock::for_backend(Backend::Sqlite);
        let first = lock.turn().await;
        let second = tokio::spawn({
            let lock = lock.clone();
            async move { lock.turn().await }
        });
        for _ in 0..100 {
            tokio::task::yield_now().await;
        }
        assert!(!second.is_finished(), "the second writer went in");
        drop(first);
        second.await.expect("second writer");
    }

    #[tokio::test]
    async fn postgres_writers_do_not_queue() {
        let lock = WriteLock::for_backend(Backend::Postgres);
        let _first = lock.turn().await;
        let _second = lock.turn().await;
    }
}
