//! `GET /`: the relations the official Pact clients navigate from, with the
//! exact names and templates of the Pact Broker; and, for a request that
//! presented a credential, its role (`X-Accord-Role`).

use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{HttpMessage, HttpResponse};
use serde_json::json;

use crate::auth::{Caller, ROLE_HEADER};
use crate::hal::{self, BaseUrl, Link, Links};

/// (relation, path template, title) of every index link.
const RELATIONS: &[(&str, &str, &str)] = &[
    (
        "pb:publish-pact",
        "/pacts/provider/{provider}/consumer/{consumer}/version/{consumerApplicationVersion}",
        "Publish a pact",
    ),
    (
        "pb:publish-contracts",
        "/contracts/publish",
        "Publish contracts",
    ),
    (
        "pb:latest-pact-versions",
        "/pacts/latest",
        "Latest pact versions",
    ),
    (
        "pb:tagged-pact-versions",
        "/pacts/provider/{provider}/consumer/{consumer}/tag/{tag}",
        "All versions of a pact for a given consumer, provider and consumer version tag",
    ),
    (
        "pb:branch-pact-versions",
        "/pacts/provider/{provider}/consumer/{consumer}/branch/{branch}",
        "All versions of a pact for a given consumer, provider and consumer version branch",
    ),
    (
        "pb:latest-branch-pact-versions",
        "/pacts/provider/{provider}/consumer/{consumer}/branch/{branch}/latest/versions",
        "Latest version of a pact for a given consumer, provider and consumer version branch",
    ),
    (
        "pb:main-branch-pact-versions",
        "/pacts/provider/{provider}/consumer/{consumer}/branch/versions",
        "All versions of a pact for a given consumer, provider and consumer main branch",
    ),
    (
        "pb:latest-main-branch-pact-versions",
        "/pacts/provider/{provider}/consumer/{consumer}/branch/latest/versions",
        "Latest version of a pact for a given consumer, provider and consumer main branch",
    ),
    (
        "pb:provider-pacts-with-main-branch",
        "/pacts/provider/{provider}/branch",
        "All pact versions for the provider from the consumers' main branches",
    ),
    (
        "pb:provider-pacts-with-branch",
        "/pacts/provider/{provider}/branch/{branch}",
        "All pact versions for the provider with the specified consumer branch",
    ),
    (
        "pb:latest-provider-pacts-with-main-branch",
        "/pacts/provider/{provider}/branch/latest",
        "Latest pact versions for the provider from the consumers' main branches",
    ),
    (
        "pb:latest-provider-pacts-with-branch",
        "/pacts/provider/{provider}/branch/{branch}/latest",
        "Latest pact versions for the provider with the specified consumer branch",
    ),
    ("pb:pacticipants", "/pacticipants", "Pacticipants"),
    (
        "pb:pacticipant",
        "/pacticipants/{pacticipant}",
        "Fetch pacticipant by name",
    ),
    (
        "pb:latest-provider-pacts",
        "/pacts/provider/{provider}/latest",
        "Latest pacts by provider",
    ),
    (
        "pb:latest-provider-pacts-with-tag",
        "/pacts/provider/{provider}/latest/{tag}",
        "Latest pacts for provider with the specified tag",
    ),
    (
        "pb:provider-pacts-with-tag",
        "/pacts/provider/{provider}/tag/{tag}",
        "All pact versions for the provider with the specified consumer version tag",
    ),
    (
        "pb:provider-pacts",
        "/pacts/provider/{provider}",
        "All pact versions for the specified provider",
    ),
    (
        "pb:latest-version",
        "/pacticipants/{pacticipant}/latest-version",
        "Latest pacticipant version",
    ),
    (
        "pb:latest-tagged-version",
        "/pacticipants/{pacticipant}/latest-version/{tag}",
        "Latest pacticipant version with the specified tag",
    ),
    ("pb:integrations", "/integrations", "Integrations"),
    (
        "pb:pacticipant-version-tag",
        "/pacticipants/{pacticipant}/versions/{version}/tags/{tag}",
        "Get, create or delete a tag for a pacticipant version",
    ),
    (
        "pb:pacticipant-branch",
        "/pacticipants/{pacticipant}/branches/{branch}",
        "Get or delete a pacticipant branch",
    ),
    (
        "pb:pacticipant-branch-version",
        "/pacticipants/{pacticipant}/branches/{branch}/versions/{version}",
        "Get or add/create a pacticipant version for a branch",
    ),
    (
        "pb:pacticipant-version",
        "/pacticipants/{pacticipant}/versions/{version}",
        "Get, create or delete a pacticipant version",
    ),
    ("pb:metrics", "/metrics", "Get Pact Broker metrics"),
    (
        "pb:can-i-deploy-pacticipant-version-to-tag",
        "/can-i-deploy?pacticipant={pacticipant}&version={version}&to={tag}",
        "Determine if an application version can be safely deployed to an environment identified by the given tag",
    ),
    (
        "pb:can-i-deploy-pacticipant-version-to-environment",
        "/can-i-deploy?pacticipant={pacticipant}&version={version}&environment={environment}",
        "Determine if an application version can be safely deployed to an environment",
    ),
    (
        "pb:provider-pacts-for-verification",
        "/pacts/provider/{provider}/for-verification",
        "Pact versions to be verified for the specified provider",
    ),
    ("pb:environments", "/environments", "Environments"),
    ("pb:environment", "/environments/{uuid}", "Environment"),
    ("pb:webhooks", "/webhooks", "Webhooks"),
    ("pb:webhook", "/webhooks/{uuid}", "Webhook"),
];

