//! Two stored contents compared: interactions added, removed and changed
//! (matched by description and provider states), the declarations and
//! protocol pins, and what each change means for the provider.

use std::collections::BTreeMap;

use accord_dsl::canonical::canonical_json;
use accord_verifier::compat::{Class, error_code_changes};
use serde_json::{Value, json};

use crate::contract::diff::unified_diff;
use crate::contract::{canonical_without_id, pretty_for_diff, without_id};
use crate::error::BrokerError;
use crate::store::StoreError;
use crate::store::pacts::PactContent;
use crate::web::contract::page::raw_interactions;
use crate::web::contract::redact;

/// At most this many changed paths are listed per interaction.
const MAX_PATHS: usize = 30;

/// An added or removed interaction.
#[derive(Debug, Clone)]
pub struct Entry {
    pub kind: String,
    pub description: String,
    /// On the `to` contract page (added ones only).
    pub href: Option<String>,
}

/// A changed interaction or contract part.
#[derive(Debug, Clone)]
pub struct Changed {
    pub kind: String,
    pub description: String,
    pub href: Option<String>,
    /// `path: old → new`.
    pub paths: Vec<String>,
    /// Unified diff of the pretty-printed JSON (secrets hidden).
    pub diff: String,
    /// A contract part whose newer expectations are a subset of the older.
    pub relies_on_less: bool,
    /// The expected errors that changed (`compat::error_code_changes`),
    /// each a sentence.
    pub errors_changed: Vec<String>,
}

/// One change, classified for the provider with the classes of
/// `accord_verifier::compat`: a consumer relying on less is compatible;
/// one relying on something new or different needs verification
/// (conditional); an expected error changed is breaking (the provider
/// versions that passed the older expectation answered the older error).
#[derive(Debug, Clone)]
pub struct Impact {
    pub code: &'static str,
    pub subject: String,
    pub class: Class,
    pub detail: String,
}

impl Impact {
    /// The row's CSS class.
    pub fn css(&self) -> &'static str {
        self.class.as_str()
    }

    /// What the provider must do about it.
    pub fn label(&self) -> &'static str {
        match self.class {
            Class::Breaking => "Breaking",
            Class::Conditional => "Needs verification",
            Class::Compatible => "Compatible",
            Class::Warning => "Warning",
        }
    }
}

/// The comparison of two contents.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub from_sha: String,
    pub to_sha: String,
    pub same_content: bool,
    pub added: Vec<Entry>,
    pub removed: Vec<Entry>,
    pub changed: Vec<Changed>,
    pub unchanged: usize,
    pub parts: Vec<Changed>,
    pub impacts: Vec<Impact>,
    /// How many changes need a verification of the provider.
    pub to_verify: usize,
    /// The whole documents' unified diff, as the API's 409 shows it.
    pub text_diff: String,
}

fn parse(content: &PactContent) -> Result<Value, BrokerError> {
    serde_json::from_str(&content.content).map_err(|source| {
        BrokerError::from(StoreError::CorruptJson {
            what: "pact content",
            source,
        })
    })
}

/// What identifies an interaction: description and provider states.
fn identity(i: &Value) -> String {
    let states = i
        .get("providerStates")
        .or_else(|| i.get("providerState"))
        .cloned()
        .unwrap_or(Value::Null);
    canonical_json(&json!([i.get("description"), states]))
}

/// The V4 `type`, or what an older pact's interaction is.
fn kind(i: &Value) -> String {
    let older = if i.get("request").is_some() {
        "Synchronous/HTTP"
    } else {
        "Asynchronous/Messages"
    };
    redact::redact_text(i.get("type").and_then(Value::as_str).unwrap_or(older))
}

fn description(i: &Value) -> String {
    redact::redact_text(
        i.get("description")
            .and_then(Value::as_str)
            .unwrap_or("(no description)"),
    )
}

