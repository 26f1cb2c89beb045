//! Consumer version selectors: the wire form a verifier sends, and the
//! typed form after the validation rules of the Pact Broker (reference
//! §3.4). A typed `Selector` cannot express a combination Pact refuses.

use serde::Deserialize;

use super::rules;
use crate::error::FieldError;
use crate::names::{BranchName, EnvironmentName, NameError, PacticipantName, TagName};

/// One selector as sent (camelCase keys; absent keys are `None`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectorRequest {
    pub main_branch: Option<bool>,
    pub branch: Option<String>,
    pub matching_branch: Option<bool>,
    pub fallback_branch: Option<String>,
    pub tag: Option<String>,
    pub fallback_tag: Option<String>,
    pub latest: Option<bool>,
    pub deployed: Option<bool>,
    pub released: Option<bool>,
    pub deployed_or_released: Option<bool>,
    pub environment: Option<String>,
    pub consumer: Option<String>,
}

/// Which consumer versions a selector picks (before `consumer` narrows it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Criterion {
    /// The head of each consumer's configured main branch.
    MainBranch,
    /// The head of branch `name`; if that head has no pact for the
    /// provider, the head of `fallback` (Pact validates but ignores it).
    Branch {
        name: BranchName,
        fallback: Option<BranchName>,
    },
    /// The head of the branch named like the provider's branch.
    MatchingBranch { name: BranchName },
    /// Versions tagged `name`: the latest only, or all of them; `fallback`
    /// is tried when the latest tagged version has no pact.
    Tag {
        name: TagName,
        latest: bool,
        fallback: Option<TagName>,
    },
    /// The latest version of each consumer that has a pact.
    Latest,
    /// Versions currently deployed (to `environment`, or anywhere).
    Deployed {
        environment: Option<EnvironmentName>,
    },
    /// Versions released and still supported.
    Released {
        environment: Option<EnvironmentName>,
    },
    /// Deployed or released.
    DeployedOrReleased {
        environment: Option<EnvironmentName>,
    },
}

/// A validated selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    pub criterion: Criterion,
    /// Only this consumer's versions.
    pub consumer: Option<PacticipantName>,
}

impl Criterion {
    /// The environment the selector names, if any (it must exist).
    pub fn environment(&self) -> Option<&EnvironmentName> {
        match self {
            Criterion::Deployed { environment }
            | Criterion::Released { environment }
            | Criterion::DeployedOrReleased { environment } => environment.as_ref(),
            _ => None,
        }
    }
}

/// Collects the errors of one selector, each under its JSON path.
struct Check<'a> {
    path: String,
    errors: &'a mut Vec<FieldError>,
}

impl Check<'_> {
    fn fail(&mut self, message: &str) {
        self.errors
            .push(FieldError::new(self.path.clone(), message.to_owned()));
    }

    fn name<T>(
        &mut self,
        key: &str,
        raw: &Option<String>,
        parse: fn(&str) -> Result<T, NameError>,
    ) -> Option<T> {
        let raw = raw.as_ref()?;
        match parse(raw) {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors.push(FieldError::new(
                    format!("{}.{key}", self.path),
                    e.to_string(),
                ));
                None
            }
        }
    }
}

