//! The expected side of an interaction with the provider-state values
//! written in. Where a `ProviderState` generator sits in an expected HTTP
//! response, MCP result or A2A part, the value the states returned
//! replaces the example before the answer is judged, as it does in the
//! request: an `equality` rule (`$fromState … equal: true`) then holds the
//! provider to exactly the value its state returned.
//!
//! Only `ProviderState` generators apply. pact-jvm applies every response
//! generator to the expected response in provider mode, so a random value
//! under an `equality` rule fails every run (a false alarm); under any other
//! rule (type, regex, …) a generated value changes nothing. pact-reference
//! applies none, which leaves a state's value unverifiable.
//!
//! A reference the states did not answer (`${missing}`) keeps the example,
//! as in the request. Where an `equality` rule would then compare with the
//! example, that is `EXPECTATION_UNCHECKED` (a failure), never a pass: a
//! provider answering the example by chance would pass silently. Under
//! other rules the example is as good as the value, as before.

use std::borrow::Cow;

use accord_dsl::generators::{
    Category, Generator, Generators, apply_state_values_to_json, apply_state_values_to_response,
    unresolved_state_generators,
};
use accord_dsl::matching::{self, Combine, DocPath, MatchingRule, MatchingRules, RuleList};
use accord_dsl::model::HttpResponse;
use accord_dsl::model::accord::{
    A2aTask, BodyRules, McpToolCall, PartContent, PartExpectation, TaskStep,
};
use serde_json::{Map, Value, json};

use crate::finding::{Finding, Layer, codes};

/// The state values that feed the `ProviderState` generators.
type Values = Map<String, Value>;

/// The expected response with the state values written in, and the
/// references no value answered where an `equality` rule needed one.
pub fn http_response<'a>(
    expected: &'a HttpResponse,
    values: &Values,
) -> (Cow<'a, HttpResponse>, Vec<Finding>) {
    if !touched(&expected.generators, &expected.matching_rules) {
        return (Cow::Borrowed(expected), Vec::new());
    }
    let mut resolved = expected.clone();
    apply_state_values_to_response(&mut resolved, values);
    let rules = &expected.matching_rules;
    let findings = unresolved_state_generators(&expected.generators, values)
        .into_iter()
        .filter(|(category, key, _)| match category {
            Category::Body => equality_at_path(rules.category("body"), key),
            Category::Header => rules
                .category("header")
                .and_then(|c| c.for_name(key, true))
                .is_some_and(compares_values),
            Category::Status => rules
                .category("status")
                .and_then(matching::Category::root)
                .is_some_and(compares_values),
            _ => false,
        })
        .map(|(category, key, g)| {
            let path = match category {
                Category::Status => "status".to_owned(),
                _ => key.to_owned(),
            };
            unchecked(path, g, values)
        })
        .collect();
    (Cow::Owned(resolved), findings)
}

/// The call with its expected result's `structuredContent` and `content`
/// carrying the state values (rules rooted at the result object).
pub fn mcp_call<'a>(
    call: &'a McpToolCall,
    values: &Values,
) -> (Cow<'a, McpToolCall>, Vec<Finding>) {
    let Some(result) = call
        .result
        .as_ref()
        .filter(|r| touched(&r.rules.generators, &r.rules.matching_rules))
    else {
        return (Cow::Borrowed(call), Vec::new());
    };
    let mut root = Map::new();
    if let Some(s) = &result.structured_content {
        root.insert("structuredContent".into(), s.clone());
    }
    if let Some(c) = &result.content {
        root.insert("content".into(), Value::Array(c.clone()));
    }
    let mut root = Value::Object(root);
    let rules = &result.rules;
    apply_state_values_to_json(&mut root, &rules.generators, &rules.matching_rules, values);
    let findings = body_unresolved(rules, values, |key| key.to_owned());
    let mut resolved = call.clone();
    if let Some(r) = resolved.result.as_mut() {
        if r.structured_content.is_some() {
            r.structured_content = root.get("structuredContent").cloned();
        }
        if let Some(Value::Array(blocks)) = root.get_mut("content") {
            r.content = Some(std::mem::take(blocks));
        }
    }
    (Cow::Owned(resolved), findings)
}

/// The task with every expected part (steps, status message parts, direct
/// messages, follow-ups' steps) carrying the state values; paths as the
/// judgement names them (`steps[2].artifact.parts[0].data.plan_id`).
pub fn a2a_task<'a>(task: &'a A2aTask, values: &Values) -> (Cow<'a, A2aTask>, Vec<Finding>) {
    let any = task
        .part_expectations()
        .iter()
        .any(|(_, p)| touched(&p.rules.generators, &p.rules.matching_rules));
    if !any {
        return (Cow::Borrowed(task), Vec::new());
    }
    let mut resolved = task.clone();
    let mut findings = Vec::new();
    steps_mut("steps", &mut resolved.steps, values, &mut findings);
    for (k, follow_up) in resolved.follow_ups.iter_mut().enumerate() {
        if let Some(expect) = follow_up.expect.as_mut() {
            let at = format!("followUps[{k}].expect.steps");
            steps_mut(&at, &mut expect.steps, values, &mut findings);
        }
    }
    (Cow::Owned(resolved), findings)
}

