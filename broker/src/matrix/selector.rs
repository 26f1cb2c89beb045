//! Typed matrix selectors and options, parsed once from a `RackQuery`
//! (`/matrix`) or from can-i-deploy's flat parameters. Every validation
//! error names the parameter at fault.

use crate::error::BrokerError;
use crate::matrix::query::{Element, RackQuery, get};
use crate::names::PacticipantName;
use crate::selection::request::{MAX_SELECTORS, dedup_keep_first};

/// Which versions of a pacticipant a selector means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionSpec {
    /// Every version (only the pacticipant was named).
    Any,
    /// The version with this number.
    Number(String),
    /// The most recently created version.
    Latest,
    /// Versions with this tag (all, or only the latest).
    Tag { tag: String, latest: bool },
    /// Versions on this branch (all, or only the head).
    Branch { branch: String, latest: bool },
    /// Versions on the pacticipant's main branch (all, or only the head).
    MainBranch { latest: bool },
    /// Versions currently deployed to, or released and supported in, an environment.
    Environment(String),
}

/// A selector: a pacticipant and which of its versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    pub pacticipant: PacticipantName,
    pub spec: VersionSpec,
}

/// What to deploy to (the other pacticipants get inferred selectors of this kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Environment(String),
    Tag { tag: String, latest: bool },
    Branch { branch: String, latest: bool },
    MainBranch { latest: bool },
    Latest,
}

impl Target {
    /// The selector spec inferred for an integrated pacticipant.
    pub fn spec(&self) -> VersionSpec {
        match self {
            Target::Environment(e) => VersionSpec::Environment(e.clone()),
            Target::Tag { tag, latest } => VersionSpec::Tag {
                tag: tag.clone(),
                latest: *latest,
            },
            Target::Branch { branch, latest } => VersionSpec::Branch {
                branch: branch.clone(),
                latest: *latest,
            },
            Target::MainBranch { latest } => VersionSpec::MainBranch { latest: *latest },
            Target::Latest => VersionSpec::Latest,
        }
    }
}

/// How rows are collapsed: by consumer+consumer version+provider+provider
/// version, by consumer+consumer version+provider, or by consumer+provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LatestBy {
    Cvpv,
    Cvp,
    Cp,
}

/// A pacticipant (and optionally one version) whose failures do not block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoreSelector {
    pub pacticipant: String,
    pub version: Option<String>,
}

/// A whole matrix query (the default: no selector, target, filter or limit).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatrixQuery {
    pub selectors: Vec<Selector>,
    pub target: Option<Target>,
    pub latestby: Option<LatestBy>,
    /// `success[]` filter: Some(true), Some(false), None (unverified).
    pub success: Option<Vec<Option<bool>>>,
    /// Rows shown at most; never applied before the decision.
    pub limit: Option<usize>,
    pub ignore: Vec<IgnoreSelector>,
}

fn is_true(v: Option<&str>) -> bool {
    v == Some("true")
}

