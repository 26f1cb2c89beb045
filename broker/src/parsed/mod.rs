//! Parsed stored contracts, shared: the evidence judge (on every published
//! result), the static cross-check, coverage, the declarations diff and
//! `drift::assess` each read every live contract of a provider, and parse
//! it the same way. [`load`] reads the texts it does not hold in one query
//! per chunk and keeps what it parsed in the broker's [`ContractCache`]
//! (its `AppState`'s, installed for each request's database work by
//! `AppState::run`: [`with_cache`]). Work outside a request (the evidence
//! sweep, tests calling a function with a bare connection) parses without
//! a cache: the same answers, only slower.
//!
//! Which contracts are live stays a query on every call (the selection);
//! only parsing is cached, and a content row never changes (see `cache`).

pub mod cache;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use accord_dsl::model::Contract;
use serde_json::Value;

pub use cache::ContractCache;

use crate::db::AnyConnection;
use crate::drift::reliance::{self, Reliance};
use crate::store::{StoreError, pacts};

/// Stored texts read at once: whole documents, so memory bounds a chunk.
const TEXT_CHUNK: usize = 50;

/// One stored contract, parsed.
#[derive(Debug, Default)]
pub struct Parsed {
    /// What the document relies on of the provider's declarations.
    pub reliance: Reliance,
    /// The contract; `None` when the reader refuses the document (stored
    /// contracts passed the same reader at publish).
    pub contract: Option<Arc<Contract>>,
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<ContractCache>>> = const { RefCell::new(None) };
}

/// Runs `work` with `cache` as the one [`load`] uses on this thread, and
/// restores the previous one afterwards (even on a panic).
pub fn with_cache<T>(cache: &Arc<ContractCache>, work: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<ContractCache>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = previous);
        }
    }
    let previous = CURRENT.with(|c| c.replace(Some(cache.clone())));
    let _restore = Restore(previous);
    work()
}

fn current() -> Option<Arc<ContractCache>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Parses a stored document; `None` when it is not JSON.
pub fn parse(text: &str) -> Option<Parsed> {
    let document: Value = serde_json::from_str(text).ok()?;
    Some(Parsed {
        reliance: reliance::of(&document),
        contract: accord_dsl::pact::from_value(&document, "content")
            .ok()
            .map(Arc::new),
    })
}

/// The parsed contents `wanted` (id, sha), by id: from the cache when it
/// holds them, the others read (one query per chunk) and parsed. A content
/// that is gone or not JSON is left out.
pub fn load(
    conn: &mut AnyConnection,
    wanted: &[(i64, &str)],
) -> Result<HashMap<i64, Arc<Parsed>>, StoreError> {
    let cache = current();
    let mut out = HashMap::new();
    let mut missing = Vec::new();
    for &(id, sha) in wanted {
        match cache.as_ref().and_then(|c| c.get(id, sha)) {
            Some(parsed) => {
                out.insert(id, parsed);
            }
            None => missing.push(id),
        }
    }
    for chunk in missing.chunks(TEXT_CHUNK) {
        for (id, sha, text) in pacts::texts_by_ids(conn, chunk)? {
            let Some(parsed) = parse(&text) else {
                continue;
            };
            let parsed = Arc::new(parsed);
            if let Some(cache) = &cache {
                cache.insert(id, &sha, parsed.clone(), text.len());
            }
            out.insert(id, parsed);
        }
    }
    Ok(out)
}
