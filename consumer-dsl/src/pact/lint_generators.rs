//! Lint checks of the generators an interaction carries.

use super::lint::{LintProblem, Severity};
use crate::generators::{Category, Generator, Generators, is_valid_body_path};
use crate::model::Interaction;

/// The generators of each part of an interaction, with the JSON path of
/// their `generators` attribute relative to the interaction.
fn parts(interaction: &Interaction) -> Vec<(String, &Generators)> {
    match interaction {
        Interaction::Http(h) => vec![
            (".request.generators".into(), &h.request.generators),
            (".response.generators".into(), &h.response.generators),
        ],
        Interaction::AsyncMessage(m) => vec![(".generators".into(), &m.message.generators)],
        Interaction::SyncMessage(m) => {
            let mut out = vec![(".request.generators".to_string(), &m.request.generators)];
            for (i, r) in m.response.iter().enumerate() {
                out.push((format!(".response[{i}].generators"), &r.generators));
            }
            out
        }
        Interaction::A2aTask(_) | Interaction::McpToolCall(_) => Vec::new(),
    }
}

/// Unusable generators, body paths generators cannot follow, and
/// `ProviderState` generators in an interaction without provider states.
pub(super) fn check_generators(
    i: usize,
    interaction: &Interaction,
    problems: &mut Vec<LintProblem>,
) {
    let stateless = interaction.meta().provider_states.is_empty();
    for (suffix, generators) in parts(interaction) {
        for (category, key, generator) in generators.iter() {
            let path = match (category.is_single(), key) {
                (true, "") => format!("$.interactions[{i}]{suffix}.{}", category.as_str()),
                _ => format!("$.interactions[{i}]{suffix}.{}['{key}']", category.as_str()),
            };
            let mut push = |severity, code, message: String| {
                problems.push(LintProblem {
                    severity,
                    code,
                    path: path.clone(),
                    message,
                });
            };
            if let Some(why) = generator.problem() {
                push(
                    Severity::Error,
                    "GENERATOR_UNUSABLE",
                    format!("{} generator: {why}", generator.type_name()),
                );
            }
            if category == Category::Body && !is_valid_body_path(key) {
                push(
                    Severity::Error,
                    "INVALID_GENERATOR_PATH",
                    format!("'{key}' is not a body path generators can follow"),
                );
            }
            if stateless && matches!(generator, Generator::ProviderState { .. }) {
                let msg = "a ProviderState generator, but the interaction has no provider state to take values from";
                push(
                    Severity::Warning,
                    "PROVIDER_STATE_GENERATOR_WITHOUT_STATE",
                    msg.into(),
                );
            }
        }
    }
}
