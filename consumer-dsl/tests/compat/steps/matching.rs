//! Steps of `matching_rules` (V3, V4) and `http_matching` (V3): an
//! expected request or response, actual ones, a comparison, and
//! assertions on the mismatches.

use accord_dsl::model::{HttpRequest, HttpResponse};

use super::{Args, Registry};
use crate::api::{self, MismatchView};
use crate::cells;
use crate::parts;
use crate::world::World;

pub fn register(r: &mut Registry) {
    r.add(
        "an expected request configured with the following:",
        expected_request,
    );
    r.add(
        "an expected request with a(n) {string} header of {string}",
        expected_header,
    );
    r.add(
        "a request is received with a(n) {string} header of {string}",
        received_header,
    );
    r.add(
        "a request is received with the following:",
        received_request,
    );
    r.add("the following requests are received:", received_requests);
    r.add(
        "the request is compared to the expected one",
        compare_requests,
    );
    r.add(
        "the requests are compared to the expected one",
        compare_requests,
    );
    r.add("the comparison should be OK", comparison_ok);
    r.add("the comparison should NOT be OK", comparison_not_ok);
    r.add(
        "the mismatches will contain a mismatch with error {string} -> {string}",
        has_mismatch_at,
    );
    r.add(
        "an expected response configured with the following:",
        expected_response,
    );
    r.add("a status {int} response is received", received_status);
    r.add(
        "the response is compared to the expected one",
        compare_responses,
    );
    r.add("the response comparison should be OK", comparison_ok);
    r.add(
        "the response comparison should NOT be OK",
        comparison_not_ok,
    );
    r.add(
        "the response mismatches will contain a {string} mismatch with error {string}",
        has_mismatch_of,
    );
}

fn expected_request(w: &mut World, a: &Args) -> Result<(), String> {
    let rec = cells::single_record(a.table)?;
    w.expected_request = parts::request(&rec, &w.fixtures, HttpRequest::default())?;
    Ok(())
}

fn expected_header(w: &mut World, a: &Args) -> Result<(), String> {
    cells::add_header(&mut w.expected_request.headers, a.get(0), a.get(1));
    Ok(())
}

fn received_header(w: &mut World, a: &Args) -> Result<(), String> {
    let mut req = HttpRequest::default();
    cells::add_header(&mut req.headers, a.get(0), a.get(1));
    w.received_requests.push(req);
    Ok(())
}

fn received_request(w: &mut World, a: &Args) -> Result<(), String> {
    let rec = cells::single_record(a.table)?;
    let req = parts::request(&rec, &w.fixtures, HttpRequest::default())?;
    w.received_requests.push(req);
    Ok(())
}

fn received_requests(w: &mut World, a: &Args) -> Result<(), String> {
    for rec in cells::records(a.table)? {
        let req = parts::request(&rec, &w.fixtures, HttpRequest::default())?;
        w.received_requests.push(req);
    }
    Ok(())
}

fn compare_requests(w: &mut World, _: &Args) -> Result<(), String> {
    if w.received_requests.is_empty() {
        return Err("no request was received".into());
    }
    for actual in &w.received_requests {
        w.results
            .push(api::match_request(&w.expected_request, actual)?);
    }
    Ok(())
}

fn expected_response(w: &mut World, a: &Args) -> Result<(), String> {
    let rec = cells::single_record(a.table)?;
    w.expected_response = parts::response(&rec, &w.fixtures, HttpResponse::default())?;
    Ok(())
}

fn received_status(w: &mut World, a: &Args) -> Result<(), String> {
    let status = u16::try_from(a.int(0)?).map_err(|e| e.to_string())?;
    w.received_responses.push(HttpResponse {
        status,
        ..HttpResponse::default()
    });
    Ok(())
}

fn compare_responses(w: &mut World, _: &Args) -> Result<(), String> {
    if w.received_responses.is_empty() {
        return Err("no response was received".into());
    }
    for actual in &w.received_responses {
        w.results
            .push(api::match_response(&w.expected_response, actual)?);
    }
    Ok(())
}

fn comparison_ok(w: &mut World, _: &Args) -> Result<(), String> {
    let all: Vec<&MismatchView> = w.results.iter().flatten().collect();
    if w.results.is_empty() {
        Err("no comparison was made".into())
    } else if all.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "expected a match, got mismatches: {}",
            describe(&all)
        ))
    }
}

fn comparison_not_ok(w: &mut World, _: &Args) -> Result<(), String> {
    if w.results.is_empty() {
        Err("no comparison was made".into())
    } else if w.results.iter().any(|r| !r.is_empty()) {
        Ok(())
    } else {
        Err("expected mismatches, but everything matched".into())
    }
}

/// `"$.one" -> "Expected …"`: a mismatch at that path (or header / query
/// name) whose sentence contains the text or matches it as a regex.
fn has_mismatch_at(w: &mut World, a: &Args) -> Result<(), String> {
    let (path, error) = (a.get(0), a.get(1));
    find(w, error, |m| m.path == path)
}

/// `"status" mismatch with error "…"`: a mismatch of that category.
fn has_mismatch_of(w: &mut World, a: &Args) -> Result<(), String> {
    let (category, error) = (a.get(0), a.get(1));
    find(w, error, |m| m.category == category)
}

fn find(w: &World, error: &str, place: impl Fn(&MismatchView) -> bool) -> Result<(), String> {
    let all: Vec<&MismatchView> = w.results.iter().flatten().collect();
    let re = regex::Regex::new(error).ok();
    let says = |m: &MismatchView| {
        m.description.contains(error) || re.as_ref().is_some_and(|r| r.is_match(&m.description))
    };
    let here: Vec<&MismatchView> = all.iter().copied().filter(|m| place(m)).collect();
    if here.iter().any(|m| says(m)) {
        Ok(())
    } else if here.is_empty() {
        Err(format!(
            "no mismatch at that place; got: {}",
            describe(&all)
        ))
    } else {
        Err(format!(
            "wording: the mismatch there says {}; the suite expects {error:?}",
            describe(&here)
        ))
    }
}

fn describe(all: &[&MismatchView]) -> String {
    if all.is_empty() {
        return "none".into();
    }
    all.iter()
        .map(|m| format!("[{} {}] {}", m.category, m.path, m.description))
        .collect::<Vec<_>>()
        .join("; ")
}
