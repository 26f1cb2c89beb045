//! Every route of the broker, in one place, shared by `accord serve` and the
//! tests. Handlers live in `api/`.
//!
//! The table is data as well as wiring: [`ROUTES`] lists every method and
//! path pattern in the order actix matches them, so the adversarial tests
//! walk every route (a new route is covered the day it lands) and the edge
//! checks name a path segment by its parameter.

use actix_web::middleware::from_fn;
use actix_web::web;

use crate::auth::{self, Access};
use crate::web as pages;

use crate::api::{
    admission, badges, branches, can_i_deploy, declared, deployments, diagnostic, drift_ladder,
    drift_policy, drift_reports, environments, evaluations, for_verification, index, integrations,
    labels, matrix, pact_versions, pacticipants, pacts, promotions, provider_pacts, publish,
    publish_legacy, registry, releases, tags, tokens, verifications, versions, webhook_runs,
    webhook_status, webhooks,
};

/// One route: an HTTP method, a path pattern (`{name}` is one segment) and
/// who may call it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    pub method: &'static str,
    pub path: &'static str,
    pub access: Access,
}

/// The access a route needs when the table does not say: a read for the
/// safe methods, a write for the others.
const fn by_method(method: &str) -> Access {
    match method.as_bytes() {
        b"GET" => Access::Read,
        _ => Access::Write,
    }
}

/// Each route is mounted with its access check wrapped around its handler
/// ([`auth::guard`]): the role is decided for the route actix matched, on
/// the path it decoded, never from the raw path text a second time.
macro_rules! route_table {
    ($($method:ident $path:literal $([$access:ident])? => $handler:path;)*) => {
        /// Every route, in matching order.
        pub const ROUTES: &[Route] = &[$(Route {
            method: stringify!($method),
            path: $path,
            access: route_table!(@access $method $($access)?),
        }),*];

        /// Mounts every route.
        pub fn configure(cfg: &mut web::ServiceConfig) {
            $({
                let access = route_table!(@access $method $($access)?);
                let guarded = route_table!(@method $method)
                    .to($handler)
                    .wrap(from_fn(move |req, next| auth::guard(access, req, next)));
                cfg.route($path, guarded);
            })*
        }
    };
    (@access $method:ident) => { by_method(stringify!($method)) };
    (@access $method:ident $access:ident) => { Access::$access };
    (@method GET) => { web::get() };
    (@method POST) => { web::post() };
    (@method PUT) => { web::put() };
    (@method PATCH) => { web::patch() };
    (@method DELETE) => { web::delete() };
}

