//! The body of an evaluation result and its validation into the row to
//! store.
//!
//! `pass` is computed, never trusted: from `score`, `threshold` and the
//! direction (`higherIsBetter`, default true: pass when `score >=
//! threshold`; false: pass when `score <= threshold`, for a loss or an
//! error rate). A client may send `pass` too; it must then agree with the
//! computed one (422 naming `pass` otherwise), so a publisher that thinks a
//! run passed when the numbers say it did not learns it at once. Negative
//! scores and thresholds are allowed (log-likelihoods, deltas); JSON has no
//! NaN or infinity, and a number past f64's range is refused by the parser.

use serde::Deserialize;

use crate::error::{BrokerError, FieldError};
use crate::names::FreeText;
use crate::store::evaluations::NewEvaluation;
use crate::store::now;

/// Longest data set name, evaluator name or evaluator version.
pub const MAX_LABEL: usize = 200;

/// The body of `POST …/evaluations`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvaluationRequest {
    pub dataset: Option<Label>,
    pub score: Option<f64>,
    pub threshold: Option<f64>,
    pub higher_is_better: Option<bool>,
    pub pass: Option<bool>,
    pub evaluator: Option<Evaluator>,
    pub url: Option<FreeText>,
}

/// Who computed the score.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evaluator {
    pub name: Option<Label>,
    pub version: Option<Label>,
}

/// A short label: 1 to [`MAX_LABEL`] characters, not blank, no control
/// character at all (not even a line break: it is shown on one line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label(String);

impl Label {
    pub fn parse(text: &str) -> Result<Label, &'static str> {
        if text.trim().is_empty() {
            return Err("must not be empty or blank");
        }
        if text.chars().count() > MAX_LABEL {
            return Err("must be at most 200 characters");
        }
        if text.chars().any(char::is_control) {
            return Err("must not contain control characters");
        }
        Ok(Label(text.to_owned()))
    }
}

impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Label::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Whether `score` meets `threshold` in the given direction.
pub fn passes(score: f64, threshold: f64, higher_is_better: bool) -> bool {
    if higher_is_better {
        score >= threshold
    } else {
        score <= threshold
    }
}

impl EvaluationRequest {
    /// The row for version `version_id`, or the first field at fault.
    pub fn into_row(self, version_id: i64) -> Result<NewEvaluation, BrokerError> {
        let required = |field: &str| BrokerError::bad_field(field, "is required");
        let dataset = self.dataset.ok_or_else(|| required("dataset"))?;
        let score = self.score.ok_or_else(|| required("score"))?;
        let threshold = self.threshold.ok_or_else(|| required("threshold"))?;
        let higher_is_better = self.higher_is_better.unwrap_or(true);
        let passed = passes(score, threshold, higher_is_better);
        if let Some(claimed) = self.pass
            && claimed != passed
        {
            return Err(disagrees(claimed, score, threshold, higher_is_better));
        }
        if let Some(url) = &self.url
            && !is_web_url(url.as_str())
        {
            return Err(BrokerError::bad_field("url", "must be an http(s) URL"));
        }
        let (evaluator_name, evaluator_version) = match self.evaluator {
            Some(e) => (e.name.map(|l| l.0), e.version.map(|l| l.0)),
            None => (None, None),
        };
        Ok(NewEvaluation {
            version_id,
            dataset: dataset.0,
            score,
            threshold,
            higher_is_better,
            passed,
            evaluator_name,
            evaluator_version,
            url: self.url.map(FreeText::into_string),
            created_at: now(),
        })
    }
}

/// 422 naming `pass`: the claim contradicts the numbers.
fn disagrees(claimed: bool, score: f64, threshold: f64, higher: bool) -> BrokerError {
    let rule = if higher { ">=" } else { "<=" };
    let message = format!(
        "is {claimed}, but score {score} {rule} threshold {threshold} is {} (leave `pass` out: the broker computes it)",
        !claimed
    );
    // the contradiction is between all four: each is named
    let with = "disagrees with `pass`";
    BrokerError::Unprocessable {
        detail: format!("pass: {message}"),
        errors: vec![
            FieldError::new("pass", message),
            FieldError::new("score", with),
            FieldError::new("threshold", with),
            FieldError::new("higherIsBetter", with),
        ],
    }
}

/// An absolute `http`/`https` URL with a host.
fn is_web_url(text: &str) -> bool {
    match text.parse::<actix_web::http::Uri>() {
        Ok(uri) => {
            matches!(uri.scheme_str(), Some("http" | "https"))
                && uri.host().is_some_and(|h| !h.is_empty())
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(body: serde_json::Value) -> Result<NewEvaluation, BrokerError> {
        let r: EvaluationRequest = serde_json::from_value(body)
            .map_err(|e| BrokerError::bad_field("body", e.to_string()))?;
        r.into_row(1)
    }

    #[test]
    fn pass_is_computed_from_score_threshold_and_direction() {
        assert!(passes(0.9, 0.8, true));
        assert!(passes(0.8, 0.8, true));
        assert!(!passes(0.7, 0.8, true));
        assert!(passes(0.1, 0.2, false));
        assert!(!passes(0.3, 0.2, false));
        assert!(passes(-1.5, -2.0, true));
    }

    #[test]
    fn a_claimed_pass_that_contradicts_the_numbers_is_refused() {
        let body =
            serde_json::json!({"dataset": "golden", "score": 0.5, "threshold": 0.8, "pass": true});
        let err = request(body)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.starts_with("pass: is true"), "{err}");
        let agreeing =
            serde_json::json!({"dataset": "golden", "score": 0.9, "threshold": 0.8, "pass": true});
        assert!(request(agreeing).is_ok_and(|row| row.passed));
    }

    #[test]
    fn a_label_refuses_blank_long_and_control_text() {
        assert!(Label::parse("golden-set v3 (5-shot)").is_ok());
        assert!(Label::parse(" ").is_err());
        assert!(Label::parse("a\u{0}b").is_err());
        assert!(Label::parse("a\nb").is_err());
        assert!(Label::parse(&"x".repeat(201)).is_err());
    }
}
