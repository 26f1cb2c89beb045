//! Expected errors and refusals against an A2A answer: pure.
//!
//! | expected | answered | finding |
//! | --- | --- | --- |
//! | an error | another code, reason, HTTP status or message | ERROR_CODE_MISMATCH (protocol) |
//! | an error, `retryable` | no retry signal (or one, for `false`) | ERROR_CODE_MISMATCH at `retryable` |
//! | an error | a result | the caller's code: ERROR_CODE_MISMATCH, or what the refusal protects (TERMINAL_TASK_ACCEPTED_MESSAGE, VERSION_NOT_REJECTED, UNDECLARED_CAPABILITY_ACCEPTED, CROSS_TENANT_ACCESS, …) |
//! | a result | an error or an HTTP refusal | RESPONSE_MISMATCH (schema) |
//! | anything | an HTTP 2xx that is no A2A answer | MALFORMED_RESPONSE (protocol) |

use accord_dsl::model::accord::{A2aErrorReason, ErrorExpectation};
use serde_json::json;

use super::wire::{Answer, Outcome};
use crate::config::A2aStatusMapping;
use crate::finding::{Finding, Layer, codes};

/// Why a served answer was wrong where an error was expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Served {
    pub layer: Layer,
    pub code: &'static str,
}

impl Served {
    /// The plain case: the error did not come.
    pub const MISMATCH: Served = Served {
        layer: Layer::Protocol,
        code: codes::ERROR_CODE_MISMATCH,
    };
}

/// `answer` against an expected error; `path` names the expectation
/// (`error`, `followUps[1].error`).
pub fn judge_error(
    expected: &ErrorExpectation,
    answer: &Answer,
    path: &str,
    served: Served,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(actual) = answer.actual_error() else {
        let detail = match &answer.outcome {
            Outcome::NotA2a(why) => why.clone(),
            _ => format!(
                "expected an error ({}), the operation was served",
                describe(expected)
            ),
        };
        let (layer, code) = match answer.outcome {
            Outcome::NotA2a(_) => (Layer::Protocol, codes::MALFORMED_RESPONSE),
            _ => (served.layer, served.code),
        };
        out.push(Finding::new(layer, code, path, detail));
        return out;
    };
    for why in expected.disagreements(&actual) {
        out.push(
            Finding::new(Layer::Protocol, codes::ERROR_CODE_MISMATCH, path, why).values(
                serde_json::to_value(expected).ok(),
                Some(json!({"code": actual.code, "reason": actual.reason,
                    "httpStatus": actual.http_status, "message": actual.message})),
            ),
        );
    }
    if let Some(retryable) = expected.retryable {
        out.extend(crate::retry::judge(
            retryable,
            answer.status,
            answer.header("retry-after"),
        ));
    }
    out
}

/// An HTTP+JSON error's status against one A2A status mapping (the
/// expectation's own judgement accepts either): a reason whose statuses
/// differ between v1.0.1 and v1.0.0 must take the chosen one.
pub fn status_mapping(answer: &Answer, mapping: A2aStatusMapping, path: &str) -> Option<Finding> {
    let Outcome::Error(e) = &answer.outcome else {
        return None;
    };
    if e.code.is_some() {
        return None; // JSON-RPC: errors travel in HTTP 200
    }
    let reason = A2aErrorReason::from_wire(e.reason.as_deref()?)?;
    let statuses = reason.http_statuses();
    let want = match mapping {
        A2aStatusMapping::Either => return None,
        A2aStatusMapping::V1_0_1 => statuses[0],
        A2aStatusMapping::V1_0_0 => *statuses.last()?,
    };
    (answer.status != want).then(|| {
        let detail = format!(
            "{} answered HTTP {}, the chosen A2A status mapping says {want}",
            reason.as_str(),
            answer.status
        );
        Finding::new(Layer::Protocol, codes::ERROR_CODE_MISMATCH, path, detail)
            .values(Some(json!(want)), Some(json!(answer.status)))
    })
}

