//! `retryable`: whether the consumer treats an expected failure as one to
//! retry. The provider's answer must say the same through the signals HTTP
//! has: a retryable status (408, 425, 429, 500, 502, 503, 504) or a
//! `Retry-After` header.
//!
//! | `retryable` | the answer | finding (protocol) |
//! | --- | --- | --- |
//! | `true` | neither a retryable status nor `Retry-After` | ERROR_CODE_MISMATCH at `retryable` |
//! | `false` | a retryable status or `Retry-After` | ERROR_CODE_MISMATCH at `retryable` |
//!
//! An MCP tool error (`isError: true`) travels in a 200 and carries no
//! retry signal MCP defines: its `retryable` cannot be checked, which is
//! said as a warning (EXPECTATION_UNCHECKED), never passed silently.

use crate::finding::{Finding, Layer, codes};

/// Statuses that tell a client to try again.
const RETRYABLE: [u16; 7] = [408, 425, 429, 500, 502, 503, 504];

/// The finding when the answer's retry signals contradict `retryable`.
pub fn judge(retryable: bool, status: u16, retry_after: Option<&str>) -> Option<Finding> {
    let says = RETRYABLE.contains(&status) || retry_after.is_some();
    if says == retryable {
        return None;
    }
    let detail = match (retryable, retry_after) {
        (true, _) => format!(
            "the consumer retries this failure, but HTTP {status} without Retry-After says not to"
        ),
        (false, Some(after)) => format!(
            "the consumer does not retry this failure, but the answer says to (HTTP {status}, Retry-After: {after})"
        ),
        (false, None) => {
            format!("the consumer does not retry this failure, but HTTP {status} says to")
        }
    };
    Some(
        Finding::new(
            Layer::Protocol,
            codes::ERROR_CODE_MISMATCH,
            "retryable",
            detail,
        )
        .values(Some(retryable.into()), Some(status.into())),
    )
}

/// The warning for a `retryable` on a failure that carries no signal.
pub fn unchecked(what: &str) -> Finding {
    Finding::new(
        Layer::Protocol,
        codes::EXPECTATION_UNCHECKED,
        "retryable",
        format!("`retryable` of {what} cannot be checked: it carries no retry signal"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_signal_must_agree_with_the_consumers_expectation() {
        assert!(judge(true, 503, None).is_none());
        assert!(judge(true, 400, Some("5")).is_none());
        assert!(judge(false, 404, None).is_none());
        assert!(judge(true, 404, None).is_some());
        assert!(judge(false, 429, None).is_some());
        assert!(judge(false, 400, Some("1")).is_some());
    }
}
