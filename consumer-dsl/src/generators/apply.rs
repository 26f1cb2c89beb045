//! Writing generated values into requests, responses, messages and JSON,
//! and the provider-state values into the expected side of a verification.

use std::borrow::Cow;

use indexmap::IndexMap;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value};

use super::{Category, Generator, GeneratorContext, GeneratorMode, Generators, path};
use crate::matching::{ContentKind, MatchingRule, MatchingRules, content_kind};
use crate::model::{Body, BodyContent, HttpRequest, HttpResponse, Message};

/// Applies the `body` generators of `generators` to a JSON document.
/// A path that selects nothing changes nothing.
pub fn apply_to_json(
    value: &mut Value,
    generators: &Generators,
    ctx: &GeneratorContext,
    rng: &mut impl Rng,
) {
    for (key, generator) in generators.category(Category::Body) {
        let Some(steps) = path::parse(key) else {
            continue;
        };
        path::visit_mut(value, &steps, &mut |current| {
            if let Some(new) = generator.generate(current, ctx, rng) {
                *current = new;
            }
        });
    }
}

/// Applies the generators of `arrayContains` variants (V4 keeps them in
/// the matching rule): at each rule path, the generators of a variant
/// apply to the list item at the variant's index, with paths relative to
/// that item (pact-reference `Generator::ArrayContains`, produced by
/// `build_generators` from the body rules). `scope` picks which of the
/// variants' generators apply.
fn apply_array_contains(
    value: &mut Value,
    rules: &MatchingRules,
    scope: Scope,
    ctx: &GeneratorContext,
    rng: &mut impl Rng,
) {
    for entry in rules.body().map(|c| c.entries()).unwrap_or_default() {
        let Some(steps) = path::parse(&entry.key) else {
            continue;
        };
        for rule in &entry.rules.rules {
            let MatchingRule::ArrayContains(variants) = rule else {
                continue;
            };
            for variant in variants {
                let Some(generators) = variant.generators.as_ref().and_then(|g| {
                    Generators::from_pact_json(&serde_json::json!({ "body": g })).ok()
                }) else {
                    continue;
                };
                let generators = scope.select(&generators);
                path::visit_mut(value, &steps, &mut |list| {
                    if let Some(item) = list.get_mut(variant.index) {
                        apply_to_json(item, &generators, ctx, rng);
                    }
                });
            }
        }
    }
}

fn apply_to_body(
    body: &mut Body,
    (generators, rules): (&Generators, &MatchingRules),
    scope: Scope,
    ctx: &GeneratorContext,
    rng: &mut impl Rng,
) {
    let mut generate = |value: &mut Value| {
        apply_to_json(value, generators, ctx, rng);
        apply_array_contains(value, rules, scope, ctx, rng);
    };
    let Body::Present {
        content,
        content_type,
    } = body
    else {
        return;
    };
    match content {
        BodyContent::Json(value) => generate(value),
        // JSON kept as text (a JSON content type whose example was written
        // as a string): generated into, then written back as text.
        BodyContent::Text(text)
            if content_type
                .as_deref()
                .is_some_and(|ct| content_kind(ct) == ContentKind::Json) =>
        {
            if let Ok(mut value) = serde_json::from_str::<Value>(text) {
                generate(&mut value);
                *text = value.to_string();
            }
        }
        _ => {}
    }
}

/// The text a generated value takes in a header, query parameter or path.
fn as_text(value: Value) -> String {
    match value {
        Value::String(s) => s,
        other => other.to_string(),
    }
}

/// Generates a single string (path, method) from its current value.
fn apply_to_text(
    text: &mut String,
    generators: &Generators,
    category: Category,
    ctx: &GeneratorContext,
    rng: &mut impl Rng,
) {
    if let Some((_, g)) = generators.category(category).next()
        && let Some(new) = g.generate(&Value::String(text.clone()), ctx, rng)
    {
        *text = as_text(new);
    }
}

/// Generates header or query values; a name missing from the map is added.
fn apply_to_multimap(
    map: &mut Option<IndexMap<String, Vec<String>>>,
    generators: &Generators,
    category: Category,
    ctx: &GeneratorContext,
    rng: &mut impl Rng,
) {
    let was_absent = map.is_none();
    for (name, generator) in generators.category(category) {
        let entries = map.get_or_insert_with(IndexMap::new);
        let existing = match category {
            Category::Header => entries.keys().find(|k| k.eq_ignore_ascii_case(name)),
            _ => entries.keys().find(|k| k.as_str() == name),
        };
        match existing.cloned() {
            Some(key) => {
                for v in entries.get_mut(&key).into_iter().flatten() {
                    if let Some(new) = generator.generate(&Value::String(v.clone()), ctx, rng) {
                        *v = as_text(new);
                    }
                }
            }
            // A missing name is added only when a value could be generated
            // (pact-reference `generate_request`).
            None => {
                let empty = Value::String(String::new());
                if let Some(new) = generator.generate(&empty, ctx, rng) {
                    entries.insert(name.to_string(), vec![as_text(new)]);
                }
            }
        }
    }
    if was_absent && map.as_ref().is_some_and(IndexMap::is_empty) {
        *map = None;
    }
}

