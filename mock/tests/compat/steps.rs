//! Step definitions of the HTTP consumer features: the Background's
//! interactions, the mock started with some of them, the consumer's
//! requests, what came back, and the end of the pact test. Phrases are
//! regular expressions, tried in order; the mock's status and the Pact
//! file's content are checked in `status` and `pact_file`.

use std::sync::LazyLock;

use accord_dsl::Interaction;
use accord_dsl::model::{Contract, HttpInteraction, HttpRequest, Pacticipant};
use accord_mock::{MockOptions, MockServer};
use gherkin::Step;
use regex::{Captures, Regex};

use crate::cells::{self, Record};
use crate::world::{CONSUMER, Done, PROVIDER, World};
use crate::{pact_file, parts, status, wire};

pub type StepFn = crate::harness::StepFn<World>;

static STEPS: LazyLock<Vec<(Regex, StepFn)>> = LazyLock::new(|| {
    let mut table: Vec<(&str, StepFn)> = vec![
        (
            r"^the following HTTP interactions have been defined:$",
            define_interactions,
        ),
        (
            r"^the mock server is started with interaction (\d+)( but with the following changes:)?$",
            start_with_one,
        ),
        (
            r#"^the mock server is started with interactions "([\d, ]+)"$"#,
            start_with_many,
        ),
        (
            r"^request (\d+) is made to the mock server( with the following changes:)?$",
            make_request,
        ),
        (
            r"^a (\d+) (?:success|error) response is returned$",
            status_returned,
        ),
        (
            r#"^the payload will contain the "([^"]+)" JSON document$"#,
            payload_document,
        ),
        (
            r#"^the content type will be set as "([^"]+)"$"#,
            content_type,
        ),
        (r"^the pact test is done$", test_done),
    ];
    table.extend(status::STEPS);
    table.extend(pact_file::STEPS);
    table
        .into_iter()
        .map(|(re, f)| (Regex::new(re).expect("step regex"), f))
        .collect()
});

/// Runs one step.
pub fn run(world: &mut World, step: &Step) -> Result<(), String> {
    crate::harness::dispatch(&STEPS, world, step)
}

/// A capture as a number.
pub fn number(caps: &Captures, i: usize) -> Result<usize, String> {
    caps[i].parse().map_err(|e| format!("{:?}: {e}", &caps[i]))
}

fn start_with_one(w: &mut World, caps: &Captures, step: &Step) -> Result<(), String> {
    let mut interaction = w.interaction(number(caps, 1)?)?.clone();
    if caps.get(2).is_some() {
        interaction.request = changed(w, interaction.request, step)?;
    }
    start(w, vec![interaction])
}

fn start_with_many(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let interactions = caps[1]
        .split(',')
        .map(|n| {
            let n = n.trim().parse().map_err(|e| format!("{n:?}: {e}"))?;
            w.interaction(n).cloned()
        })
        .collect::<Result<_, String>>()?;
    start(w, interactions)
}

/// Starts a mock for a contract of these interactions, with the semantics
/// of the feature's specification version.
fn start(w: &mut World, interactions: Vec<HttpInteraction>) -> Result<(), String> {
    let pacticipant = |name: &str| Pacticipant {
        name: name.into(),
        ..Pacticipant::default()
    };
    let contract = Contract {
        consumer: pacticipant(CONSUMER),
        provider: pacticipant(PROVIDER),
        interactions: interactions.into_iter().map(Interaction::Http).collect(),
        ..Contract::default()
    };
    let options = MockOptions {
        workers: 1,
        spec: w.spec,
        ..MockOptions::default()
    };
    let mock = MockServer::start_with(&contract, options).map_err(|e| e.to_string())?;
    w.mock = Some(mock);
    Ok(())
}

fn make_request(w: &mut World, caps: &Captures, step: &Step) -> Result<(), String> {
    let mut request = w.interaction(number(caps, 1)?)?.request.clone();
    if caps.get(2).is_some() {
        request = changed(w, request, step)?;
    }
    let received = wire::send(&w.client, w.mock()?.url(), &request)?;
    w.response = Some(received);
    Ok(())
}

