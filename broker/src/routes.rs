//! Every route of the broker, in one place, shared by `accord serve` and the
//! tests. Handlers live in `api/`.

use actix_web::web::{self, delete, get, patch, post, put};

use crate::api::{badges, can_i_deploy, diagnostic, index, matrix, pacticipants};

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

    // matrix, can-i-deploy, badges
    cfg.route("/matrix", get().to(matrix::get_matrix))
        .route(
            "/matrix/provider/{provider}/consumer/{consumer}",
            get().to(matrix::get_matrix_for_pair),
        )
        .route("/can-i-deploy", get().to(can_i_deploy::get_can_i_deploy))
        .route(
            "/pacts/provider/{provider}/consumer/{consumer}/latest/badge",
            get().to(badges::get_latest_pact_badge),
        )
        .route(
            "/pacts/provider/{provider}/consumer/{consumer}/latest/{tag}/badge",
            get().to(badges::get_latest_tagged_pact_badge),
        )
        .route(
            "/pacticipants/{pacticipant}/latest-version/{tag}/can-i-deploy/to/{environment}/badge",
            get().to(badges::get_tag_can_i_deploy_badge),
        )
        .route(
            "/pacticipants/{pacticipant}/branches/{branch}/latest-version/can-i-deploy/to-environment/{environment}/badge",
            get().to(badges::get_branch_can_i_deploy_badge),
        );
}