/// Applies a request's generators (method, path, query, headers, body).
pub fn apply_to_request(request: &mut HttpRequest, ctx: &GeneratorContext, rng: &mut impl Rng) {
    let generators = request.generators.clone();
    apply_to_text(&mut request.method, &generators, Category::Method, ctx, rng);
    apply_to_text(&mut request.path, &generators, Category::Path, ctx, rng);
    apply_to_multimap(&mut request.query, &generators, Category::Query, ctx, rng);
    apply_to_multimap(
        &mut request.headers,
        &generators,
        Category::Header,
        ctx,
        rng,
    );
    apply_to_body(
        &mut request.body,
        (&generators, &request.matching_rules),
        Scope::Every,
        ctx,
        rng,
    );
}

/// Applies a response's generators (status, headers, body). A generated
/// status outside 100..=599 is ignored.
pub fn apply_to_response(response: &mut HttpResponse, ctx: &GeneratorContext, rng: &mut impl Rng) {
    let generators = response.generators.clone();
    apply_to_response_with(response, &generators, Scope::Every, ctx, rng);
}

fn apply_to_response_with(
    response: &mut HttpResponse,
    generators: &Generators,
    scope: Scope,
    ctx: &GeneratorContext,
    rng: &mut impl Rng,
) {
    if let Some((_, g)) = generators.category(Category::Status).next() {
        let status = g
            .generate(&Value::from(response.status), ctx, rng)
            .and_then(|v| v.as_u64().or_else(|| v.as_str()?.parse().ok()))
            .and_then(|n| u16::try_from(n).ok())
            .filter(|n| (100..=599).contains(n));
        if let Some(status) = status {
            response.status = status;
        }
    }
    apply_to_multimap(
        &mut response.headers,
        generators,
        Category::Header,
        ctx,
        rng,
    );
    apply_to_body(
        &mut response.body,
        (generators, &response.matching_rules),
        scope,
        ctx,
        rng,
    );
}

/// Applies a message's generators (contents and metadata).
pub fn apply_to_message(message: &mut Message, ctx: &GeneratorContext, rng: &mut impl Rng) {
    let generators = message.generators.clone();
    apply_to_body(
        &mut message.contents,
        (&generators, &message.matching_rules),
        Scope::Every,
        ctx,
        rng,
    );
    for (key, generator) in generators.category(Category::Metadata) {
        let current = message.metadata.get(key).cloned().unwrap_or(Value::Null);
        if let Some(new) = generator.generate(&current, ctx, rng) {
            message.metadata.insert(key.to_string(), new);
        }
    }
}

/// Which generators apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Every generator (a request to send, a response or message to produce).
    Every,
    /// `ProviderState` generators only (the expected side of a verification).
    StateValues,
}

impl Scope {
    fn select(self, generators: &Generators) -> Cow<'_, Generators> {
        match self {
            Scope::Every => Cow::Borrowed(generators),
            Scope::StateValues => Cow::Owned(state_generators(generators)),
        }
    }
}

/// Only the `ProviderState` generators of `generators`.
pub fn state_generators(generators: &Generators) -> Generators {
    let mut out = Generators::default();
    for (category, key, g) in generators.iter() {
        if matches!(g, Generator::ProviderState { .. }) {
            out.insert(category, key, g.clone());
        }
    }
    out
}

/// The provider-mode context of the state values.
fn state_context(values: &Map<String, Value>) -> GeneratorContext {
    GeneratorContext {
        provider_state_values: values.clone(),
        mode: GeneratorMode::Provider,
        ..GeneratorContext::default()
    }
}

/// The expected side of a provider verification: writes the values the
/// provider states returned where the response's `ProviderState`
/// generators (and those of its `arrayContains` variants) put them, as a
/// request gets them, so that a rule comparing values (`equality`)
/// compares with the state's value. No other generator applies: a random
/// value on the expected side could only make an `equality` rule fail, and
/// under any other rule (type, regex, …) it changes nothing. A value the
/// states did not return keeps the example, as in a request.
pub fn apply_state_values_to_response(response: &mut HttpResponse, values: &Map<String, Value>) {
    let generators = state_generators(&response.generators);
    let ctx = state_context(values);
    let mut rng = StdRng::seed_from_u64(0);
    apply_to_response_with(response, &generators, Scope::StateValues, &ctx, &mut rng);
}

/// Like [`apply_state_values_to_response`] for a JSON document whose `body`
/// generators and rules are rooted at it (an A2A part, an MCP result).
pub fn apply_state_values_to_json(
    value: &mut Value,
    generators: &Generators,
    rules: &MatchingRules,
    values: &Map<String, Value>,
) {
    let ctx = state_context(values);
    let mut rng = StdRng::seed_from_u64(0);
    apply_to_json(value, &state_generators(generators), &ctx, &mut rng);
    apply_array_contains(value, rules, Scope::StateValues, &ctx, &mut rng);
}

/// The `ProviderState` generators that cannot produce a value from
/// `values` (a `${name}` the states did not return, or a value that does
/// not convert to the generator's `dataType`), with category and key: the
/// example stays where they are.
pub fn unresolved_state_generators<'a>(
    generators: &'a Generators,
    values: &Map<String, Value>,
) -> Vec<(Category, &'a str, &'a Generator)> {
    let ctx = state_context(values);
    let mut rng = StdRng::seed_from_u64(0);
    generators
        .iter()
        .filter(|(_, _, g)| matches!(g, Generator::ProviderState { .. }))
        .filter(|(_, _, g)| g.generate(&Value::Null, &ctx, &mut rng).is_none())
        .collect()
}

#[cfg(test)]
#[path = "apply_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "apply_state_tests.rs"]
mod state_tests;
