//! Every route of the broker, in one place, shared by `accord serve` and the
//! tests. Handlers live in `api/`.

use actix_web::web::{self, delete, get, patch, post, put};

use crate::api::{
    badges, branches, can_i_deploy, deployments, diagnostic, environments, for_verification, index,
    integrations, matrix, pact_versions, pacticipants, pacts, provider_pacts, publish,
    publish_legacy, releases, tags, tokens, verifications, versions,
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

    // tokens (admin)
    cfg.route("/tokens", get().to(tokens::list_tokens))
        .route("/tokens", post().to(tokens::create_token))
        .route("/tokens/{name}", delete().to(tokens::revoke_token));

    // matrix, can-i-deploy, badges (before the pact routes: `…/latest/badge`
    // must win over `…/latest/{tag}`)
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
    resources_versions(cfg);

    // environments, deployed and released versions
    resources_environments(cfg);

    // contracts: publish and retrieve
    configure_contracts(cfg);

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
}

/// Versions, branches and tags (the "versions, branches, tags" section).
fn resources_versions(cfg: &mut web::ServiceConfig) {
    const V: &str = "/pacticipants/{pacticipant}/versions/{version}";
    const B: &str = "/pacticipants/{pacticipant}/branches/{branch}";
    const T: &str = "/pacticipants/{pacticipant}/versions/{version}/tags/{tag}";
    cfg.route(
        "/pacticipants/{pacticipant}/versions",
        get().to(versions::list_versions),
    )
    .route(V, get().to(versions::get_version))
    .route(V, put().to(versions::update_version))
    .route(V, patch().to(versions::update_version))
    .route(V, delete().to(versions::delete_version))
    .route(
        "/pacticipants/{pacticipant}/latest-version",
        get().to(versions::get_latest_version),
    )
    .route(
        "/pacticipants/{pacticipant}/latest-version/{tag}",
        get().to(versions::get_latest_tagged_version),
    )
    .route(T, get().to(tags::get_tag))
    .route(T, put().to(tags::put_tag))
    .route(T, delete().to(tags::delete_tag))
    .route(
        "/pacticipants/{pacticipant}/tags/{tag}/versions",
        get().to(tags::list_tag_versions),
    )
    .route(
        "/pacticipants/{pacticipant}/branches",
        get().to(branches::list_branches),
    )
    .route(B, get().to(branches::get_branch))
    .route(B, delete().to(branches::delete_branch))
    .route(
        "/pacticipants/{pacticipant}/branches/{branch}/versions",
        get().to(branches::list_branch_versions),
    )
    .route(
        "/pacticipants/{pacticipant}/branches/{branch}/latest-version",
        get().to(branches::get_branch_latest_version),
    );
    const BV: &str = "/pacticipants/{pacticipant}/branches/{branch}/versions/{version}";
    cfg.route(BV, get().to(branches::get_branch_version))
        .route(BV, put().to(branches::put_branch_version))
        .route(BV, delete().to(branches::delete_branch_version));
}

/// Environments, deployed and released versions.
fn resources_environments(cfg: &mut web::ServiceConfig) {
    const E: &str = "/environments/{uuid}";
    const D: &str =
        "/pacticipants/{pacticipant}/versions/{version}/deployed-versions/environment/{uuid}";
    const R: &str =
        "/pacticipants/{pacticipant}/versions/{version}/released-versions/environment/{uuid}";
    cfg.route("/integrations", get().to(integrations::list_integrations))
        .route("/metrics", get().to(integrations::get_metrics))
        .route("/environments", get().to(environments::list_environments))
        .route("/environments", post().to(environments::create_environment))
        .route(E, get().to(environments::get_environment))
        .route(E, put().to(environments::update_environment))
        .route(E, delete().to(environments::delete_environment))
        .route(D, post().to(deployments::record_deployment))
        .route(D, get().to(deployments::list_version_deployments))
        .route(
            "/environments/{uuid}/deployed-versions/currently-deployed",
            get().to(deployments::list_currently_deployed),
        )
        .route(
            "/deployed-versions/{uuid}",
            get().to(deployments::get_deployed_version),
        )
        .route(
            "/deployed-versions/{uuid}",
            patch().to(deployments::patch_deployed_version),
        )
        .route(R, post().to(releases::record_release))
        .route(R, get().to(releases::list_version_releases))
        .route(
            "/environments/{uuid}/released-versions/currently-supported",
            get().to(releases::list_currently_supported),
        )
        .route(
            "/released-versions/{uuid}",
            get().to(releases::get_released_version),
        )
        .route(
            "/released-versions/{uuid}",
            patch().to(releases::patch_released_version),
        );
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
