//! The published form of a contract's results: Pact's verification-result
//! body (`success`, `providerApplicationVersion`, `verifiedBy`,
//! `testResults` with mismatches as `attribute`/`identifier`/`description`)
//! plus Accord's top-level `findings`.

use serde_json::{Map, Value, json};

use crate::finding::Finding;
use crate::report::{ContractResult, InteractionResult, Outcome};

/// The implementation name in `verifiedBy`.
pub const IMPLEMENTATION: &str = "Accord";

impl ContractResult {
    /// The body to publish for this contract's verification.
    pub fn publication(&self, provider_version: &str, verifier_version: &str) -> Value {
        let tests: Vec<Value> = self.interactions.iter().map(test_result).collect();
        let own = self.findings.iter().map(|f| finding_json(None, f));
        let findings: Vec<Value> = own
            .chain(
                self.interactions
                    .iter()
                    .flat_map(|i| i.findings.iter().map(move |f| finding_json(Some(i), f))),
            )
            .collect();
        json!({
            "success": self.passed(),
            "providerApplicationVersion": provider_version,
            "verifiedBy": {"implementation": IMPLEMENTATION, "version": verifier_version},
            "testResults": tests,
            "findings": findings,
        })
    }
}

fn test_result(i: &InteractionResult) -> Value {
    let mut out = Map::new();
    if let Some(id) = &i.interaction_id {
        out.insert("interactionId".into(), json!(id));
    }
    out.insert("interactionDescription".into(), json!(i.description));
    out.insert("success".into(), json!(i.outcome == Outcome::Passed));
    let (mismatches, exceptions): (Vec<&Finding>, Vec<&Finding>) =
        i.findings.iter().partition(|f| f.pact_attribute.is_some());
    if !mismatches.is_empty() {
        let list: Vec<Value> = mismatches.into_iter().map(pact_mismatch).collect();
        out.insert("mismatches".into(), Value::Array(list));
    }
    if !exceptions.is_empty() {
        let list: Vec<Value> = exceptions
            .into_iter()
            .map(|f| json!({"message": format!("{}: {}", f.reason_code, f.detail)}))
            .collect();
        out.insert("exceptions".into(), Value::Array(list));
    }
    Value::Object(out)
}

/// A matcher finding in Pact's mismatch form.
fn pact_mismatch(f: &Finding) -> Value {
    let mut m = Map::new();
    m.insert("attribute".into(), json!(f.pact_attribute));
    if !f.path.is_empty() && f.pact_attribute != Some("status") {
        m.insert("identifier".into(), json!(f.path));
    }
    m.insert("description".into(), json!(f.detail));
    if let Some(e) = &f.expected {
        m.insert("expected".into(), Value::clone(e));
    }
    if let Some(a) = &f.actual {
        m.insert("actual".into(), Value::clone(a));
    }
    Value::Object(m)
}

/// A finding as published; a contract-level one names no interaction.
/// An absent expected or actual value is left out, not sent as `null`
/// (a page would show "null" for what was never recorded).
fn finding_json(i: Option<&InteractionResult>, f: &Finding) -> Value {
    let mut out = json!({
        "layer": f.layer.as_str(),
        "reasonCode": f.reason_code,
        "path": f.path,
        "detail": f.detail,
    });
    for (key, value) in [("expected", &f.expected), ("actual", &f.actual)] {
        if let Some(v) = value {
            out[key] = Value::clone(v);
        }
    }
    for (key, names) in [("missing", &f.missing), ("unexpected", &f.unexpected)] {
        if !names.is_empty() {
            out[key] = json!(names);
        }
    }
    if let Some(i) = i {
        out["interactionId"] = json!(i.interaction_id);
        out["interactionDescription"] = json!(i.description);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Layer, codes};

    #[test]
    fn publication_carries_pact_mismatches_and_accord_findings() {
        let mismatch = Finding {
            pact_attribute: Some("body"),
            ..Finding::new(Layer::Schema, codes::RESPONSE_MISMATCH, "$.id", "differs")
                .values(Some(json!(1)), Some(json!(2)))
        };
        let timeout = Finding::new(Layer::Temporal, codes::RESPONSE_TIMEOUT, "", "no answer")
            .keys(&["priority"], &[]);
        let result = ContractResult {
            findings: Vec::new(),
            consumer: "c".into(),
            provider: "p".into(),
            source: "f".into(),
            pending: false,
            wip: false,
            interactions: vec![InteractionResult {
                index: 0,
                interaction_id: Some("k1".into()),
                description: "get it".into(),
                interaction_type: "Synchronous/HTTP",
                pending: false,
                outcome: Outcome::Failed,
                findings: vec![mismatch, timeout],
                warnings: Vec::new(),
                checks: Vec::new(),
                duration_ms: 1,
                states_not_set_up: false,
                trace_id: None,
                downstream: Vec::new(),
            }],
        };
        let body = result.publication("1.2.3", "0.1.0");
        assert_eq!(body["success"], false);
        assert_eq!(body["providerApplicationVersion"], "1.2.3");
        let test = &body["testResults"][0];
        assert_eq!(test["interactionId"], "k1");
        assert_eq!(test["mismatches"][0]["attribute"], "body");
        assert_eq!(test["mismatches"][0]["identifier"], "$.id");
        assert!(
            test["exceptions"][0]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("RESPONSE_TIMEOUT"))
        );
        assert_eq!(body["findings"][1]["layer"], "temporal");
        assert_eq!(body["findings"][0]["reasonCode"], "RESPONSE_MISMATCH");
        assert_eq!(body["findings"][0]["interactionDescription"], "get it");
        // absent values are left out, names of missing fields are data
        let timeout = &body["findings"][1];
        assert!(timeout.get("expected").is_none(), "{timeout}");
        assert!(timeout.get("actual").is_none(), "{timeout}");
        assert_eq!(timeout["missing"], json!(["priority"]));
        assert!(timeout.get("unexpected").is_none(), "{timeout}");
        assert_eq!(body["findings"][0]["expected"], 1);
    }
}
