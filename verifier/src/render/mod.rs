//! Rendering a report for people and CI: one line per interaction, a
//! summary by consumer and by layer ([`text`]), and JUnit XML ([`junit`]).
//! The JSON form is the report's `Serialize`.

pub mod junit;
pub mod text;

pub use junit::junit;
pub use text::{interaction_line, summary};
