//! The credential an interaction presents, by its `auth` expectation.

use accord_dsl::model::InteractionMeta;
use accord_dsl::model::accord::Credential;
use serde_json::{Map, Value};

use crate::error::VerifyError;
use crate::replay::Context;

/// What an interaction presents as its credential.
pub enum Presented {
    /// The headers as written (and `--header`s).
    AsWritten,
    Bearer(String),
    /// No credential at all.
    Nothing,
}

/// The credential the interaction presents, by its `auth` expectation; a
/// token a setup reply returned (`tokens.<principal>`, then `token`;
/// `expiredToken`) wins over the configured one.
pub fn credential(
    cx: &Context,
    meta: &InteractionMeta,
    replies: &Map<String, Value>,
) -> Result<Presented, VerifyError> {
    let Some(auth) = &meta.expectations.auth else {
        return Ok(Presented::AsWritten);
    };
    let from_state = |key: &str| replies.get(key).and_then(Value::as_str).map(str::to_string);
    Ok(match auth.credential {
        Credential::None => Presented::Nothing,
        Credential::Invalid => Presented::Bearer("accord-invalid-credential".into()),
        Credential::Expired => match from_state("expiredToken") {
            Some(t) => Presented::Bearer(t),
            // never a made-up token: it would test nothing
            None => {
                return Err(VerifyError::NoExpiredCredential {
                    interaction: meta.description.clone(),
                });
            }
        },
        Credential::Valid => {
            // A tenant without a principal: the consumer's own credential.
            let Some(principal) = &auth.principal else {
                return Ok(Presented::AsWritten);
            };
            let configured = cx.principals.get(principal).map(|t| t.expose().to_string());
            let issued = replies
                .get("tokens")
                .and_then(|t| t.get(principal))
                .and_then(Value::as_str)
                .map(str::to_string);
            match issued.or_else(|| from_state("token")).or(configured) {
                Some(t) => Presented::Bearer(t),
                None => {
                    return Err(VerifyError::UnknownPrincipal {
                        interaction: meta.description.clone(),
                        principal: principal.clone(),
                    });
                }
            }
        }
    })
}
