//! `accord contract digest FILE`

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::cmd::Outcome;

#[derive(Debug, Args)]
pub struct DigestArgs {
    /// The contract (JSON) file.
    pub file: PathBuf,
}

pub fn run(args: DigestArgs) -> anyhow::Result<Outcome> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not valid JSON", args.file.display()))?;
    println!("{}", accord_dsl::canonical::digest(&value));
    Ok(Outcome::Pass)
}
