//! Every route of the broker, in one place, shared by `accord serve` and the
//! tests. Handlers live in `api/`.

use actix_web::web::{self, delete, get, patch, post, put};

use crate::api::{diagnostic, for_verification, index, pacticipants, verifications};

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
    let pact_version = "/pacts/provider/{provider}/consumer/{consumer}/pact-version/{sha}";
    cfg.route(
        &format!("{pact_version}/verification-results"),
        post().to(verifications::publish_verification),
    )
    .route(
        &format!("{pact_version}/metadata/{{metadata}}/verification-results"),
        post().to(verifications::publish_verification_with_metadata),
    )
    .route(
        &format!("{pact_version}/verification-results/{{number}}"),
        get().to(verifications::get_verification),
    )
    .route(
        "/pacts/provider/{provider}/consumer/{consumer}/version/{version}/verification-results/latest",
        get().to(verifications::get_latest_for_consumer_version),
    )
    .route(
        "/pacts/provider/{provider}/consumer/{consumer}/latest/verification-results/latest",
        get().to(verifications::get_latest_for_latest_pact),
    )
    .route(
        "/verification-results/consumer/{consumer}/version/{version}/latest",
        get().to(verifications::get_consumer_version_summary),
    )
    .route(
        "/pacts/provider/{provider}/for-verification",
        get().to(for_verification::get_for_verification),
    )
    .route(
        "/pacts/provider/{provider}/for-verification",
        post().to(for_verification::post_for_verification),
    );

    // matrix, can-i-deploy, badges
}
