//! An Agent Card against what the consumer relies on (`agentCard`), and the
//! card's own consistency. Pure: every row is a unit test.
//!
//! | the consumer relies on / the card | finding |
//! | --- | --- |
//! | a skill the card does not declare (or without a relied-on tag) | SKILL_MISSING (declaration) |
//! | a mode a skill or the card's defaults do not list | CONTENT_MODE_CONFLICT (declaration) |
//! | a capability `true` the card does not declare | CAPABILITY_MISSING (declaration) |
//! | a capability `false` the card declares | FEATURE_CAPABILITY_ADDED (compatibility) |
//! | an interface (binding, version) the card does not offer | UNSUPPORTED_PROTOCOL_BINDING (declaration) |
//! | an extension used that the card does not declare | CAPABILITY_MISSING (declaration) |
//! | an extension `required: false` the card requires, or a required one not listed | REQUIRED_EXTENSION_UNSUPPORTED (declaration) |
//! | security schemes of which the card declares none | SECURITY_SCHEME_UNDEFINED (declaration) |
//! | (the card) two skills with one id | DUPLICATE_SKILL_ID (declaration) |
//! | (the card) a required field missing, or a skill without its `id` or `name` (a skill looked for is then not also SKILL_MISSING) | CARD_SCHEMA_INVALID (declaration) |
//! | (the card) a security requirement naming an undeclared scheme | SECURITY_SCHEME_UNDEFINED (declaration) |
//!
//! A v0.3 card (top-level `url`, `preferredTransport`, `additionalInterfaces`)
//! offers its interfaces through those fields.

use accord_dsl::model::accord::AgentCardExpectations;
use serde_json::{Map, Value, json};

use crate::finding::{Finding, Layer, codes};

