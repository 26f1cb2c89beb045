//! `auth.probes` of an MCP call: the same call as another principal must
//! not be served, and must be answered as the call for an id that does
//! not exist is (the probe's `unknown` overlaid on the arguments).
//!
//! | the probe's call | finding (authorization) |
//! | --- | --- |
//! | served, and not as the unknown id's call is | CROSS_TENANT_ACCESS |
//! | refused otherwise than the unknown id's call (ids masked) | EXISTENCE_LEAK |
//! | no answer | EXPECTATION_UNCHECKED |

use accord_dsl::model::accord::{McpToolCall, Probe};
use serde_json::{Map, Value};

use super::driver::McpDriver;
use super::resend::Answer;
use super::resend::call_params;
use super::wire::{Endpoint, Era};
use crate::driver::Exchange;
use crate::finding::{Finding, Layer, codes};

impl McpDriver {
    /// Makes probe `index` as the principal `exchange` presents.
    pub(super) async fn probe_call(
        &self,
        call: &McpToolCall,
        era: Era,
        exchange: &Exchange<'_>,
        probe: &Probe,
        index: usize,
    ) -> Vec<Finding> {
        let path = format!("auth.probes[{index}]");
        let endpoint = Endpoint {
            transport: exchange.transport,
            url: exchange.mcp_url,
            parsed: exchange.mcp_at,
            authorization: exchange.authorization,
            custom_headers: exchange.custom_headers,
        };
        let params = call_params(call, exchange.state_values);
        let unknown = probe.unknown.as_ref().map(|u| overlaid(&params, u));
        let mut out = Vec::new();
        let owned = self
            .call_answer(&endpoint, era, params.clone(), exchange, &path, &mut out)
            .await;
        let other = match unknown {
            Some(p) => Some(
                self.call_answer(&endpoint, era, p, exchange, &path, &mut out)
                    .await,
            ),
            None => None,
        };
        out.extend(judge_probe(&call.tool, probe, &params, owned, other, &path));
        out
    }
}

/// The call's params with `unknown` overlaid on its arguments.
fn overlaid(params: &Map<String, Value>, unknown: &Map<String, Value>) -> Map<String, Value> {
    let mut p = params.clone();
    if let Some(Value::Object(args)) = p.get_mut("arguments") {
        args.extend(unknown.clone());
    }
    p
}

/// The values that legitimately differ between the two calls: the
/// original and the unknown value of every overlaid argument.
fn differing(params: &Map<String, Value>, unknown: &Map<String, Value>) -> Vec<String> {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let original = params.get("arguments");
    unknown
        .iter()
        .flat_map(|(k, v)| {
            let before = original.and_then(|a| a.get(k)).map(text);
            std::iter::once(text(v)).chain(before)
        })
        .collect()
}

/// The finding of one probe, if any. Pure.
fn judge_probe(
    tool: &str,
    probe: &Probe,
    params: &Map<String, Value>,
    owned: Answer,
    other: Option<Answer>,
    path: &str,
) -> Option<Finding> {
    let who = &probe.principal;
    let masked = probe
        .unknown
        .as_ref()
        .map(|u| differing(params, u))
        .unwrap_or_default();
    if let Answer::Broken(why) = &owned {
        let detail = format!("the probe as `{who}` got no answer: {why}");
        return Some(Finding::new(
            Layer::Authorization,
            codes::EXPECTATION_UNCHECKED,
            path,
            detail,
        ));
    }
    let seen = owned.seen(&masked);
    match (&owned, other) {
        (_, Some(Answer::Broken(why))) => {
            let detail = format!("the probe as `{who}` of an unknown id got no answer: {why}");
            Some(Finding::new(
                Layer::Authorization,
                codes::EXPECTATION_UNCHECKED,
                path,
                detail,
            ))
        }
        (Answer::Served(_), Some(o)) if o == owned => None,
        (Answer::Served(_), _) => {
            let detail = format!(
                "`{tool}` called as `{who}` on what the interaction's principal owns was served"
            );
            Some(
                Finding::new(
                    Layer::Authorization,
                    codes::CROSS_TENANT_ACCESS,
                    path,
                    detail,
                )
                .values(
                    Some(Value::String("a refusal".into())),
                    Some(Value::String(seen)),
                ),
            )
        }
        (_, Some(o)) if o.seen(&masked) != seen => {
            let detail = format!(
                "`{tool}` called as `{who}` is refused otherwise for an id that exists than for one that does not: the answer tells it exists"
            );
            Some(
                Finding::new(Layer::Authorization, codes::EXISTENCE_LEAK, path, detail).values(
                    Some(Value::String(o.seen(&masked))),
                    Some(Value::String(seen)),
                ),
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn params() -> Map<String, Value> {
        json!({"name": "lookup", "arguments": {"tenant_id": "tenant-a", "plan_id": "plan-1"}})
            .as_object()
            .cloned()
            .unwrap_or_default()
    }

    fn bob(unknown: bool) -> Probe {
        Probe {
            principal: "bob".into(),
            unknown: unknown.then(|| {
                json!({"plan_id": "plan-nope"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default()
            }),
            ..Probe::default()
        }
    }

    fn code(f: Option<Finding>) -> Option<&'static str> {
        f.map(|f| f.reason_code)
    }

    #[test]
    fn a_served_probe_is_cross_tenant_access_unless_the_unknown_id_is_served_alike() {
        let served = Answer::Served(json!({"plan_id": "plan-1"}));
        let j = |o| {
            code(judge_probe(
                "lookup",
                &bob(true),
                &params(),
                served.clone(),
                o,
                "p",
            ))
        };
        assert_eq!(
            j(Some(Answer::ToolError("plan not found".into()))),
            Some("CROSS_TENANT_ACCESS")
        );
        assert_eq!(j(None), Some("CROSS_TENANT_ACCESS"));
        assert_eq!(j(Some(served.clone())), None);
    }

    #[test]
    fn a_refusal_must_read_as_the_refusal_of_an_unknown_id_with_the_ids_masked() {
        let owned = |t: &str| Answer::ToolError(t.into());
        let j = |a: Answer, o: Answer| {
            code(judge_probe(
                "lookup",
                &bob(true),
                &params(),
                a,
                Some(o),
                "p",
            ))
        };
        assert_eq!(
            j(
                owned("plan plan-1 not found"),
                owned("plan plan-nope not found")
            ),
            None
        );
        assert_eq!(
            j(owned("access denied"), owned("plan not found")),
            Some("EXISTENCE_LEAK")
        );
        assert_eq!(
            j(Answer::Http(403), Answer::Http(404)),
            Some("EXISTENCE_LEAK")
        );
        assert_eq!(
            j(
                Answer::Protocol(-32602, "x".into()),
                owned("plan not found")
            ),
            Some("EXISTENCE_LEAK")
        );
        assert_eq!(j(Answer::Http(403), Answer::Http(403)), None);
        // without an unknown id there is nothing to compare a refusal with
        assert_eq!(
            code(judge_probe(
                "lookup",
                &bob(false),
                &params(),
                owned("no"),
                None,
                "p"
            )),
            None
        );
    }

    #[test]
    fn a_probe_without_an_answer_is_unchecked_never_passed() {
        let j = |a: Answer, o: Option<Answer>| {
            code(judge_probe("lookup", &bob(true), &params(), a, o, "p"))
        };
        assert_eq!(
            j(Answer::Broken("timeout".into()), None),
            Some("EXPECTATION_UNCHECKED")
        );
        assert_eq!(
            j(Answer::Http(403), Some(Answer::Broken("reset".into()))),
            Some("EXPECTATION_UNCHECKED")
        );
    }
}
