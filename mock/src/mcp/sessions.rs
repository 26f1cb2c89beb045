//! The legacy transport's sessions: an `Mcp-Session-Id` per `initialize`
//! and the protocol version it negotiated, until `DELETE` ends it.
//! Bounded: past [`MAX`] sessions the oldest is forgotten (a client that
//! initializes in a loop cannot grow the mock without end).

use std::sync::Mutex;

use indexmap::IndexMap;
use rand::Rng;

/// The most sessions kept at once.
pub(super) const MAX: usize = 10_000;

/// One session: the protocol version it negotiated and the log level its
/// client set (`logging/setLevel`, as a severity).
#[derive(Debug)]
struct Session {
    version: String,
    log_level: Option<usize>,
}

/// Session id → its session.
#[derive(Debug, Default)]
pub(super) struct Sessions {
    open: Mutex<IndexMap<String, Session>>,
}

impl Sessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, IndexMap<String, Session>> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new session for `version`: its id (32 hex digits, as the Python
    /// SDK issues them).
    pub(super) fn open(&self, version: &str) -> String {
        let id = format!("{:032x}", rand::rng().random::<u128>());
        let mut open = self.lock();
        if open.len() >= MAX {
            open.shift_remove_index(0);
        }
        let session = Session {
            version: version.to_owned(),
            log_level: None,
        };
        open.insert(id.clone(), session);
        id
    }

    /// The version session `id` negotiated, if it is open.
    pub(super) fn version(&self, id: &str) -> Option<String> {
        self.lock().get(id).map(|s| s.version.clone())
    }

    /// Sets session `id`'s log level (a severity), if it is open.
    pub(super) fn set_level(&self, id: &str, severity: usize) {
        if let Some(s) = self.lock().get_mut(id) {
            s.log_level = Some(severity);
        }
    }

    /// The log level session `id`'s client set, if any.
    pub(super) fn level(&self, id: &str) -> Option<usize> {
        self.lock().get(id).and_then(|s| s.log_level)
    }

    /// Ends session `id`; whether it was open.
    pub(super) fn close(&self, id: &str) -> bool {
        self.lock().shift_remove(id).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_lives_until_it_is_closed() {
        let s = Sessions::default();
        let id = s.open("2025-11-25");
        assert_eq!(id.len(), 32);
        assert_eq!(s.version(&id).as_deref(), Some("2025-11-25"));
        assert!(s.close(&id));
        assert_eq!(s.version(&id), None);
        assert!(!s.close(&id));
    }

    #[test]
    fn past_the_bound_the_oldest_session_is_forgotten() {
        let s = Sessions::default();
        let first = s.open("2025-11-25");
        for _ in 0..MAX {
            s.open("2025-11-25");
        }
        assert_eq!(s.version(&first), None);
        assert_eq!(s.lock().len(), MAX);
    }
}
