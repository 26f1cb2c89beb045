//! How many of the mock's workers still hold its app, so that dropping a
//! mock waits until none can answer.
//!
//! actix's non-graceful stop returns once the listener is closed, without
//! waiting for its workers (threads of their own): for a moment after
//! `MockServer` was dropped, a worker could still answer on a kept-alive
//! connection — the old contract answering a client that already talks to
//! the next mock on the same port. Each worker's app holds an [`Alive`];
//! the app, and every connection it serves, keep it until the worker has
//! let go of them all.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// The count of workers holding the app.
#[derive(Debug, Default)]
pub(crate) struct Live {
    count: Mutex<usize>,
    gone: Condvar,
}

/// One worker's hold on the app: counted while it lives.
#[derive(Debug)]
pub(crate) struct Alive(Arc<Live>);

impl Alive {
    pub(crate) fn new(live: &Arc<Live>) -> Alive {
        *live.count.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        Alive(live.clone())
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        let mut count = self.0.count.lock().unwrap_or_else(PoisonError::into_inner);
        *count = count.saturating_sub(1);
        if *count == 0 {
            self.0.gone.notify_all();
        }
    }
}

impl Live {
    /// Waits until no worker holds the app, at most `limit`; true when
    /// none does.
    pub(crate) fn wait_gone(&self, limit: Duration) -> bool {
        let count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        let (count, _) = self
            .gone
            .wait_timeout_while(count, limit, |n| *n > 0)
            .unwrap_or_else(PoisonError::into_inner);
        *count == 0
    }

    /// How many workers hold the app now.
    #[cfg(test)]
    pub(crate) fn holding(&self) -> usize {
        *self.count.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_for_every_hold_to_go() {
        let live = Arc::new(Live::default());
        assert!(live.wait_gone(Duration::ZERO), "none held yet");
        let (a, b) = (Alive::new(&live), Alive::new(&live));
        assert_eq!(live.holding(), 2);
        assert!(!live.wait_gone(Duration::from_millis(10)), "two held");
        drop(a);
        let waiter = {
            let live = live.clone();
            std::thread::spawn(move || live.wait_gone(Duration::from_secs(10)))
        };
        std::thread::sleep(Duration::from_millis(20));
        drop(b);
        assert!(waiter.join().expect("waiter"), "woken when the last went");
        assert_eq!(live.holding(), 0);
    }
}
