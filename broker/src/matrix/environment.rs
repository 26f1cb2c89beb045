//! The common case in one statement: one version of one pacticipant to an
//! environment — `/can-i-deploy?…&environment=` and the Pact CLI's
//! `/matrix?q[][pacticipant]=…&q[][version]=…&environment=`. The facts come
//! from `store::matrix_env` (one statement) and are turned here into what
//! the general path (`resolve`, then `rows::load_between`) would have
//! loaded, plus the details of the rows and the version's admission state,
//! so `run` answers exactly as before with no other statement (a partial
//! Pact-view success still asks for its whole-contract result, as before).

use std::collections::BTreeMap;

use crate::admission::AdmissionState;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::matrix::resolve::{Fields, Integration, Resolved};
use crate::matrix::rows;
use crate::matrix::selector::{MatrixQuery, Selector, Target, VersionSpec};
use crate::matrix::{Details, Loaded};
use crate::store::matrix_env::{self, EnvironmentFacts};
use crate::store::{admission, coverage};

/// What the one statement answers besides the rows.
#[derive(Debug)]
pub struct Prefetched {
    /// Branches, tags, environments and shas of every row's versions and contents.
    pub details: Details,
    /// The quarantined specified versions, with the quarantine's reason.
    pub quarantined: Vec<(i64, String)>,
}

/// The selector, version number and environment when `query` is the
/// common case this module answers.
pub fn shape(query: &MatrixQuery) -> Option<(&Selector, &str, &str)> {
    let [selector] = query.selectors.as_slice() else {
        return None;
    };
    match (&selector.spec, &query.target) {
        (VersionSpec::Number(n), Some(Target::Environment(env))) => Some((selector, n, env)),
        _ => None,
    }
}

/// Selectors (the given one, then one inferred per integrated
/// pacticipant), integrations, rows (before `latestby`) and the prefetched
/// facts, from one statement.
pub fn load(
    conn: &mut AnyConnection,
    (selector, number, env): (&Selector, &str, &str),
    fields: Fields,
) -> Result<Loaded, BrokerError> {
    let name = selector.pacticipant.as_str();
    let mut facts = matrix_env::load(conn, name, number, env)?;
    let Some((id, found_name, version)) = facts.asked.take() else {
        return Err(BrokerError::bad_field(
            fields.pacticipant,
            format!("Pacticipant {name} not found"),
        ));
    };
    if facts.environment_id.is_none() {
        return Err(BrokerError::bad_field(
            fields.environment,
            format!("Environment with name '{env}' does not exist"),
        ));
    }
    let specified = Resolved {
        pacticipant_id: id,
        pacticipant_name: found_name,
        spec: selector.spec.clone(),
        versions: Some(version.into_iter().collect()),
        specified: true,
    };
    let integrations = integrations(&facts);
    let selectors: Vec<Resolved> = std::iter::once(specified)
        .chain(inferred(&facts, env))
        .collect();
    let scopes = rows::scopes(&selectors);
    let verifications = coverage::prefer_whole(conn, std::mem::take(&mut facts.verifications))?;
    let publications = std::mem::take(&mut facts.publications);
    // every version is in the scopes: `assemble` asks for none
    let rows = rows::assemble(conn, publications, verifications, &scopes)?;
    let prefetched = Prefetched {
        quarantined: quarantined(&selectors, &facts)?,
        details: details(facts),
    };
    Ok(Loaded {
        selectors,
        integrations,
        rows,
        prefetched: Some(prefetched),
    })
}

/// The integrations in (consumer, provider) order, as `resolve::integrations`
/// gives them.
fn integrations(facts: &EnvironmentFacts) -> Vec<Integration> {
    let mut pairs: BTreeMap<(i64, i64), bool> = BTreeMap::new();
    for &(c, p, required) in &facts.integrations {
        *pairs.entry((c, p)).or_insert(false) |= required;
    }
    pairs
        .into_iter()
        .map(|((consumer_id, provider_id), required)| Integration {
            consumer_id,
            provider_id,
            required,
        })
        .collect()
}

/// One selector per integrated pacticipant, by id, with its live versions
/// newest first (as `resolve::infer` gives them).
fn inferred(facts: &EnvironmentFacts, env: &str) -> Vec<Resolved> {
    let mut others = facts.others.clone();
    others.sort_by_key(|(id, _)| *id);
    others.dedup_by_key(|(id, _)| *id);
    let mut live = facts.scope.clone();
    live.sort_by_key(|v| std::cmp::Reverse(v.id));
    live.dedup_by_key(|v| v.id);
    others
        .into_iter()
        .map(|(id, name)| Resolved {
            pacticipant_id: id,
            pacticipant_name: name,
            spec: VersionSpec::Environment(env.to_owned()),
            versions: Some(
                live.iter()
                    .filter(|v| v.pacticipant_id == id)
                    .cloned()
                    .collect(),
            ),
            specified: false,
        })
        .collect()
}

/// The specified version, if its last admission transition quarantined it
/// (`store::admission::quarantined_among`, from the prefetched transition).
fn quarantined(
    selectors: &[Resolved],
    facts: &EnvironmentFacts,
) -> Result<Vec<(i64, String)>, BrokerError> {
    let asked = selectors
        .iter()
        .filter(|s| s.specified)
        .flat_map(|s| s.versions.iter().flatten());
    let mut out = Vec::new();
    for version in asked {
        if let Some((to, reason)) = &facts.last_admission
            && admission::parse_state(to)? == AdmissionState::Quarantined
        {
            out.push((version.id, reason.clone()));
        }
    }
    Ok(out)
}

/// The details in the orders `load_details` reads them: branches and tags
/// oldest entry first, environments sorted and deduplicated.
fn details(facts: EnvironmentFacts) -> Details {
    let mut details = Details::default();
    let mut branches = facts.branches;
    branches.sort_by_key(|(_, order, _)| *order);
    for (v, _, name) in branches {
        details.branches.entry(v).or_default().push(name);
    }
    let mut tags = facts.tags;
    tags.sort_by_key(|(_, order, _)| *order);
    for (v, _, name) in tags {
        details.tags.entry(v).or_default().push(name);
    }
    let mut environments = facts.environments;
    environments.sort();
    environments.dedup();
    for (v, name, deployed) in environments {
        details
            .environments
            .entry(v)
            .or_default()
            .push((name, deployed));
    }
    details.shas.extend(facts.shas);
    details
}
