//! `accord contract digest FILE`

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use super::files::read_text;
use crate::cmd::Outcome;

#[derive(Debug, Args)]
pub struct DigestArgs {
    /// The contract (JSON) file. The digest is taken over the file's content
    /// as written (canonicalised), which is what the broker stores it by.
    pub file: PathBuf,
}

pub fn run(args: DigestArgs) -> anyhow::Result<Outcome> {
    let text = read_text(&args.file)?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not valid JSON", args.file.display()))?;
    println!("{}", accord_dsl::canonical::digest(&value));
    Ok(Outcome::Pass)
}