fn anchor(page: &str, i: &Value) -> String {
    let id: String = i
        .get("_id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    format!("{page}#i-{id}")
}

impl Comparison {
    /// `old` → `new`; `to_page` is the contract page of `new`.
    pub fn of(
        old: &PactContent,
        new: &PactContent,
        to_page: &str,
    ) -> Result<Comparison, BrokerError> {
        let (a, b) = (parse(old)?, parse(new)?);
        let index = |doc: &Value| -> BTreeMap<String, Value> {
            raw_interactions(doc)
                .into_iter()
                .map(|i| (identity(i), i.clone()))
                .collect()
        };
        let (before, after) = (index(&a), index(&b));
        let mut c = Comparison {
            from_sha: old.sha.clone(),
            to_sha: new.sha.clone(),
            same_content: old.sha == new.sha,
            added: Vec::new(),
            removed: Vec::new(),
            changed: Vec::new(),
            unchanged: 0,
            parts: parts(&a, &b),
            impacts: Vec::new(),
            to_verify: 0,
            text_diff: unified_diff(
                &pretty_for_diff(&redact::redact(&a)),
                &pretty_for_diff(&redact::redact(&b)),
                "from",
                "to",
            ),
        };
        for (key, i) in &before {
            if !after.contains_key(key) {
                c.removed.push(Entry {
                    kind: kind(i),
                    description: description(i),
                    href: None,
                });
            }
        }
        for (key, i) in &after {
            match before.get(key) {
                None => c.added.push(Entry {
                    kind: kind(i),
                    description: description(i),
                    href: Some(anchor(to_page, i)),
                }),
                Some(o) if canonical_without_id(o) != canonical_without_id(i) => {
                    let (was, now) = (without_id(o), without_id(i));
                    let mut changed = changed(kind(i), description(i), &was, &now);
                    changed.href = Some(anchor(to_page, i));
                    changed.errors_changed = error_code_changes(&was, &now)
                        .into_iter()
                        .map(|c| redact::redact_text(&format!("{}: {}", c.path, c.detail)))
                        .collect();
                    c.changed.push(changed);
                }
                Some(_) => c.unchanged += 1,
            }
        }
        c.classify();
        Ok(c)
    }

    fn classify(&mut self) {
        let name = |kind: &str, d: &str| format!("{kind} '{d}'");
        let mut impacts = Vec::new();
        for e in &self.added {
            impacts.push(Impact { code: "INTERACTION_ADDED", subject: name(&e.kind, &e.description), class: Class::Conditional,
                detail: "a new expectation: provider versions verified against the older contract were never checked for it".into() });
        }
        for e in &self.changed {
            impacts.push(interaction_changed(name(&e.kind, &e.description), e));
        }
        for e in &self.removed {
            impacts.push(Impact {
                code: "INTERACTION_REMOVED",
                subject: name(&e.kind, &e.description),
                class: Class::Compatible,
                detail: "the consumer no longer relies on it".into(),
            });
        }
        for p in &self.parts {
            let (class, detail) = if p.relies_on_less {
                (
                    Class::Compatible,
                    "the consumer relies on less of the provider's declarations than before",
                )
            } else {
                (
                    Class::Conditional,
                    "what the consumer relies on in the provider's declarations or protocol versions changed",
                )
            };
            impacts.push(Impact {
                code: part_code(&p.kind),
                subject: p.description.clone(),
                class,
                detail: detail.into(),
            });
        }
        self.to_verify = impacts
            .iter()
            .filter(|i| matches!(i.class, Class::Conditional | Class::Breaking))
            .count();
        self.impacts = impacts;
    }
}

/// A changed interaction: breaking when an expected error changed
/// (BREAKING_ERROR_CODE_CHANGED), else it needs verification.
fn interaction_changed(subject: String, e: &Changed) -> Impact {
    if e.errors_changed.is_empty() {
        return Impact {
            code: "INTERACTION_CHANGED",
            subject,
            class: Class::Conditional,
            detail: "the expectation changed: earlier verifications do not cover it".into(),
        };
    }
    Impact {
        code: accord_verifier::finding::codes::BREAKING_ERROR_CODE_CHANGED,
        subject,
        class: Class::Breaking,
        detail: format!(
            "{}: provider versions that passed the older contract answered with the older error",
            e.errors_changed.join("; ")
        ),
    }
}

/// Every expectation of `new` is one `old` had: objects with a subset of
/// the keys (each value relying on less), lists whose every entry relies on
/// less than one of the older list's, scalars equal.
fn relies_on_less(new: &Value, old: &Value) -> bool {
    match (new, old) {
        (Value::Object(n), Value::Object(o)) => n
            .iter()
            .all(|(k, v)| o.get(k).is_some_and(|w| relies_on_less(v, w))),
        (Value::Array(n), Value::Array(o)) => {
            n.iter().all(|v| o.iter().any(|w| relies_on_less(v, w)))
        }
        (Value::Null, _) => true,
        _ => new == old,
    }
}

fn part_code(key: &str) -> &'static str {
    match key {
        "agentCard" => "AGENT_CARD_EXPECTATIONS_CHANGED",
        "mcpTools" => "MCP_TOOLS_EXPECTATIONS_CHANGED",
        _ => "PROTOCOL_VERSIONS_CHANGED",
    }
}