fn steps_mut(prefix: &str, steps: &mut [TaskStep], values: &Values, out: &mut Vec<Finding>) {
    for (i, step) in steps.iter_mut().enumerate() {
        let (at, parts) = match step {
            TaskStep::Status(s) => (
                format!("{prefix}[{i}].status.messageParts"),
                &mut s.message_parts,
            ),
            TaskStep::Artifact(a) => (format!("{prefix}[{i}].artifact.parts"), &mut a.parts),
            TaskStep::Message(m) => (format!("{prefix}[{i}].message.parts"), &mut m.parts),
        };
        for (j, part) in parts.iter_mut().enumerate() {
            part_mut(part, values, &format!("{at}[{j}]"), out);
        }
    }
}

/// One expected part, its rules rooted at the part object (`$.data.x`,
/// `$.text`, `$.filename`).
fn part_mut(part: &mut PartExpectation, values: &Values, at: &str, out: &mut Vec<Finding>) {
    let rules = &part.rules;
    if !touched(&rules.generators, &rules.matching_rules) {
        return;
    }
    let (key, example) = match &part.content {
        PartContent::Text(t) => ("text", json!(t)),
        PartContent::Data(d) => ("data", d.clone()),
        PartContent::Url(u) => ("url", json!(u)),
        PartContent::Raw(r) => ("raw", json!(r)),
    };
    let mut root = json!({ key: example });
    if let Some(f) = &part.filename {
        root["filename"] = json!(f);
    }
    apply_state_values_to_json(&mut root, &rules.generators, &rules.matching_rules, values);
    out.extend(body_unresolved(rules, values, |k| {
        format!("{at}{}", k.trim_start_matches('$'))
    }));
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let got = root.get(key).cloned().unwrap_or(Value::Null);
    part.content = match &part.content {
        PartContent::Text(_) => PartContent::Text(text(&got)),
        PartContent::Data(_) => PartContent::Data(got),
        PartContent::Url(_) => PartContent::Url(text(&got)),
        PartContent::Raw(_) => PartContent::Raw(text(&got)),
    };
    if part.filename.is_some() {
        part.filename = root.get("filename").map(text);
    }
}

/// The unresolved `body` references of an A2A or MCP object whose path
/// holds an `equality` rule; `path` names the location for the finding.
fn body_unresolved(
    rules: &BodyRules,
    values: &Values,
    path: impl Fn(&str) -> String,
) -> Vec<Finding> {
    let body = rules.matching_rules.category("body");
    unresolved_state_generators(&rules.generators, values)
        .into_iter()
        .filter(|(category, key, _)| *category == Category::Body && equality_at_path(body, key))
        .map(|(_, key, g)| unchecked(path(key), g, values))
        .collect()
}

/// Whether there is anything to write: a `ProviderState` generator, or an
/// `arrayContains` variant that may carry one.
fn touched(generators: &Generators, rules: &MatchingRules) -> bool {
    let state = generators
        .iter()
        .any(|(_, _, g)| matches!(g, Generator::ProviderState { .. }));
    let variants = rules.body().is_some_and(|c| {
        c.entries().iter().any(|e| {
            e.rules.rules.iter().any(|r| {
                matches!(r, MatchingRule::ArrayContains(v) if v.iter().any(|x| x.generators.is_some()))
            })
        })
    });
    state || variants
}

/// The rules written at exactly this body path compare values.
fn equality_at_path(category: Option<&matching::Category>, key: &str) -> bool {
    let Ok(path) = DocPath::parse(key) else {
        return false;
    };
    category.is_some_and(|c| {
        c.entries()
            .iter()
            .filter(|e| e.path == path)
            .any(|e| compares_values(&e.rules))
    })
}

/// `equality` decides: one of AND-combined rules, or every OR-combined one
/// (with another alternative, a value of the right type passes anyway).
fn compares_values(list: &RuleList) -> bool {
    let equality = |r: &MatchingRule| matches!(r, MatchingRule::Equality);
    match list.combine {
        Combine::And => list.rules.iter().any(equality),
        Combine::Or => !list.rules.is_empty() && list.rules.iter().all(equality),
    }
}

/// An `equality` that would compare with the example instead of the
/// state's value. Names the values the states gave, never the values
/// (they may be credentials).
fn unchecked(path: String, generator: &Generator, values: &Values) -> Finding {
    let expression = match generator {
        Generator::ProviderState { expression, .. } => expression.as_str(),
        _ => "",
    };
    let given: Vec<&str> = values.keys().map(String::as_str).collect();
    let given = if given.is_empty() {
        "none".to_owned()
    } else {
        given.join(", ")
    };
    let detail = format!(
        "the expected value must equal `{expression}`, but the provider states gave no usable value for it (values given: {given}); the example would stand in, so the equality was not checked"
    );
    Finding::new(Layer::Schema, codes::EXPECTATION_UNCHECKED, path, detail)
        .values(Some(json!(expression)), None)
}

#[cfg(test)]
#[path = "expected_tests.rs"]
mod tests;
