//! Two Agent Cards' interfaces (`supportedInterfaces`, or a v0.3 card's
//! `preferredTransport`/`additionalInterfaces`), extensions
//! (`capabilities.extensions`) and skill tags. Interfaces are matched by
//! binding (without case) and version, extensions by URI, tags by value:
//! order does not matter.
//!
//! The paths are those the consumer's own check (`check_card`) gives the
//! same fault, so `attribute` finds who it breaks: an interface
//! `agentCard.supportedInterfaces[JSONRPC 1.0]`, an extension
//! `agentCard.extensions[URI]`, a tag `agentCard.skills[ID].tags[TAG]`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::Change;
use crate::a2a::card::{interface_key, offered_at};
use crate::finding::codes;

/// Interfaces removed (a binding changed is one removed and one added),
/// added, or moved to another URL.
pub fn interfaces(old: &Value, new: &Value, out: &mut Vec<Change>) {
    let (before, after) = (by_key(old), by_key(new));
    for (key, urls) in &before {
        let path = format!("agentCard.supportedInterfaces[{key}]");
        match after.get(key) {
            None => {
                let detail = format!("the card no longer offers a {key} interface");
                out.push(
                    Change::new(codes::UNSUPPORTED_PROTOCOL_BINDING, path, detail)
                        .values(Some(json!(urls)), None),
                );
            }
            Some(now) if now != urls => {
                let detail = format!("the {key} interface moved to another URL");
                out.push(
                    Change::new(codes::INTERFACE_URL_CHANGED, path, detail)
                        .values(Some(json!(urls)), Some(json!(now))),
                );
            }
            Some(_) => {}
        }
    }
    for (key, urls) in after.iter().filter(|(k, _)| !before.contains_key(*k)) {
        let path = format!("agentCard.supportedInterfaces[{key}]");
        let detail = format!("the card now also offers a {key} interface");
        out.push(
            Change::new(codes::COMPATIBLE_INTERFACE_ADDED, path, detail)
                .values(None, Some(json!(urls))),
        );
    }
}

/// The card's interfaces by `BINDING version`, with their URLs.
fn by_key(card: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (binding, version, url) in offered_at(card) {
        out.entry(interface_key(&binding, &version))
            .or_default()
            .insert(url);
    }
    out
}

/// Extensions removed, newly required, or otherwise changed.
pub fn extensions(old: &Value, new: &Value, out: &mut Vec<Change>) {
    let (before, after) = (extensions_of(old), extensions_of(new));
    for (uri, was) in &before {
        if !after.contains_key(uri) {
            let detail = format!("the card no longer declares the extension {uri}");
            out.push(
                Change::new(codes::CAPABILITY_MISSING, ext_path(uri), detail)
                    .values(Some((*was).clone()), None),
            );
        }
    }
    for (uri, now) in &after {
        let was = before.get(uri).copied();
        let required = |e: Option<&Value>| e.is_some_and(|e| e["required"] == json!(true));
        let (code, detail) = if required(Some(now)) && !required(was) {
            let detail = format!("the card now requires the extension {uri}");
            (codes::REQUIRED_EXTENSION_UNSUPPORTED, detail)
        } else if was == Some(*now) {
            continue;
        } else {
            let detail = match was {
                None => format!("the card now declares the optional extension {uri}"),
                Some(w) if required(Some(w)) => {
                    format!("the card no longer requires the extension {uri}")
                }
                Some(_) => format!("the extension {uri}'s description or params changed"),
            };
            (codes::COMPATIBLE_EXTENSION_CHANGED, detail)
        };
        out.push(
            Change::new(code, ext_path(uri), detail).values(was.cloned(), Some((*now).clone())),
        );
    }
}

fn ext_path(uri: &str) -> String {
    format!("agentCard.extensions[{uri}]")
}

fn extensions_of(card: &Value) -> BTreeMap<&str, &Value> {
    card["capabilities"]["extensions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e["uri"].as_str()?, e)))
        .collect()
}

/// The tags a skill (at `path`) lost and gained.
pub fn tags(path: &str, skill: &Value, now: &Value, out: &mut Vec<Change>) {
    let tags_of = |s: &Value| -> BTreeSet<String> {
        s["tags"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let (before, after) = (tags_of(skill), tags_of(now));
    for tag in before.difference(&after) {
        let detail = format!("the skill no longer carries the tag `{tag}`");
        out.push(
            Change::new(
                codes::BREAKING_SKILL_TAG_REMOVED,
                format!("{path}.tags[{tag}]"),
                detail,
            )
            .values(Some(json!(tag)), Some(json!(after))),
        );
    }
    for tag in after.difference(&before) {
        let detail = format!("the skill now carries the tag `{tag}`: routing by tag may change");
        out.push(
            Change::new(
                codes::SKILL_TAG_ADDED,
                format!("{path}.tags[{tag}]"),
                detail,
            )
            .values(Some(json!(before)), Some(json!(tag))),
        );
    }
}
