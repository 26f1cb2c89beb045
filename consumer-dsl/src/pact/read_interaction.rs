//! Reading one interaction: V1–V3 request/response pairs, V3 messages, and
//! V4 interactions of every `type` (including Accord's A2A and MCP ones).

use serde_json::{Map, Value};

use super::json::{At, Fields, extra, found, without};
use super::parts::{message_from_json_at, request_from_json_at, response_from_json_at};
use crate::DslError;
use crate::model::accord::{A2aTaskInteraction, Expectations, McpToolCallInteraction};
use crate::model::{
    HttpInteraction, Interaction, InteractionMeta, MessageInteraction, PactSpec, ProviderState,
    SyncMessageInteraction,
};

/// Attributes every interaction may have, read into [`InteractionMeta`].
pub(super) const COMMON_KEYS: &[&str] = &[
    "type",
    "description",
    "key",
    "pending",
    "providerState",
    "provider_state",
    "providerStates",
    "comments",
];

/// The interaction types this version reads.
pub const INTERACTION_TYPES: &[&str] = &[
    "Synchronous/HTTP",
    "Asynchronous/Messages",
    "Synchronous/Messages",
    "A2A/Task",
    "MCP/ToolCall",
];

/// Common keys plus the Accord expectation keys.
const META_KEYS: [&str; META_LEN] = joined(COMMON_KEYS, Expectations::JSON_KEYS);
const META_LEN: usize = COMMON_KEYS.len() + Expectations::JSON_KEYS.len();

/// The keys of an interaction made of a request and a response (HTTP and
/// synchronous messages).
const REQUEST_RESPONSE_KEYS: [&str; META_LEN + 2] = joined(&META_KEYS, &["request", "response"]);

/// `a` then `b`, as a constant (no list built per interaction read).
const fn joined<const N: usize>(a: &[&'static str], b: &[&'static str]) -> [&'static str; N] {
    assert!(a.len() + b.len() == N, "the joined list has room for both");
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < a.len() { a[i] } else { b[i - a.len()] };
        i += 1;
    }
    out
}

/// Reads a V4 interaction by its `type`.
pub(super) fn read_interaction(v: &Value, at: At<'_>) -> Result<Interaction, DslError> {
    let obj = at.object(v)?;
    let kind = match at.opt_str(obj, "type")? {
        Some(kind) => kind,
        None if obj.contains_key("request") && obj.contains_key("response") => "Synchronous/HTTP",
        None => return Err(at.invalid(".type", "is required")),
    };
    let meta = read_meta(obj, at)?;
    Ok(match kind {
        "Synchronous/HTTP" => read_http(obj, PactSpec::V4, meta, at)?,
        "Asynchronous/Messages" => {
            let mut message = message_from_json_at(v, PactSpec::V4, at.origin, at.path)?;
            message.extra = without(message.extra, &META_KEYS);
            Interaction::AsyncMessage(MessageInteraction { meta, message })
        }
        "Synchronous/Messages" => read_sync_message(obj, meta, at)?,
        "A2A/Task" => Interaction::A2aTask(A2aTaskInteraction {
            meta,
            task: at.typed(Value::Object(extra(obj, &META_KEYS)))?,
        }),
        "MCP/ToolCall" => Interaction::McpToolCall(McpToolCallInteraction {
            meta,
            call: at.typed(Value::Object(extra(obj, &META_KEYS)))?,
        }),
        other => {
            return Err(at.invalid(
                ".type",
                format!(
                    "unknown interaction type '{other}' (expected one of {})",
                    INTERACTION_TYPES.join(", ")
                ),
            ));
        }
    })
}

/// Reads a V1–V3 request/response interaction.
pub(super) fn read_http_interaction(
    v: &Value,
    spec: PactSpec,
    at: At<'_>,
) -> Result<Interaction, DslError> {
    let obj = at.object(v)?;
    let meta = read_meta(obj, at)?;
    read_http(obj, spec, meta, at)
}

/// Reads a V3 message (`messages[]`) as an `Asynchronous/Messages` interaction.
pub(super) fn read_v3_message(
    v: &Value,
    spec: PactSpec,
    at: At<'_>,
) -> Result<Interaction, DslError> {
    let obj = at.object(v)?;
    let meta = read_meta(obj, at)?;
    let mut message = message_from_json_at(v, spec.min(PactSpec::V3), at.origin, at.path)?;
    message.extra = without(message.extra, &META_KEYS);
    Ok(Interaction::AsyncMessage(MessageInteraction {
        meta,
        message,
    }))
}

fn read_http(
    obj: &Map<String, Value>,
    spec: PactSpec,
    mut meta: InteractionMeta,
    at: At<'_>,
) -> Result<Interaction, DslError> {
    let part = |key: &str| {
        obj.get(key)
            .ok_or_else(|| at.invalid(&format!(".{key}"), "is required"))
            .map(|v| (v, [at.path, ".", key].concat()))
    };
    let (req, req_path) = part("request")?;
    let (resp, resp_path) = part("response")?;
    let request = request_from_json_at(req, spec, at.origin, &req_path)?;
    let response = response_from_json_at(resp, spec, at.origin, &resp_path)?;
    meta.extra = extra(obj, &REQUEST_RESPONSE_KEYS);
    Ok(Interaction::Http(HttpInteraction {
        meta,
        request,
        response,
    }))
}

