//! `accord contract …`: work on contract files.

mod compile;
pub(crate) use compile::compile_spec_file;
mod digest;
mod lint;

use clap::Subcommand;

use super::Outcome;

#[derive(Debug, Subcommand)]
pub enum ContractCommand {
    /// Compile a spec (YAML, or JSON of the same shape) into a Pact V4 + Accord contract.
    ///
    /// JSON Schemas the spec names by path are read relative to the spec file.
    /// Errors name the file, line, column and field; nothing is written then.
    #[command(
        after_help = "Example:\n  accord contract compile examples/planning-agent.yaml -o planning-agent.json"
    )]
    Compile(compile::CompileArgs),
    /// Validate a contract (Pact specification 1 to 4, or Accord), list its
    /// interactions by type, its problems and its digest.
    ///
    /// Exit 0 without errors (warnings allowed), 1 with an error, 2 when the
    /// file cannot be read as a contract.
    #[command(after_help = "Example:\n  accord contract lint planning-agent.json --json")]
    Lint(lint::LintArgs),
    /// Print the sha256 digest of a contract's RFC 8785 canonical JSON.
    Digest(digest::DigestArgs),
}

pub fn run(cmd: ContractCommand) -> anyhow::Result<Outcome> {
    match cmd {
        ContractCommand::Compile(args) => compile::run(args),
        ContractCommand::Lint(args) => lint::run(args),
        ContractCommand::Digest(args) => digest::run(args),
    }
}
