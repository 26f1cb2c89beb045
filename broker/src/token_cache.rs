//! Token lookups remembered for a few seconds, so an authenticated request
//! costs no statement for its credential (every request presents one).
//!
//! Only tokens found live are remembered (an unknown secret is asked of the
//! database every time, so a token created on another replica works at
//! once), each for `BrokerConfig::token_cache_ttl` (5 s by default; zero
//! turns the cache off). A revocation through this broker empties its cache
//! at once; one through another replica sharing the database, or through
//! `accord token revoke`, stops the token here within that time — the
//! stated bound. At most [`CAPACITY`] entries: when full, the expired ones
//! go, and if none had expired, all of them (a burst of distinct live
//! tokens costs a lookup each, never memory).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::auth::Caller;

/// Most tokens remembered at once.
pub const CAPACITY: usize = 1024;

/// Callers by the sha256 of their secret, with when they were looked up.
#[derive(Debug, Default)]
pub struct TokenCache {
    ttl: Duration,
    entries: Mutex<HashMap<String, (Caller, Instant)>>,
}

impl TokenCache {
    /// A cache keeping each lookup for `ttl`.
    pub fn new(ttl: Duration) -> TokenCache {
        TokenCache {
            ttl,
            entries: Mutex::default(),
        }
    }

    /// The caller a live token with this hash was, if looked up within the ttl.
    pub fn get(&self, hash: &str) -> Option<Caller> {
        let entries = self.entries.lock().ok()?;
        let (caller, at) = entries.get(hash)?;
        (at.elapsed() < self.ttl).then(|| caller.clone())
    }

    /// Remembers a live token's caller.
    pub fn put(&self, hash: String, caller: Caller) {
        if self.ttl.is_zero() {
            return;
        }
        let Ok(mut entries) = self.entries.lock() else {
            return;
        };
        if entries.len() >= CAPACITY {
            entries.retain(|_, (_, at)| at.elapsed() < self.ttl);
            if entries.len() >= CAPACITY {
                entries.clear();
            }
        }
        entries.insert(hash, (caller, Instant::now()));
    }

    /// Forgets every token (after a revocation through this broker).
    pub fn clear(&self) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::Role;

    fn caller(name: &str) -> Caller {
        Caller {
            name: name.into(),
            role: Role::Write,
        }
    }

    #[test]
    fn a_remembered_token_expires_after_the_ttl() {
        let cache = TokenCache::new(Duration::from_millis(30));
        cache.put("h".into(), caller("ci"));
        assert_eq!(cache.get("h").map(|c| c.name), Some("ci".to_owned()));
        std::thread::sleep(Duration::from_millis(40));
        assert!(cache.get("h").is_none());
    }

    #[test]
    fn a_zero_ttl_remembers_nothing_and_clear_forgets_everything() {
        let off = TokenCache::new(Duration::ZERO);
        off.put("h".into(), caller("ci"));
        assert!(off.get("h").is_none());
        let on = TokenCache::new(Duration::from_secs(60));
        on.put("h".into(), caller("ci"));
        on.clear();
        assert!(on.get("h").is_none());
    }

    #[test]
    fn the_cache_never_holds_more_than_its_capacity() {
        let cache = TokenCache::new(Duration::from_secs(60));
        for i in 0..=CAPACITY {
            cache.put(format!("h{i}"), caller("ci"));
        }
        let held = cache.entries.lock().map(|e| e.len()).unwrap_or_default();
        assert!(held <= CAPACITY, "{held}");
        assert!(
            cache.get(&format!("h{CAPACITY}")).is_some(),
            "the newest stays"
        );
    }
}
