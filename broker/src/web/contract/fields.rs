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
    /// One matcher (or the generator) a line, in words: `type, min 1`,
    /// `regex ^[0-9]+$`.
    pub rule: Vec<String>,
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
            let matchers = redact::redact(&json["matchers"]);
            let mut rule: Vec<String> = match &matchers {
                Value::Array(list) => list.iter().map(|m| in_words(m, "match")).collect(),
                other => vec![in_words(other, "match")],
            };
            if json["combine"] == "OR" && rule.len() > 1 {
                rule.insert(0, "any one of:".into());
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

/// A matcher or generator (already redacted) in words: the value under
/// `kind` (`match`, `type`) first, then its value (the entry named as
/// the kind, or `value`), then every other entry as `name value`:
/// `{"match":"type","min":1}` is `type, min 1`, `{"match":"regex",
/// "regex":"^a$"}` is `regex ^a$`.
fn in_words(m: &Value, kind: &str) -> String {
    let Some(map) = m.as_object() else {
        return text_of(m);
    };
    let name = map.get(kind).map(text_of).unwrap_or_default();
    let mut out = name.clone();
    let mut others = Vec::new();
    for (k, v) in map.iter().filter(|(k, _)| k.as_str() != kind) {
        if *k == name || k == "value" {
            out = format!("{out} {}", text_of(v)).trim_start().to_owned();
        } else {
            others.push(format!("{k} {}", text_of(v)));
        }
    }
    std::iter::once(out)
        .filter(|o| !o.is_empty())
        .chain(others)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A text as itself, anything else as compact JSON.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
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
                        rule: vec![in_words(&redact::redact(generator), "type")],
                    });
                }
            }
            _ => rows.push(RuleRow {
                category: category.clone(),
                path: "(whole)".into(),
                rule: vec![in_words(&redact::redact(entries), "type")],
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn matchers_and_generators_read_as_words() {
        let cases = [
            (json!({"match": "type", "min": 1}), "match", "type, min 1"),
            (
                json!({"match": "regex", "regex": "^a$"}),
                "match",
                "regex ^a$",
            ),
            (
                json!({"match": "include", "value": "x"}),
                "match",
                "include x",
            ),
            (
                json!({"type": "RandomInt", "min": 1, "max": 9}),
                "type",
                "RandomInt, min 1, max 9",
            ),
            (json!("odd"), "match", "odd"),
        ];
        for (m, kind, words) in cases {
            assert_eq!(in_words(&m, kind), words, "{m}");
        }
    }

    #[test]
    fn several_matchers_of_a_path_are_one_a_line() {
        let v4 = json!({"body": {"$.id": {"combine": "OR",
            "matchers": [{"match": "integer"}, {"match": "regex", "regex": "^[0-9]+$"}]}}});
        let rules = MatchingRules::from_pact_json(&v4, accord_dsl::PactSpec::V4).expect("rules");
        let rows = rule_rows(&rules);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].path, "$.id");
        assert_eq!(rows[0].rule, ["any one of:", "integer", "regex ^[0-9]+$"]);
    }
}
