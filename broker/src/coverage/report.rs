//! The coverage report, pure: a provider version's declared operations
//! against the live consumer contracts, by the seed's policy —
//! destructive and write operations need authorization, tenant-probe and
//! approval cases, read-only ones a boundary case; an operation no live
//! contract uses is a gap of its own (one gap: the case kinds are not
//! listed again); interactions tagged `incident` are listed as kept.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use accord_dsl::model::Contract;
use serde_json::Value;

use super::cases::{self, Case, OpKind, Use};
use super::risk::{self, Risk};

/// What a provider version declares: its Agent Card, its `tools/list`
/// per profile.
#[derive(Debug, Default)]
pub struct Declared {
    pub card: Option<Value>,
    pub listings: BTreeMap<String, Value>,
}

/// One live consumer contract.
#[derive(Debug)]
pub struct Live {
    pub consumer: String,
    /// Shared with the broker's cache of parsed contracts (`parsed`).
    pub contract: Arc<Contract>,
}

/// An interaction tagged `incident`: it stays whatever else changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub consumer: String,
    pub interaction: String,
    /// The operation it exercises, when it names one.
    pub operation: Option<(OpKind, String)>,
    /// The operation is declared by the version.
    pub declared: bool,
}

/// One declared operation and how the live contracts cover it.
#[derive(Debug, Clone)]
pub struct Operation {
    pub kind: OpKind,
    pub name: String,
    /// The profiles listing a tool (empty for a skill).
    pub profiles: Vec<String>,
    pub risk: Risk,
    pub risk_from: String,
    pub required: Vec<Case>,
    /// Every case kind the live contracts have for it.
    pub present: Vec<Case>,
    /// Consumers with an interaction on it.
    pub consumers: Vec<String>,
    /// How many live interactions exercise it.
    pub interactions: usize,
}

/// A gap: an operation no live contract uses (`missing` `None`), or a
/// required case kind none has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    pub kind: OpKind,
    pub name: String,
    pub risk: Risk,
    pub missing: Option<Case>,
}

impl Gap {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        self.missing
            .map_or("COVERAGE_NO_CONTRACT", |case| case.gap_code())
    }

    /// What is missing: `contract`, or the case kind.
    pub fn missing_name(&self) -> &'static str {
        self.missing.map_or("contract", Case::as_str)
    }
}

/// The report.
#[derive(Debug, Default)]
pub struct Report {
    pub operations: Vec<Operation>,
    pub gaps: Vec<Gap>,
    pub kept: Vec<Kept>,
}

/// The case kinds the policy asks of an operation of this risk.
pub fn required(risk: Risk) -> Vec<Case> {
    match risk {
        Risk::ReadOnly => vec![Case::Boundary],
        Risk::Write | Risk::Destructive => {
            vec![Case::Authorization, Case::TenantProbe, Case::Approval]
        }
    }
}

/// Every use of every operation in the live contracts, by operation.
type Uses<'a> = BTreeMap<(OpKind, &'a str), Vec<(usize, Use<'a>)>>;

fn uses<'a>(live: &'a [Live], only_skill: Option<&'a str>) -> Uses<'a> {
    let mut out: Uses<'a> = BTreeMap::new();
    for (n, l) in live.iter().enumerate() {
        for i in &l.contract.interactions {
            if let Some(op) = cases::operation(i, only_skill) {
                let u = Use {
                    consumer: &l.consumer,
                    interaction: i,
                };
                out.entry(op).or_default().push((n, u));
            }
        }
    }
    out
}

/// The case kinds present among `uses` (siblings: the same contract's).
fn present(uses: &[(usize, Use<'_>)]) -> Vec<Case> {
    let mut out = BTreeSet::new();
    for (n, u) in uses {
        let siblings: Vec<Use<'_>> = uses
            .iter()
            .filter(|(m, _)| m == n)
            .map(|(_, s)| *s)
            .collect();
        out.extend(cases::kinds(u, &siblings));
    }
    out.into_iter().collect()
}

/// The declared tools: name → `(profile, tool)` in every profile.
fn tools(declared: &Declared) -> BTreeMap<String, Vec<(&str, &Value)>> {
    let mut out: BTreeMap<String, Vec<(&str, &Value)>> = BTreeMap::new();
    for (profile, listing) in &declared.listings {
        for t in listing["tools"].as_array().into_iter().flatten() {
            if let Some(name) = t["name"].as_str() {
                out.entry(name.to_owned())
                    .or_default()
                    .push((profile.as_str(), t));
            }
        }
    }
    out
}

/// Builds the report of `declared` against the `live` contracts.
pub fn build(declared: &Declared, live: &[Live]) -> Report {
    let skills = declared
        .card
        .as_ref()
        .map(cases::card_skills)
        .unwrap_or_default();
    let only_skill = (skills.len() == 1).then(|| skills[0].as_str());
    let by_op = uses(live, only_skill);
    let contracts: Vec<&Contract> = live.iter().map(|l| l.contract.as_ref()).collect();
    let none = Vec::new();
    let mut report = Report::default();
    for id in &skills {
        let u = by_op.get(&(OpKind::Skill, id.as_str())).unwrap_or(&none);
        let plain: Vec<Use<'_>> = u.iter().map(|(_, u)| *u).collect();
        let card = declared.card.as_ref().unwrap_or(&Value::Null);
        let judged = risk::skill(id, card, &contracts, &plain);
        add(&mut report, (OpKind::Skill, id), Vec::new(), judged, u);
    }
    for (name, declared_in) in tools(declared) {
        let u = by_op.get(&(OpKind::Tool, name.as_str())).unwrap_or(&none);
        let judged = risk::tool(&name, &declared_in, &contracts);
        let profiles = declared_in.iter().map(|(p, _)| (*p).to_owned()).collect();
        add(&mut report, (OpKind::Tool, &name), profiles, judged, u);
    }
    report.kept = kept(live, &report.operations, only_skill);
    report
}

fn add(
    report: &mut Report,
    (kind, name): (OpKind, &str),
    profiles: Vec<String>,
    (risk, risk_from): risk::Judged,
    uses: &[(usize, Use<'_>)],
) {
    let required = required(risk);
    let present = present(uses);
    let gap = |missing| Gap {
        kind,
        name: name.to_owned(),
        risk,
        missing,
    };
    if uses.is_empty() {
        report.gaps.push(gap(None));
    } else {
        let missing = required.iter().filter(|c| !present.contains(c));
        report.gaps.extend(missing.map(|c| gap(Some(*c))));
    }
    let consumers: BTreeSet<&str> = uses.iter().map(|(_, u)| u.consumer).collect();
    report.operations.push(Operation {
        kind,
        name: name.to_owned(),
        profiles,
        risk,
        risk_from,
        required,
        present,
        consumers: consumers.into_iter().map(str::to_owned).collect(),
        interactions: uses.len(),
    });
}

/// Every interaction tagged `incident`, in contract order.
fn kept(live: &[Live], ops: &[Operation], only: Option<&str>) -> Vec<Kept> {
    let mut out = Vec::new();
    for l in live {
        for i in &l.contract.interactions {
            let u = Use {
                consumer: &l.consumer,
                interaction: i,
            };
            if !u.incident() {
                continue;
            }
            let op = cases::operation(i, only);
            let declared = op.is_some_and(|(k, n)| ops.iter().any(|o| o.kind == k && o.name == n));
            out.push(Kept {
                consumer: l.consumer.clone(),
                interaction: i.meta().description.clone(),
                operation: op.map(|(k, n)| (k, n.to_owned())),
                declared,
            });
        }
    }
    out
}
