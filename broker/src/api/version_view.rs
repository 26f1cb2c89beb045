//! The version resource as the Pact Broker renders it, and the lookups every
//! version-scoped route shares (pacticipant and version, or 404).
//!
//! The `pb:record-deployment` and `pb:record-release` relations are arrays
//! with one link per environment, `name` = the environment's name: the
//! official Pact CLIs pick the entry by name, so this is how
//! `record-deployment` and `record-release` find their target.

use serde_json::{Value, json};

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{BaseUrl, Link, Links};
use crate::names::VersionNumber;
use crate::store::environments::{self, Environment};
use crate::store::pacticipants::Pacticipant;
use crate::store::tags::{self, Tag};
use crate::store::versions::{self, Version};
use crate::store::{branches, deployments, releases};

/// Parses a version number from a path or body field.
pub fn parse_number(field: &str, text: &str) -> Result<VersionNumber, BrokerError> {
    VersionNumber::parse(text).map_err(|e| BrokerError::bad_field(field, e.to_string()))
}

/// The pacticipant and its version `number`, or 404 naming what is missing.
pub fn find_version(
    conn: &mut AnyConnection,
    pacticipant: &str,
    number: &str,
) -> Result<(Pacticipant, Version), BrokerError> {
    let p = crate::api::pacticipants::find_required(conn, pacticipant)?;
    let v = versions::find_by_number(conn, p.id, number)?.ok_or_else(|| {
        BrokerError::not_found(format!("Version '{number}' of pacticipant '{pacticipant}'"))
    })?;
    Ok((p, v))
}

/// `base/pacticipants/P/versions/V` + `rest`.
pub fn version_url(base: &BaseUrl, pacticipant: &str, number: &str, rest: &[&str]) -> String {
    let mut segs = vec!["pacticipants", pacticipant, "versions", number];
    segs.extend_from_slice(rest);
    base.url(&segs)
}

/// Everything the full version resource shows.
#[derive(Debug)]
pub struct VersionView {
    pub pacticipant: Pacticipant,
    pub version: Version,
    pub tags: Vec<Tag>,
    pub branches: Vec<String>,
    /// Every environment (one record-deployment/record-release link each).
    pub environments: Vec<Environment>,
    pub providers: Vec<String>,
    /// Environments the version is currently deployed to / released in.
    pub deployed_to: Vec<i64>,
    pub released_in: Vec<i64>,
}

impl VersionView {
    /// Loads the view of `version`.
    pub fn load(
        conn: &mut AnyConnection,
        pacticipant: Pacticipant,
        version: Version,
    ) -> Result<VersionView, BrokerError> {
        let id = version.id;
        Ok(VersionView {
            tags: tags::list_for_version(conn, id)?,
            branches: branches::names_for_version(conn, id)?,
            environments: environments::list(conn)?,
            providers: versions::provider_names_for_consumer_version(conn, id)?,
            deployed_to: deployments::currently_deployed_for_version(conn, id)?
                .into_iter()
                .map(|d| d.environment_id)
                .collect(),
            released_in: releases::currently_supported_for_version(conn, id)?
                .into_iter()
                .map(|r| r.environment_id)
                .collect(),
            pacticipant,
            version,
        })
    }
}

/// `_embedded` of a version: its tags and branch versions.
fn embedded(base: &BaseUrl, p: &str, v: &Version, tags: &[Tag], branches: &[String]) -> Value {
    let tags: Vec<Value> = tags
        .iter()
        .map(|t| crate::api::tags::tag_summary_json(base, p, &v.number, &t.name))
        .collect();
    let branch_versions: Vec<Value> = branches
        .iter()
        .map(|b| {
            json!({
                "name": b,
                "_links": { "self": Link::new(base.url(&[
                    "pacticipants", p, "branches", b, "versions", &v.number,
                ])).title("Branch version").name(b.clone()).to_value() },
            })
        })
        .collect();
    json!({ "tags": tags, "branchVersions": branch_versions, "branches": branch_versions })
}

