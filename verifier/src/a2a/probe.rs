//! `auth.probes` of an `A2A/Task`: the task the interaction created,
//! accessed as another principal through each listed operation (default
//! `GetTask`, `CancelTask`, `SubscribeToTask`, `ListTasks`, `SendMessage`
//! on it), each answer compared with the same access to a random task id.
//!
//! | the prober's access | finding |
//! | --- | --- |
//! | served (ListTasks: the task is listed) | CROSS_TENANT_ACCESS (authorization) |
//! | refused otherwise than the unknown id: another HTTP status, JSON-RPC code, reason, or message once both ids are masked | EXISTENCE_LEAK (authorization) |
//! | no task was created, or no answer | EXPECTATION_UNCHECKED (authorization) |

use accord_dsl::model::accord::{A2aOperation, Probe};
use serde_json::{Map, Value, json};

use super::flow::Created;
use super::stream::Opened;
pub(super) use super::watch::Watch;
use super::wire::{Answer, Client, Interface, Outcome};
use crate::driver::Exchange;
use crate::finding::{Finding, Layer, codes};

const DEFAULT_OPERATIONS: [A2aOperation; 5] = [
    A2aOperation::GetTask,
    A2aOperation::CancelTask,
    A2aOperation::SubscribeToTask,
    A2aOperation::ListTasks,
    A2aOperation::SendMessage,
];

/// Makes probe `index` (as the prober whose credential `exchange` presents).
pub async fn probe(
    created: Option<&Created>,
    exchange: &Exchange<'_>,
    probe: &Probe,
    index: usize,
) -> Vec<Finding> {
    let path = format!("auth.probes[{index}]");
    let Some(created) = created else {
        let detail =
            "no task was created to probe (the send was refused or answered with a message)";
        return vec![Finding::new(
            Layer::Authorization,
            codes::EXPECTATION_UNCHECKED,
            path,
            detail,
        )];
    };
    let client = Client {
        transport: exchange.transport,
        interface: &created.interface,
        authorization: exchange.authorization,
        custom_headers: exchange.custom_headers,
        version: "1.0",
    };
    let unknown = format!("accord-unknown-{:032x}", rand::random::<u128>());
    let ops = if probe.operations.is_empty() {
        &DEFAULT_OPERATIONS[..]
    } else {
        &probe.operations[..]
    };
    let mut watch = Watch::new(exchange);
    let mut out = Vec::new();
    for op in ops {
        let at = format!("{path}.{}", op.as_str());
        let who = &probe.principal;
        if *op == A2aOperation::ListTasks {
            out.extend(
                list::listed_on_any_page(&client, &mut watch, &created.task_id, &at, who).await,
            );
            continue;
        }
        let theirs = access(&client, *op, &created.task_id).await;
        let nobodys = access(&client, *op, &unknown).await;
        watch.scan(theirs.as_ref(), &at);
        watch.scan(nobodys.as_ref(), &at);
        out.extend(compare(
            theirs,
            nobodys,
            &created.task_id,
            &unknown,
            &at,
            who,
        ));
    }
    // a task served to the prober is the fault; how it refused other
    // operations on it follows from that (one fault, one finding)
    if out
        .iter()
        .any(|f| f.reason_code == codes::CROSS_TENANT_ACCESS)
    {
        out.retain(|f| f.reason_code != codes::EXISTENCE_LEAK);
    }
    out.extend(watch.leaks);
    out
}

/// Whether `answer`, a refusal of task `id` through `op`, reads as the
/// refusal of an id nobody has (sent now, by the same client): then it
/// tells nothing of the task, whatever its code.
pub(super) async fn refused_as_unknown(
    client: &Client<'_>,
    op: A2aOperation,
    answer: &Answer,
    id: &str,
) -> bool {
    let unknown = format!("accord-unknown-{:032x}", rand::random::<u128>());
    access(client, op, &unknown)
        .await
        .is_some_and(|nobodys| shape(answer, id) == shape(&nobodys, &unknown))
}