fn declaration(code: &'static str, path: String, detail: String) -> Finding {
    Finding::new(Layer::Declaration, code, path, detail)
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The findings of `card` against `expect`.
pub fn check_card(expect: &AgentCardExpectations, card: &Value) -> Vec<Finding> {
    let mut out = own_consistency(card);
    skills(expect, card, &mut out);
    let defaults = [
        ("defaultInputModes", &expect.default_input_modes),
        ("defaultOutputModes", &expect.default_output_modes),
    ];
    for (key, wanted) in defaults {
        let declared = strings(card.get(key));
        for mode in wanted.iter().filter(|m| !declared.contains(m)) {
            let detail = format!("the card's {key} do not list {mode}");
            out.push(declaration(
                codes::CONTENT_MODE_CONFLICT,
                format!("agentCard.{key}"),
                detail,
            ));
        }
    }
    capabilities(expect, card, &mut out);
    interfaces(expect, card, &mut out);
    extensions(expect, card, &mut out);
    if !expect.security_schemes.is_empty() {
        let declared = card.get("securitySchemes").and_then(Value::as_object);
        let any = expect
            .security_schemes
            .iter()
            .any(|s| declared.is_some_and(|d| d.contains_key(s)));
        if !any {
            let detail = format!(
                "the card declares none of the security schemes the consumer can satisfy ({})",
                expect.security_schemes.join(", ")
            );
            out.push(declaration(
                codes::SECURITY_SCHEME_UNDEFINED,
                "agentCard.securitySchemes".into(),
                detail,
            ));
        }
    }
    out
}

/// The card's own problems, whoever relies on it: required fields missing
/// (a skill's id and name too), two skills with one id, a requirement naming an undeclared scheme.
pub fn card_problems(card: &Value) -> Vec<Finding> {
    own_consistency(card)
}

/// `sha256:` and the hex sha256 of the card's RFC 8785 canonical JSON: the
/// digest a verification records for it.
pub fn card_digest(card: &Value) -> String {
    format!("sha256:{}", accord_dsl::canonical::digest(card))
}

/// Required fields, unique skill ids, requirements naming declared schemes.
fn own_consistency(card: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    let legacy = card.get("url").is_some();
    let required = [
        "name",
        "description",
        "version",
        "capabilities",
        "defaultInputModes",
        "defaultOutputModes",
        "skills",
    ];
    let mut missing: Vec<&str> = required
        .into_iter()
        .filter(|k| card.get(*k).is_none())
        .collect();
    if card.get("supportedInterfaces").is_none() && !legacy {
        missing.push("supportedInterfaces");
    }
    if !missing.is_empty() {
        let detail = format!("the card lacks required fields: {}", missing.join(", "));
        out.push(declaration(
            codes::CARD_SCHEMA_INVALID,
            "agentCard".into(),
            detail,
        ));
    }
    for (i, skill) in card["skills"].as_array().into_iter().flatten().enumerate() {
        // (ProtoJSON leaves out an empty list or string: only what a skill
        // cannot be without is required here)
        let lacks: Vec<&str> = ["id", "name"]
            .into_iter()
            .filter(|k| skill[*k].as_str().is_none_or(str::is_empty))
            .collect();
        if !lacks.is_empty() {
            let detail = format!("skills[{i}] lacks required fields: {}", lacks.join(", "));
            out.push(declaration(
                codes::CARD_SCHEMA_INVALID,
                format!("agentCard.skills[{i}]"),
                detail,
            ));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for id in card["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["id"].as_str())
    {
        if !seen.insert(id) {
            let detail = format!("two skills have the id `{id}`");
            out.push(declaration(
                codes::DUPLICATE_SKILL_ID,
                format!("agentCard.skills[{id}]"),
                detail,
            ));
        }
    }
    let schemes = card.get("securitySchemes").and_then(Value::as_object);
    let requirements = card["securityRequirements"]
        .as_array()
        .into_iter()
        .flatten();
    for name in requirements
        .filter_map(|r| r["schemes"].as_object())
        .flat_map(Map::keys)
    {
        if !schemes.is_some_and(|s| s.contains_key(name)) {
            let detail = format!(
                "a security requirement names `{name}`, which securitySchemes does not declare"
            );
            out.push(declaration(
                codes::SECURITY_SCHEME_UNDEFINED,
                "agentCard.securityRequirements".into(),
                detail,
            ));
        }
    }
    out
}

fn skills(expect: &AgentCardExpectations, card: &Value, out: &mut Vec<Finding>) {
    let declared: &[Value] = card["skills"].as_array().map_or(&[], Vec::as_slice);
    // a skill without an id may be the one looked for: its CARD_SCHEMA_INVALID is the finding
    let nameless = declared
        .iter()
        .any(|s| s["id"].as_str().is_none_or(str::is_empty));
    for want in &expect.skills {
        let path = format!("agentCard.skills[{}]", want.id);
        let Some(skill) = declared.iter().find(|s| s["id"] == json!(want.id)) else {
            if nameless {
                continue;
            }
            let detail = format!("the card declares no skill `{}`", want.id);
            out.push(declaration(codes::SKILL_MISSING, path, detail));
            continue;
        };
        let tags = strings(skill.get("tags"));
        for tag in want.tags.iter().filter(|t| !tags.contains(t)) {
            let detail = format!("skill `{}` no longer carries the tag `{tag}`", want.id);
            let at = format!("{path}.tags[{tag}]");
            out.push(declaration(codes::SKILL_MISSING, at, detail));
        }
        let modes = [
            ("inputModes", "defaultInputModes", &want.input_modes),
            ("outputModes", "defaultOutputModes", &want.output_modes),
        ];
        for (own, default, wanted) in modes {
            // a skill's own modes override the card's defaults
            let listed = match skill.get(own) {
                Some(m) => strings(Some(m)),
                None => strings(card.get(default)),
            };
            for mode in wanted.iter().filter(|m| !listed.contains(m)) {
                let detail = format!("skill `{}` does not list {mode} among its {own}", want.id);
                out.push(declaration(
                    codes::CONTENT_MODE_CONFLICT,
                    format!("{path}.{own}"),
                    detail,
                ));
            }
        }
    }
}

fn capabilities(expect: &AgentCardExpectations, card: &Value, out: &mut Vec<Finding>) {
    let Some(relied) = expect.capabilities else {
        return;
    };
    for name in ["streaming", "pushNotifications", "extendedAgentCard"] {
        let declared = card["capabilities"][name].as_bool().unwrap_or(false);
        let path = format!("agentCard.capabilities.{name}");
        match relied.get(name) {
            Some(true) if !declared => {
                let detail =
                    format!("the consumer relies on {name}, which the card does not declare");
                out.push(declaration(codes::CAPABILITY_MISSING, path, detail));
            }
            Some(false) if declared => {
                let detail = format!(
                    "the card now declares {name}, which the consumer's refusal cases rely on being absent"
                );
                out.push(Finding::new(
                    Layer::Compatibility,
                    codes::FEATURE_CAPABILITY_ADDED,
                    path,
                    detail,
                ));
            }
            _ => {}
        }
    }
}

/// How a path names one interface: `JSONRPC 1.0` (the binding in upper
/// case: bindings are compared without case).
pub fn interface_key(binding: &str, version: &str) -> String {
    format!("{} {version}", binding.to_ascii_uppercase())
}

/// The (binding, version) pairs the card offers.
fn offered(card: &Value) -> Vec<(String, String)> {
    offered_at(card)
        .into_iter()
        .map(|(binding, version, _)| (binding, version))
        .collect()
}

/// The (binding, version, URL) of every interface the card offers.
pub fn offered_at(card: &Value) -> Vec<(String, String, String)> {
    let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_owned();
    let mut out: Vec<(String, String, String)> = card["supportedInterfaces"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| {
            (
                text(i, "protocolBinding"),
                text(i, "protocolVersion"),
                text(i, "url"),
            )
        })
        .collect();
    // a v0.3 card: the preferred transport and the additional interfaces
    let version = card["protocolVersion"].as_str().unwrap_or("0.3").to_owned();
    if let Some(t) = card["preferredTransport"]
        .as_str()
        .or(card.get("url").map(|_| "JSONRPC"))
    {
        out.push((t.to_owned(), version.clone(), text(card, "url")));
    }
    for i in card["additionalInterfaces"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if let Some(t) = i["transport"].as_str() {
            out.push((t.to_owned(), version.clone(), text(i, "url")));
        }
    }
    out
}

fn interfaces(expect: &AgentCardExpectations, card: &Value, out: &mut Vec<Finding>) {
    let offered = offered(card);
    for want in &expect.interfaces {
        let found = offered.iter().any(|(binding, version)| {
            binding.eq_ignore_ascii_case(&want.protocol_binding)
                && *version == want.protocol_version
        });
        if !found {
            let detail = format!(
                "the card offers no {} interface of version {}",
                want.protocol_binding, want.protocol_version
            );
            let key = interface_key(&want.protocol_binding, &want.protocol_version);
            out.push(declaration(
                codes::UNSUPPORTED_PROTOCOL_BINDING,
                format!("agentCard.supportedInterfaces[{key}]"),
                detail,
            ));
        }
    }
}

fn extensions(expect: &AgentCardExpectations, card: &Value, out: &mut Vec<Finding>) {
    let declared = card["capabilities"]["extensions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for want in &expect.extensions {
        let path = format!("agentCard.extensions[{}]", want.uri);
        match declared.iter().find(|e| e["uri"] == json!(want.uri)) {
            None if want.required != Some(false) => {
                let detail = format!("the card declares no extension {}", want.uri);
                out.push(declaration(codes::CAPABILITY_MISSING, path, detail));
            }
            Some(e) if want.required == Some(false) && e["required"] == json!(true) => {
                let detail = format!(
                    "the card requires {}, which the consumer only tolerates",
                    want.uri
                );
                out.push(declaration(
                    codes::REQUIRED_EXTENSION_UNSUPPORTED,
                    path,
                    detail,
                ));
            }
            _ => {}
        }
    }
    for e in declared.iter().filter(|e| e["required"] == json!(true)) {
        let uri = e["uri"].as_str().unwrap_or_default();
        if !expect.extensions.iter().any(|w| w.uri == uri) {
            let detail = format!(
                "the card requires the extension {uri}, which the contract does not declare support for"
            );
            out.push(declaration(
                codes::REQUIRED_EXTENSION_UNSUPPORTED,
                format!("agentCard.extensions[{uri}]"),
                detail,
            ));
        }
    }
}

#[cfg(test)]
#[path = "card_tests.rs"]
mod tests;
