//! Every route of the broker, in one place, shared by `accord serve` and the
//! tests. Handlers live in `api/`.

use actix_web::web::{self, delete, get, patch, post, put};

use crate::api::{
    diagnostic, index, pact_versions, pacticipants, pacts, provider_pacts, publish, publish_legacy,
};

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
    configure_contracts(cfg);

    // verification results, pacts for verification

    // matrix, can-i-deploy, badges
}

/// `POST /contracts/publish`, the legacy PUT/PATCH, and pact retrieval by
/// pair, by provider and for every pair. More specific paths come first
/// (`…/branch/versions` before `…/branch/{branch}`).
fn configure_contracts(cfg: &mut web::ServiceConfig) {
    const P: &str = "/pacts/provider/{provider}/consumer/{consumer}";
    let pair = |rest: &str| format!("{P}{rest}");
    cfg.route("/contracts/publish", post().to(publish::publish_contracts))
        .route(&pair("/version/{version}"), get().to(pacts::get_pact))
        .route(
            &pair("/version/{version}"),
            put().to(publish_legacy::put_pact),
        )
        .route(
            &pair("/version/{version}"),
            patch().to(publish_legacy::put_pact),
        )
        .route(&pair("/versions/{version}"), get().to(pacts::get_pact))
        .route(
            "/pact/provider/{provider}/consumer/{consumer}/version/{version}",
            get().to(pacts::get_pact),
        )
        .route(
            "/pact/provider/{provider}/consumer/{consumer}/latest",
            get().to(pacts::get_latest_pact),
        )
        .route(&pair("/latest"), get().to(pacts::get_latest_pact))
        .route(
            &pair("/latest-untagged"),
            get().to(pacts::get_latest_untagged_pact),
        )
        .route(
            &pair("/latest/{tag}"),
            get().to(pacts::get_latest_tagged_pact),
        )
        .route(
            &pair("/pact-version/{sha}"),
            get().to(pacts::get_pact_by_sha),
        )
        .route(
            &pair("/pact-version/{sha}/metadata/{metadata}"),
            get().to(pacts::get_pact_by_sha_with_metadata),
        )
        .route(
            &pair("/versions"),
            get().to(pact_versions::list_pact_versions),
        )
        .route(
            &pair("/tag/{tag}"),
            get().to(pact_versions::list_tagged_pact_versions),
        )
        .route(
            &pair("/branch/versions"),
            get().to(pact_versions::list_main_branch_pact_versions),
        )
        .route(
            &pair("/branch/latest/versions"),
            get().to(pact_versions::list_latest_main_branch_pact_versions),
        )
        .route(
            &pair("/branch/{branch}/latest/versions"),
            get().to(pact_versions::list_latest_branch_pact_versions),
        )
        .route(
            &pair("/branch/{branch}/latest"),
            get().to(pacts::get_latest_branch_pact),
        )
        .route(
            &pair("/branch/{branch}"),
            get().to(pact_versions::list_branch_pact_versions),
        );
    let provider = |rest: &str| format!("/pacts/provider/{{provider}}{rest}");
    cfg.route("/pacts/latest", get().to(provider_pacts::list_latest_pacts))
        .route(&provider(""), get().to(provider_pacts::list_provider_pacts))
        .route(
            &provider("/latest"),
            get().to(provider_pacts::list_latest_provider_pacts),
        )
        .route(
            &provider("/latest/{tag}"),
            get().to(provider_pacts::list_latest_tagged_provider_pacts),
        )
        .route(
            &provider("/tag/{tag}"),
            get().to(provider_pacts::list_tagged_provider_pacts),
        )
        .route(
            &provider("/branch"),
            get().to(provider_pacts::list_main_branch_provider_pacts),
        )
        .route(
            &provider("/branch/latest"),
            get().to(provider_pacts::list_latest_main_branch_provider_pacts),
        )
        .route(
            &provider("/branch/{branch}"),
            get().to(provider_pacts::list_branch_provider_pacts),
        )
        .route(
            &provider("/branch/{branch}/latest"),
            get().to(provider_pacts::list_latest_branch_provider_pacts),
        );
}