/// One access to task `id` through `op`.
async fn access(client: &Client<'_>, op: A2aOperation, id: &str) -> Option<Answer> {
    let mut params = Map::new();
    match op {
        A2aOperation::SendMessage | A2aOperation::SendStreamingMessage => {
            let message = json!({"messageId": format!("accord-probe-{:016x}", rand::random::<u64>()),
                "role": "ROLE_USER", "taskId": id, "parts": [{"text": "probe"}]});
            params.insert("message".into(), message);
        }
        A2aOperation::CreateTaskPushNotificationConfig
        | A2aOperation::ListTaskPushNotificationConfigs
        | A2aOperation::GetTaskPushNotificationConfig
        | A2aOperation::DeleteTaskPushNotificationConfig => {
            params.insert("taskId".into(), json!(id));
            params.insert("url".into(), json!("http://127.0.0.1:9/accord-probe"));
            params.insert("id".into(), json!("accord-probe"));
        }
        _ => {
            params.insert("id".into(), json!(id));
        }
    }
    if matches!(
        op,
        A2aOperation::SubscribeToTask | A2aOperation::SendStreamingMessage
    ) {
        let timeout = client.transport.limits().request_timeout;
        return match client.open_stream(op, params).await.ok()? {
            Opened::Answer(a) => Some(a),
            Opened::Events(mut s) => Some(super::stream::first_answer(&mut s, timeout).await),
        };
    }
    client.call(op, params).await.ok()
}

fn unchecked(at: &str) -> Finding {
    let detail = "the probe got no answer: another principal's access was not checked";
    Finding::new(
        Layer::Authorization,
        codes::EXPECTATION_UNCHECKED,
        at,
        detail,
    )
}

/// The prober's answer against the unknown id's.
fn compare(
    theirs: Option<Answer>,
    nobodys: Option<Answer>,
    id: &str,
    unknown: &str,
    at: &str,
    who: &str,
) -> Option<Finding> {
    let (Some(theirs), Some(nobodys)) = (theirs, nobodys) else {
        return Some(unchecked(at));
    };
    if theirs.served() {
        let detail = format!("`{who}` was served another principal's task");
        return Some(Finding::new(
            Layer::Authorization,
            codes::CROSS_TENANT_ACCESS,
            at,
            detail,
        ));
    }
    let (a, b) = (shape(&theirs, id), shape(&nobodys, unknown));
    (a != b).then(|| {
        let detail = format!(
            "`{who}` is refused otherwise for the task than for an unknown id: the refusal tells the task exists"
        );
        Finding::new(Layer::Authorization, codes::EXISTENCE_LEAK, at, detail)
            .values(Some(Value::String(b)), Some(Value::String(a)))
    })
}

/// What tells two refusals apart: status, code, reason and message with
/// the probed id masked.
fn shape(answer: &Answer, id: &str) -> String {
    let masked = |s: &str| s.replace(id, "<id>");
    match &answer.outcome {
        Outcome::Error(e) => format!(
            "HTTP {} {} {} `{}`",
            answer.status,
            e.code.map_or_else(String::new, |c| c.to_string()),
            e.reason.as_deref().unwrap_or_default(),
            masked(&e.message)
        ),
        _ => format!(
            "HTTP {} {}",
            answer.status,
            masked(&String::from_utf8_lossy(&answer.body))
        ),
    }
}

/// Once per interface and run: a `GetTask` of an unknown id without
/// `A2A-Version` (which A2A v1.0 reads as 0.3) must be refused as
/// VERSION_NOT_SUPPORTED. Served, or answered TASK_NOT_FOUND (the request
/// was processed as 1.0), is VERSION_NOT_REJECTED; another refusal (a 0.3
/// compatibility layer that does not know the method) is not judged. Its
/// answer is watched for leaked credentials like any other.
pub async fn version(interface: &Interface, exchange: &Exchange<'_>) -> Vec<Finding> {
    let client = Client {
        transport: exchange.transport,
        interface,
        authorization: exchange.authorization,
        custom_headers: exchange.custom_headers,
        version: "",
    };
    let unknown = format!("accord-unknown-{:032x}", rand::random::<u128>());
    let Some(answer) = access(&client, A2aOperation::GetTask, &unknown).await else {
        return Vec::new();
    };
    let mut watch = Watch::new(exchange);
    watch.scan(Some(&answer), "A2A-Version");
    let processed = match &answer.outcome {
        Outcome::Result(_) => true,
        Outcome::Error(e) => {
            e.reason.as_deref() == Some("TASK_NOT_FOUND") || e.code == Some(-32001)
        }
        Outcome::NotA2a(_) => false,
    };
    processed.then(|| {
        let detail = format!(
            "a GetTask without A2A-Version (read as 0.3) on the {} interface was processed as 1.0 instead of refused with VERSION_NOT_SUPPORTED",
            interface.binding.as_str()
        );
        Finding::new(Layer::Protocol, codes::VERSION_NOT_REJECTED, "A2A-Version", detail)
    })
    .into_iter()
    .chain(watch.leaks)
    .collect()
}