/// A version in a list (tags and branches embedded, no environment links).
pub fn version_summary_json(
    base: &BaseUrl,
    p: &str,
    v: &Version,
    tags: &[Tag],
    branches: &[String],
) -> Value {
    json!({
        "number": v.number,
        "buildUrl": v.build_url,
        "createdAt": crate::api::time(v.created_at),
        "_embedded": embedded(base, p, v, tags, branches),
        "_links": {
            "self": Link::new(version_url(base, p, &v.number, &[]))
                .title("Version").name(v.number.clone()).to_value(),
        },
    })
}

/// One link per environment (all of them, or only those in `only`) to
/// `…/versions/V/{kind}/environment/{uuid}`, named after the environment.
fn environment_links(
    base: &BaseUrl,
    view: &VersionView,
    kind: &str,
    title: &str,
    only: Option<&[i64]>,
) -> Vec<Link> {
    let (p, n) = (view.pacticipant.name.as_str(), view.version.number.as_str());
    view.environments
        .iter()
        .filter(|e| only.is_none_or(|ids| ids.contains(&e.id)))
        .map(|e| {
            let label = e.display_name.as_deref().unwrap_or(&e.name);
            Link::new(version_url(base, p, n, &[kind, "environment", &e.uuid]))
                .title(format!("{title} {label}"))
                .name(e.name.clone())
        })
        .collect()
}

/// The pacts this version published, one link per provider.
fn pact_links(base: &BaseUrl, view: &VersionView) -> Vec<Link> {
    let (p, n) = (view.pacticipant.name.as_str(), view.version.number.as_str());
    view.providers
        .iter()
        .map(|provider| {
            Link::new(base.url(&["pacts", "provider", provider, "consumer", p, "version", n]))
                .title("Pact")
                .name(format!("Pact between {p} ({n}) and {provider}"))
        })
        .collect()
}

/// The full version resource.
pub fn version_json(base: &BaseUrl, view: &VersionView) -> Value {
    let p = view.pacticipant.name.as_str();
    let v = &view.version;
    let links = version_links(base, view);
    json!({
        "number": v.number,
        "buildUrl": v.build_url,
        "createdAt": crate::api::time(v.created_at),
        "_embedded": embedded(base, p, v, &view.tags, &view.branches),
        "_links": links.into_value(),
    })
}

/// The `_links` of a version resource.
fn version_links(base: &BaseUrl, view: &VersionView) -> Links {
    let p = view.pacticipant.name.as_str();
    let n = view.version.number.as_str();
    let me = version_url(base, p, n, &[]);
    let latest_results = [
        "verification-results",
        "consumer",
        p,
        "version",
        n,
        "latest",
    ];
    let envs = |kind, title, only| environment_links(base, view, kind, title, only);
    Links::new()
        .add("self", Link::new(me.clone()).title("Version").name(n))
        .add(
            "pb:pacticipant",
            Link::new(base.url(&["pacticipants", p]))
                .title("Pacticipant")
                .name(p),
        )
        .add(
            "pb:tag",
            Link::new(format!("{me}/tags/{{tag}}"))
                .title("Get, create or delete a tag for this pacticipant version")
                .templated(),
        )
        .add(
            "pb:latest-verification-results-where-pacticipant-is-consumer",
            Link::new(base.url(&latest_results))
                .title("Latest verification results for consumer version"),
        )
        .add(
            "pb:declarations",
            Link::new(format!("{me}/declarations"))
                .title("What this version declares: its Agent Card, its MCP tools per profile"),
        )
        .add(
            "accord:evaluations",
            Link::new(format!("{me}/evaluations"))
                .title("Evaluation results (scores on data sets; not contract evidence)"),
        )
        .add_array("pb:pact-versions", pact_links(base, view))
        .add_array(
            "pb:deployed-environments",
            envs("deployed-versions", "Deployed to", Some(&view.deployed_to)),
        )
        .add_array(
            "pb:released-environments",
            envs("released-versions", "Released to", Some(&view.released_in)),
        )
        .add_array(
            "pb:record-deployment",
            envs("deployed-versions", "Record deployment to", None),
        )
        .add_array(
            "pb:record-release",
            envs("released-versions", "Record release to", None),
        )
}
