//! The progress an MCP call reports (pure): a call whose contract relies
//! on `progress` is sent with [`TOKEN`] as its progress token, and the
//! `notifications/progress` carrying it on the answer's event stream,
//! before the response, must be at least as many as the contract's, their
//! `progress` increasing (MCP: "MUST increase with each notification").

use accord_dsl::model::accord::McpProgress;
use serde_json::Value;

use crate::finding::{Finding, Layer, codes};

/// The progress token the verifier sends.
pub const TOKEN: &str = "accord-progress";

/// The finding when the answer (`body`, an event stream when `sse`) does
/// not report the `expected` progress.
pub fn judge(expected: &[McpProgress], body: &[u8], sse: bool) -> Option<Finding> {
    if expected.is_empty() {
        return None;
    }
    let got: Vec<f64> = if sse { reported(body) } else { Vec::new() };
    let fail = |detail: String| {
        Some(Finding::new(
            Layer::Behavior,
            codes::PROGRESS_NOT_REPORTED,
            "progress",
            detail,
        ))
    };
    if got.len() < expected.len() {
        let how = if sse {
            format!("{} arrived on the event stream", got.len())
        } else {
            "the answer is a single JSON body, not an event stream".to_owned()
        };
        return fail(format!(
            "the call was sent with progress token `{TOKEN}`: expected at least {} notifications/progress before the answer, {how}",
            expected.len()
        ));
    }
    if let Some(w) = got.windows(2).find(|w| w[1] <= w[0]) {
        return fail(format!(
            "progress must increase with each notification: {} came after {}",
            w[1], w[0]
        ));
    }
    None
}

/// The `progress` of each `notifications/progress` carrying [`TOKEN`] in
/// an SSE body, up to the first response (a message with an `id` and no
/// `method`).
fn reported(body: &[u8]) -> Vec<f64> {
    let mut out = Vec::new();
    let text = String::from_utf8_lossy(body);
    // one event at a time (`sse.rs`)
    let messages = super::sse::events(&text).filter_map(|d| serde_json::from_str::<Value>(&d).ok());
    for message in messages {
        if message.get("method").is_none() && message.get("id").is_some() {
            break;
        }
        let params = &message["params"];
        if message["method"] == "notifications/progress" && params["progressToken"] == TOKEN {
            out.push(params["progress"].as_f64().unwrap_or(f64::NAN));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn expected(n: usize) -> Vec<McpProgress> {
        (0..n)
            .map(|i| serde_json::from_value(json!({"progress": i * 10})).expect("progress"))
            .collect()
    }

    fn stream(values: &[f64], token: &str) -> Vec<u8> {
        let mut s = String::new();
        for v in values {
            let n = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": token, "progress": v}});
            s.push_str(&format!("event: message\r\ndata: {n}\r\n\r\n"));
        }
        s.push_str("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n\n");
        s.push_str("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"accord-progress\",\"progress\":99}}\n\n");
        s.into_bytes()
    }

    #[test]
    fn enough_increasing_notifications_before_the_answer_pass() {
        assert_eq!(
            judge(&expected(3), &stream(&[0.0, 50.0, 100.0], TOKEN), true),
            None
        );
        assert_eq!(judge(&[], b"{}", false), None);
    }

    #[test]
    fn too_few_another_token_a_json_answer_or_no_increase_fail() {
        let code = |f: Option<Finding>| f.map(|f| f.reason_code);
        let few = judge(&expected(3), &stream(&[0.0, 50.0], TOKEN), true);
        assert_eq!(
            code(few),
            Some(codes::PROGRESS_NOT_REPORTED),
            "the late one does not count"
        );
        assert!(judge(&expected(2), &stream(&[0.0, 50.0], "other"), true).is_some());
        let json = judge(
            &expected(1),
            b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}",
            false,
        );
        assert!(json.is_some_and(|f| f.detail.contains("single JSON body")));
        let flat = judge(&expected(2), &stream(&[5.0, 5.0], TOKEN), true);
        assert!(flat.is_some_and(|f| f.detail.contains("must increase")));
    }
}
