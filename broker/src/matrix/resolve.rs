//! Resolving selectors into versions, finding the integrations a query
//! involves, and inferring selectors for the target (§3.2 steps 1–3).

use std::collections::BTreeMap;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::matrix::selector::{Selector, Target, VersionSpec};
use crate::store::matrix::{self as q, VersionRef};
use crate::store::{environments, pacticipants};

/// A selector with its pacticipant and versions looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub pacticipant_id: i64,
    pub pacticipant_name: String,
    pub spec: VersionSpec,
    /// `None`: any version; `Some(empty)`: no version matches.
    pub versions: Option<Vec<VersionRef>>,
    /// Given by the user (true) or inferred from the target (false).
    pub specified: bool,
}

impl Resolved {
    /// True unless the selector names versions and none exist.
    pub fn exists(&self) -> bool {
        self.versions.as_ref().is_none_or(|v| !v.is_empty())
    }

    /// True when `version_id` is one of the selected versions.
    pub fn covers(&self, version_id: i64) -> bool {
        self.versions
            .as_ref()
            .is_none_or(|v| v.iter().any(|x| x.id == version_id))
    }
}

/// A consumer–provider pair the query involves. `required`: the consumer
/// versions selected have a pact with that provider, so the provider must
/// have verified it (a provider does not need its consumers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Integration {
    pub consumer_id: i64,
    pub provider_id: i64,
    pub required: bool,
}

/// Which parameter a validation error names.
#[derive(Debug, Clone, Copy)]
pub struct Fields {
    pub pacticipant: &'static str,
    pub environment: &'static str,
}

impl Fields {
    /// The flat parameter names of can-i-deploy (also used where the
    /// selectors come from a path: the pair matrix, badges).
    pub const FLAT: Fields = Fields {
        pacticipant: "pacticipant",
        environment: "environment",
    };
}

/// Resolves one user-given selector; an unknown pacticipant or environment is a 400.
pub fn resolve_specified(
    conn: &mut AnyConnection,
    selector: &Selector,
    fields: Fields,
) -> Result<Resolved, BrokerError> {
    let name = selector.pacticipant.as_str();
    let not_found =
        || BrokerError::bad_field(fields.pacticipant, format!("Pacticipant {name} not found"));
    let (id, name, versions) = match &selector.spec {
        // the commonest selector: pacticipant and version in one statement
        VersionSpec::Number(n) => {
            let ((id, name, _), version) =
                q::pacticipant_with_version(conn, name, n)?.ok_or_else(not_found)?;
            (id, name, Some(version.into_iter().collect()))
        }
        spec => {
            let p = pacticipants::find_by_name(conn, name)?.ok_or_else(not_found)?;
            let versions = versions_for(conn, p.id, p.main_branch.as_deref(), spec, fields)?;
            (p.id, p.name, versions)
        }
    };
    Ok(Resolved {
        pacticipant_id: id,
        pacticipant_name: name,
        spec: selector.spec.clone(),
        versions,
        specified: true,
    })
}

/// The versions a spec selects for a pacticipant (`None` = any).
fn versions_for(
    conn: &mut AnyConnection,
    pacticipant_id: i64,
    main_branch: Option<&str>,
    spec: &VersionSpec,
    fields: Fields,
) -> Result<Option<Vec<VersionRef>>, BrokerError> {
    let found = match spec {
        VersionSpec::Any => return Ok(None),
        VersionSpec::Number(n) => q::version_by_number(conn, pacticipant_id, n)?
            .into_iter()
            .collect(),
        VersionSpec::Latest => q::latest_version(conn, pacticipant_id)?
            .into_iter()
            .collect(),
        VersionSpec::Tag { tag, latest } => {
            q::versions_with_tag(conn, pacticipant_id, tag, *latest)?
        }
        VersionSpec::Branch { branch, latest } => {
            q::versions_on_branch(conn, pacticipant_id, branch, *latest)?
        }
        VersionSpec::MainBranch { latest } => match main_branch {
            Some(branch) => q::versions_on_branch(conn, pacticipant_id, branch, *latest)?,
            None => Vec::new(),
        },
        VersionSpec::Environment(env) => {
            let env_id = environment_id(conn, env, fields)?;
            q::versions_in_environment(conn, &[pacticipant_id], env_id)?
        }
    };
    Ok(Some(found))
}

