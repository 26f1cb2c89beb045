//! The risk class of an operation: read-only, write or destructive.
//!
//! - An MCP tool: from its declared `annotations` in every profile's
//!   `tools/list` (MCP's defaults where a hint is missing: a tool without
//!   annotations is destructive), and from what live contracts say of it
//!   in `mcpTools` (`annotations`, `approval`). The riskiest wins.
//! - An A2A skill: the card has no read-only annotation, so the rule is
//!   the card's skill `tags` and the contracts: `destructive` in the tags
//!   (the card's or a contract's `agent_card.skills[].tags`) is
//!   destructive; `read-only` (or `readonly`, `read_only`) in the card's
//!   tags, or every non-refused interaction on the skill declaring
//!   `sideEffects` with every counter exactly 0, is read-only — unless an
//!   interaction on it expects a change or an approval; anything else
//!   is write (unknown is the safe side).

use accord_dsl::model::Contract;
use accord_dsl::model::accord::CounterChange;
use serde_json::Value;

use super::cases::Use;

/// How much an operation can change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Risk {
    ReadOnly,
    Write,
    Destructive,
}

impl Risk {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::ReadOnly => "read-only",
            Risk::Write => "write",
            Risk::Destructive => "destructive",
        }
    }
}

/// A risk class and the sentence saying where it comes from.
pub type Judged = (Risk, String);

/// The riskier of two judgements (the first on a tie).
fn riskier(a: Judged, b: Judged) -> Judged {
    if b.0 > a.0 { b } else { a }
}

/// The risk of one declared tool (an entry of `tools/list`).
fn declared_tool(tool: &Value, profile: &str) -> Judged {
    let hint = |name: &str| tool["annotations"][name].as_bool();
    match (hint("readOnlyHint"), hint("destructiveHint")) {
        (Some(true), _) => (
            Risk::ReadOnly,
            format!("readOnlyHint true (profile {profile})"),
        ),
        (_, Some(false)) => (
            Risk::Write,
            format!("destructiveHint false, not read-only (profile {profile})"),
        ),
        (_, Some(true)) => (
            Risk::Destructive,
            format!("destructiveHint true (profile {profile})"),
        ),
        (_, None) => (
            Risk::Destructive,
            format!("no destructiveHint: MCP's default is destructive (profile {profile})"),
        ),
    }
}

/// The risk of tool `name`: its declarations (`(profile, tool)` pairs)
/// and what the contracts say of it.
pub fn tool(name: &str, declared: &[(&str, &Value)], contracts: &[&Contract]) -> Judged {
    let mut out = (Risk::ReadOnly, String::new());
    for (i, (profile, t)) in declared.iter().enumerate() {
        let judged = declared_tool(t, profile);
        out = if i == 0 { judged } else { riskier(out, judged) };
    }
    for c in contracts {
        for e in c.mcp_tools.iter().filter(|e| e.name == name) {
            let a = e.annotations.unwrap_or_default();
            let claimed = if e.approval.is_some() {
                Some((Risk::Write, "a contract expects an approval".to_owned()))
            } else if a.read_only_hint == Some(false) && a.destructive_hint != Some(false) {
                Some((Risk::Destructive, "a contract relies on it writing".into()))
            } else if a.read_only_hint == Some(false) {
                Some((Risk::Write, "a contract relies on it writing".into()))
            } else {
                None
            };
            if let Some(claimed) = claimed {
                out = riskier(out, claimed);
            }
        }
    }
    out
}

/// The tags of skill `id` on the card and in the contracts' expectations.
fn skill_tags(id: &str, card: &Value, contracts: &[&Contract]) -> (Vec<String>, Vec<String>) {
    let on_card = card["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["id"].as_str() == Some(id))
        .flat_map(|s| s["tags"].as_array().cloned().unwrap_or_default())
        .filter_map(|t| t.as_str().map(str::to_ascii_lowercase))
        .collect();
    let in_contracts = contracts
        .iter()
        .filter_map(|c| c.agent_card.as_ref())
        .flat_map(|card| card.skills.iter().filter(|s| s.id == id))
        .flat_map(|s| s.tags.iter().map(|t| t.to_ascii_lowercase()))
        .collect();
    (on_card, in_contracts)
}

const READ_ONLY_TAGS: [&str; 3] = ["read-only", "readonly", "read_only"];

/// True when a counter change may be something else than 0.
fn may_change(c: &CounterChange) -> bool {
    !matches!(c, CounterChange::Exact(0))
        && !matches!(
            c,
            CounterChange::Range {
                min: Some(0),
                max: Some(0)
            }
        )
}

/// The risk of skill `id` of `card`, given the interactions on it.
pub fn skill(id: &str, card: &Value, contracts: &[&Contract], uses: &[Use<'_>]) -> Judged {
    let (on_card, in_contracts) = skill_tags(id, card, contracts);
    if on_card
        .iter()
        .chain(&in_contracts)
        .any(|t| t == "destructive")
    {
        return (Risk::Destructive, "tagged destructive".into());
    }
    let positive: Vec<_> = uses.iter().filter(|u| !u.refused()).collect();
    let writes = positive.iter().any(|u| {
        let e = &u.interaction.meta().expectations;
        e.approval.is_some() || e.side_effects.iter().flatten().any(|(_, c)| may_change(c))
    });
    if writes {
        return (Risk::Write, "a contract expects it to change state".into());
    }
    if on_card.iter().any(|t| READ_ONLY_TAGS.contains(&t.as_str())) {
        return (Risk::ReadOnly, "tagged read-only on the card".into());
    }
    let all_zero = !positive.is_empty()
        && positive.iter().all(|u| {
            let e = &u.interaction.meta().expectations;
            e.side_effects.as_ref().is_some_and(|s| !s.is_empty())
        });
    if all_zero {
        return (
            Risk::ReadOnly,
            "every contract call expects no side effect".into(),
        );
    }
    (
        Risk::Write,
        "nothing says it is read-only: treated as write".into(),
    )
}
