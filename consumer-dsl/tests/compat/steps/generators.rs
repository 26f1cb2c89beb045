//! Steps of `generators` (V3, V4) and `http_generators` (V3): a part
//! configured with generators, prepared for use, and checks of the values
//! produced.

use serde_json::Value;

use accord_dsl::model::{HttpRequest, HttpResponse};

use super::{Args, Registry};
use crate::api::{self, GenContext, GenMode};
use crate::cells;
use crate::parts;
use crate::values;
use crate::world::World;

pub fn register(r: &mut Registry) {
    r.add(
        "a request configured with the following generators:",
        request_with_generators,
    );
    r.add(
        "a response configured with the following generators:",
        response_with_generators,
    );
    r.add("the generator test mode is set as {string}", mode);
    r.add("the request is prepared for use", prepare_request);
    r.add(
        "the request is prepared for use with a {string} context:",
        prepare_request_with,
    );
    r.add("the response is prepared for use", prepare_response);
    r.add(
        "the body value for {string} will have been replaced with a(n) {string}",
        body_replaced_with_kind,
    );
    r.add(
        "the body value for {string} will have been replaced with {string}",
        body_replaced_with_value,
    );
    r.add(
        "the request {string} will be set as {string}",
        request_part_is,
    );
    r.add(
        "the request {string} will match {string}",
        request_part_matches,
    );
    r.add(
        "the response {string} will not be {string}",
        response_part_is_not,
    );
    r.add(
        "the response {string} will match {string}",
        response_part_matches,
    );
}

fn request_with_generators(w: &mut World, a: &Args) -> Result<(), String> {
    let rec = cells::single_record(a.table)?;
    let base = HttpRequest {
        method: "GET".into(),
        path: "/path/one".into(),
        ..HttpRequest::default()
    };
    w.gen_request = parts::request(&rec, &w.fixtures, base)?;
    Ok(())
}

fn response_with_generators(w: &mut World, a: &Args) -> Result<(), String> {
    let rec = cells::single_record(a.table)?;
    let base = HttpResponse {
        status: 200,
        ..HttpResponse::default()
    };
    w.gen_response = parts::response(&rec, &w.fixtures, base)?;
    Ok(())
}

fn mode(w: &mut World, a: &Args) -> Result<(), String> {
    w.gen_mode = match a.get(0) {
        "Consumer" => GenMode::Consumer,
        "Provider" => GenMode::Provider,
        other => return Err(format!("unknown generator test mode {other:?}")),
    };
    Ok(())
}

fn prepare_request(w: &mut World, _: &Args) -> Result<(), String> {
    let generated = api::generate_request(&w.gen_request, w.gen_mode, &GenContext::default())?;
    w.generated_request = Some(generated);
    Ok(())
}

/// `"providerState"` context: values a state change returned;
/// `"mockServer"` context: `{"href": …}` of the running mock server.
fn prepare_request_with(w: &mut World, a: &Args) -> Result<(), String> {
    let json = cells::json_cell(&cells::first_cell(a.table)?)?;
    let Value::Object(map) = json else {
        return Err("the context must be a JSON object".into());
    };
    let mut cx = GenContext::default();
    match a.get(0) {
        "providerState" => cx.provider_state = map,
        "mockServer" => {
            let href = map.get("href").and_then(Value::as_str);
            cx.mock_server_url = Some(href.ok_or("mockServer context has no href")?.to_string());
        }
        other => return Err(format!("unknown generator context {other:?}")),
    }
    w.generated_request = Some(api::generate_request(&w.gen_request, w.gen_mode, &cx)?);
    Ok(())
}

fn prepare_response(w: &mut World, _: &Args) -> Result<(), String> {
    let generated = api::generate_response(&w.gen_response, w.gen_mode, &GenContext::default())?;
    w.generated_response = Some(generated);
    Ok(())
}

/// Original and generated body value at `path`, from whichever part was prepared.
fn body_values(w: &World, path: &str) -> Result<(Value, Value), String> {
    let (before, after) = match (&w.generated_request, &w.generated_response) {
        (Some(g), _) => (&w.gen_request.body, &g.body),
        (None, Some(g)) => (&w.gen_response.body, &g.body),
        (None, None) => return Err("nothing has been prepared for use".into()),
    };
    let before = values::json_at(before, path)?;
    let after = values::json_at(after, path)?;
    Ok((before, after))
}

fn body_replaced_with_kind(w: &mut World, a: &Args) -> Result<(), String> {
    let (before, after) = body_values(w, a.get(0))?;
    values::replaced_with_kind(&before, &after, a.get(1))
}

fn body_replaced_with_value(w: &mut World, a: &Args) -> Result<(), String> {
    let (before, after) = body_values(w, a.get(0))?;
    values::replaced_with_value(&before, &after, a.get(1))
}

fn generated_request(w: &World) -> Result<&HttpRequest, String> {
    w.generated_request
        .as_ref()
        .ok_or_else(|| "the request has not been prepared".to_string())
}

fn generated_response(w: &World) -> Result<&HttpResponse, String> {
    w.generated_response
        .as_ref()
        .ok_or_else(|| "the response has not been prepared".to_string())
}

fn request_part_is(w: &mut World, a: &Args) -> Result<(), String> {
    let got = values::request_part(generated_request(w)?, a.get(0))?;
    values::expect_eq(&got, a.get(1))
}

fn request_part_matches(w: &mut World, a: &Args) -> Result<(), String> {
    let got = values::request_part(generated_request(w)?, a.get(0))?;
    values::expect_match(&got, a.get(1))
}

fn response_part_is_not(w: &mut World, a: &Args) -> Result<(), String> {
    let got = values::response_part(generated_response(w)?, a.get(0))?;
    if got == a.get(1) {
        Err(format!("{} is still {got:?}", a.get(0)))
    } else {
        Ok(())
    }
}

fn response_part_matches(w: &mut World, a: &Args) -> Result<(), String> {
    let got = values::response_part(generated_response(w)?, a.get(0))?;
    values::expect_match(&got, a.get(1))
}