/// The index resource.
pub async fn get_index(base: BaseUrl, req: actix_web::HttpRequest) -> HttpResponse {
    let accept = req
        .headers()
        .get(actix_web::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if crate::web::wants_html("/", accept) {
        // a browser opening the broker: the home page
        return crate::web::see_other("/ui");
    }
    let mut links = Links::new().add("self", Link::new(base.raw("/")).title("Index"));
    for (rel, path, title) in RELATIONS {
        let mut link = Link::new(base.raw(path)).title(*title);
        if path.contains('{') {
            link = link.templated();
        }
        links = links.add(rel, link);
    }
    links = links.add(
        "beta:provider-pacts-for-verification",
        Link::new(base.raw("/pacts/provider/{provider}/for-verification"))
            .title("DEPRECATED - please use pb:provider-pacts-for-verification")
            .templated(),
    );
    let mut value = links.into_value();
    if let Some(map) = value.as_object_mut() {
        map.insert(
            "curies".into(),
            json!([
                { "name": "pb", "href": base.raw("/doc/{rel}?context=index"), "templated": true },
                { "name": "beta", "href": base.raw("/doc/{rel}?context=index"), "templated": true }
            ]),
        );
    }
    with_role(hal::ok(&json!({ "_links": value })), &req)
}

/// Names the role of the request's credential in [`ROLE_HEADER`].
fn with_role(mut reply: HttpResponse, req: &actix_web::HttpRequest) -> HttpResponse {
    if let Some(caller) = req.extensions().get::<Caller>() {
        reply.headers_mut().insert(
            HeaderName::from_static(ROLE_HEADER),
            HeaderValue::from_static(caller.role.as_str()),
        );
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::RELATIONS;

    #[test]
    fn every_advertised_relation_is_served() {
        // a template's path, its placeholders filled with a plain word
        let filled = |t: &str| {
            let path = t.split('?').next().unwrap_or(t);
            path.split('/')
                .map(|seg| if seg.starts_with('{') { "x" } else { seg })
                .collect::<Vec<_>>()
                .join("/")
        };
        let unserved: Vec<&str> = RELATIONS
            .iter()
            .filter(|(_, path, _)| {
                crate::routes::find("GET", &filled(path)).is_none()
                    && crate::routes::find("POST", &filled(path)).is_none()
                    && crate::routes::find("PUT", &filled(path)).is_none()
            })
            .map(|(rel, _, _)| *rel)
            .collect();
        assert!(
            unserved.is_empty(),
            "advertised but not served: {unserved:?}"
        );
    }
}
