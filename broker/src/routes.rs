//! Every route of the broker, in one place, shared by `accord serve` and the
//! tests. Handlers live in `api/`.

use actix_web::web::{self, delete, get, patch, post, put};

use crate::api::{diagnostic, index, pacticipants, tokens};

/// Mounts every route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/", get().to(index::get_index))
        .route(
            "/diagnostic/status/heartbeat",
            get().to(diagnostic::get_heartbeat),
        )
        .route(
            "/diagnostic/status/dependencies",
            get().to(diagnostic::get_dependencies),
        );

    // tokens (admin)
    cfg.route("/tokens", get().to(tokens::list_tokens))
        .route("/tokens", post().to(tokens::create_token))
        .route("/tokens/{name}", delete().to(tokens::revoke_token));

    // pacticipants
    cfg.route("/pacticipants", get().to(pacticipants::list_pacticipants))
        .route("/pacticipants", post().to(pacticipants::create_pacticipant))
        .route(
            "/pacticipants/{pacticipant}",
            get().to(pacticipants::get_pacticipant),
        )
        .route(
            "/pacticipants/{pacticipant}",
            put().to(pacticipants::update_pacticipant),
        )
        .route(
            "/pacticipants/{pacticipant}",
            patch().to(pacticipants::update_pacticipant),
        )
        .route(
            "/pacticipants/{pacticipant}",
            delete().to(pacticipants::delete_pacticipant),
        );

    // versions, branches, tags

    // environments, deployed and released versions

    // contracts: publish and retrieve

    // verification results, pacts for verification

    // matrix, can-i-deploy, badges
}
