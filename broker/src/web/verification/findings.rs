//! A result's findings, grouped by contract layer in the order a release
//! manager reads them, each with what a reader needs: reason code,
//! interaction, path, expected and actual (secrets hidden).

use serde_json::Value;

use crate::api::findings::{Finding, Layer};
use crate::error::BrokerError;
use crate::store::StoreError;
use crate::web::contract::redact;
use crate::web::spans::{Span, spans};

/// The layers in page order.
const ORDER: [(Layer, &str, &str); 8] = [
    (
        Layer::Declaration,
        "declaration",
        "Declaration: the Agent Card or tool list",
    ),
    (
        Layer::Schema,
        "schema",
        "Schema: shapes of messages and results",
    ),
    (
        Layer::Protocol,
        "protocol",
        "Protocol: task states, streams, errors",
    ),
    (
        Layer::Authorization,
        "authorization",
        "Authorization: principals and tenants",
    ),
    (Layer::Behavior, "behavior", "Behavior: side effects"),
    (Layer::Temporal, "temporal", "Temporal: deadlines"),
    (Layer::Trace, "trace", "Trace: trace context downstream"),
    (
        Layer::Compatibility,
        "compatibility",
        "Compatibility: changes between versions",
    ),
];

/// One finding as shown.
#[derive(Debug, Clone)]
pub struct FindingView {
    pub reason_code: String,
    pub interaction: String,
    /// The interaction on the contract page.
    pub interaction_href: Option<String>,
    pub path: String,
    pub expected: Option<String>,
    pub actual: Option<String>,
    /// Fields named as missing, then as not expected, each a sentence's
    /// code span and verb ("`priority`" "is missing").
    pub keys: Vec<(String, &'static str)>,
    /// The detail sentence, its code spans apart (`` `tool` declares… ``).
    pub detail: Vec<Span>,
}

/// The findings of one layer.
#[derive(Debug, Clone)]
pub struct LayerGroup {
    /// `schema`, `temporal`, … (also the section's id).
    pub layer: &'static str,
    pub title: &'static str,
    pub findings: Vec<FindingView>,
}

/// `v`, found at the finding's path (whose last step names it), redacted.
fn shown(v: &Option<Value>, path: &str) -> Option<String> {
    v.as_ref().map(|v| {
        let shown = redact::named(redact::last_step(path), v);
        match shown {
            Value::String(s) => s,
            Value::Object(_) | Value::Array(_) => {
                serde_json::to_string_pretty(&shown).unwrap_or_default()
            }
            other => other.to_string(),
        }
    })
}

/// The texts hidden from the finding's expected and actual values: the
/// detail may quote them.
fn hidden(f: &Finding, path: &str) -> Vec<String> {
    let step = redact::last_step(path);
    [&f.expected, &f.actual]
        .into_iter()
        .flatten()
        .flat_map(|v| redact::hidden_texts(step, v))
        .collect()
}

fn view(f: &Finding, contract: Option<&str>) -> FindingView {
    let id: Option<String> = f.interaction_id.as_ref().map(|i| {
        i.chars()
            .filter(char::is_ascii_alphanumeric)
            .take(40)
            .collect()
    });
    let path = f.path.clone().unwrap_or_default();
    let hidden = hidden(f, &path);
    // both values null (an older verifier sent absent values as null)
    // say nothing: no "Expected null / Actual null"
    let both_null = f.expected == Some(Value::Null) && f.actual == Some(Value::Null);
    let (expected, actual) = match both_null {
        true => (None, None),
        false => (shown(&f.expected, &path), shown(&f.actual, &path)),
    };
    FindingView {
        reason_code: redact::redact_text(&f.reason_code),
        interaction: match (&f.interaction_description, &f.interaction_id) {
            (Some(d), _) => redact::redact_text(d),
            // an interaction's `_id`: 40 hex digits, an identifier
            (None, Some(id)) => redact::compact_named("interactionId", &Value::String(id.clone())),
            (None, None) => String::new(),
        },
        interaction_href: match (contract, id) {
            (Some(page), Some(id)) if !id.is_empty() => Some(format!("{page}#i-{id}")),
            _ => None,
        },
        expected,
        actual,
        keys: keys(f),
        detail: f
            .detail
            .as_deref()
            .map(|d| spans(&redact::without(&redact::redact_text(d), &hidden)))
            .unwrap_or_default(),
        path: redact::redact_text(&path),
    }
}

/// The fields a finding names as missing or not expected, redacted.
fn keys(f: &Finding) -> Vec<(String, &'static str)> {
    let named = |list: &Option<Vec<String>>, verb: &'static str| {
        list.iter()
            .flatten()
            .map(move |k| (redact::redact_text(k), verb))
            .collect::<Vec<_>>()
    };
    let mut out = named(&f.missing, "is missing");
    out.extend(named(&f.unexpected, "is not expected"));
    out
}

/// The stored findings JSON, grouped by layer (empty layers left out).
pub fn grouped(text: &str, contract: Option<&str>) -> Result<Vec<LayerGroup>, BrokerError> {
    let findings: Vec<Finding> = serde_json::from_str(text).map_err(|source| {
        BrokerError::from(StoreError::CorruptJson {
            what: "findings",
            source,
        })
    })?;
    Ok(ORDER
        .iter()
        .map(|(layer, name, title)| LayerGroup {
            layer: name,
            title,
            findings: findings
                .iter()
                .filter(|f| f.layer == *layer)
                .map(|f| view(f, contract))
                .collect(),
        })
        .filter(|g| !g.findings.is_empty())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_interaction_id_is_shown_as_an_id_and_quoted_secrets_are_not() {
        let id = "1ca335515bcf5f23796296346a42d73183ed4f53";
        let f: Finding = serde_json::from_value(json!({"layer": "schema",
            "reasonCode": "RESPONSE_MISMATCH", "interactionId": id,
            "path": "$.headers['X-Api-Key']", "actual": "k-hunter2",
            "detail": "got k-hunter2"}))
        .expect("a finding");
        let shown = view(&f, Some("/c"));
        assert_eq!(shown.interaction, id);
        assert_eq!(
            shown.interaction_href.as_deref(),
            Some(format!("/c#i-{id}").as_str())
        );
        assert_eq!(shown.actual.as_deref(), Some(redact::HIDDEN));
        assert_eq!(shown.detail, spans("got (hidden)"));
    }

    #[test]
    fn missing_fields_are_named_and_two_nulls_are_not_shown() {
        let f: Finding = serde_json::from_value(json!({"layer": "compatibility",
            "reasonCode": "BREAKING_FIELD_REMOVED", "path": "mcpTools[t].result.priority",
            "expected": null, "actual": null, "missing": ["priority"], "unexpected": ["debug"]}))
        .expect("a finding");
        let shown = view(&f, None);
        assert_eq!((shown.expected, shown.actual), (None, None));
        assert_eq!(
            shown.keys,
            [
                ("priority".to_owned(), "is missing"),
                ("debug".to_owned(), "is not expected")
            ]
        );
        // one null is a fact (an expected null)
        let f: Finding = serde_json::from_value(json!({"layer": "schema",
            "reasonCode": "RESPONSE_MISMATCH", "path": "$.a", "expected": null, "actual": 1}))
        .expect("a finding");
        assert_eq!(view(&f, None).expected.as_deref(), Some("null"));
    }
}
