//! The digests a provider version was verified on — those its successful
//! verification results declared (`a2a/agent-card`, `mcp/tools/list` per
//! profile) — and how a report's observed digests differ from them.
//! Pure: the caller loads the declarations.

use std::collections::{BTreeMap, BTreeSet};

use crate::api::declarations::Declaration;

/// The kind of an Agent Card declaration.
pub const CARD_KIND: &str = "a2a/agent-card";
/// The kind of an MCP `tools/list` declaration.
pub const TOOLS_KIND: &str = "mcp/tools/list";

/// Verified digests: every card digest, and per profile every tools digest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verified {
    pub card: BTreeSet<String>,
    pub tools: BTreeMap<String, BTreeSet<String>>,
}

impl Verified {
    /// Collects the digests of `declarations` (several results' lists).
    pub fn collect<'a>(declarations: impl IntoIterator<Item = &'a Declaration>) -> Verified {
        let mut verified = Verified::default();
        for d in declarations {
            match d.kind.as_str() {
                CARD_KIND => {
                    verified.card.insert(d.digest.clone());
                }
                TOOLS_KIND => {
                    let profile = verified.tools.entry(d.profile.clone()).or_default();
                    profile.insert(d.digest.clone());
                }
                _ => {}
            }
        }
        verified
    }

    /// True when `card` (observed) is not a verified card digest; false when
    /// no card was verified (nothing to differ from) or none was observed.
    pub fn card_differs(&self, card: Option<&str>) -> bool {
        card.is_some_and(|c| !self.card.is_empty() && !self.card.contains(c))
    }

    /// The profiles whose observed tools digest is not a verified one for
    /// that profile (a profile never verified does not count).
    pub fn tools_differ<'a>(
        &self,
        observed: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Vec<String> {
        observed
            .into_iter()
            .filter(|(profile, digest)| {
                self.tools
                    .get(*profile)
                    .is_some_and(|set| !set.contains(*digest))
            })
            .map(|(profile, _)| profile.to_owned())
            .collect()
    }

    /// True when `declarations` (a new result's) cover every observed
    /// digest: the card, if one was observed, and each profile's tools.
    pub fn covers(
        declarations: &[Declaration],
        card: Option<&str>,
        tools: &BTreeMap<String, String>,
    ) -> bool {
        let new = Verified::collect(declarations);
        let card_ok = card.is_none_or(|c| new.card.contains(c));
        let tools_ok = tools
            .iter()
            .all(|(p, d)| new.tools.get(p).is_some_and(|set| set.contains(d)));
        card_ok && tools_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(kind: &str, profile: &str, digest: &str) -> Declaration {
        Declaration {
            kind: kind.into(),
            profile: profile.into(),
            protocol_version: "1.0".into(),
            digest: digest.into(),
            entries: 1,
            etag: None,
            used: Vec::new(),
        }
    }

    #[test]
    fn an_observed_card_differs_only_from_a_verified_one() {
        let v = Verified::collect(&[decl(CARD_KIND, "", "sha256:a")]);
        assert!(v.card_differs(Some("sha256:b")));
        assert!(!v.card_differs(Some("sha256:a")));
        assert!(!v.card_differs(None));
        assert!(!Verified::default().card_differs(Some("sha256:b")));
    }

    #[test]
    fn tools_differ_per_verified_profile() {
        let v = Verified::collect(&[decl(TOOLS_KIND, "alice", "sha256:t")]);
        let seen = [("alice", "sha256:u"), ("bob", "sha256:u")];
        assert_eq!(v.tools_differ(seen), ["alice"]);
        assert!(v.tools_differ([("alice", "sha256:t")]).is_empty());
    }

    #[test]
    fn a_new_result_covers_the_observed_digests_only_when_it_declares_each() {
        let new = [
            decl(CARD_KIND, "", "sha256:b"),
            decl(TOOLS_KIND, "alice", "sha256:u"),
        ];
        let tools: BTreeMap<String, String> = [("alice".into(), "sha256:u".into())].into();
        assert!(Verified::covers(&new, Some("sha256:b"), &tools));
        assert!(!Verified::covers(&new, Some("sha256:c"), &tools));
        assert!(!Verified::covers(&new[..1], None, &tools));
    }
}
