//! The small shapes every section of the contract pages is made of: a
//! named value, a body, a matching rule, a provider state.

use accord_dsl::matching::MatchingRules;
use accord_dsl::model::{Body, BodyContent, Headers, ProviderState};
use serde_json::Value;

use super::redact;

/// Bodies of at most this many lines are shown open.
const OPEN_LINES: usize = 24;

/// One named value: a row of a two-column table.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub value: String,
    /// Several lines: shown in a `<pre>`.
    pub pre: bool,
}

impl Field {
    /// A value shown as text, its secrets hidden (`redact_text`).
    pub fn text(name: impl Into<String>, value: impl Into<String>) -> Field {
        Field {
            name: name.into(),
            value: redact::redact_text(&value.into()),
            pre: false,
        }
    }

    /// A JSON value under `name`, redacted as found under that name: on
    /// one line when short, else pretty.
    pub fn json(name: impl Into<String>, value: &Value) -> Field {
        let name = name.into();
        let shown = redact::named(&name, value);
        let line = match &shown {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        if line.len() <= 80 {
            return Field {
                name,
                value: line,
                pre: false,
            };
        }
        Field {
            name,
            value: serde_json::to_string_pretty(&shown).unwrap_or_default(),
            pre: true,
        }
    }
}

/// A body: its content type and its content, pretty-printed.
#[derive(Debug, Clone)]
pub struct BodyView {
    pub content_type: String,
    pub text: String,
    pub lines: usize,
    /// Short enough to show open.
    pub open: bool,
}

impl BodyView {
    /// `None` for a missing body.
    pub fn of(body: &Body) -> Option<BodyView> {
        let (text, content_type) = match body {
            Body::Missing => return None,
            Body::Null => ("null".to_owned(), None),
            Body::Present {
                content,
                content_type,
            } => (content_text(content), content_type.clone()),
        };
        Some(BodyView::new(text, content_type))
    }

    /// A JSON document shown as a body.
    pub fn json(value: &Value) -> BodyView {
        BodyView::new(redact::pretty(value), Some("application/json".into()))
    }

    fn new(text: String, content_type: Option<String>) -> BodyView {
        let lines = text.lines().count().max(1);
        BodyView {
            content_type: content_type
                .map_or_else(|| "no content type".into(), |c| redact::redact_text(&c)),
            text,
            lines,
            open: lines <= OPEN_LINES,
        }
    }
}

fn content_text(content: &BodyContent) -> String {
    match content {
        BodyContent::Json(v) => redact::pretty(v),
        // text and form bodies: `password=…`, `Bearer …`, URLs with user-info
        BodyContent::Text(t) => redact::redact_text(t),
        BodyContent::Bytes(b) => format!("({} bytes of binary content)", b.len()),
    }
}

/// One path's matching rules (or generator) in a category.
#[derive(Debug, Clone)]
pub struct RuleRow {
    pub category: String,
    pub path: String,
    pub rule: String,
}

/// Every rule of `rules`, category by category, in the order written.
pub fn rule_rows(rules: &MatchingRules) -> Vec<RuleRow> {
    let mut rows = Vec::new();
    for name in rules.category_names() {
        let Some(category) = rules.category(name) else {
            continue;
        };
        for entry in category.entries() {
            let json = entry.rules.to_json();
            let mut rule = redact::compact(&json["matchers"]);
            if json["combine"] == "OR" {
                rule.push_str(" (any one)");
            }
            let path = if entry.key.is_empty() {
                "(whole)".to_owned()
            } else {
                redact::redact_text(&entry.key)
            };
            rows.push(RuleRow {
                category: name.to_owned(),
                path,
                rule,
            });
        }
    }
    rows
}

/// Generators (V4 JSON form `{category: {path: generator}}`) as rows.
pub fn generator_rows(v4: &Value) -> Vec<RuleRow> {
    let mut rows = Vec::new();
    for (category, entries) in v4.as_object().into_iter().flatten() {
        match entries.as_object() {
            Some(paths) if !entries.get("type").is_some_and(Value::is_string) => {
                for (path, generator) in paths {
                    rows.push(RuleRow {
                        category: category.clone(),
                        path: redact::redact_text(path),
                        rule: redact::compact(generator),
                    });
                }
            }
            _ => rows.push(RuleRow {
                category: category.clone(),
                path: "(whole)".into(),
                rule: redact::compact(entries),
            }),
        }
    }
    rows
}

/// Headers or query parameters as fields, secrets hidden.
pub fn multi_fields(values: Option<&Headers>) -> Vec<Field> {
    values
        .into_iter()
        .flatten()
        .map(|(name, values)| {
            let value = values
                .iter()
                .map(|v| redact::compact_named(name, &Value::String(v.clone())))
                .collect::<Vec<_>>()
                .join(", ");
            Field {
                name: name.clone(),
                value,
                pre: false,
            }
        })
        .collect()
}

/// A provider state: its name and parameters.
#[derive(Debug, Clone)]
pub struct StateView {
    pub name: String,
    pub params: String,
}

/// The provider states of an interaction.
pub fn states(list: &[ProviderState]) -> Vec<StateView> {
    list.iter()
        .map(|s| {
            let mut params = s.params.clone();
            params.extend(s.extra.clone());
            StateView {
                name: redact::redact_text(&s.name),
                params: if params.is_empty() {
                    String::new()
                } else {
                    redact::compact(&Value::Object(params))
                },
            }
        })
        .collect()
}