route_table! {
    // index and diagnostics
    GET "/" => index::get_index;
    GET "/diagnostic/status/heartbeat" [Public] => diagnostic::get_heartbeat;
    GET "/diagnostic/status/dependencies" => diagnostic::get_dependencies;

    // CI's busiest write, matched early: each pattern tried before a route
    // is a regex-lite run (with 130 before it, 6.5 % of the publish
    // bench's CPU); no other pattern matches this path, so moving it
    // changes no answer
    POST "/contracts/publish" => publish::publish_contracts;

    // pages for people (web/templates), before the API's patterns
    GET "/favicon.ico" [Public] => pages::get_favicon;
    GET "/ui/static/{file}" [Public] => pages::get_static;
    GET "/ui" => pages::home::get_home;
    GET "/ui/search" => pages::home::get_search;
    GET "/ui/matrix" => pages::matrix::get_matrix;
    GET "/ui/providers/{provider}/versions/{version}" => pages::matrix::get_candidate;
    GET "/ui/can-i-deploy" => pages::can_i_deploy::get_page;
    GET "/ui/network" => pages::graph::get_page;
    GET "/ui/pacticipants/{pacticipant}" => pages::pacticipant::get_page;
    GET "/ui/pacticipants/{pacticipant}/coverage" => pages::coverage::get_page;
    GET "/ui/pacts/provider/{provider}/consumer/{consumer}/version/{version}" => pages::contract::get_page;
    GET "/ui/pacts/provider/{provider}/consumer/{consumer}/diff" => pages::contract::get_diff;
    GET "/ui/pacts/provider/{provider}/consumer/{consumer}/pact-version/{sha}/verification-results/{number}" => pages::verification::get_page;

    // webhooks (the scoped forms before `/webhooks/{uuid}/…`)
    GET "/webhooks" => webhooks::list_webhooks;
    POST "/webhooks" => webhooks::create_webhook;
    POST "/webhooks/execute" => webhook_runs::execute_unsaved;
    GET "/webhooks/provider/{provider}/consumer/{consumer}" => webhooks::list_pair_webhooks;
    POST "/webhooks/provider/{provider}/consumer/{consumer}" => webhooks::create_pair_webhook;
    GET "/webhooks/provider/{provider}" => webhooks::list_provider_webhooks;
    POST "/webhooks/provider/{provider}" => webhooks::create_provider_webhook;
    GET "/webhooks/consumer/{consumer}" => webhooks::list_consumer_webhooks;
    POST "/webhooks/consumer/{consumer}" => webhooks::create_consumer_webhook;
    GET "/webhooks/{uuid}" => webhooks::get_webhook;
    PUT "/webhooks/{uuid}" => webhooks::put_webhook;
    DELETE "/webhooks/{uuid}" => webhooks::delete_webhook;
    POST "/webhooks/{uuid}/execute" => webhook_runs::execute_webhook;
    GET "/webhooks/{uuid}/triggered-webhooks" => webhook_runs::webhook_triggered;
    GET "/triggered-webhooks/{uuid}/logs" => webhook_runs::get_logs;
    GET "/pacts/provider/{provider}/consumer/{consumer}/webhooks" => webhooks::list_pair_webhooks;
    POST "/pacts/provider/{provider}/consumer/{consumer}/webhooks" => webhooks::create_pair_webhook;
    GET "/pacts/provider/{provider}/consumer/{consumer}/webhooks/status" => webhook_status::get_status;
    GET "/pacts/provider/{provider}/consumer/{consumer}/version/{version}/triggered-webhooks" => webhook_runs::pact_triggered;
    GET "/pacts/provider/{provider}/consumer/{consumer}/pact-version/{sha}/verification-results/{number}/triggered-webhooks" => webhook_runs::verification_triggered;

    // tokens (admin)
    GET "/tokens" [Admin] => tokens::list_tokens;
    POST "/tokens" [Admin] => tokens::create_token;
    DELETE "/tokens/{name}" [Admin] => tokens::revoke_token;

    // matrix, can-i-deploy, badges (before the pact routes: `…/latest/badge` must win over `…/latest/{tag}`)
    GET "/matrix" => matrix::get_matrix;
    GET "/matrix/provider/{provider}/consumer/{consumer}" => matrix::get_matrix_for_pair;
    GET "/can-i-deploy" => can_i_deploy::get_can_i_deploy;
    GET "/pacts/provider/{provider}/consumer/{consumer}/latest/badge" [Badge] => badges::get_latest_pact_badge;
    GET "/pacts/provider/{provider}/consumer/{consumer}/latest/{tag}/badge" [Badge] => badges::get_latest_tagged_pact_badge;
    GET "/pacticipants/{pacticipant}/latest-version/{tag}/can-i-deploy/to/{environment}/badge" [Badge] => badges::get_tag_can_i_deploy_badge;
    GET "/pacticipants/{pacticipant}/branches/{branch}/latest-version/can-i-deploy/to-environment/{environment}/badge" [Badge] => badges::get_branch_can_i_deploy_badge;

    // pacticipants
    GET "/pacticipants" => pacticipants::list_pacticipants;
    POST "/pacticipants" => pacticipants::create_pacticipant;
    GET "/pacticipants/{pacticipant}" => pacticipants::get_pacticipant;
    PUT "/pacticipants/{pacticipant}" => pacticipants::update_pacticipant;
    PATCH "/pacticipants/{pacticipant}" => pacticipants::update_pacticipant;
    DELETE "/pacticipants/{pacticipant}" => pacticipants::delete_pacticipant;
    // labels (before the pacticipant's sub-resources: `label` is a literal here)
    GET "/pacticipants/label/{label}" => labels::list_labelled;
    GET "/pacticipants/{pacticipant}/labels/{label}" => labels::get_label;
    PUT "/pacticipants/{pacticipant}/labels/{label}" => labels::put_label;
    DELETE "/pacticipants/{pacticipant}/labels/{label}" => labels::delete_label;
    GET "/labels" => labels::list_labels;

    // verification results, pacts for verification
    POST "/pacts/provider/{provider}/consumer/{consumer}/pact-version/{sha}/verification-results" => verifications::publish_verification;
    POST "/pacts/provider/{provider}/consumer/{consumer}/pact-version/{sha}/metadata/{metadata}/verification-results" => verifications::publish_verification_with_metadata;
    GET "/pacts/provider/{provider}/consumer/{consumer}/pact-version/{sha}/verification-results/{number}" => verifications::get_verification;
    GET "/pacts/provider/{provider}/consumer/{consumer}/version/{version}/verification-results/latest" => verifications::get_latest_for_consumer_version;
    GET "/pacts/provider/{provider}/consumer/{consumer}/latest/verification-results/latest" => verifications::get_latest_for_latest_pact;
    GET "/verification-results/consumer/{consumer}/version/{version}/latest" => verifications::get_consumer_version_summary;
    GET "/pacts/provider/{provider}/for-verification" => for_verification::get_for_verification;
    POST "/pacts/provider/{provider}/for-verification" [Read] => for_verification::post_for_verification;

    // versions, branches, tags
    GET "/pacticipants/{pacticipant}/versions" => versions::list_versions;
    GET "/pacticipants/{pacticipant}/versions/{version}" => versions::get_version;
    PUT "/pacticipants/{pacticipant}/versions/{version}" => versions::update_version;
    PATCH "/pacticipants/{pacticipant}/versions/{version}" => versions::update_version;
    DELETE "/pacticipants/{pacticipant}/versions/{version}" => versions::delete_version;
    GET "/pacticipants/{pacticipant}/versions/{version}/admission" => admission::get_admission;
    POST "/pacticipants/{pacticipant}/versions/{version}/admission" => promotions::promote;
    GET "/pacticipants/{pacticipant}/versions/{version}/drift" => drift_ladder::get_drift;
    GET "/pacticipants/{pacticipant}/versions/{version}/evaluations" => evaluations::list_evaluations;
    POST "/pacticipants/{pacticipant}/versions/{version}/evaluations" => evaluations::publish_evaluation;
    GET "/pacticipants/{pacticipant}/drift-policy" => drift_policy::get_drift_policy;
    PUT "/pacticipants/{pacticipant}/drift-policy" => drift_policy::put_drift_policy;
    GET "/pacticipants/{pacticipant}/coverage" => crate::api::coverage::get_coverage;
    GET "/pacticipants/{pacticipant}/versions/{version}/declarations" => declared::list_declarations;
    GET "/pacticipants/{pacticipant}/versions/{version}/declarations/diff" => declared::diff::get_diff;
    GET "/pacticipants/{pacticipant}/versions/{version}/declarations/agent-card" => declared::get_agent_card;
    PUT "/pacticipants/{pacticipant}/versions/{version}/declarations/agent-card" => declared::put_agent_card;
    GET "/pacticipants/{pacticipant}/versions/{version}/declarations/mcp-tools/{profile}" => declared::get_mcp_tools;
    PUT "/pacticipants/{pacticipant}/versions/{version}/declarations/mcp-tools/{profile}" => declared::put_mcp_tools;
    GET "/declaration-contents/{sha}" => declared::get_content;
    GET "/pacticipants/{pacticipant}/latest-version" => versions::get_latest_version;
    GET "/pacticipants/{pacticipant}/latest-version/{tag}" => versions::get_latest_tagged_version;
    GET "/pacticipants/{pacticipant}/versions/{version}/tags/{tag}" => tags::get_tag;
    PUT "/pacticipants/{pacticipant}/versions/{version}/tags/{tag}" => tags::put_tag;
    DELETE "/pacticipants/{pacticipant}/versions/{version}/tags/{tag}" => tags::delete_tag;
    GET "/pacticipants/{pacticipant}/tags/{tag}/versions" => tags::list_tag_versions;
    GET "/pacticipants/{pacticipant}/branches" => branches::list_branches;
    GET "/pacticipants/{pacticipant}/branches/{branch}" => branches::get_branch;
    DELETE "/pacticipants/{pacticipant}/branches/{branch}" => branches::delete_branch;
    GET "/pacticipants/{pacticipant}/branches/{branch}/versions" => branches::list_branch_versions;
    GET "/pacticipants/{pacticipant}/branches/{branch}/latest-version" => branches::get_branch_latest_version;
    GET "/pacticipants/{pacticipant}/branches/{branch}/versions/{version}" => branches::get_branch_version;
    PUT "/pacticipants/{pacticipant}/branches/{branch}/versions/{version}" => branches::put_branch_version;
    DELETE "/pacticipants/{pacticipant}/branches/{branch}/versions/{version}" => branches::delete_branch_version;

    // environments, deployed and released versions
    GET "/integrations" => integrations::list_integrations;
    GET "/metrics" => integrations::get_metrics;
    GET "/environments" => environments::list_environments;
    POST "/environments" => environments::create_environment;
    GET "/environments/{uuid}" => environments::get_environment;
    PUT "/environments/{uuid}" => environments::update_environment;
    DELETE "/environments/{uuid}" => environments::delete_environment;
    POST "/pacticipants/{pacticipant}/versions/{version}/deployed-versions/environment/{uuid}" => deployments::record_deployment;
    GET "/pacticipants/{pacticipant}/versions/{version}/deployed-versions/environment/{uuid}" => deployments::list_version_deployments;
    GET "/environments/{uuid}/deployed-versions/currently-deployed" => deployments::list_currently_deployed;
    GET "/deployed-versions/{uuid}" => deployments::get_deployed_version;
    PATCH "/deployed-versions/{uuid}" => deployments::patch_deployed_version;
    POST "/pacticipants/{pacticipant}/versions/{version}/released-versions/environment/{uuid}" => releases::record_release;
    GET "/pacticipants/{pacticipant}/versions/{version}/released-versions/environment/{uuid}" => releases::list_version_releases;
    GET "/environments/{uuid}/released-versions/currently-supported" => releases::list_currently_supported;
    GET "/released-versions/{uuid}" => releases::get_released_version;
    PATCH "/released-versions/{uuid}" => releases::patch_released_version;

    // runtime drift (from routers, gateways, sidecars)
    POST "/drift-reports" => drift_reports::post_drift_report;
    GET "/drift-reports/{id}" => drift_reports::get_drift_report;
    POST "/registry/check" [Read] => registry::check_registry;
    GET "/registry/agents" => registry::list_agents;

    // contracts: publish and retrieve by pair (more specific paths first: `…/branch/versions` before `…/branch/{branch}`)
    GET "/pacts/provider/{provider}/consumer/{consumer}/version/{version}" => pacts::get_pact;
    PUT "/pacts/provider/{provider}/consumer/{consumer}/version/{version}" => publish_legacy::put_pact;
    PATCH "/pacts/provider/{provider}/consumer/{consumer}/version/{version}" => publish_legacy::put_pact;
    GET "/pacts/provider/{provider}/consumer/{consumer}/versions/{version}" => pacts::get_pact;
    GET "/pact/provider/{provider}/consumer/{consumer}/version/{version}" => pacts::get_pact;
    GET "/pact/provider/{provider}/consumer/{consumer}/latest" => pacts::get_latest_pact;
    GET "/pacts/provider/{provider}/consumer/{consumer}/latest" => pacts::get_latest_pact;
    GET "/pacts/provider/{provider}/consumer/{consumer}/latest-untagged" => pacts::get_latest_untagged_pact;
    GET "/pacts/provider/{provider}/consumer/{consumer}/latest/{tag}" => pacts::get_latest_tagged_pact;
    GET "/pacts/provider/{provider}/consumer/{consumer}/pact-version/{sha}" => pacts::get_pact_by_sha;
    GET "/pacts/provider/{provider}/consumer/{consumer}/pact-version/{sha}/metadata/{metadata}" => pacts::get_pact_by_sha_with_metadata;
    GET "/pacts/provider/{provider}/consumer/{consumer}/versions" => pact_versions::list_pact_versions;
    GET "/pacts/provider/{provider}/consumer/{consumer}/tag/{tag}" => pact_versions::list_tagged_pact_versions;
    GET "/pacts/provider/{provider}/consumer/{consumer}/branch/versions" => pact_versions::list_main_branch_pact_versions;
    GET "/pacts/provider/{provider}/consumer/{consumer}/branch/latest/versions" => pact_versions::list_latest_main_branch_pact_versions;
    GET "/pacts/provider/{provider}/consumer/{consumer}/branch/{branch}/latest/versions" => pact_versions::list_latest_branch_pact_versions;
    GET "/pacts/provider/{provider}/consumer/{consumer}/branch/{branch}/latest" => pacts::get_latest_branch_pact;
    GET "/pacts/provider/{provider}/consumer/{consumer}/branch/{branch}" => pact_versions::list_branch_pact_versions;

    // pacts by provider
    GET "/pacts/latest" => provider_pacts::list_latest_pacts;
    GET "/pacts/provider/{provider}" => provider_pacts::list_provider_pacts;
    GET "/pacts/provider/{provider}/latest" => provider_pacts::list_latest_provider_pacts;
    GET "/pacts/provider/{provider}/latest/{tag}" => provider_pacts::list_latest_tagged_provider_pacts;
    GET "/pacts/provider/{provider}/tag/{tag}" => provider_pacts::list_tagged_provider_pacts;
    GET "/pacts/provider/{provider}/branch" => provider_pacts::list_main_branch_provider_pacts;
    GET "/pacts/provider/{provider}/branch/latest" => provider_pacts::list_latest_main_branch_provider_pacts;
    GET "/pacts/provider/{provider}/branch/{branch}" => provider_pacts::list_branch_provider_pacts;
    GET "/pacts/provider/{provider}/branch/{branch}/latest" => provider_pacts::list_latest_branch_provider_pacts;
}

