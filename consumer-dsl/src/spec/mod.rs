//! The hand-written spec language (YAML, or JSON of the same shape),
//! compiled into a contract.
//!
//! [`compile_spec`] parses the text into an [`ast::SpecDocument`] (unknown
//! keys and malformed values are refused with file, line, column and field
//! path), then lowers it into a [`Contract`]. The grammar and the inline
//! matcher syntax are documented in `docs/contract-format.md`.

pub mod ast;
mod ast_a2a;
mod ast_delegation;
mod ast_fields;
mod ast_forms;
mod ast_interaction;
mod ast_interaction_keys;
mod ast_values;
pub mod locate;
mod lower;
mod lower_a2a;
mod lower_a2a_flow;
mod lower_a2a_steps;
mod lower_capabilities;
mod lower_card;
mod lower_delegation;
mod lower_expect;
mod lower_http;
mod lower_mcp;
pub mod matcher;
mod matcher_generated;
mod matcher_kinds;
pub mod path;
pub mod resolver;
pub mod template;

pub use ast_forms::OneOrMany;
pub use ast_values::{CounterSpec, PrincipalSpec, StateName, StateSpec};
pub use lower::{MCP_VERSIONS, lower};
pub use path::PactPath;
pub use resolver::{NoSchemaFiles, ResolveError, SchemaResolver};
pub use template::{Compiled, Template};

use crate::{Contract, DslError};

/// Parses a spec (YAML, or JSON of the same shape) without lowering it.
pub fn parse_spec(text: &str, origin: &str) -> Result<ast::SpecDocument, DslError> {
    yaml_serde::from_str(text).map_err(|source| DslError::Spec {
        origin: origin.to_string(),
        source,
    })
}

/// Compiles a spec into a contract. `origin` names the spec in errors
/// (usually its file name); `resolver` loads JSON Schemas referred to by
/// path (use [`NoSchemaFiles`] when all schemas are inline).
pub fn compile_spec(
    text: &str,
    origin: &str,
    resolver: &dyn SchemaResolver,
) -> Result<Contract, DslError> {
    let doc = parse_spec(text, origin)?;
    let contract = lower(&doc, origin, resolver).map_err(|e| with_position(text, e))?;
    refuse_unjudgeable(&contract, origin).map_err(|e| with_position(text, e))?;
    Ok(contract)
}

/// The lint errors of expectations a verifier could only misjudge (a kind
/// of refusal the interaction cannot provoke, a `repeat` path that selects
/// nothing, a delegation constraint that cannot be checked), refused at compile time with the spec's field.
fn refuse_unjudgeable(contract: &Contract, origin: &str) -> Result<(), DslError> {
    const CODES: [&str; 5] = [
        "NEGATIVE_KIND_CONFLICT",
        "INVALID_REPEAT_PATH",
        "DELEGATION_TOOL_CONFLICT",
        "DELEGATION_COST_WITHOUT_COSTS",
        "DELEGATION_CREDENTIAL_UNPRESENTED",
    ];
    let Some(p) = crate::pact::lint(contract)
        .into_iter()
        .find(|p| CODES.contains(&p.code))
    else {
        return Ok(());
    };
    let path = lower_delegation::spec_path(
        &p.path
            .trim_start_matches("$.")
            .replace("sameFields", "same_fields"),
    );
    Err(DslError::Invalid {
        origin: origin.to_owned(),
        path,
        message: format!("{} ({})", p.message, p.code),
    })
}

/// Adds the file position to an error found after parsing.
fn with_position(text: &str, e: DslError) -> DslError {
    match e {
        DslError::Invalid {
            origin,
            path,
            message,
        } => match locate::locate(text, &path) {
            Some((line, column)) => DslError::SpecField {
                origin,
                path,
                line,
                column,
                message,
            },
            None => DslError::Invalid {
                origin,
                path,
                message,
            },
        },
        other => other,
    }
}

#[cfg(test)]
mod matcher_engine_tests;
#[cfg(test)]
mod matcher_tests;

#[cfg(test)]
mod spec_tests;