fn read_sync_message(
    obj: &Map<String, Value>,
    mut meta: InteractionMeta,
    at: At<'_>,
) -> Result<Interaction, DslError> {
    let req_path = format!("{}.request", at.path);
    let request = match obj.get("request") {
        Some(r) => message_from_json_at(r, PactSpec::V4, at.origin, &req_path)?,
        None => return Err(at.invalid(".request", "is required")),
    };
    let responses = match obj.get("response") {
        None | Some(Value::Null) => &Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => return Err(at.expected("response", "an array of messages", other)),
    };
    let response = responses
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let path = format!("{}.response[{i}]", at.path);
            message_from_json_at(r, PactSpec::V4, at.origin, &path)
        })
        .collect::<Result<Vec<_>, _>>()?;
    meta.extra = extra(obj, &REQUEST_RESPONSE_KEYS);
    Ok(Interaction::SyncMessage(SyncMessageInteraction {
        meta,
        request,
        response,
    }))
}

/// Reads the attributes every interaction has. `extra` is left empty: the
/// caller knows which other attributes its type consumes.
pub(super) fn read_meta(obj: &impl Fields, at: At<'_>) -> Result<InteractionMeta, DslError> {
    // most interactions have none: found by comparing the few keys there
    // are, not by a lookup of each expectation key
    let expectations: Map<String, Value> = match obj.has_any(Expectations::JSON_KEYS) {
        false => Map::new(),
        true => Expectations::JSON_KEYS
            .iter()
            .filter_map(|k| obj.field(k).map(|v| (k.to_string(), v.clone())))
            .collect(),
    };
    Ok(InteractionMeta {
        description: at
            .opt_str(obj, "description")?
            .unwrap_or_default()
            .to_string(),
        key: at.opt_str(obj, "key")?.map(str::to_string),
        pending: at.opt_bool(obj, "pending")?.unwrap_or(false),
        provider_states: read_provider_states(obj, at)?,
        comments: obj.field("comments").filter(|c| !c.is_null()).cloned(),
        // no key: what an empty object reads as, without deserialising it
        expectations: if expectations.is_empty() {
            Expectations::default()
        } else {
            at.typed(Value::Object(expectations))?
        },
        extra: Map::new(),
    })
}

/// A `providerStates` entry in its usual shape — `name` a string,
/// `params` absent, `null` or an object — read without serde (its
/// `flatten`ed `extra` makes the derived reader buffer every attribute):
/// what [`ProviderState`]'s `Deserialize` reads from it, attributes it
/// does not know kept in order. Anything else is `None`, and the derived
/// reader answers (with its error).
fn state_as_written(o: &Map<String, Value>) -> Option<ProviderState> {
    let name = o.get("name")?.as_str()?;
    let params = match o.get("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p.clone(),
        Some(_) => return None,
    };
    let extra = o
        .iter()
        .filter(|(k, _)| *k != "name" && *k != "params")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(ProviderState {
        name: name.to_owned(),
        params,
        extra,
    })
}

/// V3/V4 `providerStates` (objects with params) or V1/V2 `providerState`.
fn read_provider_states(obj: &impl Fields, at: At<'_>) -> Result<Vec<ProviderState>, DslError> {
    if let Some(states) = obj.field("providerStates").filter(|v| !v.is_null()) {
        let items = states
            .as_array()
            .ok_or_else(|| at.expected("providerStates", "an array", states))?;
        return items
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let path = format!("{}.providerStates[{i}]", at.path);
                let state_at = At {
                    origin: at.origin,
                    path: &path,
                };
                match s {
                    Value::String(name) => Ok(ProviderState::named(name.clone())),
                    Value::Object(o) => match state_as_written(o) {
                        Some(state) => Ok(state),
                        None => state_at.typed_ref(s),
                    },
                    other => Err(state_at.invalid(
                        "",
                        format!("expected an object with a name, found {}", found(other)),
                    )),
                }
            })
            .collect();
    }
    let single = at
        .opt_str(obj, "providerState")?
        .or(at.opt_str(obj, "provider_state")?);
    Ok(single
        .filter(|s| !s.is_empty())
        .map(ProviderState::named)
        .into_iter()
        .collect())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_state_read_as_written_is_what_the_derived_reader_reads() {
        let usual = [
            json!({"name": "s"}),
            json!({"name": "s", "params": null}),
            json!({"name": "s", "params": {"id": 1, "nested": {"a": [1, 2.5, null]}}}),
            json!({"x-owner": "team-a", "name": "s", "params": {}, "z": [1]}),
            json!({"params": {"id": 1}, "name": ""}),
        ];
        for v in usual {
            let Value::Object(o) = &v else { continue };
            let derived: ProviderState = serde_json::from_value(v.clone()).expect("readable");
            let fast = state_as_written(o).expect("the usual shape");
            assert_eq!(fast, derived, "{v}");
            // the same attributes in the same order
            let keys = |s: &ProviderState| s.extra.keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(&fast), keys(&derived), "{v}");
        }
        // anything else goes to the derived reader, which refuses it
        for v in [
            json!({"params": {"id": 1}}),
            json!({"name": 7}),
            json!({"name": null}),
            json!({"name": "s", "params": [1]}),
            json!({"name": "s", "params": "id=1"}),
        ] {
            let Value::Object(o) = &v else { continue };
            assert_eq!(state_as_written(o), None, "{v}");
            assert!(
                serde_json::from_value::<ProviderState>(v.clone()).is_err(),
                "{v}"
            );
        }
    }
}
