//! The one place the harness calls accord-dsl's engine: matching,
//! generators, and the Pact file writer/reader. Steps go through here so
//! the shape of a mismatch or a context is adapted once.

use serde_json::{Map, Value};

use accord_dsl::generators::{self, GeneratorContext, GeneratorMode};
use accord_dsl::matching::{self, Mismatch, MismatchKind};
use accord_dsl::model::{Contract, HttpRequest, HttpResponse, Message};
use accord_dsl::pact;

/// A mismatch as the suite's assertions look at it.
#[derive(Debug, Clone)]
pub struct MismatchView {
    /// `body`, `header`, `query`, `path`, `method`, `status`, `metadata`,
    /// `body-content-type`.
    pub category: String,
    /// The body path (`$.one`), or the header / query parameter / metadata name.
    pub path: String,
    /// The readable sentence.
    pub description: String,
}

/// Who generators work for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenMode {
    Consumer,
    Provider,
}

/// What generators may draw on.
#[derive(Debug, Clone, Default)]
pub struct GenContext {
    pub provider_state: Map<String, Value>,
    pub mock_server_url: Option<String>,
}

/// Compares an actual request with the expected one.
pub fn match_request(
    expected: &HttpRequest,
    actual: &HttpRequest,
) -> Result<Vec<MismatchView>, String> {
    Ok(view(matching::match_request(expected, actual)))
}

/// Compares an actual response with the expected one.
pub fn match_response(
    expected: &HttpResponse,
    actual: &HttpResponse,
) -> Result<Vec<MismatchView>, String> {
    Ok(view(matching::match_response(expected, actual)))
}

fn view(mismatches: Vec<Mismatch>) -> Vec<MismatchView> {
    mismatches
        .into_iter()
        .map(|m| MismatchView {
            category: match m.kind {
                MismatchKind::BodyType => "body-content-type".into(),
                other => other.as_str().into(),
            },
            path: m.path,
            description: m.message,
        })
        .collect()
}

/// The request with its generators applied.
pub fn generate_request(
    request: &HttpRequest,
    mode: GenMode,
    cx: &GenContext,
) -> Result<HttpRequest, String> {
    let mut out = request.clone();
    generators::apply_to_request(&mut out, &context(mode, cx), &mut rand::rng());
    Ok(out)
}

/// The response with its generators applied.
pub fn generate_response(
    response: &HttpResponse,
    mode: GenMode,
    cx: &GenContext,
) -> Result<HttpResponse, String> {
    let mut out = response.clone();
    generators::apply_to_response(&mut out, &context(mode, cx), &mut rand::rng());
    Ok(out)
}

/// The message with its generators applied.
pub fn generate_message(
    message: &Message,
    mode: GenMode,
    cx: &GenContext,
) -> Result<Message, String> {
    let mut out = message.clone();
    generators::apply_to_message(&mut out, &context(mode, cx), &mut rand::rng());
    Ok(out)
}

fn context(mode: GenMode, cx: &GenContext) -> GeneratorContext {
    GeneratorContext {
        provider_state_values: cx.provider_state.clone(),
        mock_server_url: cx.mock_server_url.clone(),
        mode: match mode {
            GenMode::Consumer => GeneratorMode::Consumer,
            GenMode::Provider => GeneratorMode::Provider,
        },
        now: None,
    }
}

/// The V4 Pact file text of a contract, as the writer puts it on disk.
pub fn write_pact(contract: &Contract) -> String {
    pact::write_contract(contract)
}

/// A Pact file's text read back into the model.
pub fn read_pact(text: &str) -> Result<Contract, String> {
    pact::read_contract(text, "the written Pact file").map_err(|e| e.to_string())
}
