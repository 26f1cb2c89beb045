//! Artifact parts against the output modes the agent declares and the
//! consumer accepts, pure.

use serde_json::{Value, json};

use super::events::{Event, Record};
use super::parts::{mode_of, same_mode};
use crate::finding::{Finding, Layer, codes};

/// Every artifact part's media type against each list of allowed output
/// modes (the skill's or card's, the request's `acceptedOutputModes`).
/// An artifact a step answered is named by the step's path
/// (`steps[1].artifact.parts[0]`, as the step's own findings are); one no
/// step expects by its name (`artifacts[work-plan].parts[0]`).
pub fn output_modes(
    record: &Record,
    allowed: &[(&str, Vec<String>)],
    answered: &[(usize, String)],
) -> Vec<Finding> {
    let mut out = Vec::new();
    for (k, o) in record.events.iter().enumerate() {
        let Event::Artifact { id, name, parts } = &o.event else {
            continue;
        };
        let shown = name.as_deref().unwrap_or(id);
        let at = answered
            .iter()
            .find(|(event, _)| *event == k)
            .map_or_else(|| format!("artifacts[{shown}]"), |(_, at)| at.clone());
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
            let detail = format!(
                "artifact `{shown}` part {j} is {mode}, not among {whose} ({})",
                modes.join(", ")
            );
            out.push(
                Finding::new(
                    Layer::Schema,
                    codes::CONTENT_MODE_MISMATCH,
                    format!("{at}.parts[{j}]"),
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
