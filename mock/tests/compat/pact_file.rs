//! The Pact file the mock writes when the test is done (only when its
//! status is OK), read back from disk, and its content.

use accord_dsl::Interaction;
use accord_dsl::model::{Body, HttpInteraction, body_to_bytes};
use gherkin::Step;
use regex::Captures;

use crate::cells;
use crate::steps::{StepFn, number};
use crate::world::{CONSUMER, PROVIDER, World};

pub const STEPS: &[(&str, StepFn)] = &[
    (
        r"^the mock server will (NOT )?write out a Pact file for the interactions? when done$",
        written,
    ),
    (
        r"^the pact file will contain \{(\d+)\} interactions?$",
        interaction_count,
    ),
    (
        r#"^the \{(\w+)\} interaction request will be for a "([^"]+)"$"#,
        request_method,
    ),
    (
        r#"^the \{(\w+)\} interaction (request|response) will contain the "([^"]+)" document$"#,
        document,
    ),
    (
        r#"^the \{(\w+)\} interaction request query parameters will be "([^"]*)"$"#,
        request_query,
    ),
    (
        r#"^the \{(\w+)\} interaction request will contain the header "([^"]+)" with value "([^"]*)"$"#,
        request_header,
    ),
    (
        r#"^the \{(\w+)\} interaction request content type will be "([^"]+)"$"#,
        request_content_type,
    ),
];

/// Whether the test's end wrote the file: `write_contract` said so and it
/// is on disk (then it is read back), or it said why not and nothing is.
fn written(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let done = w.done.as_ref().ok_or("the pact test is not done")?;
    let file = done.dir.path().join(format!("{CONSUMER}-{PROVIDER}.json"));
    let want = caps.get(1).is_none();
    match (&done.written, want) {
        (Ok(path), true) if *path == file => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let pact = accord_dsl::pact::read_contract(&text, &file.display().to_string())
                .map_err(|e| e.to_string())?;
            w.pact = Some(pact);
            Ok(())
        }
        (Ok(path), true) => Err(format!(
            "written to {}, not {}",
            path.display(),
            file.display()
        )),
        (Err(why), true) => Err(format!("no Pact file was written: {why}")),
        (Ok(path), false) => Err(format!("a Pact file was written: {}", path.display())),
        (Err(_), false) if file.exists() => Err(format!("{} exists", file.display())),
        (Err(_), false) => Ok(()),
    }
}

fn interaction_count(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let want = number(caps, 1)?;
    let got = w.pact()?.interactions.len();
    if got == want {
        Ok(())
    } else {
        Err(format!("the Pact file has {got} interactions, not {want}"))
    }
}

/// The `{first}`, `{second}`, … HTTP interaction of the Pact file.
fn nth<'w>(w: &'w World, caps: &Captures) -> Result<&'w HttpInteraction, String> {
    let n = cells::ordinal(&caps[1])?;
    match w.pact()?.interactions.get(n) {
        Some(Interaction::Http(h)) => Ok(h),
        Some(_) => Err(format!("interaction {} is not HTTP", n + 1)),
        None => Err(format!("the Pact file has no interaction {}", n + 1)),
    }
}

fn request_method(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let got = &nth(w, caps)?.request.method;
    if got.eq_ignore_ascii_case(&caps[2]) {
        Ok(())
    } else {
        Err(format!("the request is a {got}, not a {}", &caps[2]))
    }
}

/// The part's body is the fixture: as JSON for a `.json` fixture, else
/// byte for byte.
fn document(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let i = nth(w, caps)?;
    let body = match &caps[2] {
        "request" => &i.request.body,
        _ => &i.response.body,
    };
    let name = &caps[3];
    let same = if name.ends_with(".json") {
        body.as_json() == Some(&w.fx.json(name)?)
    } else {
        bytes_of(body) == w.fx.bytes(name)?
    };
    if same {
        Ok(())
    } else {
        Err(format!("the {} body is not {name}: {body:?}", &caps[2]))
    }
}

fn bytes_of(body: &Body) -> Vec<u8> {
    body_to_bytes(body).map(|(b, _)| b).unwrap_or_default()
}

fn request_query(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let got = &nth(w, caps)?.request.query;
    let want = cells::query(&caps[2]);
    if *got == want {
        Ok(())
    } else {
        Err(format!("the request query is {got:?}, not {want:?}"))
    }
}

fn request_header(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let headers = &nth(w, caps)?.request.headers;
    let values: Vec<&String> = headers
        .iter()
        .flatten()
        .filter(|(n, _)| n.eq_ignore_ascii_case(&caps[2]))
        .flat_map(|(_, vs)| vs)
        .collect();
    if values.iter().any(|v| **v == caps[3]) {
        Ok(())
    } else {
        Err(format!(
            "header {}: {values:?}, not {:?}",
            &caps[2], &caps[3]
        ))
    }
}

fn request_content_type(w: &mut World, caps: &Captures, _: &Step) -> Result<(), String> {
    let request = &nth(w, caps)?.request;
    let header = request
        .headers
        .iter()
        .flatten()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
        .and_then(|(_, vs)| vs.first())
        .map(String::as_str);
    let got = header.or(request.body.content_type());
    if got == Some(&caps[2]) {
        Ok(())
    } else {
        Err(format!(
            "the request content type is {got:?}, not {:?}",
            &caps[2]
        ))
    }
}
