//! The body of a published verification result and its validation into
//! the row to store.

use serde::Deserialize;
use serde_json::Value;

use crate::api::declarations::{self, Declaration};
use crate::api::findings::{self, Finding};
use crate::error::BrokerError;
use crate::metadata::PactMetadata;
use crate::names::{FreeText, VersionNumber};
use crate::store::evidence::ResultEvidence;
use crate::store::now;
use crate::store::pacts::PactContent;
use crate::store::verifications::NewVerification;

/// The body of a verification result.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerificationRequest {
    pub success: Option<bool>,
    pub provider_application_version: Option<String>,
    pub build_url: Option<FreeText>,
    pub test_results: Option<Value>,
    pub verified_by: Option<Value>,
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// What the provider declared during the run (Accord's verifier).
    #[serde(default)]
    pub declarations: Vec<Declaration>,
    /// The digest of the producer artifact verified (`sha256:` and hex;
    /// `accord verify --producer-digest`): admission evidence binds to it.
    pub producer_digest: Option<String>,
    /// How long the result stands as admission evidence, in seconds
    /// (`accord verify --evidence-ttl`; 7 days when absent).
    pub evidence_ttl_seconds: Option<i64>,
}

/// The longest evidence TTL the broker accepts: 90 days.
pub const MAX_EVIDENCE_TTL_SECONDS: i64 = 90 * 24 * 3600;

/// A validated verification result, ready to store.
#[derive(Debug)]
pub(super) struct Publish {
    success: bool,
    pub(super) provider_version: VersionNumber,
    build_url: Option<String>,
    test_results: Option<String>,
    verified_by: Option<String>,
    findings: String,
    declarations: Option<String>,
    evidence: EvidenceAsk,
}

/// What a result says about its admission evidence.
#[derive(Debug, Clone)]
pub(super) struct EvidenceAsk {
    producer_digest: Option<String>,
    ttl_seconds: i64,
    profiles: Vec<String>,
    harness_version: String,
}

impl TryFrom<VerificationRequest> for Publish {
    type Error = BrokerError;

    fn try_from(r: VerificationRequest) -> Result<Self, BrokerError> {
        let success = r
            .success
            .ok_or_else(|| BrokerError::bad_field("success", "is required (true or false)"))?;
        let evidence = EvidenceAsk::try_from(&r)?;
        let raw = r
            .provider_application_version
            .ok_or_else(|| BrokerError::bad_field("providerApplicationVersion", "is required"))?;
        let provider_version = VersionNumber::parse(&raw)
            .map_err(|e| BrokerError::bad_field("providerApplicationVersion", e.to_string()))?;
        if let Some(url) = &r.build_url
            && !is_url(url.as_str())
        {
            return Err(BrokerError::bad_field(
                "buildUrl",
                "must be an absolute URL",
            ));
        }
        findings::validate(&r.findings)?;
        declarations::validate(&r.declarations)?;
        Ok(Publish {
            evidence,
            success,
            provider_version,
            build_url: r.build_url.map(FreeText::into_string),
            test_results: r.test_results.map(|v| v.to_string()),
            verified_by: r.verified_by.map(|v| v.to_string()),
            findings: serde_json::to_string(&r.findings).unwrap_or_else(|_| "[]".into()),
            declarations: (!r.declarations.is_empty())
                .then(|| serde_json::to_string(&r.declarations).unwrap_or_else(|_| "[]".into())),
        })
    }
}

impl TryFrom<&VerificationRequest> for EvidenceAsk {
    type Error = BrokerError;

