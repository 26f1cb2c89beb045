//! The broker's cache of parsed contracts (`accord_broker::parsed`): a
//! content parsed once is served from the cache, by the content id and
//! sha; the broker's requests use it. Shown by making a stored text
//! unreadable afterwards (content rows never change in the broker: only a
//! test can do this): a cached content is not read again.

use std::sync::Arc;

use accord_broker::parsed::{self, ContractCache};
use accord_broker::schema::pact_contents;
use diesel::prelude::*;

use crate::static_check_speed::{listing, publish};
use crate::support::{TestApp, each_backend};

fn spoil_every_content(app: &TestApp) {
    let pool = accord_broker::db::connect(&app.database.url, 1).expect("connect");
    let mut conn = pool.get().expect("connection");
    diesel::update(pact_contents::table)
        .set(pact_contents::content.eq("not json"))
        .execute(&mut *conn)
        .expect("update");
}

#[test]
fn a_content_parsed_once_is_served_from_the_cache() {
    each_backend(|app| {
        publish(app, 0);
        let pool = accord_broker::db::connect(&app.database.url, 1).expect("connect");
        let mut conn = pool.get().expect("connection");
        let (id, sha): (i64, String) = pact_contents::table
            .select((pact_contents::id, pact_contents::sha))
            .first(&mut *conn)
            .expect("content");
        let cache = Arc::new(ContractCache::default());
        let wanted = [(id, sha.as_str())];
        let first = parsed::with_cache(&cache, || parsed::load(&mut conn, &wanted)).expect("load");
        assert!(first[&id].contract.is_some());
        assert_eq!(cache.size().0, 1);
        spoil_every_content(app);
        let again = parsed::with_cache(&cache, || parsed::load(&mut conn, &wanted)).expect("load");
        assert!(
            Arc::ptr_eq(&first[&id], &again[&id]),
            "served from the cache"
        );
        let uncached = parsed::load(&mut conn, &wanted).expect("load");
        assert!(
            uncached.is_empty(),
            "without a cache the unreadable text is read"
        );
        let other = [(id, "another sha")];
        let missed = parsed::with_cache(&cache, || parsed::load(&mut conn, &other)).expect("load");
        assert!(missed.is_empty(), "another sha under the same id is a miss");
    });
}

#[test]
fn the_brokers_requests_read_each_content_once() {
    each_backend(|app| {
        for c in 0..3 {
            publish(app, c);
        }
        let path = "/pacticipants/wide-tools/versions/1.0/declarations/mcp-tools/default";
        assert_eq!(app.put(path, &listing()).status, 201);
        let before = app.get("/pacticipants/wide-tools/coverage");
        assert_eq!(before.status, 200, "{}", before.text);
        spoil_every_content(app);
        let after = app.get("/pacticipants/wide-tools/coverage");
        assert_eq!(after.status, 200, "{}", after.text);
        assert_eq!(
            after.json, before.json,
            "the contracts parsed by the PUT's static check serve coverage"
        );
    });
}
