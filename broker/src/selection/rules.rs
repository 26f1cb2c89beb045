//! Which keys of a consumer version selector may appear together: the
//! Pact Broker's validation rules (reference §3.4), as messages.

use super::selector::SelectorRequest;

/// Every rule `raw` breaks, as a message (empty when it is valid).
pub fn combination_errors(raw: &SelectorRequest, has_provider_branch: bool) -> Vec<String> {
    let mut errors = Vec::new();
    let mut fail = |m: &str| errors.push(m.to_owned());
    let is_true = |v: Option<bool>| v == Some(true);
    for (key, value) in [
        ("mainBranch", raw.main_branch),
        ("matchingBranch", raw.matching_branch),
        ("deployed", raw.deployed),
        ("released", raw.released),
        ("deployedOrReleased", raw.deployed_or_released),
    ] {
        if value == Some(false) {
            fail(&format!("{key} can only be set to true"));
        }
    }
    let anything = is_true(raw.main_branch)
        || raw.tag.is_some()
        || raw.branch.is_some()
        || raw.environment.is_some()
        || is_true(raw.matching_branch)
        || is_true(raw.deployed)
        || is_true(raw.released)
        || is_true(raw.deployed_or_released)
        || is_true(raw.latest);
    if !anything {
        fail(
            "must specify a value for environment or tag or branch, or specify mainBranch=true, \
             matchingBranch=true, latest=true, deployed=true, released=true or deployedOrReleased=true",
        );
    }
    let branch_keys = raw.latest.is_some()
        || raw.tag.is_some()
        || raw.fallback_tag.is_some()
        || raw.branch.is_some()
        || raw.fallback_branch.is_some()
        || raw.matching_branch.is_some()
        || raw.main_branch.is_some();
    let environment_keys = raw.environment.is_some()
        || raw.deployed.is_some()
        || raw.released.is_some()
        || raw.deployed_or_released.is_some();
    if branch_keys && environment_keys {
        fail(
            "cannot specify mainBranch, branch, matchingBranch, tag, fallbackTag, fallbackBranch or \
             latest together with environment, deployed, released or deployedOrReleased",
        );
    }
    let deployment_kinds = [raw.deployed, raw.released, raw.deployed_or_released]
        .iter()
        .filter(|v| is_true(**v))
        .count();
    if deployment_kinds > 1 {
        fail("use only one of deployed, released and deployedOrReleased");
    }
    branch_rule_errors(raw, has_provider_branch, &mut fail);
    errors
}

fn branch_rule_errors(
    raw: &SelectorRequest,
    has_provider_branch: bool,
    fail: &mut dyn FnMut(&str),
) {
    let only_with = |allowed: &[&str]| {
        let present = [
            ("branch", raw.branch.is_some()),
            ("fallbackBranch", raw.fallback_branch.is_some()),
            ("tag", raw.tag.is_some()),
            ("fallbackTag", raw.fallback_tag.is_some()),
            ("latest", raw.latest.is_some()),
            ("matchingBranch", raw.matching_branch.is_some()),
            ("mainBranch", raw.main_branch.is_some()),
        ];
        present
            .iter()
            .filter(|(_, set)| *set)
            .all(|(key, _)| allowed.contains(key))
    };
    if raw.main_branch == Some(true) && !only_with(&["mainBranch", "latest"]) {
        fail("mainBranch can only be combined with consumer and latest");
    }
    if raw.matching_branch == Some(true) {
        if !only_with(&["matchingBranch"]) {
            fail("matchingBranch can only be combined with consumer");
        }
        if !has_provider_branch {
            fail("matchingBranch requires providerVersionBranch to be set");
        }
    }
    if raw.tag.is_some() && raw.branch.is_some() {
        fail("cannot specify both a tag and a branch");
    }
    if raw.latest == Some(false) && (raw.branch.is_some() || raw.main_branch.is_some()) {
        fail(
            "latest cannot be false for a branch or mainBranch (only the latest version of a branch is selectable)",
        );
    }
    if raw.fallback_tag.is_some() && !(raw.tag.is_some() && raw.latest == Some(true)) {
        fail("fallbackTag can only be set when tag is set and latest is true");
    }
    if raw.fallback_branch.is_some() && raw.branch.is_none() {
        fail("fallbackBranch can only be set when branch is set");
    }
}