/// Validates selector `index` of the request; `provider_branch` is the
/// request's `providerVersionBranch` (needed by `matchingBranch`).
pub fn parse_selector(
    index: usize,
    raw: &SelectorRequest,
    provider_branch: Option<&BranchName>,
    errors: &mut Vec<FieldError>,
) -> Option<Selector> {
    let before = errors.len();
    let mut check = Check {
        path: format!("$.consumerVersionSelectors[{index}]"),
        errors,
    };
    for message in rules::combination_errors(raw, provider_branch.is_some()) {
        check.fail(&message);
    }
    let consumer = check.name("consumer", &raw.consumer, PacticipantName::parse);
    let branch = check.name("branch", &raw.branch, BranchName::parse);
    let fallback_branch = check.name("fallbackBranch", &raw.fallback_branch, BranchName::parse);
    let tag = check.name("tag", &raw.tag, TagName::parse);
    let fallback_tag = check.name("fallbackTag", &raw.fallback_tag, TagName::parse);
    let environment = check.name("environment", &raw.environment, EnvironmentName::parse);
    if check.errors.len() > before {
        return None;
    }
    let criterion = if raw.main_branch == Some(true) {
        Criterion::MainBranch
    } else if raw.matching_branch == Some(true) {
        Criterion::MatchingBranch {
            name: provider_branch?.clone(),
        }
    } else if let Some(name) = branch {
        Criterion::Branch {
            name,
            fallback: fallback_branch,
        }
    } else if let Some(name) = tag {
        Criterion::Tag {
            name,
            latest: raw.latest == Some(true),
            fallback: fallback_tag,
        }
    } else if raw.deployed == Some(true) {
        Criterion::Deployed { environment }
    } else if raw.released == Some(true) {
        Criterion::Released { environment }
    } else if raw.deployed_or_released == Some(true) || environment.is_some() {
        Criterion::DeployedOrReleased { environment }
    } else {
        Criterion::Latest
    };
    Some(Selector {
        criterion,
        consumer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(
        json: serde_json::Value,
        provider_branch: Option<&str>,
    ) -> Result<Selector, Vec<FieldError>> {
        let raw: SelectorRequest = serde_json::from_value(json).expect("wire form");
        let branch = provider_branch.map(|b| BranchName::parse(b).expect("branch"));
        let mut errors = Vec::new();
        match parse_selector(1, &raw, branch.as_ref(), &mut errors) {
            Some(s) if errors.is_empty() => Ok(s),
            _ => Err(errors),
        }
    }

    fn refused(json: serde_json::Value) -> String {
        let errors = parse(json, None).expect_err("refused");
        assert!(
            errors
                .iter()
                .all(|e| e.field.starts_with("$.consumerVersionSelectors[1]"))
        );
        errors
            .iter()
            .map(|e| e.message.clone())
            .collect::<Vec<_>>()
            .join("; ")
    }

    #[test]
    fn a_selector_without_any_criterion_is_refused() {
        assert!(refused(serde_json::json!({"consumer": "Foo"})).contains("must specify"));
        assert!(refused(serde_json::json!({})).contains("must specify"));
    }

    #[test]
    fn boolean_keys_accept_only_true() {
        assert!(
            refused(serde_json::json!({"mainBranch": false}))
                .contains("mainBranch can only be set to true")
        );
        assert!(
            refused(serde_json::json!({"deployed": false, "environment": "prod"}))
                .contains("deployed can only")
        );
    }

    #[test]
    fn branch_keys_and_environment_keys_do_not_mix() {
        assert!(
            refused(serde_json::json!({"branch": "main", "environment": "prod"}))
                .contains("cannot specify")
        );
        assert!(
            refused(serde_json::json!({"latest": true, "deployed": true}))
                .contains("cannot specify")
        );
    }

    #[test]
    fn main_branch_combines_only_with_consumer_and_latest() {
        assert!(
            parse(
                serde_json::json!({"mainBranch": true, "latest": true, "consumer": "Foo"}),
                None
            )
            .is_ok()
        );
        assert!(
            refused(serde_json::json!({"mainBranch": true, "tag": "x"}))
                .contains("mainBranch can only be combined")
        );
    }

    #[test]
    fn matching_branch_needs_the_provider_branch() {
        assert!(
            refused(serde_json::json!({"matchingBranch": true}))
                .contains("requires providerVersionBranch")
        );
        let s = parse(serde_json::json!({"matchingBranch": true}), Some("feat-x")).expect("valid");
        assert_eq!(
            s.criterion,
            Criterion::MatchingBranch {
                name: BranchName::parse("feat-x").expect("name")
            }
        );
    }

    #[test]
    fn tag_and_branch_together_are_refused() {
        assert!(
            refused(serde_json::json!({"tag": "a", "branch": "b"}))
                .contains("both a tag and a branch")
        );
    }

    #[test]
    fn a_branch_with_latest_false_is_refused() {
        assert!(
            refused(serde_json::json!({"branch": "b", "latest": false}))
                .contains("latest cannot be false")
        );
    }

    #[test]
    fn fallback_tag_needs_tag_and_latest() {
        assert!(
            refused(serde_json::json!({"tag": "a", "fallbackTag": "b"})).contains("fallbackTag")
        );
        let s = parse(
            serde_json::json!({"tag": "a", "latest": true, "fallbackTag": "b"}),
            None,
        )
        .expect("valid");
        assert!(matches!(
            s.criterion,
            Criterion::Tag {
                latest: true,
                fallback: Some(_),
                ..
            }
        ));
    }

    #[test]
    fn fallback_branch_needs_branch() {
        assert!(
            refused(serde_json::json!({"tag": "a", "latest": true, "fallbackBranch": "main"}))
                .contains("fallbackBranch")
        );
        let s = parse(
            serde_json::json!({"branch": "feat", "fallbackBranch": "main"}),
            None,
        )
        .expect("valid");
        assert!(matches!(
            s.criterion,
            Criterion::Branch {
                fallback: Some(_),
                ..
            }
        ));
    }

    #[test]
    fn an_environment_alone_means_deployed_or_released_there() {
        let s = parse(serde_json::json!({"environment": "production"}), None).expect("valid");
        assert!(matches!(
            s.criterion,
            Criterion::DeployedOrReleased {
                environment: Some(_)
            }
        ));
        let s = parse(
            serde_json::json!({"deployed": true, "environment": "production"}),
            None,
        )
        .expect("valid");
        assert!(matches!(
            s.criterion,
            Criterion::Deployed {
                environment: Some(_)
            }
        ));
    }

    #[test]
    fn a_tag_without_latest_selects_every_tagged_version() {
        let s = parse(serde_json::json!({"tag": "prod"}), None).expect("valid");
        assert!(matches!(s.criterion, Criterion::Tag { latest: false, .. }));
        let s = parse(serde_json::json!({"latest": true, "consumer": "Foo"}), None).expect("valid");
        assert_eq!(s.criterion, Criterion::Latest);
        assert_eq!(s.consumer.map(|c| c.to_string()), Some("Foo".into()));
    }

    #[test]
    fn a_blank_name_is_reported_under_its_key() {
        let errors = parse(serde_json::json!({"tag": " "}), None).expect_err("refused");
        assert_eq!(errors[0].field, "$.consumerVersionSelectors[1].tag");
    }
}
