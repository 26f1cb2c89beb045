//! `tools/call`: the interaction that fits answers (counted, or recorded
//! when answered on another era than the pinned one); a call that fits
//! none gets a tool error naming the argument and the rule it failed; a
//! credential that is not the interaction's principal's is refused (401);
//! an unknown tool is `Unknown tool: X` (`isError`, as both SDKs answer).

use accord_dsl::matching::{Mismatch, MismatchKind};
use accord_dsl::model::accord::McpToolCallInteraction;
use serde_json::{Map, Value, json};

use super::answer::{self, Reply, tool_error};
use super::methods::Handled;
use super::select::{Received, Selection, mismatch_text, select};
use super::{Exchange, PATH};
use crate::auth::bearer;
use crate::report::MockMismatch;
use crate::wire::RpcError;

impl Exchange<'_> {
    /// Answers a `tools/call` with `params` on protocol `version`.
    pub(super) fn tool_call(&self, params: &Value, version: &str) -> Handled {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return self.invalid_call("`params.name` (the tool) is missing");
        };
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(o)) => o.clone(),
            Some(_) => return self.invalid_call("`params.arguments` is not an object"),
        };
        let calls: Vec<(usize, &McpToolCallInteraction)> = self
            .surface
            .calls
            .iter()
            .filter(|(_, c)| c.call.tool == name)
            .map(|(n, c)| (*n, c))
            .collect();
        let listed = self.surface.lists(name);
        let token = params["_meta"]
            .get("progressToken")
            .filter(|t| !t.is_null());
        let received = Received {
            arguments: &arguments,
            progress_token: token.is_some(),
            bearer: bearer(self.req),
        };
        let mut notifications = Vec::new();
        let (reply, why) = match select(&calls, &received, &self.shared.principals) {
            Selection::Matched(index, i) => {
                self.count(index, i, version);
                let level = self.log_threshold(params, version == super::MODERN);
                notifications = super::logging::log_notifications(&i.call.logs, level);
                if let Some(token) = token {
                    notifications.extend(answer::progress_notifications(&i.call.progress, token));
                }
                let reply = answer::expected(&i.call, self.shared.base_url(), listed);
                (reply, i.meta.description.clone())
            }
            Selection::Unauthorized(index, i, why) => {
                let body = json!({"error": "invalid_token", "error_description": why.message});
                self.mismatch(index, i, vec![*why]);
                (
                    Reply::Refused { status: 401, body },
                    "refused: not the principal's credential".into(),
                )
            }
            Selection::Mismatched(index, i, mismatches) => {
                let text = mismatch_text(name, &i.meta.description, &mismatches);
                self.mismatch(index, i, mismatches);
                (
                    Reply::Result(tool_error(&text)),
                    "matches no interaction".into(),
                )
            }
            Selection::NoInteraction => {
                let (text, why) = if listed {
                    let text = format!(
                        "Error executing tool {name}: the contract has no interaction that calls it"
                    );
                    (text.clone(), text)
                } else {
                    (
                        format!("Unknown tool: {name}"),
                        "no tool of the contract has this name".to_owned(),
                    )
                };
                self.unexpected("tools/call", name, why);
                (
                    Reply::Result(tool_error(&text)),
                    "no interaction calls it".into(),
                )
            }
        };
        Handled {
            reply,
            target: Some(name.to_owned()),
            why: Some(why),
            notifications,
        }
    }

    /// Counts interaction `index` as exercised, unless the call came on
    /// another version than the pinned one (then it is recorded).
    fn count(&self, index: usize, i: &McpToolCallInteraction, version: &str) {
        match self.surface.pin.as_deref().filter(|pin| *pin != version) {
            None => self.shared.exercised(index),
            Some(pin) => {
                let why = format!(
                    "answered on MCP {version}, but the contract pins {pin}: the provider is verified on {pin}, so this call does not exercise the interaction"
                );
                let m = Mismatch::new(MismatchKind::Header, "MCP-Protocol-Version", why)
                    .values(Some(json!(pin)), Some(json!(version)));
                self.mismatch(index, i, vec![m]);
            }
        }
    }

    fn mismatch(&self, index: usize, i: &McpToolCallInteraction, mismatches: Vec<Mismatch>) {
        self.shared.unexpected(MockMismatch::RequestMismatch {
            interaction: index,
            description: i.meta.description.clone(),
            method: "tools/call".into(),
            path: i.call.tool.clone(),
            mismatches,
        });
    }

    /// A `tools/call` whose params are not a call: `-32602`, as the SDK.
    fn invalid_call(&self, why: &str) -> Handled {
        self.unexpected("tools/call", PATH, why);
        Handled {
            reply: Reply::Error {
                error: RpcError {
                    data: Some(json!(why)),
                    ..RpcError::new(-32602, "Invalid request parameters")
                },
                status: None,
            },
            target: None,
            why: Some(why.to_owned()),
            notifications: Vec::new(),
        }
    }
}