/// What an expected error names, for a sentence.
pub fn describe(expected: &ErrorExpectation) -> String {
    let mut parts = Vec::new();
    if let Some(r) = expected.reason {
        parts.push(r.as_str().to_owned());
    }
    if let Some(c) = expected.code {
        parts.push(c.to_string());
    }
    if let Some(s) = expected.http_status {
        parts.push(format!("HTTP {s}"));
    }
    if parts.is_empty() {
        "an error".to_owned()
    } else {
        parts.join(", ")
    }
}

/// An answer that should have been served but was not: `None` when it was.
pub fn not_served(answer: &Answer, path: &str) -> Option<Finding> {
    let detail = match &answer.outcome {
        Outcome::Result(_) => return None,
        Outcome::Error(e) => format!(
            "refused with {} {} `{}` (HTTP {})",
            e.code.map_or_else(String::new, |c| c.to_string()),
            e.reason.as_deref().unwrap_or_default(),
            e.message,
            answer.status
        ),
        Outcome::NotA2a(why) if answer.status >= 400 => format!("refused: {why}"),
        Outcome::NotA2a(why) => {
            return Some(Finding::new(
                Layer::Protocol,
                codes::MALFORMED_RESPONSE,
                path,
                why.clone(),
            ));
        }
    };
    Some(
        Finding::new(Layer::Schema, codes::RESPONSE_MISMATCH, path, detail)
            .values(None, Some(json!(answer.status))),
    )
}

/// Whether the answer is a refusal (an A2A error, or an HTTP 4xx/5xx).
pub fn refused(answer: &Answer) -> bool {
    match answer.outcome {
        Outcome::Error(_) => true,
        Outcome::NotA2a(_) => answer.status >= 400,
        Outcome::Result(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use accord_dsl::model::accord::A2aErrorReason;
    use serde_json::Value;

    use super::*;
    use crate::a2a::wire::A2aError;

    fn answer(status: u16, outcome: Outcome) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            outcome,
            ack: Duration::ZERO,
            total: Duration::ZERO,
            body: Vec::new(),
        }
    }

    fn codes_of(f: &[Finding]) -> Vec<&'static str> {
        f.iter().map(|f| f.reason_code).collect()
    }

    #[test]
    fn a_served_operation_where_an_error_was_expected_takes_the_callers_code() {
        let e = ErrorExpectation::a2a(A2aErrorReason::UnsupportedOperation);
        let ok = answer(200, Outcome::Result(Value::Null));
        let served = Served {
            layer: Layer::Protocol,
            code: codes::TERMINAL_TASK_ACCEPTED_MESSAGE,
        };
        assert_eq!(
            codes_of(&judge_error(&e, &ok, "followUps[0].error", served)),
            ["TERMINAL_TASK_ACCEPTED_MESSAGE"]
        );
    }

    #[test]
    fn another_reason_is_an_error_code_mismatch_and_the_right_one_passes() {
        let e = ErrorExpectation::a2a(A2aErrorReason::TaskNotFound);
        let wrong = answer(
            403,
            Outcome::Error(A2aError {
                code: None,
                reason: Some("UNSUPPORTED_OPERATION".into()),
                message: "belongs to another tenant".into(),
            }),
        );
        assert!(
            codes_of(&judge_error(&e, &wrong, "error", Served::MISMATCH))
                .iter()
                .all(|c| *c == "ERROR_CODE_MISMATCH")
        );
        let right = answer(
            404,
            Outcome::Error(A2aError {
                code: None,
                reason: Some("TASK_NOT_FOUND".into()),
                message: "Task not found".into(),
            }),
        );
        assert!(judge_error(&e, &right, "error", Served::MISMATCH).is_empty());
    }

    #[test]
    fn an_http_refusal_is_judged_by_its_status_and_counts_as_refused() {
        let e = ErrorExpectation {
            http_status: Some(401),
            ..ErrorExpectation::default()
        };
        let refusal = answer(401, Outcome::NotA2a("HTTP 401".into()));
        assert!(judge_error(&e, &refusal, "error", Served::MISMATCH).is_empty());
        assert!(refused(&refusal));
        assert_eq!(
            not_served(&refusal, "response").map(|f| f.reason_code),
            Some("RESPONSE_MISMATCH")
        );
    }
}
