//! Step definitions of the provider features: phrases matched by regular
//! expressions, in the order tried.

use std::sync::LazyLock;

use accord_dsl::Interaction;
use accord_dsl::model::{Contract, HttpResponse, InteractionMeta, Pacticipant, ProviderState};
use accord_fixtures::stub::{Canned, StubProvider};
use accord_verifier::body::body_to_bytes;
use accord_verifier::{ContractSource, Finding, SourcedContract, VerifyConfig, codes};
use gherkin::Step;
use regex::{Captures, Regex};
use serde_json::{Map, Value};

use crate::cells;
use crate::messages::{message_pact, message_pact_table, message_provider};
use crate::parts;
use crate::world::World;

type StepFn = crate::harness::StepFn<World>;

static STEPS: LazyLock<Vec<(Regex, StepFn)>> = LazyLock::new(|| {
    let table: Vec<(&str, StepFn)> = vec![
        (
            r"^the following HTTP interactions have been defined:$",
            define_interactions,
        ),
        (
            r#"^a provider is started that returns the responses? from interactions? "?([\d, ]+)"?(, with the following changes:)?$"#,
            provider_returns,
        ),
        (
            r#"^a Pact file for interaction (\d+) is to be verified(.*)$"#,
            http_pact,
        ),
        (
            r"^a provider state callback is configured(, but will return a failure)?$",
            state_callback,
        ),
        (r"^the verification is run$", run_verification),
        (r"^the verification will (NOT )?be successful$", successful),
        (
            r#"^the verification results will contain a "([^"]+)" error$"#,
            contains_error,
        ),
        (
            r#"^there will be a pending "([^"]+)" error$"#,
            pending_error,
        ),
        (
            r"^the provider state callback will be called (before|after) the verification is run$",
            callback_called,
        ),
        (
            r#"^the provider state callback will receive a (setup|teardown) call (?:with )?"([^"]*)"(?: as the provider state parameter| and the following parameters:)$"#,
            callback_received,
        ),
        (
            r"^the provider state callback will NOT receive a teardown call$",
            no_teardown,
        ),
        (
            r#"^a provider is started that can generate the "([^"]+)" message with "(.*)"( and the following metadata:)?$"#,
            message_provider,
        ),
        (
            r#"^a Pact file for "([^"]+)":"(.*)" is to be verified(.*)$"#,
            message_pact,
        ),
        (
            r#"^a Pact file for "([^"]+)" is to be verified with the following:$"#,
            message_pact_table,
        ),
    ];
    table
        .into_iter()
        .map(|(re, f)| (Regex::new(re).expect("step regex"), f))
        .collect()
});

/// Runs one step.
pub fn run(world: &mut World, step: &Step) -> Result<(), String> {
    crate::harness::dispatch(&STEPS, world, step)
}

fn canned(response: &HttpResponse) -> Canned {
    let mut headers: Vec<(String, String)> = response
        .headers
        .iter()
        .flatten()
        .flat_map(|(n, vs)| vs.iter().map(move |v| (n.clone(), v.clone())))
        .collect();
    let (body, content_type) = body_to_bytes(&response.body).unwrap_or_default();
    if let Some(ct) = content_type
        && !headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
    {
        headers.push(("Content-Type".into(), ct));
    }
    Canned {
        status: response.status,
        headers,
        body,
    }
}

fn provider_returns(w: &mut World, caps: &Captures, step: &Step) -> Result<(), String> {
    let numbers: Vec<usize> = caps[1]
        .split(',')
        .map(|n| n.trim().parse().map_err(|e| format!("{n}: {e}")))
        .collect::<Result<_, _>>()?;
    for n in numbers {
        let i = w.interaction(n)?.clone();
        let mut response = i.response.clone();
        if caps.get(2).is_some() {
            let changes = cells::single_record(step.table.as_ref())?;
            let changes = parts::response_record(&changes);
            if changes.contains_key("body") {
                // A new body brings its own content type.
                if let Some(h) = response.headers.as_mut() {
                    h.retain(|k, _| !k.eq_ignore_ascii_case("content-type"));
                }
            }
            response = parts::response(&changes, &w.fx, response)?;
        }
        let key = (
            i.request.method.to_ascii_uppercase(),
            i.request.path.clone(),
        );
        w.stub.routes.insert(key, canned(&response));
    }
    Ok(())
}

pub fn pact(interaction: Interaction) -> SourcedContract {
    SourcedContract {
        contract: Contract {
            consumer: Pacticipant {
                name: "c".into(),
                ..Pacticipant::default()
            },
            provider: Pacticipant {
                name: "p".into(),
                ..Pacticipant::default()
            },
            interactions: vec![interaction],
            ..Contract::default()
        },
        source: "compat".into(),
        pending: false,
        wip: false,
        linted: Default::default(),
    }
}

