//! The texts a verifier prints: each entry's `shortDescription`, and its
//! notices (`before_verification`, `after_verification:success_…`) saying
//! why the pact is verified and what its pending state means.

use super::group::Entry;
use super::pending::Scope;
use super::resolve::Reason;

/// One notice of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub when: String,
    pub text: String,
}

fn notice(when: &str, text: String) -> Notice {
    Notice {
        when: when.to_owned(),
        text,
    }
}

/// The short form of one reason ("latest from main branch").
pub fn short(reason: &Reason) -> String {
    match reason {
        Reason::MainBranch { .. } => "latest from main branch".into(),
        Reason::Branch { branch } => format!("latest from branch {branch}"),
        Reason::FallbackBranch { fallback, .. } => {
            format!("latest from fallback branch {fallback}")
        }
        Reason::MatchingBranch { branch } => format!("latest from matching branch {branch}"),
        Reason::LatestTag { tag } => format!("latest with tag {tag}"),
        Reason::FallbackTag { fallback, .. } => format!("latest with fallback tag {fallback}"),
        Reason::AllTagged { tag } => format!("one of {tag}"),
        Reason::Latest => "latest".into(),
        Reason::Deployed { environment } => format!("deployed to {environment}"),
        Reason::Released { environment } => format!("released in {environment}"),
        Reason::WipBranch { branch } => format!("latest from branch {branch} (work in progress)"),
        Reason::WipTag { tag } => format!("latest with tag {tag} (work in progress)"),
    }
}

/// One criterion line of the inclusion notice.
fn long(reason: &Reason, consumer: &str, version: &str) -> String {
    let what = match reason {
        Reason::MainBranch { branch } => {
            format!("latest version of {consumer} from the main branch '{branch}'")
        }
        Reason::Branch { branch } | Reason::WipBranch { branch } => {
            format!("latest version of {consumer} from branch '{branch}'")
        }
        Reason::FallbackBranch { branch, fallback } => format!(
            "latest version of {consumer} from branch '{fallback}' (fallback branch used as no pact was found from branch '{branch}')"
        ),
        Reason::MatchingBranch { branch } => {
            format!(
                "latest version of {consumer} from branch '{branch}' (matching the provider's branch)"
            )
        }
        Reason::LatestTag { tag } | Reason::WipTag { tag } => {
            format!("latest version of {consumer} tagged '{tag}'")
        }
        Reason::FallbackTag { tag, fallback } => format!(
            "latest version of {consumer} tagged '{fallback}' (fallback tag used as no pact was found with tag '{tag}')"
        ),
        Reason::AllTagged { tag } => format!("one of the versions of {consumer} tagged '{tag}'"),
        Reason::Latest => format!("latest version of {consumer}"),
        Reason::Deployed { environment } => {
            format!("version(s) of {consumer} currently deployed to {environment}")
        }
        Reason::Released { environment } => {
            format!("version(s) of {consumer} released and supported in {environment}")
        }
    };
    format!("{what} ({version})")
}

/// The entry's `shortDescription`: the short forms of its reasons, joined.
pub fn short_description(entry: &Entry) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (reason, _) in &entry.reasons {
        let s = short(reason);
        if !parts.contains(&s) {
            parts.push(s);
        }
    }
    parts.join(", ")
}

/// How the provider's scope reads in a sentence.
fn scope_text(scope: &Scope, provider: &str) -> String {
    match scope {
        Scope::Branch { name, .. } => format!("a version of {provider} from branch '{name}'"),
        Scope::Tags(tags) => {
            let names: Vec<String> = tags.iter().map(|t| format!("'{t}'")).collect();
            format!("a version of {provider} with tag {}", names.join(" and "))
        }
        Scope::Any => format!("any version of {provider}"),
    }
}

