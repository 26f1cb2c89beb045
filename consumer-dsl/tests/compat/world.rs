//! The state one scenario builds up, step by step.

use serde_json::Value;

use accord_dsl::model::{Contract, HttpRequest, HttpResponse, Interaction};

use crate::api::{GenMode, MismatchView};
use crate::fixtures::Fixtures;

/// Everything a scenario's steps read and write. A fresh one per scenario.
#[derive(Debug)]
pub struct World {
    pub fixtures: Fixtures,
    /// Matching: the expected request and the ones received.
    pub expected_request: HttpRequest,
    pub received_requests: Vec<HttpRequest>,
    /// Matching: the expected response and the ones received.
    pub expected_response: HttpResponse,
    pub received_responses: Vec<HttpResponse>,
    /// Mismatches of each comparison made, in order.
    pub results: Vec<Vec<MismatchView>>,
    /// Generators: the part configured, the mode, and what was generated.
    pub gen_request: HttpRequest,
    pub gen_response: HttpResponse,
    pub gen_mode: GenMode,
    pub generated_request: Option<HttpRequest>,
    pub generated_response: Option<HttpResponse>,
    /// Consumer tests: the interactions being defined, in order.
    pub interactions: Vec<Interaction>,
    /// What the consumer's code received (generators applied), per interaction.
    pub received: Vec<Interaction>,
    /// The consumer test's failure, if it failed.
    pub test_error: Option<String>,
    /// The Pact file written for the test, as JSON and read back.
    pub pact_json: Option<Value>,
    pub pact: Option<Contract>,
}

impl World {
    pub fn new(fixtures: Fixtures) -> Self {
        World {
            fixtures,
            expected_request: HttpRequest::default(),
            received_requests: Vec::new(),
            expected_response: HttpResponse::default(),
            received_responses: Vec::new(),
            results: Vec::new(),
            gen_request: HttpRequest::default(),
            gen_response: HttpResponse::default(),
            gen_mode: GenMode::Consumer,
            generated_request: None,
            generated_response: None,
            interactions: Vec::new(),
            received: Vec::new(),
            test_error: None,
            pact_json: None,
            pact: None,
        }
    }

    /// The Pact file written by the test, or why there is none.
    pub fn pact(&self) -> Result<&Contract, String> {
        self.pact
            .as_ref()
            .ok_or_else(|| "no Pact file has been written".to_string())
    }

    /// The first interaction of the written Pact file as JSON.
    pub fn first_pact_interaction_json(&self) -> Result<&Value, String> {
        self.pact_json
            .as_ref()
            .and_then(|p| p.get("interactions"))
            .and_then(|i| i.get(0))
            .ok_or_else(|| "the Pact file has no interaction".to_string())
    }
}
