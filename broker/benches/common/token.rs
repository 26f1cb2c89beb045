//! The benches' token: stored once per database, as CI's requests carry one.

use accord_broker::auth::hash_secret;
use accord_broker::db::AnyConnection;
use accord_broker::store;

/// Stores `secret` as token `name` with `role`, unless an unrevoked token
/// with that secret is stored already (a database the bench used before).
pub fn ensure(conn: &mut AnyConnection, secret: &str, name: &str, role: &str) {
    let hash = hash_secret(secret);
    if store::tokens::find_active_by_hash(conn, &hash)
        .expect("token")
        .is_none()
    {
        store::tokens::insert(conn, name, role, &hash).expect("token");
    }
}