/// The route `method path` matches, with each path parameter's name and
/// raw (still percent-encoded) segment; `None` when no route matches.
/// Fixed words are compared decoded, as actix routes (`/%70acticipants/x`
/// is `/pacticipants/{pacticipant}`).
pub fn find(method: &str, path: &str) -> Option<(Route, Vec<(&'static str, String)>)> {
    let segments: Vec<&str> = path.split('/').collect();
    ROUTES.iter().find_map(|route| {
        if !route.method.eq_ignore_ascii_case(method) {
            return None;
        }
        let pattern: Vec<&str> = route.path.split('/').collect();
        if pattern.len() != segments.len() {
            return None;
        }
        let mut params = Vec::new();
        for (want, got) in pattern.iter().zip(&segments) {
            match want.strip_prefix('{').and_then(|w| w.strip_suffix('}')) {
                Some(name) => params.push((name, (*got).to_owned())),
                None if percent_encoding::percent_decode_str(got).decode_utf8_lossy() == *want => {}
                None => return None,
            }
        }
        Some((*route, params))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_matched_to_its_route_and_names_its_segments() {
        let (route, params) = find("get", "/pacticipants/a%00b/versions/1").expect("a route");
        assert_eq!(route.path, "/pacticipants/{pacticipant}/versions/{version}");
        assert_eq!(
            params,
            [("pacticipant", "a%00b".into()), ("version", "1".into())]
        );
        assert!(find("GET", "/no/such/route").is_none());
    }

    #[test]
    fn literal_routes_are_listed_before_the_patterns_they_would_shadow() {
        let pos = |p: &str| ROUTES.iter().position(|r| r.path == p && r.method == "GET");
        let badge = pos("/pacts/provider/{provider}/consumer/{consumer}/latest/badge");
        let tagged = pos("/pacts/provider/{provider}/consumer/{consumer}/latest/{tag}");
        assert!(badge < tagged, "{badge:?} {tagged:?}");
    }
}
