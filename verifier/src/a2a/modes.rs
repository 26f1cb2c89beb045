//! Artifact parts against the output modes the agent declares and the
//! consumer accepts, pure.

use serde_json::{Value, json};

use super::events::{Event, Record};
use super::parts::{mode_of, same_mode};
use crate::finding::{Finding, Layer, codes};

/// Every artifact part's media type against each list of allowed output
/// modes (the skill's or card's, the request's `acceptedOutputModes`).
pub fn output_modes(record: &Record, allowed: &[(&str, Vec<String>)]) -> Vec<Finding> {
    let mut out = Vec::new();
    for o in &record.events {
        let Event::Artifact { id, name, parts } = &o.event else {
            continue;
        };
        for (j, part) in parts.iter().enumerate() {
            let Some(mode) = mode_of(part) else { continue };
            let implied = part
                .get("mediaType")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty);
            let fits = |m: &String| same_mode(m, &mode) || (implied && implied_fits(m, &mode));
            let Some((whose, modes)) = allowed
                .iter()
                .find(|(_, modes)| !modes.is_empty() && !modes.iter().any(fits))
            else {
                continue;
            };
            let shown = name.as_deref().unwrap_or(id);
            let detail = format!(
                "artifact `{shown}` part {j} is {mode}, not among {whose} ({})",
                modes.join(", ")
            );
            out.push(
                Finding::new(
                    Layer::Schema,
                    codes::CONTENT_MODE_MISMATCH,
                    format!("artifacts[{shown}].parts[{j}]"),
                    detail,
                )
                .values(Some(json!(modes)), Some(json!(mode))),
            );
        }
    }
    out
}

/// A part that names no media type fits any mode of its kind: a text part
/// any `text/…` mode, a data part any JSON mode (`…/json`, `…+json`).
fn implied_fits(mode: &str, implied: &str) -> bool {
    let mode = mode.to_ascii_lowercase();
    match implied {
        "text/plain" => mode.starts_with("text/") || mode == "text",
        "application/json" => mode.ends_with("/json") || mode.ends_with("+json") || mode == "json",
        _ => false,
    }
}