/// Applies `with a provider state "X" defined`, `with provider state "X"`,
/// `, but is marked pending` and a states table to an interaction's meta.
pub fn apply_suffix(meta: &mut InteractionMeta, suffix: &str, step: &Step) -> Result<(), String> {
    static STATE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"provider state "([^"]+)""#).expect("regex"));
    if let Some(c) = STATE.captures(suffix) {
        meta.provider_states.push(ProviderState::named(&c[1]));
    }
    if suffix.contains("marked pending") {
        meta.pending = true;
    }
    if suffix.contains("following provider states defined") {
        for rec in cells::records(step.table.as_ref())? {
            let mut state = ProviderState::named(rec.get("State Name").map_or("", |s| s.trim()));
            let params = rec.get("Parameters").filter(|p| !p.trim().is_empty());
            if let Some(p) = params
                && let Value::Object(map) = cells::json_cell(p)?
            {
                state.params = map;
            }
            meta.provider_states.push(state);
        }
    }
    Ok(())
}

fn http_pact(w: &mut World, caps: &Captures, step: &Step) -> Result<(), String> {
    let n: usize = caps[1].parse().map_err(|e| format!("{e}"))?;
    let mut i = w.interaction(n)?.clone();
    apply_suffix(&mut i.meta, &caps[2], step)?;
    w.pacts.push(pact(Interaction::Http(i)));
    Ok(())
}

fn state_callback(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    w.state_callback = true;
    w.stub.fail_state_changes = caps.get(1).is_some();
    Ok(())
}

fn run_verification(w: &mut World, _: &Captures, _: &Step) -> Result<(), String> {
    let stub = StubProvider::start(w.stub.clone()).map_err(|e| e.to_string())?;
    let source = ContractSource::Loaded(std::mem::take(&mut w.pacts));
    let mut config = VerifyConfig::new("p", stub.base_url(), source);
    config.message_url = Some(stub.message_url());
    if w.state_callback {
        config.state_change_url = Some(stub.state_change_url());
    }
    w.result = Some(accord_verifier::verify_blocking(&config));
    w.state_calls = stub.state_calls();
    Ok(())
}

fn successful(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let passed = w.report()?.passed();
    let want = caps.get(1).is_none();
    if passed == want {
        return Ok(());
    }
    let findings: Vec<String> = w
        .report()?
        .interactions()
        .flat_map(|(_, i)| {
            i.findings
                .iter()
                .map(|f| format!("{} {}", f.reason_code, f.detail))
        })
        .collect();
    Err(format!("expected success={want}, findings: {findings:?}"))
}

/// The finding kind Pact's error sentence names.
fn is_error(f: &Finding, sentence: &str) -> Result<bool, String> {
    let attr = f.pact_attribute.unwrap_or_default();
    Ok(match sentence {
        "Response status did not match" => attr == "status",
        "Headers had differences" => attr == "header",
        "Body had differences" => attr == "body" || attr == "body-content-type",
        "Metadata had differences" => attr == "metadata",
        "State change request failed" => f.reason_code == codes::PROVIDER_STATE_FAILED,
        other => return Err(format!("unknown error sentence {other:?}")),
    })
}

fn find_error(w: &World, sentence: &str, pending: bool) -> Result<(), String> {
    let report = w.report()?;
    for (_, i) in report.interactions().filter(|(_, i)| i.pending == pending) {
        for f in &i.findings {
            if is_error(f, sentence)? {
                return Ok(());
            }
        }
    }
    Err(format!("no {sentence:?} finding (pending={pending})"))
}

fn contains_error(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    find_error(w, &caps[1], false)
}

fn pending_error(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    find_error(w, &caps[1], true)
}

fn calls(w: &World, action: &str) -> Vec<Value> {
    w.state_calls
        .iter()
        .filter(|c| c["action"] == action)
        .cloned()
        .collect()
}

fn callback_called(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let action = if &caps[1] == "before" {
        "setup"
    } else {
        "teardown"
    };
    if calls(w, action).is_empty() {
        return Err(format!("no {action} call in {:?}", w.state_calls));
    }
    Ok(())
}

fn callback_received(w: &mut World, caps: &Captures, step: &Step) -> Result<(), String> {
    let (action, name) = (&caps[1], &caps[2]);
    let params: Option<Map<String, Value>> = match step.table.as_ref() {
        Some(_) => {
            let rec = cells::single_record(step.table.as_ref())?;
            let mut map = Map::new();
            for (k, v) in rec {
                map.insert(k, cells::json_cell(&v)?);
            }
            Some(map)
        }
        None => None,
    };
    let found = calls(w, action).into_iter().any(|c| {
        c["state"] == name
            && params
                .as_ref()
                .is_none_or(|p| c["params"] == Value::Object(p.clone()))
    });
    if found {
        Ok(())
    } else {
        Err(format!(
            "no {action} call for {name:?} {params:?} in {:?}",
            w.state_calls
        ))
    }
}

fn no_teardown(w: &mut World, _: &Captures, _: &Step) -> Result<(), String> {
    match calls(w, "teardown").as_slice() {
        [] => Ok(()),
        some => Err(format!("teardown calls: {some:?}")),
    }
}

fn define_interactions(w: &mut World, _: &Captures, step: &Step) -> Result<(), String> {
    w.interactions
        .extend(parts::http_interactions(step.table.as_ref(), &w.fx)?);
    Ok(())
}
