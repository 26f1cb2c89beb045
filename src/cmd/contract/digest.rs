//! `accord contract digest FILE`

use std::path::PathBuf;

use clap::Args;

use crate::cmd::Outcome;
use crate::cmd::files::read_json;

#[derive(Debug, Args)]
pub struct DigestArgs {
    /// The contract (JSON) file. The digest is taken over the file's content
    /// as written (canonicalised), which is what the broker stores it by.
    pub file: PathBuf,
}

pub fn run(args: DigestArgs) -> anyhow::Result<Outcome> {
    let value = read_json(&args.file)?;
    println!("{}", accord_dsl::canonical::digest(&value));
    Ok(Outcome::Pass)
}