fn non_blank(v: Option<&str>) -> Option<String> {
    v.map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// Parses one `q[]` element.
fn parse_selector(e: &Element) -> Result<Selector, BrokerError> {
    let name = non_blank(get(e, "pacticipant")).ok_or_else(|| {
        BrokerError::bad_field("q[][pacticipant]", "Please enter the pacticipant name")
    })?;
    let pacticipant = PacticipantName::parse(&name)
        .map_err(|err| BrokerError::bad_field("q[][pacticipant]", err.to_string()))?;
    let version = non_blank(get(e, "version"));
    let latest = is_true(get(e, "latest"));
    let tag = non_blank(get(e, "tag"));
    let branch = non_blank(get(e, "branch"));
    let main_branch = is_true(get(e, "mainBranch"));
    let environment = non_blank(get(e, "environment"));
    if version.is_some() && latest {
        return Err(BrokerError::bad_field(
            "q[][latest]",
            format!("A version number and latest flag cannot both be specified for {name}"),
        ));
    }
    let kinds = [
        version.is_some(),
        tag.is_some(),
        branch.is_some(),
        main_branch,
        environment.is_some(),
    ];
    if kinds.iter().filter(|k| **k).count() > 1 {
        return Err(BrokerError::bad_field(
            "q[]",
            format!(
                "Only one of version, tag, branch, mainBranch and environment may be given for {name}"
            ),
        ));
    }
    let spec = match (version, tag, branch, environment) {
        (Some(v), ..) => VersionSpec::Number(v),
        (_, Some(tag), ..) => VersionSpec::Tag { tag, latest },
        (_, _, Some(branch), _) => VersionSpec::Branch { branch, latest },
        (_, _, _, Some(env)) if latest => {
            return Err(BrokerError::bad_field(
                "q[][latest]",
                format!("latest cannot be used with environment ({env}) for {name}"),
            ));
        }
        (_, _, _, Some(env)) => VersionSpec::Environment(env),
        _ if main_branch => VersionSpec::MainBranch { latest },
        _ if latest => VersionSpec::Latest,
        _ => VersionSpec::Any,
    };
    Ok(Selector { pacticipant, spec })
}

/// Parses the target options (`latest`, `tag`, `branch`, `environment`, `mainBranch`).
fn parse_target(q: &RackQuery) -> Result<Option<Target>, BrokerError> {
    let latest = is_true(q.scalar("latest"));
    let tag = non_blank(q.scalar("tag"));
    let branch = non_blank(q.scalar("branch"));
    let environment = non_blank(q.scalar("environment"));
    let main_branch = is_true(q.scalar("mainBranch"));
    let given = [
        tag.is_some(),
        branch.is_some(),
        environment.is_some(),
        main_branch,
    ];
    if given.iter().filter(|g| **g).count() > 1 {
        return Err(BrokerError::bad_field(
            "environment",
            "Only one of tag, branch, environment and mainBranch may be specified",
        ));
    }
    if latest && environment.is_some() {
        return Err(BrokerError::bad_field(
            "latest",
            "latest=true cannot be used with environment (every version currently in the environment is considered)",
        ));
    }
    Ok(match (tag, branch, environment) {
        (Some(tag), ..) => Some(Target::Tag { tag, latest }),
        (_, Some(branch), _) => Some(Target::Branch { branch, latest }),
        (_, _, Some(env)) => Some(Target::Environment(env)),
        _ if main_branch => Some(Target::MainBranch { latest }),
        _ if latest => Some(Target::Latest),
        _ => None,
    })
}

fn parse_latestby(v: Option<&str>) -> Result<Option<LatestBy>, BrokerError> {
    match v.map(str::trim) {
        None | Some("") => Ok(None),
        Some("cvpv") => Ok(Some(LatestBy::Cvpv)),
        Some("cvp") => Ok(Some(LatestBy::Cvp)),
        Some("cp") => Ok(Some(LatestBy::Cp)),
        Some(other) => Err(BrokerError::bad_field(
            "latestby",
            format!("must be cvpv, cvp or cp, not {other:?}"),
        )),
    }
}

fn parse_limit(v: Option<&str>) -> Result<Option<usize>, BrokerError> {
    let Some(text) = v.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    match text.parse::<i64>() {
        Ok(n) if n >= 1 => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
        _ => Err(BrokerError::bad_field(
            "limit",
            "must be an integer greater than 0",
        )),
    }
}

fn parse_success(values: &[String]) -> Result<Option<Vec<Option<bool>>>, BrokerError> {
    if values.is_empty() {
        return Ok(None);
    }
    values
        .iter()
        .map(|v| match v.as_str() {
            "true" => Ok(Some(true)),
            "false" => Ok(Some(false)),
            "" => Ok(None),
            other => Err(BrokerError::bad_field(
                "success[]",
                format!("must be true, false or empty, not {other:?}"),
            )),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Ignore selectors from `ignore[]=Name` and `ignore[][pacticipant]=…&ignore[][version]=…`.
pub fn parse_ignore(q: &RackQuery) -> Result<Vec<IgnoreSelector>, BrokerError> {
    let mut all: Vec<IgnoreSelector> = q
        .values("ignore")
        .iter()
        .filter_map(|v| non_blank(Some(v)))
        .map(|pacticipant| IgnoreSelector {
            pacticipant,
            version: None,
        })
        .collect();
    for e in q.elements("ignore") {
        let pacticipant = non_blank(get(e, "pacticipant")).ok_or_else(|| {
            BrokerError::bad_field("ignore[][pacticipant]", "Please enter the pacticipant name")
        })?;
        all.push(IgnoreSelector {
            pacticipant,
            version: non_blank(get(e, "version")),
        });
    }
    Ok(all)
}

impl MatrixQuery {
    /// The query of `GET /matrix`.
    pub fn from_matrix_query(q: &RackQuery) -> Result<MatrixQuery, BrokerError> {
        let selectors = q
            .elements("q")
            .iter()
            .map(parse_selector)
            .collect::<Result<Vec<_>, _>>()?;
        if selectors.is_empty() {
            return Err(BrokerError::bad_field(
                "q",
                "Please provide 1 or more version selectors",
            ));
        }
        let ignore = parse_ignore(q)?;
        for (field, count) in [("q", selectors.len()), ("ignore", ignore.len())] {
            if count > MAX_SELECTORS {
                return Err(BrokerError::bad_field(
                    field,
                    format!("has {count} selectors; at most {MAX_SELECTORS} are accepted"),
                ));
            }
        }
        Ok(MatrixQuery {
            selectors: dedup_keep_first(selectors),
            target: parse_target(q)?,
            latestby: parse_latestby(q.scalar("latestby"))?,
            success: parse_success(q.values("success"))?,
            limit: parse_limit(q.scalar("limit"))?,
            ignore,
        })
    }

    /// The query of `GET /can-i-deploy?pacticipant=&version=&environment=|to=`:
    /// an environment is checked with `cvpv` (every live version counts), a
    /// tag with the latest tagged version and `cvp`. No limit.
    pub fn from_can_i_deploy(q: &RackQuery) -> Result<MatrixQuery, BrokerError> {
        let name = non_blank(q.scalar("pacticipant"))
            .ok_or_else(|| BrokerError::bad_field("pacticipant", "is required"))?;
        let pacticipant = PacticipantName::parse(&name)
            .map_err(|err| BrokerError::bad_field("pacticipant", err.to_string()))?;
        let version = non_blank(q.scalar("version"))
            .ok_or_else(|| BrokerError::bad_field("version", "is required"))?;
        let environment = non_blank(q.scalar("environment"));
        let to = non_blank(q.scalar("to")).or_else(|| non_blank(q.scalar("tag")));
        let (target, latestby) = match (environment, to) {
            (Some(_), Some(_)) => {
                return Err(BrokerError::bad_field(
                    "environment",
                    "give either environment or to, not both",
                ));
            }
            (Some(env), None) => (Target::Environment(env), LatestBy::Cvpv),
            (None, Some(tag)) => (Target::Tag { tag, latest: true }, LatestBy::Cvp),
            (None, None) => {
                return Err(BrokerError::bad_field(
                    "environment",
                    "one of environment or to is required",
                ));
            }
        };
        Ok(MatrixQuery {
            selectors: vec![Selector {
                pacticipant,
                spec: VersionSpec::Number(version),
            }],
            target: Some(target),
            latestby: Some(latestby),
            ignore: parse_ignore(q)?,
            ..MatrixQuery::default()
        })
    }
}

#[cfg(test)]
#[path = "selector_tests.rs"]
mod tests;