impl super::flow::Run<'_> {
    /// The probes `after` this state, made now, while the task is in it.
    pub async fn probes_at(&mut self, state: accord_dsl::model::accord::TaskState) {
        let meta = self.meta;
        let probes = meta
            .expectations
            .auth
            .as_ref()
            .map_or(&[][..], |a| &a.probes[..]);
        for (i, p) in probes.iter().enumerate() {
            if p.after != Some(state) || self.probed.get(i).copied().unwrap_or(true) {
                continue;
            }
            self.probed[i] = true;
            let Some(task_id) = self.record.task_id.clone() else {
                continue;
            };
            let values = self.exchange.state_values;
            let issued = values
                .get("tokens")
                .and_then(|t| t.get(&p.principal))
                .and_then(Value::as_str);
            let configured = self
                .exchange
                .principals
                .get(&p.principal)
                .map(|t| t.expose());
            let Some(token) = issued.or(configured).map(str::to_owned) else {
                let detail = format!(
                    "no token for principal `{}`: the probe was not made",
                    p.principal
                );
                let at = format!("auth.probes[{i}]");
                self.out.findings.push(Finding::new(
                    Layer::Authorization,
                    codes::EXPECTATION_UNCHECKED,
                    at,
                    detail,
                ));
                continue;
            };
            let as_prober = Exchange {
                authorization: crate::driver::Authorization::Bearer(&token),
                ..*self.exchange
            };
            let created = Created {
                task_id,
                interface: self.base.interface.clone(),
            };
            let found = probe(Some(&created), &as_prober, p, i).await;
            self.out.findings.extend(found);
        }
    }

    /// Probes whose state the task never reached.
    pub fn unreached_probes(&mut self) {
        let meta = self.meta;
        let probes = meta
            .expectations
            .auth
            .as_ref()
            .map_or(&[][..], |a| &a.probes[..]);
        for (i, p) in probes.iter().enumerate() {
            if let (Some(state), false) = (p.after, self.probed.get(i).copied().unwrap_or(true)) {
                self.probed[i] = true;
                self.never_reached(
                    state,
                    format!("auth.probes[{i}].after"),
                    "the probe was not made",
                );
            }
        }
    }
}

#[path = "probe_list.rs"]
mod list;

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::a2a::wire::A2aError;

    fn refusal(status: u16, reason: &str, message: &str) -> Option<Answer> {
        Some(Answer {
            status,
            headers: Vec::new(),
            outcome: Outcome::Error(A2aError {
                code: Some(-32001),
                reason: Some(reason.into()),
                message: message.into(),
            }),
            ack: Duration::ZERO,
            total: Duration::ZERO,
            body: Vec::new(),
        })
    }

    #[test]
    fn the_same_refusal_with_the_id_masked_is_indistinguishable() {
        let a = refusal(200, "TASK_NOT_FOUND", "Task t-1 not found");
        let b = refusal(200, "TASK_NOT_FOUND", "Task u-9 not found");
        assert_eq!(compare(a, b, "t-1", "u-9", "p", "bob"), None);
    }

    #[test]
    fn another_message_or_a_served_answer_is_found() {
        let a = refusal(
            200,
            "UNSUPPORTED_OPERATION",
            "Task belongs to another tenant",
        );
        let b = refusal(200, "TASK_NOT_FOUND", "Task not found");
        let f = compare(a, b, "t", "u", "p", "bob").expect("a leak");
        assert_eq!(f.reason_code, "EXISTENCE_LEAK");
        let served = Some(Answer {
            outcome: Outcome::Result(json!({"id": "t"})),
            ..refusal(200, "", "").expect("an answer")
        });
        let b = refusal(200, "TASK_NOT_FOUND", "Task not found");
        let f = compare(served, b, "t", "u", "p", "bob").expect("served");
        assert_eq!(f.reason_code, "CROSS_TENANT_ACCESS");
        assert_eq!(
            compare(None, None, "t", "u", "p", "bob").map(|f| f.reason_code),
            Some("EXPECTATION_UNCHECKED")
        );
    }
}