/// A request with the changes of the step's table (`method`, `path`,
/// `query`, `headers` replace; `raw headers` add header lines; `body`
/// replaces the body), as the suite's reference harness applies them.
fn changed(w: &World, mut req: HttpRequest, step: &Step) -> Result<HttpRequest, String> {
    for (column, value) in cells::single_record(step.table.as_ref())? {
        match column.as_str() {
            "method" => req.method = value.trim().to_owned(),
            "path" => req.path = value.trim().to_owned(),
            "query" => req.query = cells::query(&value),
            "headers" => req.headers = cells::headers(&value),
            "raw headers" => {
                for (name, values) in cells::headers(&value).into_iter().flatten() {
                    for v in values {
                        cells::add_header(&mut req.headers, &name, &v);
                    }
                }
            }
            "body" => req = with_body(w, req, &value)?,
            other => return Err(format!("unknown change column {other:?}")),
        }
    }
    Ok(req)
}

/// A new body brings its content type: `JSON:` and `XML:` theirs, a file
/// its extension's (or its wrapper's), plain text the one the request had
/// (`text/plain` if none) — as the reference harness sets it, so a form
/// body changed to other form text stays a form.
fn with_body(w: &World, mut req: HttpRequest, cell: &str) -> Result<HttpRequest, String> {
    let cell = cell.trim();
    let plain = !["JSON:", "XML:", "file:"]
        .iter()
        .any(|p| cell.starts_with(p));
    let mut rec = Record::new();
    rec.insert("body".into(), cell.to_owned());
    if let (true, Some(ct)) = (plain, req.body.content_type()) {
        rec.insert("content type".into(), ct.to_owned());
    }
    if let Some(h) = req.headers.as_mut() {
        h.retain(|k, _| !k.eq_ignore_ascii_case("content-type"));
    }
    parts::request(&rec, &w.fx, req)
}

fn status_returned(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let want: u16 = caps[1].parse().map_err(|e| format!("{e}"))?;
    let r = w.response()?;
    if r.status == want {
        return Ok(());
    }
    Err(format!(
        "expected status {want}, got {}: {}",
        r.status,
        String::from_utf8_lossy(&r.body)
    ))
}

/// The payload is the fixture's JSON document (as JSON: the contract model
/// keeps a JSON body as a value, not as the fixture's bytes).
fn payload_document(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let want = w.fx.json(&format!("{}.json", &caps[1]))?;
    let body = &w.response()?.body;
    let got: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        format!(
            "the payload is not JSON ({e}): {}",
            String::from_utf8_lossy(body)
        )
    })?;
    if got == want {
        Ok(())
    } else {
        Err(format!("expected the payload {want}, got {got}"))
    }
}

fn content_type(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    match w.response()?.header("content-type") {
        Some(ct) if ct == &caps[1] => Ok(()),
        Some(ct) => Err(format!("expected content type {:?}, got {ct:?}", &caps[1])),
        None => Err("the response has no content type".into()),
    }
}

/// The end of the pact test: the mock's final report is taken, the mock
/// stops, and its contract is written to a fresh folder — which
/// `write_contract` refuses unless the report is OK.
fn test_done(w: &mut World, _: &Captures, _: &Step) -> Result<(), String> {
    let mock = w.mock.take().ok_or("the mock server is not running")?;
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary folder: {e}"))?;
    let report = mock.verify();
    let written = mock.write_contract(dir.path()).map_err(|e| e.to_string());
    drop(mock);
    w.done = Some(Done {
        report,
        dir,
        written,
    });
    Ok(())
}

fn define_interactions(w: &mut World, _: &Captures, step: &Step) -> Result<(), String> {
    w.interactions
        .extend(parts::http_interactions(step.table.as_ref(), &w.fx)?);
    Ok(())
}