    fn try_from(r: &VerificationRequest) -> Result<Self, BrokerError> {
        if let Some(d) = &r.producer_digest
            && !declarations::is_digest(d)
        {
            return Err(BrokerError::bad_field(
                "$.producerDigest",
                "must be sha256: and 64 lower-case hex digits",
            ));
        }
        let ttl = r
            .evidence_ttl_seconds
            .unwrap_or(crate::evidence::facts::DEFAULT_TTL_SECONDS);
        if !(1..=MAX_EVIDENCE_TTL_SECONDS).contains(&ttl) {
            return Err(BrokerError::bad_field(
                "$.evidenceTtlSeconds",
                format!("must be from 1 to {MAX_EVIDENCE_TTL_SECONDS} seconds (90 days)"),
            ));
        }
        Ok(EvidenceAsk {
            producer_digest: r.producer_digest.clone(),
            ttl_seconds: ttl,
            profiles: profiles(&r.declarations),
            harness_version: harness_version(r.verified_by.as_ref()),
        })
    }
}

/// The profiles a run passed, from what it declared: `a2a-jsonrpc-1.0`
/// (the card's protocol version, per binding replayed on), `mcp-2026-07-28`.
fn profiles(declared: &[Declaration]) -> Vec<String> {
    let mut out = std::collections::BTreeSet::new();
    for d in declared {
        match d.kind.as_str() {
            "a2a/agent-card" => {
                let bindings: Vec<String> = d
                    .used
                    .iter()
                    .filter_map(|u| u.split_whitespace().next())
                    .map(|b| b.to_ascii_lowercase().replace('+', "-"))
                    .collect();
                if bindings.is_empty() {
                    out.insert(format!("a2a-{}", d.protocol_version));
                }
                for b in bindings {
                    out.insert(format!("a2a-{b}-{}", d.protocol_version));
                }
            }
            "mcp/tools/list" => {
                out.insert(format!("mcp-{}", d.protocol_version));
            }
            _ => {}
        }
    }
    out.into_iter().collect()
}

/// `verifiedBy.version` when it is a short printable text; `unknown` else.
fn harness_version(verified_by: Option<&Value>) -> String {
    verified_by
        .and_then(|v| v.get("version"))
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty() && v.len() <= 64 && !v.chars().any(char::is_control))
        .unwrap_or("unknown")
        .to_owned()
}

impl Publish {
    /// What the result says about its admission evidence.
    pub(super) fn evidence_ask(&self) -> EvidenceAsk {
        self.evidence.clone()
    }
}

impl EvidenceAsk {
    /// The evidence of the stored result `verification_id`, executed at
    /// `executed`.
    pub(super) fn result(
        &self,
        verification_id: i64,
        executed: chrono::NaiveDateTime,
    ) -> ResultEvidence {
        let e = self;
        ResultEvidence {
            verification_id,
            producer_digest: e.producer_digest.clone(),
            profiles: serde_json::to_string(&e.profiles).unwrap_or_else(|_| "[]".into()),
            harness_version: e.harness_version.clone(),
            expires_at: executed + chrono::TimeDelta::seconds(e.ttl_seconds),
        }
    }
}

impl Publish {
    /// The row for `content`, verified by provider version `provider_version_id`,
    /// with the flags of the metadata the pact was handed out with.
    pub(super) fn into_row(
        self,
        content: &PactContent,
        provider_version_id: i64,
        m: PactMetadata,
    ) -> NewVerification {
        NewVerification {
            pact_content_id: content.id,
            provider_version_id,
            consumer_id: content.consumer_id,
            provider_id: content.provider_id,
            success: self.success,
            build_url: self.build_url,
            test_results: self.test_results,
            verified_by: self.verified_by,
            findings: self.findings,
            declarations: self.declarations,
            wip: m.wip,
            pending: m.pending,
            pact_view: m.pact_view,
            selectors: (m != PactMetadata::default()).then(|| m.to_json()),
            execution_date: now(),
        }
    }
}

/// An absolute URL: a scheme, `://`, and a host.
fn is_url(text: &str) -> bool {
    match text.parse::<actix_web::http::Uri>() {
        Ok(uri) => uri.scheme().is_some() && uri.host().is_some_and(|h| !h.is_empty()),
        Err(_) => false,
    }
}
