//! The body of a published verification result and its validation into
//! the row to store.

use serde::Deserialize;
use serde_json::Value;

use crate::api::declarations::{self, Declaration};
use crate::api::findings::{self, Finding};
use crate::error::BrokerError;
use crate::metadata::PactMetadata;
use crate::names::{FreeText, VersionNumber};
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
}

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
}

impl TryFrom<VerificationRequest> for Publish {
    type Error = BrokerError;

    fn try_from(r: VerificationRequest) -> Result<Self, BrokerError> {
        let success = r
            .success
            .ok_or_else(|| BrokerError::bad_field("success", "is required (true or false)"))?;
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
