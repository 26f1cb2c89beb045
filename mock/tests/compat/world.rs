//! The state of one scenario: the Background's interactions, the running
//! mock, what the consumer's last request got back, and the pact test's end.

use std::path::PathBuf;

use accord_dsl::model::{Contract, HttpInteraction, PactSpec};
use accord_mock::{MockReport, MockServer};
use reqwest::blocking::Client;

use crate::fixtures::Fixtures;
use crate::wire::Received;

/// The consumer name of the Pact file the suite's harnesses write.
pub const CONSUMER: &str = "v1-compatibility-suite-c";
pub const PROVIDER: &str = "p";

/// One scenario's world.
#[derive(Debug)]
pub struct World {
    pub fx: Fixtures,
    pub client: Client,
    /// The specification the feature file is about (`V1/…` → V1): the
    /// matching semantics the mock is started with.
    pub spec: PactSpec,
    /// The Background's interactions, numbered from 1.
    pub interactions: Vec<HttpInteraction>,
    pub mock: Option<MockServer>,
    /// The consumer's last request's answer.
    pub response: Option<Received>,
    /// Set when the pact test is done: the mock's final report, and where
    /// the Pact file would be written (a fresh folder per scenario).
    pub done: Option<Done>,
    /// The Pact file written, read back.
    pub pact: Option<Contract>,
}

/// The end of a pact test.
#[derive(Debug)]
pub struct Done {
    pub report: MockReport,
    pub dir: tempfile::TempDir,
    /// What `write_contract` said: the path written, or why not.
    pub written: Result<PathBuf, String>,
}

impl World {
    pub fn new(fx: Fixtures, client: Client, feature: &str) -> Self {
        let spec = match feature.split('/').next() {
            Some("V1") => PactSpec::V1,
            Some("V2") => PactSpec::V2,
            Some("V3") => PactSpec::V3,
            _ => PactSpec::V4,
        };
        World {
            fx,
            client,
            spec,
            interactions: Vec::new(),
            mock: None,
            response: None,
            done: None,
            pact: None,
        }
    }

    /// Background interaction `n` (1-based).
    pub fn interaction(&self, n: usize) -> Result<&HttpInteraction, String> {
        n.checked_sub(1)
            .and_then(|i| self.interactions.get(i))
            .ok_or_else(|| format!("no interaction {n}"))
    }

    pub fn mock(&self) -> Result<&MockServer, String> {
        self.mock
            .as_ref()
            .ok_or_else(|| "the mock server is not running".to_string())
    }

    /// The mock's report: the final one once the test is done, else as of now.
    pub fn report(&self) -> Result<MockReport, String> {
        match &self.done {
            Some(done) => Ok(done.report.clone()),
            None => Ok(self.mock()?.verify()),
        }
    }

    pub fn response(&self) -> Result<&Received, String> {
        self.response
            .as_ref()
            .ok_or_else(|| "no request has been made".to_string())
    }

    /// The Pact file read back, or why there is none.
    pub fn pact(&self) -> Result<&Contract, String> {
        self.pact
            .as_ref()
            .ok_or_else(|| "no Pact file has been read".to_string())
    }
}
