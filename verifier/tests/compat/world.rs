//! The state of one scenario.

use accord_dsl::model::HttpInteraction;
use accord_fixtures::stub::StubConfig;
use accord_verifier::{SourcedContract, VerificationReport, VerifyError};
use serde_json::Value;

use crate::fixtures::Fixtures;

/// One scenario's world.
#[derive(Debug)]
pub struct World {
    pub fx: Fixtures,
    /// The Background's interactions, numbered from 1.
    pub interactions: Vec<HttpInteraction>,
    /// What the stub provider will answer.
    pub stub: StubConfig,
    /// The Pact files to verify.
    pub pacts: Vec<SourcedContract>,
    pub state_callback: bool,
    pub result: Option<Result<VerificationReport, VerifyError>>,
    pub state_calls: Vec<Value>,
}

impl World {
    pub fn new(fx: Fixtures) -> Self {
        World {
            fx,
            interactions: Vec::new(),
            stub: StubConfig::default(),
            pacts: Vec::new(),
            state_callback: false,
            result: None,
            state_calls: Vec::new(),
        }
    }

    /// Background interaction `n` (1-based).
    pub fn interaction(&self, n: usize) -> Result<&HttpInteraction, String> {
        n.checked_sub(1)
            .and_then(|i| self.interactions.get(i))
            .ok_or_else(|| format!("no interaction {n}"))
    }

    /// The report of the run.
    pub fn report(&self) -> Result<&VerificationReport, String> {
        match &self.result {
            Some(Ok(r)) => Ok(r),
            Some(Err(e)) => Err(format!("the verification failed operationally: {e}")),
            None => Err("the verification has not run".into()),
        }
    }
}
