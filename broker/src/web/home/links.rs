//! The URLs of the pages, built in one place so every page links the same
//! way: path segments through `seg`, query values through `q`.

use crate::web::{q, seg};

/// `/ui/pacticipants/{name}`.
pub fn pacticipant(name: &str) -> String {
    format!("/ui/pacticipants/{}", seg(name))
}

/// The matrix of one integration.
pub fn matrix(consumer: &str, provider: &str) -> String {
    format!(
        "/ui/matrix?consumer={}&provider={}",
        q(consumer),
        q(provider)
    )
}

/// The matrix of every integration of one pacticipant (as consumer).
pub fn matrix_of_consumer(consumer: &str) -> String {
    format!("/ui/matrix?consumer={}", q(consumer))
}

/// The matrix of every integration of one pacticipant (as provider).
pub fn matrix_of_provider(provider: &str) -> String {
    format!("/ui/matrix?provider={}", q(provider))
}

/// A contract: the pact a consumer version published for a provider.
pub fn contract(provider: &str, consumer: &str, consumer_version: &str) -> String {
    format!(
        "/ui/pacts/provider/{}/consumer/{}/version/{}",
        seg(provider),
        seg(consumer),
        seg(consumer_version)
    )
}

/// What changed in a pair's contract between two consumer versions.
pub fn diff(provider: &str, consumer: &str, from: &str, to: &str) -> String {
    format!(
        "/ui/pacts/provider/{}/consumer/{}/diff?from={}&to={}",
        seg(provider),
        seg(consumer),
        q(from),
        q(to)
    )
}

/// A verification result, by content sha and its number.
pub fn verification(provider: &str, consumer: &str, sha: &str, number: i64) -> String {
    format!(
        "/ui/pacts/provider/{}/consumer/{}/pact-version/{}/verification-results/{number}",
        seg(provider),
        seg(consumer),
        seg(sha)
    )
}

/// A provider version as a candidate (what it verified, may it deploy).
pub fn candidate(provider: &str, version: &str) -> String {
    format!("/ui/providers/{}/versions/{}", seg(provider), seg(version))
}

/// Can-i-deploy for a version (to an environment, when given).
pub fn can_i_deploy(pacticipant: &str, version: &str, environment: Option<&str>) -> String {
    let mut url = format!(
        "/ui/can-i-deploy?pacticipant={}&version={}",
        q(pacticipant),
        q(version)
    );
    if let Some(env) = environment {
        url.push_str("&environment=");
        url.push_str(&q(env));
    }
    url
}

/// The coverage of a provider's version (its newest declaring one
/// without `version`).
pub fn coverage(provider: &str, version: Option<&str>) -> String {
    let mut url = format!("/ui/pacticipants/{}/coverage", seg(provider));
    if let Some(v) = version {
        url.push_str("?version=");
        url.push_str(&q(v));
    }
    url
}

/// The network graph around one application.
pub fn network_focus(name: &str) -> String {
    format!("/ui/network?focus={}", q(name))
}

/// A time as the pages print it: UTC to the minute.
pub fn time(at: &chrono::NaiveDateTime) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// A time as a `<time datetime>` attribute (RFC 3339, UTC).
pub fn machine_time(at: &chrono::NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_slashes_spaces_and_ampersands_stay_one_segment_or_value() {
        assert_eq!(pacticipant("a/b c"), "/ui/pacticipants/a%2Fb%20c");
        assert_eq!(matrix("A&B", "C"), "/ui/matrix?consumer=A%26B&provider=C");
        assert!(contract("P", "C", "1.0/x").ends_with("/version/1.0%2Fx"));
    }
}
