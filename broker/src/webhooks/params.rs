//! The template parameters of an event: every `${pactbroker.*}` the Pact
//! Broker renders and Accord's `${accord.*}`, captured when the event
//! happens (in its transaction) and stored with the triggered webhook.
//! Parameters an event has no value for render as "".

use std::collections::BTreeMap;

use crate::db::AnyConnection;
use crate::hal::encode_segment;
use crate::metadata::PactMetadata;
use crate::store::StoreError;
use crate::store::pacticipants::Pacticipant;
use crate::store::versions::Version;
use crate::store::{branches, labels, tags};

/// Every parameter name (without `${}`).
pub const NAMES: [&str; 24] = [
    "pactbroker.pactUrl",
    "pactbroker.verificationResultUrl",
    "pactbroker.consumerName",
    "pactbroker.consumerVersionNumber",
    "pactbroker.consumerVersionBranch",
    "pactbroker.consumerVersionTags",
    "pactbroker.consumerLabels",
    "pactbroker.providerName",
    "pactbroker.providerVersionNumber",
    "pactbroker.providerVersionBranch",
    "pactbroker.providerVersionTags",
    "pactbroker.providerVersionDescriptions",
    "pactbroker.providerLabels",
    "pactbroker.githubVerificationStatus",
    "pactbroker.bitbucketVerificationStatus",
    "pactbroker.gitlabVerificationStatus",
    "pactbroker.azureDevOpsVerificationStatus",
    "pactbroker.eventName",
    "pactbroker.buildUrl",
    "pactbroker.currentlyDeployedProviderVersionNumber",
    "accord.environment",
    "accord.admissionState",
    "accord.driftAction",
    "accord.pactVersionSha",
];

/// The parameters of one event for one target, built up step by step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params(pub BTreeMap<String, String>);

impl Params {
    /// Every parameter empty, but the event name; commit statuses pending.
    pub fn new(event: &str) -> Params {
        let mut map: BTreeMap<String, String> = NAMES
            .iter()
            .map(|n| ((*n).to_string(), String::new()))
            .collect();
        map.insert("pactbroker.eventName".into(), event.into());
        let mut params = Params(map);
        params.verification_status(None);
        params
    }

    /// Sets one parameter (`name` without the `pactbroker.` prefix for
    /// Pact's; Accord's carry `accord.`).
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let key = if name.starts_with("accord.") {
            name.to_string()
        } else {
            format!("pactbroker.{name}")
        };
        self.0.insert(key, value.into());
    }

    /// The commit statuses for a result (`None`: not verified yet).
    pub fn verification_status(&mut self, success: Option<bool>) {
        let (github, bitbucket, gitlab, azure) = match success {
            Some(true) => ("success", "SUCCESSFUL", "success", "succeeded"),
            Some(false) => ("failure", "FAILED", "failed", "failed"),
            None => ("pending", "INPROGRESS", "pending", "pending"),
        };
        self.set("githubVerificationStatus", github);
        self.set("bitbucketVerificationStatus", bitbucket);
        self.set("gitlabVerificationStatus", gitlab);
        self.set("azureDevOpsVerificationStatus", azure);
    }

    /// The consumer and its version.
    pub fn consumer(
        &mut self,
        conn: &mut AnyConnection,
        consumer: &Pacticipant,
        version: &Version,
    ) -> Result<(), StoreError> {
        self.set("consumerName", consumer.name.clone());
        self.set("consumerVersionNumber", version.number.clone());
        self.set(
            "consumerVersionBranch",
            branches::names_for_version(conn, version.id)?.join(", "),
        );
        self.set("consumerVersionTags", tag_names(conn, version.id)?);
        self.set(
            "consumerLabels",
            labels::names_of(conn, consumer.id)?.join(", "),
        );
        Ok(())
    }

    /// The provider and, when the event has one, its version.
    pub fn provider(
        &mut self,
        conn: &mut AnyConnection,
        provider: &Pacticipant,
        version: Option<&Version>,
    ) -> Result<(), StoreError> {
        self.set("providerName", provider.name.clone());
        self.set(
            "providerLabels",
            labels::names_of(conn, provider.id)?.join(", "),
        );
        if let Some(v) = version {
            let branches = branches::names_for_version(conn, v.id)?;
            self.set("providerVersionNumber", v.number.clone());
            self.set("providerVersionBranch", branches.join(", "));
            self.set("providerVersionTags", tag_names(conn, v.id)?);
        }
        Ok(())
    }

    /// The pact permalink (`pact-version/{sha}/metadata/{m}`, the metadata
    /// naming the consumer version so a result published through it is
    /// stored for that version) and the content's sha.
    pub fn pact_url(
        &mut self,
        base: &str,
        consumer: &str,
        provider: &str,
        sha: &str,
        version: &Version,
    ) {
        let metadata = PactMetadata {
            consumer_version_ids: vec![version.id],
            consumer_version_numbers: vec![version.number.clone()],
            ..PactMetadata::default()
        };
        self.set(
            "pactUrl",
            format!(
                "{base}/pacts/provider/{}/consumer/{}/pact-version/{}/metadata/{}",
                encode_segment(provider),
                encode_segment(consumer),
                encode_segment(sha),
                metadata.encode()
            ),
        );
        self.set("accord.pactVersionSha", sha);
    }
}

fn tag_names(conn: &mut AnyConnection, version_id: i64) -> Result<String, StoreError> {
    Ok(tags::list_for_version(conn, version_id)?
        .into_iter()
        .map(|t| t.name)
        .collect::<Vec<_>>()
        .join(", "))
}