/// The parts besides interactions a verifier reads, when they differ.
fn parts(a: &Value, b: &Value) -> Vec<Changed> {
    let pick = |doc: &Value, key: &str| -> Value {
        match key {
            "agentCard" | "mcpTools" => doc.get(key).cloned().unwrap_or(Value::Null),
            _ => {
                json!({"pactSpecification": doc.pointer("/metadata/pactSpecification"), "accord": doc.pointer("/metadata/accord")})
            }
        }
    };
    let labels = [
        ("agentCard", "Agent Card expectations"),
        ("mcpTools", "MCP tool expectations"),
        (
            "metadata",
            "Pact specification and pinned protocol versions",
        ),
    ];
    labels
        .into_iter()
        .filter_map(|(key, label)| {
            let (x, y) = (pick(a, key), pick(b, key));
            (canonical_json(&x) != canonical_json(&y)).then(|| {
                let mut part = changed(key.to_owned(), label.to_owned(), &x, &y);
                part.relies_on_less = key != "metadata" && relies_on_less(&y, &x);
                part
            })
        })
        .collect()
}

/// The change from `old` to `new`: the paths compared on the values as
/// stored (a changed secret is a change, shown as `(hidden) → (hidden)`),
/// everything shown redacted.
fn changed(kind: String, description: String, old: &Value, new: &Value) -> Changed {
    let mut paths = Vec::new();
    walk(old, new, ("$", ""), &mut paths);
    let (old, new) = (redact::redact(old), redact::redact(new));
    Changed {
        kind,
        description,
        href: None,
        paths,
        diff: unified_diff(&pretty_for_diff(&old), &pretty_for_diff(&new), "from", "to"),
        relies_on_less: false,
        errors_changed: Vec::new(),
    }
}

/// `v`, found under `name`, redacted and cut to 80 characters.
fn short(name: &str, v: Option<&Value>) -> String {
    let text = v.map_or_else(
        || "(absent)".to_owned(),
        |v| redact::named(name, v).to_string(),
    );
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// The JSON paths where `a` and `b` (found under `name`) differ, as
/// `path: old → new`; the path's names are shown, the values redacted.
fn walk(a: &Value, b: &Value, (path, name): (&str, &str), out: &mut Vec<String>) {
    if out.len() >= MAX_PATHS || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if !redact::is_secret_name(name) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let sub = redact::redact_text(&format!("{path}.{k}"));
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => walk(p, q, (&sub, k), out),
                    (p, q) if out.len() < MAX_PATHS => {
                        out.push(format!("{sub}: {} → {}", short(k, p), short(k, q)))
                    }
                    _ => return,
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (n, (p, q)) in x.iter().zip(y).enumerate() {
                walk(p, q, (&format!("{path}[{n}]"), name), out);
            }
        }
        _ => out.push(format!(
            "{path}: {} → {}",
            short(name, Some(a)),
            short(name, Some(b))
        )),
    }
}
