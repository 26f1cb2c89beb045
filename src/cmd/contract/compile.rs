//! `accord contract compile SPEC -o FILE`: a hand-written spec (YAML or
//! JSON) compiled into a Pact V4 + Accord contract.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::Value;

use crate::cmd::Outcome;
use crate::cmd::files::{read_json, read_text, write_output};

#[derive(Debug, Args)]
pub struct CompileArgs {
    /// The spec file (YAML, or JSON of the same shape); see docs/contract-format.md.
    pub spec: PathBuf,
    /// Where to write the contract; `-` or omitted writes to standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Compiles the spec at `path`, its schema files read relative to it.
pub(crate) fn compile_spec_file(path: &Path) -> anyhow::Result<accord_dsl::Contract> {
    let text = read_text(path)?;
    let origin = path.display().to_string();
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let resolver = move |reference: &str| -> Result<Value, accord_dsl::spec::ResolveError> {
        read_json(&base.join(reference)).map_err(Into::into)
    };
    Ok(accord_dsl::spec::compile_spec(&text, &origin, &resolver)?)
}

pub fn run(args: CompileArgs) -> anyhow::Result<Outcome> {
    let origin = args.spec.display().to_string();
    let contract = compile_spec_file(&args.spec)?;
    let value = accord_dsl::pact::to_v4_json(&contract);
    write_output(
        args.output.as_deref(),
        &serde_json::to_string_pretty(&value)?,
    )?;
    let summary = accord_dsl::pact::summarize(&contract);
    let target = match args.output.as_deref() {
        Some(p) if p != Path::new("-") => p.display().to_string(),
        _ => "standard output".to_string(),
    };
    eprintln!(
        "compiled {origin}: {} interaction(s) for {} -> {} into {target}; digest {}",
        summary.total,
        contract.consumer.name,
        contract.provider.name,
        accord_dsl::canonical::digest(&value)
    );
    Ok(Outcome::Pass)
}
