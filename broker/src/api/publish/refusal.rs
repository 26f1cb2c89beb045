//! A publication's refusal as the HTTP error Pact clients expect: 409 with
//! Pact's text and the diff for changed content, 409 for a merge conflict,
//! 422 for a merged document that is not a valid contract.

use serde_json::{Map, Value, json};

use super::unprocessable;
use crate::error::{BrokerError, FieldError};
use crate::names::PacticipantName;
use crate::publishing::{PublishError, RecordedVersion};

/// Pact's 409 text for changed content.
pub fn changed_content_text(consumer: &str, version: &str, provider: &str) -> String {
    format!(
        "Cannot change the content of the pact for {consumer} version {version} and provider {provider}, \
         as race conditions will cause unreliable results for can-i-deploy. Each pact must be published \
         with a unique consumer version number. Some Pact libraries generate random data when a concrete \
         value for a type matcher is not specified, and this can cause the contract to mutate - ensure you \
         have given example values for all type matchers. For more information see https://docs.pact.io/go/versioning"
    )
}

/// A publishing failure as the HTTP error Pact clients expect.
pub fn publish_error(
    e: PublishError,
    recorded: &RecordedVersion,
    provider: &PacticipantName,
) -> BrokerError {
    let (consumer, version) = (&recorded.pacticipant.name, &recorded.version.number);
    match e {
        PublishError::Store(s) => s.into(),
        PublishError::ContentChanged { diff } => {
            let text = changed_content_text(consumer, version, provider.as_str());
            conflict(text, Some(format!("Changes to the pact:\n{diff}")))
        }
        PublishError::MergeConflict(m) => conflict(
            format!(
                "Cannot merge the pact for {consumer} version {version} and provider {provider}: {m}"
            ),
            None,
        ),
        PublishError::Refused(c) => unprocessable("content", &c.to_string()),
    }
}

fn conflict(text: String, info: Option<String>) -> BrokerError {
    let mut notices = vec![json!({"type": "error", "text": text})];
    notices.extend(info.map(|i| json!({"type": "info", "text": i})));
    let mut extra = Map::new();
    extra.insert("notices".into(), Value::Array(notices));
    BrokerError::Conflict {
        detail: text.clone(),
        errors: vec![FieldError::new("content", text)],
        extra,
    }
}
