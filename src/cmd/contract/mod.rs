//! `accord contract …`: work on contract files.

mod digest;

use clap::Subcommand;

use super::Outcome;

#[derive(Debug, Subcommand)]
pub enum ContractCommand {
    /// Print the sha256 digest of a contract's RFC 8785 canonical JSON.
    Digest(digest::DigestArgs),
}

pub fn run(cmd: ContractCommand) -> anyhow::Result<Outcome> {
    match cmd {
        ContractCommand::Digest(args) => digest::run(args),
    }
}
