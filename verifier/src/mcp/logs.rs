//! The log messages an MCP call sends (pure): a call whose contract relies
//! on `logs` asks for every level (`logging/setLevel` `debug` on the
//! 2025-11-25 session, `_meta` [`LOG_LEVEL_META`] `debug` in 2026-07-28),
//! and the `notifications/message` on the answer's event stream, before
//! the response, must hold each expected message in order: its `level`,
//! its `logger` when the contract names one, and `data` of the example's
//! JSON type (the values are examples).

use accord_dsl::model::accord::McpLog;
use serde_json::Value;

use crate::finding::{Finding, Layer, codes};

/// The 2026-07-28 `_meta` key of a request's log level.
pub const LOG_LEVEL_META: &str = "io.modelcontextprotocol/logLevel";

/// The level the verifier asks for: every message.
pub const LEVEL: &str = "debug";

/// The finding when the answer (`body`, an event stream when `sse`) does
/// not carry the `expected` log messages.
pub fn judge(expected: &[McpLog], body: &[u8], sse: bool) -> Option<Finding> {
    if expected.is_empty() {
        return None;
    }
    let got: Vec<Value> = if sse { sent(body) } else { Vec::new() };
    let mut rest = got.iter();
    for (n, want) in expected.iter().enumerate() {
        if rest.any(|m| fits(want, m)) {
            continue;
        }
        let logger = want
            .logger
            .as_ref()
            .map(|l| format!(" from logger `{l}`"))
            .unwrap_or_default();
        let how = if sse {
            let levels: Vec<&str> = got.iter().filter_map(|m| m["level"].as_str()).collect();
            format!(
                "{} arrived before the answer (levels: [{}])",
                got.len(),
                levels.join(", ")
            )
        } else {
            "the answer is a single JSON body, not an event stream".to_owned()
        };
        return Some(Finding::new(
            Layer::Behavior,
            codes::LOG_MESSAGE_NOT_SENT,
            format!("logs[{n}]"),
            format!(
                "the call asked for log level `{LEVEL}`: expected a notifications/message at level `{}`{logger} with {} data, in the contract's order; {how}",
                want.level,
                type_name(&want.data)
            ),
        ));
    }
    None
}

/// Whether message `params` `m` is the expected one.
fn fits(want: &McpLog, m: &Value) -> bool {
    m["level"] == want.level.as_str()
        && want
            .logger
            .as_ref()
            .is_none_or(|l| m["logger"] == l.as_str())
        && m.get("data")
            .is_some_and(|d| type_name(d) == type_name(&want.data))
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The `params` of each `notifications/message` in an SSE body, up to the
/// first response (a message with an `id` and no `method`).
fn sent(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    let messages = super::sse::events(&text).filter_map(|d| serde_json::from_str::<Value>(&d).ok());
    let mut out = Vec::new();
    for mut message in messages {
        if message.get("method").is_none() && message.get("id").is_some() {
            break;
        }
        if message["method"] == "notifications/message" {
            out.push(message["params"].take());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn log(level: &str, data: Value) -> McpLog {
        McpLog {
            level: level.into(),
            logger: None,
            data,
        }
    }

    fn stream(messages: &[Value]) -> Vec<u8> {
        let mut s = String::new();
        for m in messages {
            let n = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": m});
            s.push_str(&format!("event: message\ndata: {n}\n\n"));
        }
        s.push_str("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n");
        s.push_str("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"error\",\"data\":\"late\"}}\n\n");
        s.into_bytes()
    }

    #[test]
    fn the_expected_messages_in_order_pass() {
        let want = [log("info", json!("start")), log("error", json!({"k": 1}))];
        let body = stream(&[
            json!({"level": "debug", "data": "noise"}),
            json!({"level": "info", "data": "starting now"}),
            json!({"level": "error", "logger": "db", "data": {"other": true}}),
        ]);
        assert_eq!(judge(&want, &body, true), None);
    }

    #[test]
    fn a_missing_or_late_message_or_wrong_logger_is_a_behavior_finding() {
        let want = [log("info", json!("start")), log("error", json!("x"))];
        // the error arrives after the answer only
        let body = stream(&[json!({"level": "info", "data": "s"})]);
        let f = judge(&want, &body, true).expect("a finding");
        assert_eq!(f.reason_code, codes::LOG_MESSAGE_NOT_SENT);
        assert_eq!(f.layer, Layer::Behavior);
        assert_eq!(f.path, "logs[1]");
        assert!(f.detail.contains("levels: [info]"), "{}", f.detail);
        let named = [McpLog {
            logger: Some("tool".into()),
            ..log("info", json!("s"))
        }];
        assert!(judge(&named, &body, true).is_some());
        assert!(judge(&want, b"{}", false).is_some());
        assert_eq!(judge(&[], b"{}", false), None);
    }
}