/// Every notice of an entry whose permalink is `url`.
pub fn notices(entry: &Entry, url: &str, provider: &str, scope: &Scope) -> Vec<Notice> {
    let mut out = vec![notice("before_verification", inclusion(entry, url))];
    let Some(pending) = entry.pending else {
        return out;
    };
    let who = scope_text(scope, provider);
    if pending {
        out.push(notice("before_verification", format!(
            "This pact is in pending state for this version of {provider} because a successful verification result for {who} has not yet been published. If this verification fails, it will not cause the overall build to fail. Read more at https://docs.pact.io/go/pending"
        )));
        out.push(notice("after_verification:success_true_published_false", format!(
            "This pact is still in pending state for {who} as the successful verification results have not yet been published."
        )));
        out.push(notice("after_verification:success_false_published_false", format!(
            "This pact is still in pending state for {who} as a successful verification result has not yet been published. The failure will not fail the build."
        )));
        out.push(notice("after_verification:success_true_published_true", format!(
            "This pact is no longer in pending state for {who}, as a successful verification result with this tag or branch has been published. If a verification for a version with this branch or tag fails in the future, it will fail the build. Read more at https://docs.pact.io/go/pending"
        )));
        out.push(notice("after_verification:success_false_published_true", format!(
            "This pact is still in pending state for {who} as a successful verification result has not yet been published."
        )));
    } else {
        out.push(notice("before_verification", format!(
            "This pact has previously been successfully verified by {who}. If this verification fails, it will fail the build. Read more at https://docs.pact.io/go/pending"
        )));
    }
    out
}

fn inclusion(entry: &Entry, url: &str) -> String {
    if entry.wip {
        let heads: Vec<String> = entry
            .reasons
            .iter()
            .map(|(r, v)| long(r, &entry.consumer_name, v))
            .collect();
        return format!(
            "The pact at {url} is being verified because it is a 'work in progress' pact (ie. it is the pact for the {} and is still in pending state). Read more at https://docs.pact.io/go/wip",
            heads.join(" and the ")
        );
    }
    let noun = if entry.reasons.len() == 1 {
        "version matching the following criterion"
    } else {
        "versions matching the following criteria"
    };
    let mut text = format!(
        "The pact at {url} is being verified because the pact content belongs to the consumer {noun}:"
    );
    for (reason, version) in &entry.reasons {
        text.push_str("\n    * ");
        text.push_str(&long(reason, &entry.consumer_name, version));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(reasons: Vec<Reason>, pending: Option<bool>, wip: bool) -> Entry {
        Entry {
            content_id: 1,
            sha: "a".repeat(64),
            consumer_name: "Foo".into(),
            versions: vec![(1, "dc5eb529".into())],
            reasons: reasons
                .into_iter()
                .map(|r| (r, "dc5eb529".to_owned()))
                .collect(),
            pending,
            wip,
        }
    }

    #[test]
    fn the_short_description_joins_every_distinct_reason() {
        let e = entry(
            vec![
                Reason::MainBranch {
                    branch: "main".into(),
                },
                Reason::Deployed {
                    environment: "production".into(),
                },
                Reason::Deployed {
                    environment: "production".into(),
                },
            ],
            None,
            false,
        );
        assert_eq!(
            short_description(&e),
            "latest from main branch, deployed to production"
        );
    }

    #[test]
    fn the_inclusion_notice_lists_each_criterion_with_its_version() {
        let e = entry(
            vec![Reason::MainBranch {
                branch: "main".into(),
            }],
            None,
            false,
        );
        let n = notices(&e, "http://b/p", "Bar", &Scope::Any);
        assert_eq!(
            n.len(),
            1,
            "no pending notices unless pending was asked for"
        );
        assert!(n[0].text.contains(
            "criterion:\n    * latest version of Foo from the main branch 'main' (dc5eb529)"
        ));
    }

    #[test]
    fn pending_and_verified_pacts_say_different_things() {
        let scope = Scope::Branch {
            name: crate::names::BranchName::parse("main").expect("b"),
            existing: None,
        };
        let pending = notices(
            &entry(vec![Reason::Latest], Some(true), false),
            "u",
            "Bar",
            &scope,
        );
        assert!(
            pending[1].text.contains("pending state") && pending[1].text.contains("branch 'main'")
        );
        assert!(
            pending
                .iter()
                .any(|n| n.when == "after_verification:success_true_published_true")
        );
        let verified = notices(
            &entry(vec![Reason::Latest], Some(false), false),
            "u",
            "Bar",
            &scope,
        );
        assert!(
            verified[1]
                .text
                .starts_with("This pact has previously been successfully verified")
        );
    }

    #[test]
    fn a_wip_pact_says_it_is_work_in_progress() {
        let e = entry(
            vec![Reason::WipBranch {
                branch: "feat-x".into(),
            }],
            Some(true),
            true,
        );
        let n = notices(&e, "u", "Bar", &Scope::Tags(vec![]));
        assert!(n[0].text.contains("'work in progress'") && n[0].text.contains("branch 'feat-x'"));
    }
}
