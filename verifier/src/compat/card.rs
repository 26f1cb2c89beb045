//! Two Agent Cards of a provider: skills (by id, with their tags),
//! capabilities, default modes, descriptions, and (in `interfaces`) the
//! interfaces and extensions. Key order and skill order do not matter.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::Change;
use super::interfaces::{extensions, interfaces, tags};
use crate::finding::codes;

/// Every change from the card `old` to `new`.
pub fn diff_cards(old: &Value, new: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    described(
        "agentCard.description",
        "the card's description",
        old,
        new,
        &mut out,
    );
    for key in ["defaultInputModes", "defaultOutputModes"] {
        modes(
            &format!("agentCard.{key}"),
            strings(&old[key]),
            strings(&new[key]),
            &mut out,
        );
    }
    capabilities(old, new, &mut out);
    interfaces(old, new, &mut out);
    extensions(old, new, &mut out);
    let (before, after) = (skills(old), skills(new));
    for (id, skill) in &before {
        let path = format!("agentCard.skills[{id}]");
        let Some(now) = after.get(id) else {
            let detail = format!("the card no longer declares the skill `{id}`");
            out.push(Change::new(codes::BREAKING_SKILL_REMOVED, path, detail));
            continue;
        };
        described(
            &format!("{path}.description"),
            &format!("skill `{id}`'s description"),
            skill,
            now,
            &mut out,
        );
        tags(&path, skill, now, &mut out);
        for (own, default) in [
            ("inputModes", "defaultInputModes"),
            ("outputModes", "defaultOutputModes"),
        ] {
            let before = strings(skill.get(own).unwrap_or(&old[default]));
            let after = strings(now.get(own).unwrap_or(&new[default]));
            modes(&format!("{path}.{own}"), before, after, &mut out);
        }
    }
    out
}

fn skills(card: &Value) -> BTreeMap<&str, &Value> {
    card["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| Some((s["id"].as_str()?, s)))
        .collect()
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn described(path: &str, what: &str, old: &Value, new: &Value, out: &mut Vec<Change>) {
    if old.get("description") != new.get("description") {
        let detail = format!("{what} changed: a model may route to it differently");
        out.push(
            Change::new(codes::DESCRIPTION_CHANGED, path, detail).values(
                old.get("description").cloned(),
                new.get("description").cloned(),
            ),
        );
    }
}

fn modes(path: &str, before: Vec<&str>, after: Vec<&str>, out: &mut Vec<Change>) {
    for mode in before.iter().filter(|m| !after.contains(m)) {
        let detail = format!("{path} no longer lists {mode}");
        out.push(
            Change::new(codes::CONTENT_MODE_CONFLICT, path, detail)
                .values(Some(json!(mode)), Some(json!(after))),
        );
    }
}

fn capabilities(old: &Value, new: &Value, out: &mut Vec<Change>) {
    let declared = |card: &Value, name: &str| card["capabilities"][name].as_bool().unwrap_or(false);
    let mut names: Vec<&String> = [old, new]
        .iter()
        .filter_map(|c| c["capabilities"].as_object())
        .flat_map(|m| m.keys())
        .collect();
    names.sort();
    names.dedup();
    for name in names {
        let path = format!("agentCard.capabilities.{name}");
        let (was, is) = (declared(old, name), declared(new, name));
        let (code, detail) = match (was, is) {
            (false, true) => (
                codes::FEATURE_CAPABILITY_ADDED,
                format!("the card now declares {name}: it needs its conformance run"),
            ),
            (true, false) => (
                codes::CAPABILITY_MISSING,
                format!("the card no longer declares {name}"),
            ),
            _ => continue,
        };
        out.push(Change::new(code, path, detail).values(Some(json!(was)), Some(json!(is))));
    }
}
