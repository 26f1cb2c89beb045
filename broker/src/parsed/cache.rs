//! A bounded map of parsed contracts by pact content id, least recently
//! used evicted first, bounded both in entries and in bytes (the stored
//! JSON text's length stands for the parsed size: the same order).
//!
//! No invalidation: a `pact_contents` row never changes once written (it
//! is content-addressed: a publish with other content writes another
//! row), so an entry is right until evicted. Ids are per database: one
//! cache belongs to one broker (its `AppState`), never to a process. An
//! entry also keeps its row's sha and a lookup names the sha it expects: a
//! row id reused after a rolled-back insert (SQLite) is then a miss.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use super::Parsed;

/// Entries kept by a broker's cache.
pub const MAX_ENTRIES: usize = 4_096;
/// Bytes (of stored JSON text) kept by a broker's cache.
pub const MAX_BYTES: usize = 64 * 1024 * 1024;

/// Parsed contracts by content id, shared by every request of a broker.
#[derive(Debug)]
pub struct ContractCache {
    max_entries: usize,
    max_bytes: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    slots: HashMap<i64, Slot>,
    /// Last use → id: the first is the least recently used.
    order: BTreeMap<u64, i64>,
    clock: u64,
    bytes: usize,
}

#[derive(Debug)]
struct Slot {
    sha: String,
    parsed: Arc<Parsed>,
    bytes: usize,
    used: u64,
}

impl Default for ContractCache {
    fn default() -> Self {
        Self::new(MAX_ENTRIES, MAX_BYTES)
    }
}

impl ContractCache {
    pub fn new(max_entries: usize, max_bytes: usize) -> Self {
        Self {
            max_entries,
            max_bytes,
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // the map stays consistent between statements: a panic elsewhere
        // while holding it leaves nothing half-done
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The parsed content `id` (of sha `sha`), marked as just used.
    pub fn get(&self, id: i64, sha: &str) -> Option<Arc<Parsed>> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        inner.clock += 1;
        let slot = inner.slots.get_mut(&id).filter(|s| s.sha == sha)?;
        inner.order.remove(&slot.used);
        slot.used = inner.clock;
        inner.order.insert(slot.used, id);
        Some(slot.parsed.clone())
    }

    /// Keeps `parsed` (from `bytes` of text) for `id`, evicting the least
    /// recently used entries past either bound. One larger than the byte
    /// bound is not kept.
    pub fn insert(&self, id: i64, sha: &str, parsed: Arc<Parsed>, bytes: usize) {
        if bytes > self.max_bytes || self.max_entries == 0 {
            return;
        }
        let mut inner = self.lock();
        inner.clock += 1;
        let used = inner.clock;
        let slot = Slot {
            sha: sha.to_owned(),
            parsed,
            bytes,
            used,
        };
        if let Some(old) = inner.slots.insert(id, slot) {
            inner.order.remove(&old.used);
            inner.bytes -= old.bytes;
        }
        inner.order.insert(used, id);
        inner.bytes += bytes;
        while inner.slots.len() > self.max_entries || inner.bytes > self.max_bytes {
            let Some((_, oldest)) = inner.order.pop_first() else {
                break;
            };
            if let Some(gone) = inner.slots.remove(&oldest) {
                inner.bytes -= gone.bytes;
            }
        }
    }

    /// (entries, bytes) held now.
    pub fn size(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.slots.len(), inner.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed() -> Arc<Parsed> {
        Arc::new(Parsed::default())
    }

    #[test]
    fn the_least_recently_used_goes_first_past_the_entry_bound() {
        let cache = ContractCache::new(2, 1_000);
        cache.insert(1, "s", parsed(), 10);
        cache.insert(2, "s", parsed(), 10);
        assert!(cache.get(1, "s").is_some());
        cache.insert(3, "s", parsed(), 10);
        assert!(cache.get(2, "s").is_none(), "2 was the least recently used");
        assert!(cache.get(1, "s").is_some() && cache.get(3, "s").is_some());
        assert_eq!(cache.size(), (2, 20));
    }

    #[test]
    fn the_byte_bound_evicts_and_refuses_what_can_never_fit() {
        let cache = ContractCache::new(100, 100);
        cache.insert(1, "s", parsed(), 60);
        cache.insert(2, "s", parsed(), 60);
        assert!(cache.get(1, "s").is_none());
        assert_eq!(cache.size(), (1, 60));
        cache.insert(3, "s", parsed(), 101);
        assert!(cache.get(3, "s").is_none());
        assert_eq!(cache.size(), (1, 60));
    }

    #[test]
    fn an_entry_of_another_sha_is_a_miss() {
        let cache = ContractCache::new(10, 100);
        cache.insert(1, "a", parsed(), 10);
        assert!(cache.get(1, "b").is_none());
        assert!(cache.get(1, "a").is_some());
    }

    #[test]
    fn inserting_an_id_again_replaces_it_and_its_bytes() {
        let cache = ContractCache::new(10, 100);
        cache.insert(1, "s", parsed(), 60);
        cache.insert(1, "s", parsed(), 30);
        assert_eq!(cache.size(), (1, 30));
    }
}
