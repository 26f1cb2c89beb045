//! The drift report: who (provider, version, environment), when (a time
//! window), the digests observed and counts of contract signals, with the
//! OpenTelemetry MCP semantic-convention names (`mcp.method.name`,
//! `gen_ai.tool.name`, `error.type`) for per-operation counts, so a
//! collector can forward them as they are. Every field is bounded and
//! unknown fields are refused by path.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::{BrokerError, FieldError};
use crate::names::{EnvironmentName, PacticipantName, VersionNumber};

/// At most this many profiles in `toolsDigests`.
pub const MAX_PROFILES: usize = 64;
/// At most this many entries in `observations`.
pub const MAX_OBSERVATIONS: usize = 1000;
/// Longest label (a profile, a method or tool name, an error type, a source).
pub const MAX_LABEL: usize = 256;

/// A contract signal a report counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Signal {
    OutputSchemaViolations,
    UnknownErrorCodes,
    ImpossibleTaskTransitions,
    AnnotationMismatches,
    WritesAfterCancel,
    CrossTenantAllows,
    ConsumerDecodeFailures,
}

/// Counts of each signal over the window (absent = 0).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Counts {
    pub output_schema_violations: u32,
    pub unknown_error_codes: u32,
    pub impossible_task_transitions: u32,
    pub annotation_mismatches: u32,
    pub writes_after_cancel: u32,
    pub cross_tenant_allows: u32,
    pub consumer_decode_failures: u32,
}

impl Counts {
    /// The count of `signal`.
    pub fn get(&self, signal: Signal) -> u32 {
        match signal {
            Signal::OutputSchemaViolations => self.output_schema_violations,
            Signal::UnknownErrorCodes => self.unknown_error_codes,
            Signal::ImpossibleTaskTransitions => self.impossible_task_transitions,
            Signal::AnnotationMismatches => self.annotation_mismatches,
            Signal::WritesAfterCancel => self.writes_after_cancel,
            Signal::CrossTenantAllows => self.cross_tenant_allows,
            Signal::ConsumerDecodeFailures => self.consumer_decode_failures,
        }
    }
}

/// A short name: 1 to [`MAX_LABEL`] characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Label(String);

impl Label {
    /// The label as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if text.is_empty() || text.chars().count() > MAX_LABEL {
            return Err(serde::de::Error::custom(format!(
                "must be 1 to {MAX_LABEL} characters"
            )));
        }
        if text.chars().any(char::is_control) {
            return Err(serde::de::Error::custom(
                "must not contain control characters",
            ));
        }
        Ok(Label(text))
    }
}

/// `sha256:` and 64 lower-case hex digits (RFC 8785 canonical JSON digest).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Digest(String);

impl Digest {
    /// The digest as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Digest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if crate::api::declarations::is_digest(&text) {
            Ok(Digest(text))
        } else {
            Err(serde::de::Error::custom(
                "must be sha256: and 64 lower-case hex digits",
            ))
        }
    }
}

/// Counts of one signal for one operation, by OpenTelemetry names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Observation {
    pub signal: Signal,
    pub count: u32,
    #[serde(
        default,
        rename = "mcp.method.name",
        skip_serializing_if = "Option::is_none"
    )]
    pub mcp_method_name: Option<Label>,
    #[serde(
        default,
        rename = "gen_ai.tool.name",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_name: Option<Label>,
    #[serde(
        default,
        rename = "error.type",
        skip_serializing_if = "Option::is_none"
    )]
    pub error_type: Option<Label>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<Label>,
}

/// The time window the report covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Window {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

/// `POST /drift-reports` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DriftReportRequest {
    pub provider: String,
    pub version: String,
    pub environment: String,
    pub window: Window,
    /// Who sent it (a router, gateway or sidecar name).
    #[serde(default)]
    pub source: Option<Label>,
    #[serde(default)]
    pub agent_card_digest: Option<Digest>,
    /// Profile → the digest of the `tools/list` seen as that profile.
    #[serde(default)]
    pub tools_digests: BTreeMap<Label, Digest>,
    #[serde(default)]
    pub counts: Counts,
    #[serde(default)]
    pub observations: Vec<Observation>,
}

/// A report that passed every check, its names parsed.
#[derive(Debug, Clone)]
pub struct DriftReport {
    pub provider: PacticipantName,
    pub version: VersionNumber,
    pub environment: EnvironmentName,
    pub request: DriftReportRequest,
}

impl TryFrom<DriftReportRequest> for DriftReport {
    type Error = BrokerError;

    /// Checks what serde cannot: the names, the window's order, the sizes.
    fn try_from(request: DriftReportRequest) -> Result<Self, BrokerError> {
        let field =
            |path: &str, e: crate::names::NameError| BrokerError::bad_field(path, e.to_string());
        let provider =
            PacticipantName::parse(&request.provider).map_err(|e| field("$.provider", e))?;
        let version = VersionNumber::parse(&request.version).map_err(|e| field("$.version", e))?;
        let environment =
            EnvironmentName::parse(&request.environment).map_err(|e| field("$.environment", e))?;
        let mut errors = Vec::new();
        if request.window.end < request.window.start {
            errors.push(FieldError::new(
                "$.window.end",
                "must not be before window.start",
            ));
        }
        if request.tools_digests.len() > MAX_PROFILES {
            let message = format!("at most {MAX_PROFILES} profiles");
            errors.push(FieldError::new("$.toolsDigests", message));
        }
        if request.observations.len() > MAX_OBSERVATIONS {
            let message = format!("at most {MAX_OBSERVATIONS} observations");
            errors.push(FieldError::new("$.observations", message));
        }
        if let Some(first) = errors.first() {
            return Err(BrokerError::BadRequest {
                detail: format!("{}: {}", first.field, first.message),
                errors,
            });
        }
        Ok(DriftReport {
            provider,
            version,
            environment,
            request,
        })
    }
}
