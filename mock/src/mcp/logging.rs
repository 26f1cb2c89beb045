//! MCP logging, for a contract whose calls rely on log messages (`logs`):
//! in the 2025-11-25 era the client sets its session's level with
//! `logging/setLevel` (the `logging` capability is declared then); in
//! 2026-07-28, where that method is gone, a request asks with
//! `_meta["io.modelcontextprotocol/logLevel"]`. A call sends its
//! interaction's `notifications/message` at or above that level, before
//! the answer; with no level asked for, none (as 2026-07-28 requires).

use accord_dsl::model::accord::{LOG_LEVELS, McpLog, log_severity};
use serde_json::{Value, json};

use super::answer::Reply;
use super::methods::Handled;
use super::{Exchange, PATH};
use crate::wire::RpcError;

/// The 2026-07-28 `_meta` key of a request's log level.
const LOG_LEVEL_META: &str = "io.modelcontextprotocol/logLevel";

impl Exchange<'_> {
    /// `logging/setLevel`: the session's level, answered `{}`; a level MCP
    /// does not have is `-32602`, recorded.
    pub(super) fn set_level(&self, params: &Value) -> Handled {
        let asked = params.get("level").and_then(Value::as_str);
        let Some(severity) = asked.and_then(log_severity) else {
            let why = format!(
                "`params.level` is not an MCP log level ({})",
                LOG_LEVELS.join(", ")
            );
            self.unexpected("logging/setLevel", PATH, why.clone());
            return Handled {
                reply: Reply::Error {
                    error: RpcError::new(-32602, "Invalid params"),
                    status: None,
                },
                target: None,
                why: Some(why),
                notifications: Vec::new(),
            };
        };
        if let Some(session) = self.header("mcp-session-id") {
            self.surface.sessions.set_level(session, severity);
        }
        let mut handled = Handled::result(json!({}));
        handled.target = asked.map(str::to_owned);
        handled
    }

    /// The least severe level the caller asked to be sent, if it asked.
    pub(super) fn log_threshold(&self, params: &Value, modern: bool) -> Option<usize> {
        if modern {
            let meta = params.get("_meta").and_then(|m| m.get(LOG_LEVEL_META));
            return meta.and_then(Value::as_str).and_then(log_severity);
        }
        let session = self.header("mcp-session-id")?;
        self.surface.sessions.level(session)
    }
}

/// The `notifications/message` of `logs` at or above `threshold` (none
/// without one).
pub(super) fn log_notifications(logs: &[McpLog], threshold: Option<usize>) -> Vec<Value> {
    let Some(threshold) = threshold else {
        return Vec::new();
    };
    logs.iter()
        .filter(|l| log_severity(&l.level).is_some_and(|s| s >= threshold))
        .map(|l| {
            let mut params = json!({"level": l.level, "data": l.data});
            if let Some(logger) = &l.logger {
                params["logger"] = json!(logger);
            }
            json!({"jsonrpc": "2.0", "method": "notifications/message", "params": params})
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(level: &str) -> McpLog {
        McpLog {
            level: level.into(),
            logger: Some("tool".into()),
            data: json!({"step": level}),
        }
    }

    #[test]
    fn only_messages_at_or_above_the_level_asked_for_are_sent() {
        let logs = [log("debug"), log("info"), log("error")];
        assert!(log_notifications(&logs, None).is_empty());
        let sent = log_notifications(&logs, log_severity("info"));
        assert_eq!(sent.len(), 2);
        assert_eq!(
            sent[0],
            json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "logger": "tool", "data": {"step": "info"}}})
        );
        assert_eq!(log_notifications(&logs, log_severity("debug")).len(), 3);
    }
}