fn environment_id(
    conn: &mut AnyConnection,
    name: &str,
    fields: Fields,
) -> Result<i64, BrokerError> {
    Ok(environments::find_by_name(conn, name)?
        .ok_or_else(|| {
            BrokerError::bad_field(
                fields.environment,
                format!("Environment with name '{name}' does not exist"),
            )
        })?
        .id)
}

/// The integrations of the specified selectors (§3.2 step 2). With several
/// selectors and no target, only the pairs among the specified pacticipants.
pub fn integrations(
    conn: &mut AnyConnection,
    specified: &[Resolved],
    infer: bool,
) -> Result<Vec<Integration>, BrokerError> {
    let mut pairs: BTreeMap<(i64, i64), bool> = BTreeMap::new();
    for s in specified {
        for (c, p, required) in pairs_of(conn, s)? {
            *pairs.entry((c, p)).or_insert(false) |= required;
        }
    }
    let named: Vec<i64> = specified.iter().map(|s| s.pacticipant_id).collect();
    Ok(pairs
        .into_iter()
        .filter(|((c, p), _)| infer || (named.contains(c) && named.contains(p)))
        .map(|((consumer_id, provider_id), required)| Integration {
            consumer_id,
            provider_id,
            required,
        })
        .collect())
}

/// (consumer, provider, required) of one selector: as consumer, the
/// providers its selected versions have pacts with (required) or any
/// version's (not required, for "any version"); as provider, every
/// consumer that ever published a pact with it.
fn pairs_of(conn: &mut AnyConnection, s: &Resolved) -> Result<Vec<(i64, i64, bool)>, BrokerError> {
    let id = s.pacticipant_id;
    let as_consumer: Vec<(i64, i64, bool)> = match &s.versions {
        Some(vs) if !vs.is_empty() => {
            let ids: Vec<i64> = vs.iter().map(|v| v.id).collect();
            return Ok(q::pairs_of_versions(conn, id, &ids)?);
        }
        Some(_) => Vec::new(),
        None => q::providers_of(conn, id)?
            .into_iter()
            .map(|p| (id, p, false))
            .collect(),
    };
    let as_provider = q::consumers_of(conn, id)?
        .into_iter()
        .map(|c| (c, id, false));
    Ok(as_consumer.into_iter().chain(as_provider).collect())
}

/// Selectors of the target's kind for every integrated pacticipant that was
/// not specified (§3.2 step 3).
pub fn infer(
    conn: &mut AnyConnection,
    specified: &[Resolved],
    integrations: &[Integration],
    target: &Target,
    fields: Fields,
) -> Result<Vec<Resolved>, BrokerError> {
    let mut others: Vec<i64> = integrations
        .iter()
        .flat_map(|i| [i.consumer_id, i.provider_id])
        .filter(|id| !specified.iter().any(|s| s.pacticipant_id == *id))
        .collect();
    others.sort_unstable();
    others.dedup();
    let spec = target.spec();
    // One query for the whole environment (the common, hot case).
    let in_env: Option<Vec<VersionRef>> = match &spec {
        VersionSpec::Environment(env) => {
            let env_id = environment_id(conn, env, fields)?;
            Some(q::versions_in_environment(conn, &others, env_id)?)
        }
        _ => None,
    };
    let mut inferred = Vec::with_capacity(others.len());
    for (id, name, main_branch) in q::pacticipants_by_ids(conn, &others)? {
        let versions = match &in_env {
            Some(all) => Some(
                all.iter()
                    .filter(|v| v.pacticipant_id == id)
                    .cloned()
                    .collect(),
            ),
            None => versions_for(conn, id, main_branch.as_deref(), &spec, fields)?,
        };
        inferred.push(Resolved {
            pacticipant_id: id,
            pacticipant_name: name,
            spec: spec.clone(),
            versions,
            specified: false,
        });
    }
    Ok(inferred)
}
