//! Reading one request, response or message of a given specification
//! version into the model.
//!
//! PLACEHOLDER: being written (issue 2, matching part). Signatures are fixed:
//! `request_from_json`, `response_from_json`, `message_from_json`, each
//! `(&serde_json::Value, PactSpec, origin path) -> Result<_, DslError>`.
