//! Provider states, Pact-compatible: `POST <state-change-url>` with
//! `{"state", "params", "action": "setup"|"teardown"}` per state. A JSON
//! object in a setup reply feeds the `ProviderState` generators.

use std::borrow::Cow;

use accord_dsl::model::ProviderState;
use serde_json::{Map, Value, json};

use crate::finding::{Finding, Layer, codes};
use crate::transport::{CutOff, Outgoing, Transport};

/// Setup or teardown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Setup,
    Teardown,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::Setup => "setup",
            Action::Teardown => "teardown",
        }
    }
}

/// The body of one state-change call.
pub fn state_change_body(state: &ProviderState, action: Action) -> Value {
    json!({"state": state.name, "params": state.params, "action": action.as_str()})
}

/// [`state_change_body`] with the stand-ins' URLs, when any are served:
/// `"dependencies": {"NAME": {"url", "a2aCardUrl"?, "mcpUrl"?}}` — written
/// from borrowed parts, the same bytes as the `Value` (keys in this order).
#[derive(serde::Serialize)]
struct StateChange<'a> {
    state: &'a str,
    params: &'a Map<String, Value>,
    action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    dependencies: Option<&'a Value>,
}

impl<'a> StateChange<'a> {
    fn of(state: &'a ProviderState, action: Action, dependencies: Option<&'a Value>) -> Self {
        StateChange {
            state: &state.name,
            params: &state.params,
            action: action.as_str(),
            dependencies,
        }
    }
}

/// The values for the `ProviderState` generators: every state's params,
/// overridden by what the setup replies carried, as Pact's verifier builds
/// them.
pub fn generator_values(
    states: &[ProviderState],
    replies: &Map<String, Value>,
) -> Map<String, Value> {
    let mut values = params_of(states);
    values.extend(replies.clone());
    values
}

/// Calls the state-change URL for every state, in order. Returns what the
/// setup replies carried (later states win on equal keys; a teardown's
/// are not read), or the finding of the first failed call. Without a URL
/// nothing is called, as Pact's verifier does.
pub async fn change_states(
    transport: &Transport,
    url: Option<&reqwest::Url>,
    states: &[ProviderState],
    action: Action,
    dependencies: Option<&Value>,
) -> Result<Map<String, Value>, Finding> {
    let mut values = Map::new();
    let Some(url) = url else {
        return Ok(values);
    };
    for state in states {
        let path = || format!("providerState '{}' ({})", state.name, action.as_str());
        let failed = |c: CutOff| {
            let mut f = c.finding(&path());
            f.reason_code = codes::PROVIDER_STATE_FAILED;
            f.layer = Layer::Protocol;
            f
        };
        // as reqwest's `json`: the body serialised, its content type named
        let body = serde_json::to_vec(&StateChange::of(state, action, dependencies))
            .map_err(|e| failed(CutOff::Failed(format!("builder error: {e}"))))?;
        let mut request = Outgoing::new(reqwest::Method::POST, Ok(Cow::Borrowed(url)));
        request.content_type = Some(Cow::Borrowed("application/json"));
        request.body = Some(body);
        // only the status and the body are read
        let received = transport.send_out_for_body(request).await.map_err(failed)?;
        if !(200..300).contains(&received.status) {
            let detail = format!("state change answered status {}", received.status);
            return Err(Finding::new(
                Layer::Protocol,
                codes::PROVIDER_STATE_FAILED,
                path(),
                detail,
            )
            .values(None, Some(json!(received.status))));
        }
        // a teardown's reply feeds nothing
        if action == Action::Setup
            && let Ok(Value::Object(reply)) = serde_json::from_slice::<Value>(&received.body)
        {
            merge_reply(&mut values, reply);
        }
    }
    Ok(values)
}

/// Adds one setup reply to the values: later replies win on equal keys,
/// except `tokens` (principal → bearer token), whose entries accumulate
/// so that several states can each issue a principal's credential.
fn merge_reply(values: &mut Map<String, Value>, mut reply: Map<String, Value>) {
    if let (Some(Value::Object(earlier)), Some(Value::Object(later))) =
        (values.get("tokens"), reply.get_mut("tokens"))
    {
        for (k, v) in earlier {
            later.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    values.extend(reply);
}

/// Every state's params, later states winning on equal keys.
fn params_of(states: &[ProviderState]) -> Map<String, Value> {
    let mut values = Map::new();
    for state in states {
        values.extend(state.params.clone());
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_params_of_every_state_seed_the_generator_values() {
        let mut a = ProviderState::named("a");
        a.params.insert("owner".into(), json!("ann"));
        a.params.insert("id".into(), json!(1));
        let mut b = ProviderState::named("b");
        b.params.insert("id".into(), json!(2));
        assert_eq!(
            Value::Object(params_of(&[a, b])),
            json!({"owner": "ann", "id": 2})
        );
    }

    #[test]
    fn tokens_of_several_replies_accumulate_other_keys_are_replaced() {
        let mut values = Map::new();
        let reply = |v: Value| v.as_object().cloned().unwrap_or_default();
        merge_reply(
            &mut values,
            reply(json!({"token": "a", "tokens": {"alice": "a"}})),
        );
        merge_reply(
            &mut values,
            reply(json!({"token": "b", "tokens": {"bob": "b"}})),
        );
        assert_eq!(
            Value::Object(values),
            json!({"token": "b", "tokens": {"alice": "a", "bob": "b"}})
        );
    }

    #[test]
    fn the_body_sent_is_the_bodys_value_with_the_dependencies_last() {
        let mut s = ProviderState::named("an item exists");
        s.params.insert("id".into(), json!(7));
        let deps = json!({"tools": {"url": "http://127.0.0.1:1"}});
        for (action, dependencies) in [(Action::Setup, None), (Action::Teardown, Some(&deps))] {
            let mut value = state_change_body(&s, action);
            if let Some(d) = dependencies {
                value["dependencies"] = d.clone();
            }
            let sent = serde_json::to_string(&StateChange::of(&s, action, dependencies));
            assert_eq!(sent.ok(), serde_json::to_string(&value).ok());
        }
    }

    #[test]
    fn state_change_body_has_pacts_shape() {
        let mut s = ProviderState::named("an item exists");
        s.params.insert("id".into(), json!(7));
        assert_eq!(
            state_change_body(&s, Action::Setup),
            json!({"state": "an item exists", "params": {"id": 7}, "action": "setup"})
        );
        assert_eq!(
            state_change_body(&s, Action::Teardown)["action"],
            "teardown"
        );
    }
}
